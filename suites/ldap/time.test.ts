/**
 * Behaviour that needs time to pass (scheduled rotation, lease expiry). Short periods and the
 * target's controllable clock (t.advance); the only file of the suite with short TTLs.
 */
import { conformance, type T } from '../../harness/index.js';
import { bodyAt, expectThat, statusIs, success } from '../../harness/checks/index.js';
import { creationLdif, deletionLdif, deletionWithErrorLdif } from '../../fixtures/ldap/roles.js';
import { deleteEntry } from '../../harness/directory/index.js';
import {
  account,
  admin,
  data,
  directory,
  exists,
  expectBinds,
  expectNoBind,
  durationOf,
  ldapSuite,
  leaseId,
  revokeLease,
} from './helpers.js';

const { mount } = ldapSuite();

/**
 * The static password read at `path` once it differs from `before`: read once where the target's
 * clock moved (the rotation is due at once), polled every timing.pollMs (at least a second) for up
 * to timing.settleSeconds of real time otherwise. `before` when it never changed.
 */
async function rotatedFrom(t: T, path: string, before: string): Promise<string> {
  const read = async () => String(data(t.check(await t.svc.get(path), statusIs(200))).password);
  let now = await read();
  if (t.config.capabilities.clock) return now;
  const deadline = Date.now() + t.config.timing.settleSeconds * 1000;
  while (now === before && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, Math.max(1000, t.config.timing.pollMs)));
    now = await read();
  }
  return now;
}

conformance(
  {
    id: 'ldap.static.scheduled-rotation',
    level: 'MUST',
    title: 'When rotation_period elapses the static password is rotated: the new one binds, the old one does not',
  },
  async (t) => {
    const acct = await account(t);
    const name = t.unique('sched');
    t.check(
      await t.svc.post(`${mount.path}/static-role/${name}`, { body: { username: acct.cn, rotation_period: 5 } }),
      success,
    );
    t.track(`static role ${name}`, () => t.svc.delete(`${mount.path}/static-role/${name}`));
    const before = String(data(t.check(await t.svc.get(`${mount.path}/static-cred/${name}`), statusIs(200))).password);
    await t.advance(7);
    // A real engine rotates on its own schedule (the upstream product looks at its queue every
    // 5 seconds), which the documents do not bound: without a clock of the target's, the new
    // password is polled for, within timing.settleSeconds of real time.
    const after = await rotatedFrom(t, `${mount.path}/static-cred/${name}`, before);
    expectThat(
      after !== before,
      'rotated',
      t.config.capabilities.clock
        ? 'the password changed after rotation_period'
        : `the password changed within ${t.config.timing.settleSeconds} s (timing.settleSeconds) after rotation_period`,
      'a new password',
      'the same password',
    );
    await expectBinds(t, acct.dn, after, 'the password after scheduled rotation');
    await expectNoBind(t, acct.dn, before, 'the password before scheduled rotation');
  },
);

conformance(
  { id: 'ldap.static.ttl-until-rotation', level: 'MUST', title: 'static-cred ttl counts down to the next rotation' },
  async (t) => {
    const acct = await account(t);
    const name = t.unique('ttl');
    t.check(
      await t.svc.post(`${mount.path}/static-role/${name}`, { body: { username: acct.cn, rotation_period: 3600 } }),
      success,
    );
    t.track(`static role ${name}`, () => t.svc.delete(`${mount.path}/static-role/${name}`));
    await t.advance(20);
    const ttl = Number(data(t.check(await t.svc.get(`${mount.path}/static-cred/${name}`), statusIs(200))).ttl);
    expectThat(ttl > 0 && ttl <= 3600 - 20, 'ttl', 'ttl is the time left until the next rotation', '<= 3580', ttl);
  },
);

