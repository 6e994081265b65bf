/**
 * The general rules of "Endpoints > Conventions" and "Errors" tried on every kind of route, not
 * only a secrets engine's: the verbs, PUT as POST, LIST as GET ?list=true, the empty list, a body
 * without Content-Type, an unknown path, a period inside a name (issue 36: one code path per rule
 * is not the rule).
 */
import { conformance, suite, type T } from '../../harness/index.js';
import { bodyAt, errorsArray, statusIs, success } from '../../harness/checks/index.js';
import { createUser, password } from '../lib/auth.js';
import { writeV1 } from '../lib/secrets.js';

const s = suite('core');
const kv1 = s.mount('secret', { type: 'kv', options: { version: '1' }, configKey: 'kv1' });
const userpass = s.auth('userpass', { type: 'userpass' });

/** A user name of the test, removed after it (deleting a user that is gone already is harmless). */
function userName(t: T): string {
  const name = t.unique('user');
  t.track(`user ${name}`, () => t.svc.delete(`${userpass.path}/users/${name}`));
  return name;
}

/** A policy name of the test, removed after it. */
function policyName(t: T): string {
  const name = t.unique('pol');
  t.track(`policy ${name}`, () => t.svc.delete(`sys/policies/acl/${name}`));
  return name;
}

const listed = (name: string) => (v: unknown) => Array.isArray(v) && v.includes(name);

conformance(
  {
    id: 'core.verbs.supported',
    also: ['core.verbs.put-post-synonyms'],
    level: 'MUST',
    title: "POST, PUT, GET, LIST and DELETE are each served on /auth/userpass/users/:name (an auth method's route)",
  },
  async (t) => {
    const a = userName(t);
    const b = userName(t);
    t.check(await t.svc.post(`${userpass.path}/users/${a}`, { body: { password: password() } }), success);
    // PUT doing what POST does is core.verbs.put-post-synonyms'.
    t.as('core.verbs.put-post-synonyms').check(
      await t.svc.put(`${userpass.path}/users/${b}`, { body: { password: password() } }),
      success,
    );
    t.check(await t.svc.get(`${userpass.path}/users/${a}`), statusIs(200));
    t.check(await t.svc.list(`${userpass.path}/users`), statusIs(200), bodyAt('/data/keys', listed(a), `lists ${a}`));
    t.check(await t.svc.delete(`${userpass.path}/users/${a}`), success);
    t.check(await t.svc.get(`${userpass.path}/users/${a}`), statusIs(404));
  },
);

conformance(
  {
    id: 'core.verbs.supported',
    also: ['core.verbs.put-post-synonyms'],
    level: 'MUST',
    title: 'POST, PUT, GET, LIST and DELETE are each served on /sys/policies/acl/:name (a sys route)',
  },
  async (t) => {
    const a = policyName(t);
    const b = policyName(t);
    const text = (n: string) => `path "secret/data/${n}" { capabilities = ["read"] }`;
    t.check(await t.svc.post(`sys/policies/acl/${a}`, { body: { policy: text(a) } }), success);
    // PUT doing what POST does is core.verbs.put-post-synonyms'.
    t.as('core.verbs.put-post-synonyms').check(
      await t.svc.put(`sys/policies/acl/${b}`, { body: { policy: text(b) } }),
      success,
    );
    t.check(await t.svc.get(`sys/policies/acl/${a}`), statusIs(200));
    t.check(await t.svc.list('sys/policies/acl'), statusIs(200), bodyAt('/data/keys', listed(a), `lists ${a}`));
    t.check(await t.svc.delete(`sys/policies/acl/${a}`), success);
    t.check(await t.svc.get(`sys/policies/acl/${a}`), statusIs(404));
  },
);

conformance(
  {
    id: 'core.verbs.put-post-synonyms',
    level: 'MUST',
    title: 'PUT /auth/userpass/users/:name creates a user like POST, and PUT updates a POSTed one',
  },
  async (t) => {
    const viaPut = userName(t);
    t.check(
      await t.svc.put(`${userpass.path}/users/${viaPut}`, {
        body: { password: password(), token_policies: ['put-made'] },
      }),
      success,
    );
    t.check(
      await t.svc.get(`${userpass.path}/users/${viaPut}`),
      statusIs(200),
      bodyAt('/data/token_policies', listed('put-made'), 'holds the policy written with PUT'),
    );
    const viaPost = userName(t);
    // The user PUT updates is made with POST first (set-up: that POST works is core.verbs.supported').
    t.precondition(
      await t.svc.post(`${userpass.path}/users/${viaPost}`, {
        body: { password: password(), token_policies: ['post-made'] },
      }),
      success,
    );
    t.check(
      await t.svc.put(`${userpass.path}/users/${viaPost}`, { body: { token_policies: ['put-changed'] } }),
      success,
    );
    t.check(
      await t.svc.get(`${userpass.path}/users/${viaPost}`),
      statusIs(200),
      bodyAt('/data/token_policies', listed('put-changed'), 'holds the policy updated with PUT'),
    );
  },
);

