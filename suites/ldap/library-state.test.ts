/**
 * Library sets across requests, resources and paths: a write on a set and the check-outs it
 * keeps, the status after check-in, accounts freed for another set, a nested set on every path,
 * the manage check-in's body, the set's durations in several units, what check-in lists and does
 * to the password (rotation: an assumption), deletion, and what an update that omits a field keeps
 * (an assumption: the documents do not say a set's update is partial).
 */
import { conformance } from '../../harness/index.js';
import { bodyAt, expectThat, statusIs, success } from '../../harness/checks/index.js';
import { account, binds, data, durationOf, expectNoBind, ldapSuite, leaseId, LONG, revokeLease } from './helpers.js';
import { library } from './library-sets.js';

const { mount } = ldapSuite();
const { setPath, createSet, borrower, checkOut, statusOf, expectAvailable, checkIns } = library(mount);

/** The borrower fields of a status entry that hold a value (a field left out or empty holds none). */
const borrowerOf = (st: Record<string, unknown>) =>
  Object.fromEntries(
    ['borrower_client_token', 'borrower_entity_id']
      .filter((k) => st[k] !== undefined && st[k] !== null && st[k] !== '')
      .map((k) => [k, st[k]]),
  );

conformance(
  {
    id: 'ldap.library.update-keeps-checkouts',
    level: 'MUST',
    title: 'A write on a set that keeps a checked-out account leaves it checked out until its borrower checks it in',
  },
  async (t) => {
    const a = await account(t);
    const set = await createSet(t, [a]);
    const token = await borrower(t);
    await checkOut(t, set, token);
    await expectAvailable(t, set, a.cn, false, 'after check-out');
    // The trigger: a write that keeps the account and changes the set's durations.
    t.check(
      await t.svc.post(setPath(set), { body: { service_account_names: [a.cn], ttl: '2h', max_ttl: '3h' } }),
      success,
    );
    t.check(await t.svc.get(setPath(set)), statusIs(200), bodyAt('/data/ttl', durationOf(7200), 'is the new ttl'));
    await expectAvailable(t, set, a.cn, false, 'after a write on the set that kept the account');
    const back = t.check(
      await t.svc.post(`${setPath(set)}/check-in`, { body: { service_account_names: [a.cn] }, token }),
      statusIs(200),
    );
    expectThat(
      checkIns(back).includes(a.cn),
      'check_ins',
      checkIns(back),
      [a.cn],
      "the borrower's check-in still returns the account",
    );
  },
);

conformance(
  {
    id: 'ldap.library.status-after-checkin',
    level: 'MUST',
    title: 'After check-in the status shows the account available without the borrower it showed while checked out',
  },
  async (t) => {
    const a = await account(t);
    const set = await createSet(t, [a]);
    const token = await borrower(t);
    await checkOut(t, set, token);
    // Presence first: while checked out the status names a borrower, so its absence can be seen.
    const busy = await statusOf(t, set, a.cn);
    expectThat(
      busy.available === false && Object.keys(borrowerOf(busy)).length > 0,
      'borrower',
      busy,
      'available false with borrower_client_token',
      'while checked out the status names the borrower',
    );
    t.check(
      await t.svc.post(`${setPath(set)}/check-in`, { body: { service_account_names: [a.cn] }, token }),
      statusIs(200),
    );
    const free = await statusOf(t, set, a.cn);
    expectThat(
      free.available === true && Object.keys(borrowerOf(free)).length === 0,
      'no-borrower',
      free,
      { available: true },
      'after check-in the account is available and the status names no borrower ("when unavailable")',
    );
  },
);

conformance(
  {
    id: 'ldap.library.account-freed',
    level: 'MUST',
    title: 'An account a write removed from its set may join another set',
  },
  async (t) => {
    const a = await account(t);
    const b = await account(t);
    const first = await createSet(t, [a, b]);
    t.check(await t.svc.post(setPath(first), { body: { service_account_names: [a.cn] } }), success);
    // The trigger: the write left b out of the first set.
    t.check(
      await t.svc.get(setPath(first)),
      statusIs(200),
      bodyAt(
        '/data/service_account_names',
        (v: unknown) => Array.isArray(v) && v.length === 1 && v[0] === a.cn,
        `is ["${a.cn}"]`,
      ),
    );
    const second = t.unique('second');
    const ex = await t.svc.post(setPath(second), { body: { service_account_names: [b.cn], ttl: LONG, max_ttl: LONG } });
    if (ex.response.status < 400) t.track(`library set ${second}`, () => t.svc.delete(setPath(second)));
    t.check(ex, success);
  },
);