conformance(
  {
    id: 'ldap.dynamic.expiry-deletes',
    level: 'MUST',
    title: 'When the dynamic lease expires deletion_ldif runs and the account is gone',
  },
  async (t) => {
    const userDn = directory(t).userDn;
    const role = t.unique('exp');
    t.check(
      await t.svc.post(`${mount.path}/role/${role}`, {
        body: { creation_ldif: creationLdif(userDn), deletion_ldif: deletionLdif(userDn), default_ttl: 5, max_ttl: 10 },
      }),
      success,
    );
    t.track(`dynamic role ${role}`, () => t.svc.delete(`${mount.path}/role/${role}`));
    const ex = t.check(await t.svc.get(`${mount.path}/creds/${role}`), statusIs(200));
    const username = String(data(ex).username);
    const dn = `cn=${username},${userDn}`;
    t.track(`account ${username}`, () => deleteEntry(admin(t), dn));
    t.track('lease', () => revokeLease(t, leaseId(ex)), 'revoke');
    expectThat(await exists(t, dn), 'exists', 'the account exists while the lease lives', 'present', 'absent');
    await t.advance(7);
    expectThat(!(await exists(t, dn)), 'expired', 'the account is gone after the lease expired', 'absent', 'present');
  },
);

conformance(
  {
    id: 'ldap.library.ttl-expiry-checkin',
    level: 'MUST',
    title: 'State checked out -> available: when the check-out ttl elapses the account is checked in automatically',
  },
  async (t) => {
    const a = await account(t);
    const set = t.unique('expset');
    t.check(
      await t.svc.post(`${mount.path}/library/${set}`, {
        body: { service_account_names: [a.cn], ttl: 5, max_ttl: 10 },
      }),
      success,
    );
    t.track(`library set ${set}`, () => t.svc.delete(`${mount.path}/library/${set}`));
    const co = t.check(await t.svc.post(`${mount.path}/library/${set}/check-out`, { body: {} }), statusIs(200));
    t.track('lease', () => revokeLease(t, leaseId(co)), 'revoke');
    const password = data(co).password;
    await t.advance(7);
    const st = data(t.check(await t.svc.get(`${mount.path}/library/${set}/status`), statusIs(200)))[a.cn] as
      | { available?: boolean }
      | undefined;
    expectThat(st?.available === true, 'status', 'the account is available again after its ttl', true, st?.available);
    await expectNoBind(t, a.dn, password, 'the password of the expired check-out');
  },
);

conformance(
  {
    id: 'ldap.library.ttl-expiry-checkin',
    level: 'MUST',
    also: ['ldap.library.renew-max-ttl'],
    title: 'State checked out -> available: a renewed check-out is checked in when max_ttl is reached',
  },
  async (t) => {
    const a = await account(t);
    const set = t.unique('maxset');
    t.check(
      await t.svc.post(`${mount.path}/library/${set}`, {
        body: { service_account_names: [a.cn], ttl: 10, max_ttl: 15 },
      }),
      success,
    );
    t.track(`library set ${set}`, () => t.svc.delete(`${mount.path}/library/${set}`));
    const co = t.check(await t.svc.post(`${mount.path}/library/${set}/check-out`, { body: {} }), statusIs(200));
    t.track('lease', () => revokeLease(t, leaseId(co)), 'revoke');
    await t.advance(8);
    t.check(await t.svc.put('sys/leases/renew', { body: { lease_id: leaseId(co), increment: 10 } }), statusIs(200));
    await t.advance(9);
    const st = data(t.check(await t.svc.get(`${mount.path}/library/${set}/status`), statusIs(200)))[a.cn] as
      | { available?: boolean }
      | undefined;
    expectThat(
      st?.available === true,
      'status',
      'the account is available once max_ttl passed, despite the renewal',
      true,
      st?.available,
    );
  },
);

/** A dynamic role with a short lease and the deletion LDIF given; its account's DN once created. */
async function shortLivedAccount(t: T, deletion: string): Promise<string> {
  const userDn = directory(t).userDn;
  const role = t.unique('exp');
  t.check(
    await t.svc.post(`${mount.path}/role/${role}`, {
      body: { creation_ldif: creationLdif(userDn), deletion_ldif: deletion, default_ttl: 5, max_ttl: 10 },
    }),
    success,
  );
  t.track(`dynamic role ${role}`, () => t.svc.delete(`${mount.path}/role/${role}`));
  const ex = t.check(await t.svc.get(`${mount.path}/creds/${role}`), statusIs(200));
  const dn = `cn=${String(data(ex).username)},${userDn}`;
  t.track(`account ${dn}`, () => deleteEntry(admin(t), dn));
  t.track('lease', () => revokeLease(t, leaseId(ex)), 'revoke');
  return dn;
}

