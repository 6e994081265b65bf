// size: 19 tests of the library set lifecycle (sets, check-out, check-in, TTLs) of one path family.
import { conformance, type T } from '../../harness/index.js';
import {
  bodyAt,
  clientError,
  denied,
  errorMessage,
  expectThat,
  statusIs,
  success,
} from '../../harness/checks/index.js';
import {
  account,
  ALL_CAPS,
  data,
  durationOf,
  expectBinds,
  expectNoBind,
  ldapSuite,
  leaseId,
  LONG,
  revokeLease,
  tokenWith,
  type Account,
} from './helpers.js';

const { mount } = ldapSuite();
const setPath = (name: string) => `${mount.path}/library/${name}`;

async function createSet(
  t: T,
  accounts: Account[],
  extra: Record<string, unknown> = {},
  base = 'set',
): Promise<string> {
  const name = t.unique(base);
  t.check(
    await t.svc.post(setPath(name), {
      body: { service_account_names: accounts.map((a) => a.cn), ttl: LONG, max_ttl: LONG, ...extra },
    }),
    success,
  );
  t.track(`library set ${name}`, () => t.svc.delete(setPath(name)));
  return name;
}

/** A token that may use the set's paths but not the manage path. */
async function borrower(t: T): Promise<string> {
  return tokenWith(t, { [`${mount.path}/library/*`]: ALL_CAPS, [`${mount.path}/library/manage/*`]: ['deny'] });
}

async function checkOut(t: T, set: string, token?: string, body: Record<string, unknown> = {}) {
  const ex = t.check(
    await t.svc.post(`${setPath(set)}/check-out`, { body, ...(token ? { token } : {}) }),
    statusIs(200),
  );
  const lease = leaseId(ex);
  t.track('check-out lease', () => revokeLease(t, lease), 'revoke');
  const d = data<{ service_account_name: string; password: string }>(ex);
  return { ex, lease, name: d.service_account_name, password: d.password };
}

async function statusOf(t: T, set: string, acct: string): Promise<Record<string, unknown>> {
  const ex = t.check(await t.svc.get(`${setPath(set)}/status`), statusIs(200));
  return (data(ex)[acct] ?? {}) as Record<string, unknown>;
}

async function expectAvailable(t: T, set: string, acct: string, available: boolean, what: string): Promise<void> {
  const st = await statusOf(t, set, acct);
  expectThat(
    st.available === available,
    'status',
    `${what}: status of ${acct} is ${available ? 'available' : 'checked out'}`,
    available,
    st.available,
  );
}

const checkIns = (ex: Awaited<ReturnType<T['svc']['post']>>) => (data(ex).check_ins ?? []) as string[];

conformance(
  {
    id: 'ldap.library.create-read',
    level: 'MUST',
    title: 'POST /ldap/library/:set stores the set and GET returns its fields',
  },
  async (t) => {
    const a = await account(t);
    const b = await account(t);
    const set = await createSet(t, [a, b], { ttl: '1h', max_ttl: '2h', disable_check_in_enforcement: true });
    const read = t.check(await t.svc.get(setPath(set)), statusIs(200));
    t.check(
      read,
      bodyAt(
        '/data/service_account_names',
        (v: unknown) => Array.isArray(v) && v.length === 2 && v.includes(a.cn) && v.includes(b.cn),
        'lists both accounts',
      ),
      bodyAt('/data/ttl', durationOf(3600), 'is the ttl written (1h)'),
      bodyAt('/data/max_ttl', durationOf(7200), 'is the max_ttl written (2h)'),
      bodyAt('/data/disable_check_in_enforcement', true, 'is the flag written'),
    );
  },
);

