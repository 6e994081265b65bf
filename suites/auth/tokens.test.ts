import { suite, conformance, type T } from '../../harness/index.js';
import {
  bodyAt,
  errorMessage,
  expectThat,
  lacksField,
  statusBetween,
  statusIs,
  success,
} from '../../harness/checks/index.js';
import { createUser, loggedIn, login, refused } from '../lib/auth.js';

const s = suite('auth');
const userpass = s.auth('userpass', { type: 'userpass' });
const kv = s.mount('secret', { type: 'kv', options: { version: '2' }, configKey: 'kv' });

/** A child token with the default policy; returns its id and accessor. */
async function childToken(t: T): Promise<{ token: string; accessor: string }> {
  // Set-up: how tokens are made is not what these tests check, so a refusal makes them not applicable.
  const ex = await t.svc.post('auth/token/create', { body: { policies: ['default'], ttl: '10m' } });
  t.precondition(ex, statusIs(200));
  const auth = (ex.response.body as { auth: { client_token: string; accessor: string } }).auth;
  t.secret(auth.client_token);
  t.track('child token', () => t.svc.post('auth/token/revoke', { body: { token: auth.client_token } }), 'revoke');
  return { token: auth.client_token, accessor: auth.accessor };
}

conformance(
  {
    id: 'auth.token.header',
    level: 'MUST',
    title: 'a client token in the token header authenticates GET /auth/token/lookup-self',
  },
  async (t) => {
    const child = await childToken(t);
    const ex = await t.svc.get('auth/token/lookup-self', { token: child.token });
    t.check(
      ex,
      statusIs(200),
      bodyAt('/data/accessor', child.accessor, `is the accessor of the token sent in ${t.config.dialect.tokenHeader}`),
    );
  },
);

conformance(
  {
    id: 'auth.token.bearer',
    level: 'MUST',
    title: 'a client token as Authorization: Bearer authenticates GET /auth/token/lookup-self',
  },
  async (t) => {
    const child = await childToken(t);
    const ex = await t.svc.get('auth/token/lookup-self', { token: child.token, bearer: true });
    t.check(ex, statusIs(200), bodyAt('/data/accessor', child.accessor, 'is the accessor of the bearer token'));
  },
);

conformance(
  {
    id: 'auth.token.bearer',
    level: 'MUST',
    title:
      'a client token as Authorization: Bearer authenticates writes, lists and deletes too (POST, LIST, DELETE /secret/...)',
  },
  async (t) => {
    const key = t.unique('bearer');
    t.check(
      await t.svc.post(`${kv.path}/data/dir/${key}`, { body: { data: { via: 'bearer' } }, bearer: true }),
      statusIs(200, 204),
    );
    t.check(
      await t.svc.list(`${kv.path}/metadata/dir`, { bearer: true }),
      statusIs(200),
      bodyAt('/data/keys', (v: unknown) => Array.isArray(v) && v.includes(key), `lists ${key}`),
    );
    t.check(await t.svc.delete(`${kv.path}/metadata/dir/${key}`, { bearer: true }), success);
    t.check(await t.svc.get(`${kv.path}/data/dir/${key}`), statusIs(404));
  },
);

conformance(
  {
    id: 'auth.token.required',
    level: 'MUST',
    title:
      'a LIST, a write and a delete without a client token are each refused (a 4xx with an error) and change nothing',
  },
  async (t) => {
    const key = t.unique('notoken');
    t.check(await t.svc.post(`${kv.path}/data/dir/${key}`, { body: { data: { a: '1' } } }), statusIs(200, 204));
    // With the token the directory lists, so the refusal without it says something.
    t.check(
      await t.svc.list(`${kv.path}/metadata/dir`),
      statusIs(200),
      bodyAt('/data/keys', (v: unknown) => Array.isArray(v) && v.includes(key), `lists ${key} with a token`),
    );
    const list = await t.svc.list(`${kv.path}/metadata/dir`, { token: null });
    t.check(list, statusBetween(400, 499), errorMessage, lacksField('/data/keys'));
    t.check(
      await t.svc.post(`${kv.path}/data/dir/${key}`, { body: { data: { a: '2' } }, token: null }),
      statusBetween(400, 499),
      errorMessage,
    );
    t.check(await t.svc.delete(`${kv.path}/data/dir/${key}`, { token: null }), statusBetween(400, 499), errorMessage);
    t.check(
      await t.svc.get(`${kv.path}/data/dir/${key}`),
      statusIs(200),
      bodyAt('/data/data/a', '1', 'is unchanged by the refused write and delete'),
    );
  },
);

