import { suite, conformance } from '../../harness/index.js';
import { bodyAt, expectThat, statusIs, success } from '../../harness/checks/index.js';
import { targetConfig, type Exchange } from '../../harness/index.js';
import {
  accessorOf,
  createUser,
  failLogins,
  loggedIn,
  login,
  longTimeout,
  password,
  refused,
  waitLockout,
} from '../lib/auth.js';

const s = suite('auth');
const userpass = s.auth('userpass', { type: 'userpass' });
/** A second username/password method: a user of the same name there is another user. */
const otherUserpass = s.auth('userpass', { type: 'userpass' });
const L = targetConfig().lockout;
const atDefaults = L.threshold === 5 && L.durationSeconds === 900 && L.resetSeconds === 900;
const timeoutMs = longTimeout(L);

conformance(
  {
    id: 'auth.lockout.threshold',
    also: [
      'auth.lockout.locked-refused',
      'auth.lockout.on-by-default',
      ...(atDefaults ? ['auth.lockout.defaults'] : []),
    ],
    level: 'MUST',
    title: `POST /auth/userpass/login/:name refuses the right password after ${L.threshold} invalid attempts`,
  },
  async (t) => {
    const u = await createUser(t, userpass);
    await failLogins(t, userpass, u.name, L.threshold);
    refused(await login(t, userpass, u.name, u.password), 'right password after the threshold of invalid attempts');
  },
);

conformance(
  {
    id: 'auth.lockout.below-threshold',
    level: 'MUST',
    title: `POST /auth/userpass/login/:name accepts the right password after ${L.threshold - 1} invalid attempts`,
  },
  async (t) => {
    const u = await createUser(t, userpass);
    await failLogins(t, userpass, u.name, L.threshold - 1);
    loggedIn(await login(t, userpass, u.name, u.password), 'right password below the threshold');
  },
);

conformance(
  {
    id: 'auth.lockout.locked-refused',
    level: 'MUST',
    title: 'a locked user is not validated: the right password gets no token while the lock lasts',
  },
  async (t) => {
    const u = await createUser(t, userpass);
    await failLogins(t, userpass, u.name, L.threshold);
    refused(await login(t, userpass, u.name, u.password), 'right password of a locked user');
    refused(await login(t, userpass, u.name, u.password), 'right password of a locked user, asked again');
  },
);

/** The answer the documents rule out for a locked user: 403 permission denied. */
function notPermissionDenied(ex: Exchange, what: string): void {
  const errors = (ex.response.body as { errors?: unknown } | undefined)?.errors;
  const denied =
    ex.response.status === 403 && Array.isArray(errors) && errors.some((e) => /permission denied/i.test(String(e)));
  expectThat(
    !denied,
    'lockout-answer',
    {
      status: ex.response.status,
      errors,
    },
    'any other refusal',
    `${what} was answered permission denied`,
  );
}

conformance(
  {
    id: 'auth.lockout.not-permission-denied',
    level: 'MUST',
    title: "a locked user's logins are ignored, not answered 403 permission denied",
  },
  async (t) => {
    const u = await createUser(t, userpass);
    await failLogins(t, userpass, u.name, L.threshold);
    const right = await login(t, userpass, u.name, u.password);
    refused(right, 'right password of a locked user');
    notPermissionDenied(right, "a locked user's login with the right password");
    const wrong = await login(t, userpass, u.name, `wrong-${u.password}`);
    refused(wrong, 'wrong password of a locked user');
    notPermissionDenied(wrong, "a locked user's login with a wrong password");
  },
);

conformance(
  {
    id: 'auth.lockout.duration',
    also: atDefaults ? ['auth.lockout.defaults'] : [],
    level: 'MUST',
    title: `a locked user is refused until shortly before ${L.durationSeconds}s after the lock began, and logs in again after`,
    movesClock: 'past the lockout duration',
    timeoutMs,
  },
  async (t) => {
    const u = await createUser(t, userpass);
    await failLogins(t, userpass, u.name, L.threshold);
    const early = Math.max(0, L.durationSeconds - 30);
    await waitLockout(t, early);
    refused(await login(t, userpass, u.name, u.password), `right password ${early}s into the lock`);
    await waitLockout(t, L.durationSeconds + 1 - early);
    loggedIn(await login(t, userpass, u.name, u.password), 'right password after the lockout duration');
  },
);

conformance(
  {
    id: 'auth.lockout.reset-window',
    also: atDefaults ? ['auth.lockout.defaults'] : [],
    level: 'MUST',
    title: `invalid attempts older than the ${L.resetSeconds}s counter reset window do not count towards the threshold`,
    movesClock: 'past the counter reset window',
    timeoutMs,
  },
  async (t) => {
    const u = await createUser(t, userpass);
    await failLogins(t, userpass, u.name, L.threshold - 1);
    await waitLockout(t, L.resetSeconds + 1);
    await failLogins(t, userpass, u.name, L.threshold - 1);
    loggedIn(
      await login(t, userpass, u.name, u.password),
      'right password after two bursts separated by the reset window',
    );
  },
);

conformance(
  {
    id: 'auth.lockout.reset-window',
    also: atDefaults ? ['auth.lockout.defaults'] : [],
    level: 'MUST',
    title: `invalid attempts made shortly before the ${L.resetSeconds}s counter reset window ends still count towards the threshold`,
    movesClock: 'to shortly before the end of the reset window',
    timeoutMs,
  },
  async (t) => {
    const u = await createUser(t, userpass);
    await failLogins(t, userpass, u.name, L.threshold - 1);
    await waitLockout(t, Math.max(0, L.resetSeconds - 30));
    await failLogins(t, userpass, u.name, 1);
    refused(
      await login(t, userpass, u.name, u.password),
      `right password after ${L.threshold} invalid attempts, the last ${Math.max(0, L.resetSeconds - 30)}s after the others`,
    );
  },
);