conformance(
  {
    id: 'ldap.library.defaults',
    level: 'MUST',
    title: 'A library set without ttl, max_ttl or enforcement flag reads back 24h, 24h and false',
  },
  async (t) => {
    const a = await account(t);
    const name = t.unique('defaults');
    t.check(await t.svc.post(setPath(name), { body: { service_account_names: a.cn } }), success);
    t.track(`library set ${name}`, () => t.svc.delete(setPath(name)));
    t.check(
      await t.svc.get(setPath(name)),
      statusIs(200),
      bodyAt('/data/ttl', durationOf(86400), 'is 24h'),
      bodyAt('/data/max_ttl', durationOf(86400), 'is 24h'),
      bodyAt('/data/disable_check_in_enforcement', false, 'is false'),
    );
  },
);

conformance(
  {
    id: 'ldap.library.hierarchical-list',
    level: 'MUST',
    title: 'LIST /ldap/library shows a nested set as "<top>/" and LIST of that level shows its name',
  },
  async (t) => {
    const a = await account(t);
    const top = t.unique('grp');
    const leaf = t.unique('leaf');
    t.check(
      await t.svc.post(setPath(`${top}/${leaf}`), {
        body: { service_account_names: [a.cn], ttl: LONG, max_ttl: LONG },
      }),
      success,
    );
    t.track('nested set', () => t.svc.delete(setPath(`${top}/${leaf}`)));
    t.check(
      await t.svc.list(`${mount.path}/library`),
      statusIs(200),
      bodyAt('/data/keys', (v: unknown) => Array.isArray(v) && v.includes(`${top}/`), `contains "${top}/"`),
    );
    t.check(
      await t.svc.list(setPath(top)),
      statusIs(200),
      bodyAt('/data/keys', (v: unknown) => Array.isArray(v) && v.includes(leaf), `contains "${leaf}"`),
    );
  },
);

conformance(
  {
    id: 'ldap.library.accounts-must-exist',
    level: 'MUST',
    title: 'POST /ldap/library/:set naming an account absent from the directory returns 400',
  },
  async (t) => {
    t.check(
      await t.svc.post(setPath(t.unique('ghost')), { body: { service_account_names: [t.unique('nobody')] } }),
      clientError,
      errorMessage,
    );
  },
);

conformance(
  {
    id: 'ldap.library.one-set-only',
    level: 'MUST',
    title: 'POST /ldap/library/:set with an account of another set returns 400',
  },
  async (t) => {
    const a = await account(t);
    await createSet(t, [a]);
    const other = t.unique('second');
    const ex = await t.svc.post(setPath(other), { body: { service_account_names: [a.cn] } });
    if (ex.response.status < 400) t.track('second set', () => t.svc.delete(setPath(other)));
    t.check(ex, clientError, errorMessage);
  },
);

conformance(
  {
    id: 'ldap.library.checkout',
    level: 'MUST',
    title: 'State available -> checked out: POST check-out returns a renewable lease and a password that binds',
  },
  async (t) => {
    const a = await account(t);
    const set = await createSet(t, [a]);
    const co = await checkOut(t, set);
    t.check(
      co.ex,
      bodyAt('/renewable', true, 'is true'),
      bodyAt('/data/service_account_name', a.cn, 'is the only account'),
    );
    expectThat(co.lease !== '', 'lease', 'check-out creates a lease', 'a lease id', '');
    await expectBinds(t, a.dn, co.password, 'the checked-out password');
    await expectAvailable(t, set, a.cn, false, 'after check-out');
  },
);

conformance(
  {
    id: 'ldap.library.checkout-none-available-400',
    level: 'MUST',
    title: 'State available -> available: POST check-out with no free account returns 400',
  },
  async (t) => {
    const a = await account(t);
    const set = await createSet(t, [a]);
    await checkOut(t, set);
    const second = await t.svc.post(`${setPath(set)}/check-out`, { body: {} });
    if (second.response.status === 200) t.track('second lease', () => revokeLease(t, leaseId(second)), 'revoke');
    t.check(second, statusIs(400), errorMessage);
  },
);