conformance(
  {
    id: 'auth.token.required',
    level: 'MUST',
    title: 'GET /auth/token/lookup-self without a client token is refused (a 4xx with an error) and reads no token',
  },
  async (t) => {
    // The sentence gives no status: any client error refuses it (the real product answers 403).
    const ex = await t.svc.get('auth/token/lookup-self', { token: null });
    t.check(ex, statusBetween(400, 499), errorMessage, lacksField('/data/accessor'));
  },
);

conformance(
  {
    id: 'auth.token.invalid-refused',
    level: 'MUST',
    title: 'GET /auth/token/lookup-self with an unknown client token answers 403, in the header or as Bearer',
  },
  async (t) => {
    const bogus = `hvs.${'x'.repeat(24)}`;
    t.check(await t.svc.get('auth/token/lookup-self', { token: bogus }), statusIs(403), errorMessage);
    t.check(await t.svc.get('auth/token/lookup-self', { token: bogus, bearer: true }), statusIs(403), errorMessage);
  },
);

conformance(
  { id: 'auth.login.unauthenticated', level: 'MUST', title: 'POST /auth/userpass/login/:name needs no client token' },
  async (t) => {
    const u = await createUser(t, userpass);
    // Served without a client token; where the new token comes back is auth.login.returns-token's.
    t.check(await login(t, userpass, u.name, u.password), statusIs(200));
  },
);

conformance(
  {
    id: 'auth.login.returns-token',
    level: 'MUST',
    title: 'POST /auth/userpass/login/:name returns auth.client_token, which works on later requests',
  },
  async (t) => {
    const u = await createUser(t, userpass, ['default']);
    const token = loggedIn(await login(t, userpass, u.name, u.password), 'login');
    const self = await t.svc.get('auth/token/lookup-self', { token });
    t.check(
      self,
      statusIs(200),
      bodyAt('/data/policies', (v: unknown) => Array.isArray(v) && v.includes('default'), 'carries the user policies'),
    );
  },
);

conformance(
  {
    id: 'auth.login.wrong-password-refused',
    level: 'MUST',
    title:
      'POST /auth/userpass/login/:name with a wrong password is refused without a token, while the right one logs in',
  },
  async (t) => {
    const u = await createUser(t, userpass);
    // The right password logs in first: otherwise a refusal would tell nothing about the password.
    t.precondition(await login(t, userpass, u.name, u.password), statusIs(200));
    refused(await login(t, userpass, u.name, `${u.password}-wrong`), 'a wrong password');
    refused(await login(t, userpass, u.name, 'x'), 'a short wrong password');
  },
);

conformance(
  {
    id: 'auth.login.invalid-credentials',
    also: ['auth.login.wrong-password-refused'],
    level: 'MUST',
    title: 'POST /auth/userpass/login/:name with a wrong password answers 4xx without a token',
  },
  async (t) => {
    const u = await createUser(t, userpass);
    const ex = await login(t, userpass, u.name, `${u.password}-wrong`);
    // That it is refused without a token is the rule; which client error it gets is the assumption's.
    t.proving('auth.login.wrong-password-refused', () => refused(ex, 'wrong password'));
    t.check(ex, statusBetween(400, 403), errorMessage);
  },
);

conformance(
  {
    id: 'auth.write-only.user-password',
    level: 'SHOULD',
    title: 'GET /auth/userpass/users/:name does not return the password',
  },
  async (t) => {
    const u = await createUser(t, userpass);
    const ex = await t.svc.get(`${userpass.path}/users/${u.name}`);
    t.check(ex, success, lacksField('/data/password'));
    expectThat(
      !ex.response.text.includes(u.password),
      'write-only',
      '[present]',
      'absent',
      'the user read contains the password',
    );
  },
);