conformance(
  {
    id: 'auth.lockout.reset-window',
    also: atDefaults ? ['auth.lockout.defaults'] : [],
    level: 'MUST',
    title: `the ${L.resetSeconds}s counter reset window runs from the last invalid attempt: attempts spread wider than the window, no gap as long as it, still lock`,
    movesClock: 'twice by two thirds of the counter reset window',
    timeoutMs,
  },
  async (t) => {
    const u = await createUser(t, userpass);
    const gap = Math.floor((L.resetSeconds * 2) / 3);
    await failLogins(t, userpass, u.name, 1);
    await waitLockout(t, gap);
    await failLogins(t, userpass, u.name, L.threshold - 2);
    await waitLockout(t, gap);
    await failLogins(t, userpass, u.name, 1);
    refused(
      await login(t, userpass, u.name, u.password),
      `right password after ${L.threshold} invalid attempts spread over ${2 * gap}s, no gap reaching ${L.resetSeconds}s`,
    );
  },
);

conformance(
  { id: 'auth.lockout.per-user', level: 'MUST', title: 'a locked user does not lock other users of the same mount' },
  async (t) => {
    const locked = await createUser(t, userpass);
    const other = await createUser(t, userpass);
    await failLogins(t, userpass, locked.name, L.threshold);
    refused(await login(t, userpass, locked.name, locked.password), 'the locked user');
    loggedIn(await login(t, userpass, other.name, other.password), 'another user of the mount');
  },
);

conformance(
  {
    id: 'auth.lockout.per-user',
    level: 'MUST',
    title: 'a locked user does not lock the user of the same name on another username/password method',
  },
  async (t) => {
    const u = await createUser(t, userpass);
    const pw = password();
    t.secret(pw);
    t.precondition(await t.svc.post(`${otherUserpass.path}/users/${u.name}`, { body: { password: pw } }), success);
    t.track(`user ${u.name} of the other method`, () => t.svc.delete(`${otherUserpass.path}/users/${u.name}`));
    await failLogins(t, userpass, u.name, L.threshold);
    refused(await login(t, userpass, u.name, u.password), 'the locked user');
    loggedIn(await login(t, otherUserpass, u.name, pw), 'the user of the same name on the other method');
  },
);

conformance(
  {
    id: 'auth.lockout.success-resets-counter',
    level: 'SHOULD',
    title: 'a successful login resets the invalid-attempt counter',
  },
  async (t) => {
    const u = await createUser(t, userpass);
    await failLogins(t, userpass, u.name, L.threshold - 1);
    loggedIn(await login(t, userpass, u.name, u.password), 'right password below the threshold');
    await failLogins(t, userpass, u.name, L.threshold - 1);
    loggedIn(await login(t, userpass, u.name, u.password), 'right password after a success and more invalid attempts');
  },
);

conformance(
  {
    id: 'auth.lockout.list-locked-users',
    level: 'SHOULD',
    title: 'GET /sys/locked-users lists a locked user under its auth mount accessor',
  },
  async (t) => {
    const u = await createUser(t, userpass);
    const free = await createUser(t, userpass);
    await failLogins(t, userpass, u.name, L.threshold);
    const accessor = await accessorOf(t, userpass);
    const ex = await t.svc.get('sys/locked-users');
    t.check(ex, statusIs(200));
    const data = (
      ex.response.body as {
        data?: { by_namespace?: { mount_accessors?: { mount_accessor: string; alias_identifiers?: string[] }[] }[] };
      }
    ).data;
    const ids = (data?.by_namespace ?? [])
      .flatMap((n) => n.mount_accessors ?? [])
      .filter((m) => m.mount_accessor === accessor)
      .flatMap((m) => m.alias_identifiers ?? []);
    t.check(
      ex,
      bodyAt('/data/by_namespace', () => ids.includes(u.name), `lists ${u.name} under ${accessor}`),
    );
    t.check(
      ex,
      bodyAt('/data/by_namespace', () => !ids.includes(free.name), `does not list the unlocked ${free.name}`),
    );
    const filtered = await t.svc.get('sys/locked-users', { query: { mount_accessor: accessor } });
    t.check(
      filtered,
      statusIs(200),
      bodyAt('/data/total', (v: unknown) => typeof v === 'number' && v >= 1, 'counts the locked user'),
    );
  },
);

conformance(
  {
    id: 'auth.lockout.unlock-endpoint',
    level: 'SHOULD',
    title: 'POST /sys/locked-users/:mount_accessor/unlock/:alias_identifier unlocks a locked user at once',
  },
  async (t) => {
    const u = await createUser(t, userpass);
    await failLogins(t, userpass, u.name, L.threshold);
    refused(await login(t, userpass, u.name, u.password), 'right password while locked');
    const accessor = await accessorOf(t, userpass);
    t.check(await t.svc.post(`sys/locked-users/${accessor}/unlock/${u.name}`), success);
    loggedIn(await login(t, userpass, u.name, u.password), 'right password after the unlock');
  },
);

conformance(
  {
    id: 'auth.lockout.unlock-endpoint',
    level: 'SHOULD',
    title: 'POST /sys/locked-users/:mount_accessor/unlock/:alias_identifier succeeds for a user that is not locked',
  },
  async (t) => {
    const u = await createUser(t, userpass);
    const accessor = await accessorOf(t, userpass);
    t.check(await t.svc.post(`sys/locked-users/${accessor}/unlock/${u.name}`), success);
    loggedIn(await login(t, userpass, u.name, u.password), 'right password after a no-op unlock');
  },
);