conformance(
  {
    id: 'ldap.library.account-freed',
    level: 'MUST',
    title: 'The accounts of a deleted set may join another set',
  },
  async (t) => {
    const a = await account(t);
    const first = t.unique('gone');
    t.check(
      await t.svc.post(setPath(first), { body: { service_account_names: [a.cn], ttl: LONG, max_ttl: LONG } }),
      success,
    );
    t.track(`library set ${first}`, () => t.svc.delete(setPath(first)));
    t.check(await t.svc.delete(setPath(first)), success);
    const second = t.unique('second');
    const ex = await t.svc.post(setPath(second), { body: { service_account_names: [a.cn], ttl: LONG, max_ttl: LONG } });
    if (ex.response.status < 400) t.track(`library set ${second}`, () => t.svc.delete(setPath(second)));
    t.check(ex, success);
  },
);

conformance(
  {
    id: 'ldap.library.nested-set-paths',
    level: 'MUST',
    title: 'A set whose name has a slash serves status, check-out and check-in at its full path',
  },
  async (t) => {
    const a = await account(t);
    const name = `${t.unique('grp')}/${t.unique('leaf')}`;
    // Set-up: whether a nested set may be made at all is ldap.library.hierarchical-list, tested on its own.
    t.precondition(
      await t.svc.post(setPath(name), { body: { service_account_names: [a.cn], ttl: LONG, max_ttl: LONG } }),
      success,
    );
    t.track(`library set ${name}`, () => t.svc.delete(setPath(name)));
    t.check(
      await t.svc.get(`${setPath(name)}/status`),
      statusIs(200),
      bodyAt(`/data/${a.cn}/available`, true, 'is true before check-out'),
    );
    const co = t.check(await t.svc.post(`${setPath(name)}/check-out`, { body: {} }), statusIs(200));
    t.track('check-out lease', () => revokeLease(t, leaseId(co)), 'revoke');
    t.check(co, bodyAt('/data/service_account_name', a.cn, 'is the only account'));
    const back = t.check(
      await t.svc.post(`${setPath(name)}/check-in`, { body: { service_account_names: [a.cn] } }),
      statusIs(200),
    );
    expectThat(
      checkIns(back).includes(a.cn),
      'check_ins',
      checkIns(back),
      [a.cn],
      'the nested set checks the account in',
    );
  },
);

conformance(
  {
    id: 'ldap.library.checkin-manage-body',
    level: 'MUST',
    title: 'POST manage/:set/check-in with service_account_names as a string forces the check-in of that account only',
  },
  async (t) => {
    const a = await account(t);
    const b = await account(t);
    const set = await createSet(t, [a, b]);
    const token = await borrower(t);
    await checkOut(t, set, token);
    await checkOut(t, set, token);
    const ex = t.check(
      await t.svc.post(`${mount.path}/library/manage/${set}/check-in`, { body: { service_account_names: a.cn } }),
      statusIs(200),
    );
    expectThat(
      checkIns(ex).length === 1 && checkIns(ex)[0] === a.cn,
      'check_ins',
      checkIns(ex),
      [a.cn],
      'the account named by the string is checked in, the other is not',
    );
    await expectAvailable(t, set, b.cn, false, 'the account not named');
  },
);

conformance(
  {
    id: 'ldap.library.checkin-manage-body',
    level: 'MUST',
    title: 'POST manage/:set/check-in without service_account_names forces the check-in of the one account checked out',
  },
  async (t) => {
    const a = await account(t);
    const set = await createSet(t, [a]);
    const token = await borrower(t);
    await checkOut(t, set, token);
    const ex = t.check(await t.svc.post(`${mount.path}/library/manage/${set}/check-in`, { body: {} }), statusIs(200));
    expectThat(
      checkIns(ex).includes(a.cn),
      'check_ins',
      checkIns(ex),
      [a.cn],
      'the single checked-out account is checked in',
    );
    await expectAvailable(t, set, a.cn, true, 'after the forced check-in without names');
  },
);