conformance(
  {
    id: 'core.list.verb-equals-query',
    also: ['core.verbs.supported'],
    level: 'MUST',
    title: 'GET /sys/policies/acl?list=true lists the policies as LIST does (a sys route)',
  },
  async (t) => {
    const name = policyName(t);
    t.check(
      await t.svc.post(`sys/policies/acl/${name}`, {
        body: { policy: 'path "secret/data/q" { capabilities = ["read"] }' },
      }),
      success,
    );
    const verb = await t.svc.list('sys/policies/acl');
    const query = await t.svc.list('sys/policies/acl', { listVia: 'query' });
    // What the LIST verb answers is core.verbs.supported'; that ?list=true answers the same, this rule.
    t.as('core.verbs.supported').check(verb, statusIs(200), bodyAt('/data/keys', listed(name), `lists ${name}`));
    t.check(query, statusIs(200), bodyAt('/data/keys', listed(name), `lists ${name}, as the LIST verb does`));
  },
);

conformance(
  {
    id: 'core.list.verb-equals-query',
    also: ['core.verbs.supported'],
    level: 'MUST',
    title: "GET /auth/userpass/users?list=true lists the users as LIST does (an auth method's route)",
  },
  async (t) => {
    const { name } = await createUser(t, userpass);
    const verb = await t.svc.list(`${userpass.path}/users`);
    const query = await t.svc.list(`${userpass.path}/users`, { listVia: 'query' });
    // What the LIST verb answers is core.verbs.supported'; that ?list=true answers the same, this rule.
    t.as('core.verbs.supported').check(verb, statusIs(200), bodyAt('/data/keys', listed(name), `lists ${name}`));
    t.check(query, statusIs(200), bodyAt('/data/keys', listed(name), `lists ${name}, as the LIST verb does`));
  },
);

conformance(
  {
    id: 'core.list.empty-404',
    level: 'MUST',
    title:
      "LIST /auth/:mount/users of a username/password method with no users answers 404 with {errors: []} (an auth method's route)",
  },
  async (t) => {
    const path = t.unique('noone');
    t.precondition(await t.svc.post(`sys/auth/${path}`, { body: { type: 'userpass' } }), success);
    t.track(`auth ${path}`, () => t.svc.delete(`sys/auth/${path}`), 'unmount');
    const ex = await t.svc.list(`auth/${path}/users`, { validate: false });
    t.check(ex, statusIs(404), bodyAt('', { errors: [] }, 'is exactly {errors: []}'));
  },
);

conformance(
  {
    id: 'core.list.empty-404',
    level: 'MUST',
    requires: ['namespaces'],
    title:
      'LIST /sys/namespaces inside a namespace with no child namespace answers 404 with {errors: []} (a sys route)',
  },
  async (t) => {
    const ns = t.unique('ns');
    t.precondition(await t.svc.post(`sys/namespaces/${ns}`, { body: {}, namespace: null }), statusIs(200, 204));
    t.track(`namespace ${ns}`, () => t.svc.delete(`sys/namespaces/${ns}`, { namespace: null }), 'unmount');
    const ex = await t.svc.list('sys/namespaces', { namespace: ns });
    t.check(ex, statusIs(404), bodyAt('', { errors: [] }, 'is exactly {errors: []}'));
  },
);

conformance(
  {
    id: 'core.content-type.not-required',
    level: 'MUST',
    title: 'PUT /secret/:path with a JSON body and no Content-Type is accepted, as POST is',
  },
  async (t) => {
    const key = t.unique('noctput');
    t.check(await t.svc.put(`${kv1.path}/${key}`, { rawBody: JSON.stringify({ colour: 'teal' }) }), success);
    t.check(
      await t.svc.get(`${kv1.path}/${key}`),
      statusIs(200),
      bodyAt('/data/colour', 'teal', 'is the field sent with PUT without Content-Type'),
    );
  },
);

conformance(
  { id: 'core.path.unknown-404', level: 'MUST', title: 'GET /sys/:path of a sys path no route serves answers 404' },
  async (t) => {
    const ex = await t.svc.get(`sys/${t.unique('nosuch')}`, { validate: false });
    t.check(ex, statusIs(404), errorsArray);
  },
);

conformance(
  {
    id: 'core.path.trailing-period-404',
    level: 'MUST',
    title:
      'POST /secret/:path with a period inside its last segment (app.config) is served: only a trailing period is refused',
  },
  async (t) => {
    const key = `${t.unique('dot')}/app.config`;
    await writeV1(t, kv1, key, { a: '1' });
    t.check(
      await t.svc.get(`${kv1.path}/${key}`),
      statusIs(200),
      bodyAt('/data/a', '1', 'is the secret stored under a name holding a period'),
    );
  },
);