conformance(
  {
    id: 'ldap.library.checkin',
    level: 'MUST',
    title: 'State checked out -> available: POST check-in by the borrower lists the account in check_ins',
  },
  async (t) => {
    const a = await account(t);
    const set = await createSet(t, [a]);
    const token = await borrower(t);
    await checkOut(t, set, token);
    const ex = t.check(
      await t.svc.post(`${setPath(set)}/check-in`, { body: { service_account_names: [a.cn] }, token }),
      statusIs(200),
    );
    expectThat(checkIns(ex).includes(a.cn), 'check_ins', 'the account is listed in check_ins', [a.cn], checkIns(ex));
    await expectAvailable(t, set, a.cn, true, 'after check-in');
  },
);

conformance(
  {
    id: 'ldap.library.checkin-rotates',
    level: 'MUST',
    title: 'After check-in the borrowed password no longer opens the account',
  },
  async (t) => {
    const a = await account(t);
    const set = await createSet(t, [a]);
    const co = await checkOut(t, set);
    t.check(await t.svc.post(`${setPath(set)}/check-in`, { body: { service_account_names: [a.cn] } }), statusIs(200));
    await expectNoBind(t, a.dn, co.password, 'the password of the returned check-out');
  },
);

conformance(
  {
    id: 'ldap.library.checkin-body-optional',
    level: 'MUST',
    title: 'POST check-in without service_account_names checks in the one account the caller holds',
  },
  async (t) => {
    const a = await account(t);
    const set = await createSet(t, [a]);
    await checkOut(t, set);
    const ex = t.check(await t.svc.post(`${setPath(set)}/check-in`, { body: {} }), statusIs(200));
    expectThat(
      checkIns(ex).includes(a.cn),
      'check_ins',
      'the single checked-out account is checked in',
      [a.cn],
      checkIns(ex),
    );
  },
);

conformance(
  {
    id: 'ldap.library.checkin-manage',
    level: 'MUST',
    title: 'State checked out -> available: POST manage/:set/check-in by a privileged caller forces check-in',
  },
  async (t) => {
    const a = await account(t);
    const set = await createSet(t, [a]);
    const token = await borrower(t);
    await checkOut(t, set, token);
    const ex = t.check(
      await t.svc.post(`${mount.path}/library/manage/${set}/check-in`, { body: { service_account_names: [a.cn] } }),
      statusIs(200),
    );
    expectThat(checkIns(ex).includes(a.cn), 'check_ins', 'the forced check-in lists the account', [a.cn], checkIns(ex));
    await expectAvailable(t, set, a.cn, true, 'after forced check-in');
  },
);

conformance(
  {
    id: 'ldap.library.checkin-manage-acl',
    level: 'MUST',
    title:
      'POST manage/:set/check-in by a caller without access to the manage path is refused (403, or 404 hiding the path)',
  },
  async (t) => {
    const a = await account(t);
    const set = await createSet(t, [a]);
    const token = await borrower(t);
    await checkOut(t, set, token);
    t.check(
      await t.svc.post(`${mount.path}/library/manage/${set}/check-in`, {
        body: { service_account_names: [a.cn] },
        token,
      }),
      denied,
      errorMessage,
    );
    await expectAvailable(t, set, a.cn, false, 'after a refused forced check-in');
  },
);

conformance(
  {
    id: 'ldap.library.checkin-unauthorized',
    level: 'MUST',
    title: 'State checked out -> checked out: POST check-in by another caller answers an error',
  },
  async (t) => {
    const a = await account(t);
    const set = await createSet(t, [a]);
    const owner = await borrower(t);
    const other = await borrower(t);
    const co = await checkOut(t, set, owner);
    t.check(
      await t.svc.post(`${setPath(set)}/check-in`, { body: { service_account_names: [a.cn] }, token: other }),
      clientError,
      errorMessage,
    );
    await expectAvailable(t, set, a.cn, false, 'after a refused check-in');
    await expectBinds(t, a.dn, co.password, 'the borrower still holds a working password');
  },
);

conformance(
  {
    id: 'ldap.library.checkin-available',
    level: 'MUST',
    title: 'State available -> available: POST check-in of an available account succeeds without listing it',
  },
  async (t) => {
    const a = await account(t);
    const set = await createSet(t, [a]);
    const ex = t.check(
      await t.svc.post(`${setPath(set)}/check-in`, { body: { service_account_names: [a.cn] } }),
      statusIs(200),
    );
    expectThat(!checkIns(ex).includes(a.cn), 'check_ins', 'an available account is not listed', [], checkIns(ex));
    await expectAvailable(t, set, a.cn, true, 'after checking in an available account');
  },
);