conformance(
  {
    id: 'ldap.library.ttl-formats',
    level: 'MUST',
    title: 'A set ttl and max_ttl written with several units or in minutes read back as their seconds',
  },
  async (t) => {
    const a = await account(t);
    const set = await createSet(t, [a], { ttl: '1h30m', max_ttl: '150m' });
    t.check(
      await t.svc.get(setPath(set)),
      statusIs(200),
      bodyAt('/data/ttl', durationOf(5400), 'is 1h30m in seconds'),
      bodyAt('/data/max_ttl', durationOf(9000), 'is 150m in seconds'),
    );
    // The other way round on a second write: minutes for the ttl, hours and seconds for the max_ttl.
    t.check(
      await t.svc.post(setPath(set), { body: { service_account_names: [a.cn], ttl: '45m', max_ttl: '2h30s' } }),
      success,
    );
    t.check(
      await t.svc.get(setPath(set)),
      statusIs(200),
      bodyAt('/data/ttl', durationOf(2700), 'is 45m in seconds'),
      bodyAt('/data/max_ttl', durationOf(7230), 'is 2h30s in seconds'),
    );
  },
);

conformance(
  {
    id: 'ldap.library.update-keeps-omitted',
    level: 'MUST',
    title: 'A write on a set that omits service_account_names and disable_check_in_enforcement keeps them',
  },
  async (t) => {
    const a = await account(t);
    const b = await account(t);
    const set = await createSet(t, [a, b], { disable_check_in_enforcement: true });
    t.check(await t.svc.post(setPath(set), { body: { ttl: '30m' } }), success);
    t.check(
      await t.svc.get(setPath(set)),
      statusIs(200),
      bodyAt('/data/ttl', durationOf(1800), 'is the ttl of the second write'),
      bodyAt(
        '/data/service_account_names',
        (v: unknown) => Array.isArray(v) && v.length === 2 && v.includes(a.cn) && v.includes(b.cn),
        'still lists both accounts',
      ),
      bodyAt('/data/disable_check_in_enforcement', true, 'is still true'),
    );
  },
);

conformance(
  {
    id: 'ldap.library.checkin-available',
    level: 'MUST',
    title: 'POST check-in naming a checked-out and an available account lists only the one it checked in',
  },
  async (t) => {
    const a = await account(t);
    const b = await account(t);
    const set = await createSet(t, [a, b]);
    const co = await checkOut(t, set);
    const free = co.name === a.cn ? b.cn : a.cn;
    const ex = t.check(
      await t.svc.post(`${setPath(set)}/check-in`, { body: { service_account_names: [a.cn, b.cn] } }),
      statusIs(200),
    );
    // Presence and absence in one answer: the account checked in is listed, the available one is not.
    expectThat(
      checkIns(ex).length === 1 && checkIns(ex)[0] === co.name,
      'check_ins',
      checkIns(ex),
      [co.name],
      'check_ins lists the checked-out account and not the available one',
    );
    await expectAvailable(t, set, free, true, 'the account that was available');
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
    expectThat(!checkIns(ex).includes(a.cn), 'check_ins', checkIns(ex), [], 'an available account is not listed');
    await expectAvailable(t, set, a.cn, true, 'after checking in an available account');
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
      read.response.status,
      '404 or 400 (a read of a missing object: status not named)',
      'the set is gone',
    );
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
    // Set-up: the set, the check-out and the check-in are rules tested on their own; here they only
    // lend the account and bring it back, so a refusal makes the test not applicable.
    const set = t.unique('rot');
    t.precondition(
      await t.svc.post(setPath(set), { body: { service_account_names: [a.cn], ttl: LONG, max_ttl: LONG } }),
      success,
    );
    t.track(`library set ${set}`, () => t.svc.delete(setPath(set)));
    const co = t.precondition(await t.svc.post(`${setPath(set)}/check-out`, { body: {} }), statusIs(200));
    t.track('check-out lease', () => revokeLease(t, leaseId(co)), 'revoke');
    const password = data(co).password;
    if (!(await binds(t, a.dn, password)))
      t.notApplicable('the checked-out password does not open the account, so no rotation of it can show');
    t.precondition(
      await t.svc.post(`${setPath(set)}/check-in`, { body: { service_account_names: [a.cn] } }),
      statusIs(200),
    );
    await expectNoBind(t, a.dn, password, 'the password of the returned check-out');
  },
);
