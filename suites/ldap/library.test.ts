/**
 * Library sets: the set's fields and defaults, listing, the accounts' rules, check-out, check-in
 * and the status. The check-out TTLs, check-in forms and entities: library-checkout.test.ts.
 */
import { conformance } from '../../harness/index.js';
import {
  bodyAt,
  denied,
  errorMessage,
  expectThat,
  statusBetween,
  statusIs,
  success,
} from '../../harness/checks/index.js';
import {
  account,
  accountOutsideUserDn,
  durationOf,
  expectBinds,
  expectNotStored,
  ldapSuite,
  leaseId,
  LONG,
  refused,
  revokeLease,
} from './helpers.js';
import { library } from './library-sets.js';
import { offOrAbsent } from '../lib/fields.js';

const { mount } = ldapSuite();
const { setPath, createSet, borrower, checkOut, expectAvailable, checkIns } = library(mount);

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
    // A second write with other TTLs and the flag off: the read follows it. It names the accounts
    // again: whether a write that omits them keeps them is not said (ldap.library.update-keeps-omitted).
    t.check(
      await t.svc.post(setPath(set), {
        body: {
          service_account_names: [a.cn, b.cn],
          ttl: '30m',
          max_ttl: '3h',
          disable_check_in_enforcement: false,
        },
      }),
      success,
    );
    t.check(
      await t.svc.get(setPath(set)),
      statusIs(200),
      bodyAt('/data/ttl', durationOf(1800), 'is the ttl of the second write (30m)'),
      bodyAt('/data/max_ttl', durationOf(10800), 'is the max_ttl of the second write (3h)'),
      bodyAt('/data/disable_check_in_enforcement', offOrAbsent, 'is the flag of the second write (false, or left out)'),
      bodyAt(
        '/data/service_account_names',
        (v: unknown) => Array.isArray(v) && v.length === 2 && v.includes(a.cn) && v.includes(b.cn),
        'still lists both accounts',
      ),
    );
    // service_account_names may be one string.
    const c = await account(t);
    const single = t.unique('single');
    t.check(await t.svc.post(setPath(single), { body: { service_account_names: c.cn } }), success);
    t.track(`library set ${single}`, () => t.svc.delete(setPath(single)));
    t.check(
      await t.svc.get(setPath(single)),
      statusIs(200),
      bodyAt(
        '/data/service_account_names',
        (v: unknown) => Array.isArray(v) && v.length === 1 && v[0] === c.cn,
        `is ["${c.cn}"]`,
      ),
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
    const b = await account(t);
    const name = t.unique('defaults');
    t.check(await t.svc.post(setPath(name), { body: { service_account_names: [a.cn] } }), success);
    t.track(`library set ${name}`, () => t.svc.delete(setPath(name)));
    const defaults = (when: string) => [
      bodyAt('/data/ttl', durationOf(86400), `is 24h ${when}`),
      bodyAt('/data/max_ttl', durationOf(86400), `is 24h ${when}`),
      bodyAt('/data/disable_check_in_enforcement', offOrAbsent, `is false (or left out) ${when}`),
    ];
    t.check(await t.svc.get(setPath(name)), statusIs(200), ...defaults('on creation'));
    // A later write that omits them again (it adds an account): kept or given their defaults
    // anew, they are still the defaults.
    t.check(await t.svc.post(setPath(name), { body: { service_account_names: [a.cn, b.cn] } }), success);
    t.check(await t.svc.get(setPath(name)), statusIs(200), ...defaults('after a write that omits them'));
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
    title: 'POST /ldap/library/:set naming an account absent from the directory is refused, on creation and on update',
  },
  async (t) => {
    // "the service verifies that it exists in the directory": a refusal, whose status is not named.
    const ghost = t.unique('ghost');
    const first = await t.svc.post(setPath(ghost), { body: { service_account_names: [t.unique('nobody')] } });
    if (first.response.status < 400) t.track('ghost set', () => t.svc.delete(setPath(ghost)));
    t.check(first, refused, errorMessage);
    await expectNotStored(t, setPath(ghost), 'a set refused for its missing account');
    // Adding a missing account to an existing set is refused too; the set keeps its accounts.
    const a = await account(t);
    const set = await createSet(t, [a]);
    t.check(
      await t.svc.post(setPath(set), { body: { service_account_names: [a.cn, t.unique('nobody')] } }),
      refused,
      errorMessage,
    );
    t.check(
      await t.svc.get(setPath(set)),
      statusIs(200),
      bodyAt(
        '/data/service_account_names',
        (v: unknown) => Array.isArray(v) && v.length === 1 && v[0] === a.cn,
        `is still ["${a.cn}"]`,
      ),
    );
    // The search is under userdn: an account with that cn elsewhere in the tree is not found.
    const outside = await accountOutsideUserDn(t);
    const away = t.unique('away');
    const ex = await t.svc.post(setPath(away), { body: { service_account_names: [outside.cn] } });
    if (ex.response.status < 400) t.track('set of an account outside userdn', () => t.svc.delete(setPath(away)));
    t.check(ex, refused, errorMessage);
    await expectNotStored(t, setPath(away), 'a set refused for an account outside userdn');
  },
);

conformance(
  {
    id: 'ldap.library.one-set-only',
    level: 'MUST',
    title: 'POST /ldap/library/:set with an account of another set is refused',
  },
  async (t) => {
    const a = await account(t);
    await createSet(t, [a]);
    const other = t.unique('second');
    const ex = await t.svc.post(setPath(other), { body: { service_account_names: [a.cn] } });
    if (ex.response.status < 400) t.track('second set', () => t.svc.delete(setPath(other)));
    // "belong to one set only": a refusal, whose status is not named.
    t.check(ex, refused, errorMessage);
    await expectNotStored(t, setPath(other), 'a set refused for an account of another set');
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
    expectThat(co.lease !== '', 'lease', '', 'a lease id', 'check-out creates a lease');
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
    const b = await account(t);
    const set = await createSet(t, [a, b]);
    const token = await borrower(t);
    const first = await checkOut(t, set, token);
    const ex = t.check(
      await t.svc.post(`${setPath(set)}/check-in`, { body: { service_account_names: [first.name] }, token }),
      statusIs(200),
    );
    expectThat(
      checkIns(ex).includes(first.name),
      'check_ins',
      checkIns(ex),
      [first.name],
      'the account is listed in check_ins',
    );
    await expectAvailable(t, set, first.name, true, 'after check-in');
    // "checked in by this call": a later check-in lists its own account only, not the earlier one.
    const other = first.name === a.cn ? b.cn : a.cn;
    await checkOut(t, set, token);
    await checkOut(t, set, token);
    const again = t.check(
      await t.svc.post(`${setPath(set)}/check-in`, { body: { service_account_names: [other] }, token }),
      statusIs(200),
    );
    expectThat(
      checkIns(again).length === 1 && checkIns(again)[0] === other,
      'check_ins',
      checkIns(again),
      [other],
      'a later check-in lists only the account it checked in',
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
    expectThat(checkIns(ex).includes(a.cn), 'check_ins', checkIns(ex), [a.cn], 'the forced check-in lists the account');
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
    // "Error response": the document names no status, so any error status.
    t.check(
      await t.svc.post(`${setPath(set)}/check-in`, { body: { service_account_names: [a.cn] }, token: other }),
      statusBetween(400, 599),
      errorMessage,
    );
    await expectAvailable(t, set, a.cn, false, 'after a refused check-in');
    await expectBinds(t, a.dn, co.password, 'the borrower still holds a working password');
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
      checkIns(ex),
      [a.cn],
      'the account is checked in by another caller',
    );
  },
);