conformance(
  {
    id: 'ldap.library.checkin-disabled-enforcement',
    level: 'MUST',
    title: 'With disable_check_in_enforcement another caller may check in',
  },
  async (t) => {
    const a = await account(t);
    const set = await createSet(t, [a], { disable_check_in_enforcement: true });
    const owner = await borrower(t);
    const other = await borrower(t);
    await checkOut(t, set, owner);
    const ex = t.check(
      await t.svc.post(`${setPath(set)}/check-in`, { body: { service_account_names: [a.cn] }, token: other }),
      statusIs(200),
    );
    expectThat(
      checkIns(ex).includes(a.cn),
      'check_ins',
      'the account is checked in by another caller',
      [a.cn],
      checkIns(ex),
    );
  },
);

conformance(
  {
    id: 'ldap.library.status',
    level: 'MUST',
    title: 'GET /ldap/library/:set/status shows available accounts and the borrower of a checked-out one',
  },
  async (t) => {
    const a = await account(t);
    const b = await account(t);
    const set = await createSet(t, [a, b]);
    const co = await checkOut(t, set);
    const free = co.name === a.cn ? b.cn : a.cn;
    const busy = await statusOf(t, set, co.name);
    // borrower_entity_id names the borrower's entity; the root token that checked out here may have
    // none, so the field may be absent (it must be a string when present).
    const entityOk = busy.borrower_entity_id === undefined || typeof busy.borrower_entity_id === 'string';
    expectThat(
      busy.available === false &&
        typeof busy.borrower_client_token === 'string' &&
        busy.borrower_client_token !== '' &&
        entityOk,
      'status',
      'the checked-out account names its borrower',
      'available false, borrower_client_token, borrower_entity_id a string when present',
      busy,
    );
    await expectAvailable(t, set, free, true, 'the other account');
  },
);

conformance(
  {
    id: 'ldap.library.checkout-ttl-capped',
    level: 'MUST',
    title: 'A check-out ttl above the set ttl is capped to the set ttl',
  },
  async (t) => {
    const a = await account(t);
    const set = await createSet(t, [a], { ttl: '1h', max_ttl: '2h' });
    const co = await checkOut(t, set, undefined, { ttl: '10h' });
    const d = Number((co.ex.response.body as { lease_duration?: number }).lease_duration);
    expectThat(d > 0 && d <= 3600, 'ttl-cap', 'lease_duration is at most the set ttl', '<= 3600', d);
  },
);

conformance(
  { id: 'ldap.library.renew-max-ttl', level: 'MUST', title: 'Renewing a check-out never goes past the set max_ttl' },
  async (t) => {
    const a = await account(t);
    const set = await createSet(t, [a], { ttl: '1h', max_ttl: '90m' });
    const co = await checkOut(t, set);
    const renewed = t.check(
      await t.svc.put('sys/leases/renew', { body: { lease_id: co.lease, increment: 36000 } }),
      statusIs(200),
    );
    const d = Number((renewed.response.body as { lease_duration?: number }).lease_duration);
    expectThat(d > 0 && d <= 5400, 'max-ttl', 'the renewed check-out ends within max_ttl', '<= 5400', d);
  },
);

conformance(
  { id: 'ldap.library.delete', level: 'MUST', title: 'DELETE /ldap/library/:set removes the set' },
  async (t) => {
    const a = await account(t);
    const set = await createSet(t, [a]);
    t.check(await t.svc.delete(setPath(set)), success);
    const read = await t.svc.get(setPath(set));
    expectThat(
      read.response.status === 404 ||
        read.response.status === 400 ||
        (read.response.status === 200 && !data(read).service_account_names),
      'deleted',
      'the set is gone',
      '404 or 400 (a read of a missing object: status not named)',
      read.response.status,
    );
  },
);