conformance(
  {
    id: 'ldap.dynamic.deletion-continues',
    level: 'MUST',
    title: 'deletion_ldif whose first record fails still deletes the account',
  },
  async (t) => {
    // Through the lease's expiry, where the document runs deletion_ldif ("after TTL expiry"); the
    // failing first record may be reported or not, what counts is that the later one ran.
    const dn = await shortLivedAccount(t, deletionWithErrorLdif(directory(t).userDn));
    expectThat(await exists(t, dn), 'exists', 'the account exists while the lease lives', 'present', 'absent');
    await t.advance(7);
    expectThat(!(await exists(t, dn)), 'deleted', 'the record after the failing one ran', 'absent', 'present');
  },
);

const DAY = 24 * 3600;

conformance(
  {
    id: 'ldap.library.ttl-zero',
    level: 'MUST',
    title: 'A library set with ttl 0 reads back 0 and its check-out is still out after more than 24h',
  },
  async (t) => {
    const a = await account(t);
    const set = t.unique('unlimited');
    t.check(
      await t.svc.post(`${mount.path}/library/${set}`, { body: { service_account_names: [a.cn], ttl: 0, max_ttl: 0 } }),
      success,
    );
    t.track(`library set ${set}`, () => t.svc.delete(`${mount.path}/library/${set}`));
    t.check(await t.svc.get(`${mount.path}/library/${set}`), statusIs(200), bodyAt('/data/ttl', durationOf(0), 'is 0'));
    const co = t.check(await t.svc.post(`${mount.path}/library/${set}/check-out`, { body: {} }), statusIs(200));
    t.track('lease', () => revokeLease(t, leaseId(co)), 'revoke');
    await t.advance(DAY + 3600);
    const st = data(t.check(await t.svc.get(`${mount.path}/library/${set}/status`), statusIs(200)))[a.cn] as
      | { available?: boolean }
      | undefined;
    expectThat(st?.available === false, 'status', 'the check-out is still out after 25h', false, st?.available);
  },
);

conformance(
  {
    id: 'ldap.library.max-ttl-zero',
    level: 'MUST',
    title: 'A library set with max_ttl 0 reads back 0 and its check-out renews past 24h',
  },
  async (t) => {
    const a = await account(t);
    const set = t.unique('norenewcap');
    t.check(
      await t.svc.post(`${mount.path}/library/${set}`, {
        body: { service_account_names: [a.cn], ttl: '10h', max_ttl: 0 },
      }),
      success,
    );
    t.track(`library set ${set}`, () => t.svc.delete(`${mount.path}/library/${set}`));
    t.check(
      await t.svc.get(`${mount.path}/library/${set}`),
      statusIs(200),
      bodyAt('/data/max_ttl', durationOf(0), 'is 0'),
    );
    const co = t.check(await t.svc.post(`${mount.path}/library/${set}/check-out`, { body: {} }), statusIs(200));
    t.track('lease', () => revokeLease(t, leaseId(co)), 'revoke');
    // Three renewals 9h apart: 27h after the check-out it is still out and renews for a full ttl.
    let renewed = 0;
    for (let i = 0; i < 3; i++) {
      await t.advance(9 * 3600);
      const ex = t.check(
        await t.svc.put('sys/leases/renew', { body: { lease_id: leaseId(co), increment: 36000 } }),
        statusIs(200),
      );
      renewed = Number((ex.response.body as { lease_duration?: number }).lease_duration);
    }
    expectThat(
      renewed > 9 * 3600,
      'renewed',
      'the renewal 27h after check-out still gets a full ttl',
      '> 32400',
      renewed,
    );
    const st = data(t.check(await t.svc.get(`${mount.path}/library/${set}/status`), statusIs(200)))[a.cn] as
      | { available?: boolean }
      | undefined;
    expectThat(st?.available === false, 'status', 'the check-out is still out after 27h', false, st?.available);
  },
);
