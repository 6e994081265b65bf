/**
 * Behaviour that needs time to pass (scheduled rotation, last_svc_rotation and the period after
 * rotate-role, lease expiry and the deletion LDIF it runs). Short periods and the target's
 * controllable clock (t.advance); the only file of the suite with short TTLs.
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
  rotateNow,
  staticRoles,
} from './helpers.js';
import { childDn, childThenParent, parentThenChild } from './ldif.js';

const { mount } = ldapSuite();
const { createRole } = staticRoles(mount);

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
    const name = await createRole(t, { username: acct.cn, rotation_period: '5s' }, 'sched');
    const before = String(data(t.check(await t.svc.get(`${mount.path}/static-cred/${name}`), statusIs(200))).password);
    await t.advance(7);
    // A real engine rotates on its own schedule (the upstream product looks at its queue every
    // 5 seconds), which the documents do not bound: without a clock of the target's, the new
    // password is polled for, within timing.settleSeconds of real time.
    const after = await rotatedFrom(t, `${mount.path}/static-cred/${name}`, before);
    expectThat(
      after !== before,
      'rotated',
      'the same password',
      'a new password',
      t.config.capabilities.clock
        ? 'the password changed after rotation_period'
        : `the password changed within ${t.config.timing.settleSeconds} s (timing.settleSeconds) after rotation_period`,
    );
    await expectBinds(t, acct.dn, after, 'the password after scheduled rotation');
    await expectNoBind(t, acct.dn, before, 'the password before scheduled rotation');
  },
);

conformance(
  { id: 'ldap.static.ttl-until-rotation', level: 'MUST', title: 'static-cred ttl counts down to the next rotation' },
  async (t) => {
    const acct = await account(t);
    const name = await createRole(t, { username: acct.cn, rotation_period: '1h' }, 'ttl');
    await t.advance(20);
    const ttl = Number(data(t.check(await t.svc.get(`${mount.path}/static-cred/${name}`), statusIs(200))).ttl);
    expectThat(ttl > 0 && ttl <= 3600 - 20, 'ttl', ttl, '<= 3580', 'ttl is the time left until the next rotation');
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
        body: {
          creation_ldif: creationLdif(userDn),
          deletion_ldif: deletionLdif(userDn),
          default_ttl: 5,
          max_ttl: '10s',
        },
      }),
      success,
    );
    t.track(`dynamic role ${role}`, () => t.svc.delete(`${mount.path}/role/${role}`));
    const ex = t.check(await t.svc.get(`${mount.path}/creds/${role}`), statusIs(200));
    const username = String(data(ex).username);
    const dn = `cn=${username},${userDn}`;
    t.track(`account ${username}`, () => deleteEntry(admin(t), dn));
    t.track('lease', () => revokeLease(t, leaseId(ex)), 'revoke');
    expectThat(await exists(t, dn), 'exists', 'absent', 'present', 'the account exists while the lease lives');
    await t.advance(7);
    expectThat(!(await exists(t, dn)), 'expired', 'present', 'absent', 'the account is gone after the lease expired');
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
    expectThat(st?.available === true, 'status', st?.available, true, 'the account is available again after its ttl');
    await expectNoBind(t, a.dn, password, 'the password of the expired check-out');
  },
);

conformance(
  {
    id: 'ldap.library.ttl-expiry-checkin',
    level: 'MUST',
    also: ['ldap.library.renew-max-ttl', 'ldap.leases.revoke-path'],
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
    // How a lease is renewed is the assumption (the lease endpoints are not documented).
    t.as('ldap.leases.revoke-path').check(
      await t.svc.put('sys/leases/renew', { body: { lease_id: leaseId(co), increment: 10 } }),
      statusIs(200),
    );
    await t.advance(9);
    const st = data(t.check(await t.svc.get(`${mount.path}/library/${set}/status`), statusIs(200)))[a.cn] as
      | { available?: boolean }
      | undefined;
    expectThat(
      st?.available === true,
      'status',
      st?.available,
      true,
      'the account is available once max_ttl passed, despite the renewal',
    );
  },
);

/** A dynamic role with a short lease and the deletion LDIF given; its account's DN once created. */
async function shortLivedAccount(t: T, deletion: string): Promise<string> {
  const userDn = directory(t).userDn;
  const role = t.unique('exp');
  t.check(
    await t.svc.post(`${mount.path}/role/${role}`, {
      body: { creation_ldif: creationLdif(userDn), deletion_ldif: deletion, default_ttl: 5, max_ttl: '10s' },
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
    expectThat(await exists(t, dn), 'exists', 'absent', 'present', 'the account exists while the lease lives');
    await t.advance(7);
    expectThat(!(await exists(t, dn)), 'deleted', 'present', 'absent', 'the record after the failing one ran');
  },
);

conformance(
  {
    id: 'ldap.dynamic.deletion-in-order',
    level: 'MUST',
    title:
      'When the lease expires the records of deletion_ldif run in order: the entry below the account, then the account',
  },
  async (t) => {
    const userDn = directory(t).userDn;
    const role = t.unique('order');
    t.check(
      await t.svc.post(`${mount.path}/role/${role}`, {
        body: {
          creation_ldif: parentThenChild(userDn),
          deletion_ldif: childThenParent(userDn),
          default_ttl: 5,
          max_ttl: '10s',
        },
      }),
      success,
    );
    t.track(`dynamic role ${role}`, () => t.svc.delete(`${mount.path}/role/${role}`));
    const ex = t.check(await t.svc.get(`${mount.path}/creds/${role}`), statusIs(200));
    const dn = `cn=${String(data(ex).username)},${userDn}`;
    t.track(`account ${dn}`, () => deleteEntry(admin(t), dn));
    t.track(`entry below ${dn}`, () => deleteEntry(admin(t), childDn(dn)));
    t.track('lease', () => revokeLease(t, leaseId(ex)), 'revoke');
    // The trigger: both entries are there while the lease lives.
    expectThat(
      (await exists(t, dn)) && (await exists(t, childDn(dn))),
      'exists',
      'missing',
      'both present',
      'the account and the entry below it exist while the lease lives',
    );
    await t.advance(7);
    expectThat(
      !(await exists(t, childDn(dn))) && !(await exists(t, dn)),
      'deleted-in-order',
      (await exists(t, dn)) ? 'the account is still there' : 'the entry below it is still there',
      'both absent',
      'after expiry both are gone: the child was deleted first, so the account could be deleted after it',
    );
  },
);

/** last_svc_rotation of a static role, in ms (NaN when it is no time). */
async function lastRotation(t: T, name: string): Promise<number> {
  const read = t.check(await t.svc.get(`${mount.path}/static-role/${name}`), statusIs(200));
  return Date.parse(String(data(read).last_svc_rotation ?? ''));
}

conformance(
  {
    id: 'ldap.static.last-rotation-moves',
    level: 'MUST',
    title:
      'last_svc_rotation moves forward with every rotation: rotate-role after the import rotation shows a later time',
  },
  async (t) => {
    const acct = await account(t);
    const name = await createRole(t, { username: acct.cn, rotation_period: '1h' }, 'last');
    // The trigger: the import rotation set a time (a role never rotated may show the zero time).
    const first = await lastRotation(t, name);
    if (Number.isNaN(first) || first < Date.parse('2000-01-01T00:00:00Z'))
      t.notApplicable('last_svc_rotation shows no time after the import rotation, so nothing can show it move');
    await t.advance(3);
    const cred = await rotateNow(t, mount.path, name);
    const second = await lastRotation(t, name);
    const credTime = Date.parse(String(data(cred).last_svc_rotation ?? ''));
    expectThat(
      second >= first + 2000 && credTime >= first + 2000,
      'moved',
      {
        role: data(t.check(await t.svc.get(`${mount.path}/static-role/${name}`), statusIs(200))).last_svc_rotation,
        cred: data(cred).last_svc_rotation,
      },
      `>= ${new Date(first + 2000).toISOString()}`,
      'last_svc_rotation (role read and static-cred) is the time of the later rotation, 3 s after the first',
    );
  },
);

conformance(
  {
    id: 'ldap.static.rotate-role-resets-period',
    level: 'MUST',
    title: 'After rotate-role static-cred ttl starts again from the full rotation_period',
  },
  async (t) => {
    const acct = await account(t);
    const name = await createRole(t, { username: acct.cn, rotation_period: '1h' }, 'reset');
    await t.advance(12);
    const before = Number(data(t.check(await t.svc.get(`${mount.path}/static-cred/${name}`), statusIs(200))).ttl);
    // The trigger: the ttl counted down, so a restart can be told apart from no restart.
    if (!(before <= 3600 - 10))
      t.notApplicable(
        `static-cred ttl is ${before} 12 s after creation: it did not count down, so a restart cannot show`,
      );
    const after = Number(data(await rotateNow(t, mount.path, name)).ttl);
    expectThat(after >= 3600 - 2, 'restarted', after, 3600, 'after rotate-role the ttl is the full period again');
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
    expectThat(st?.available === false, 'status', st?.available, false, 'the check-out is still out after 25h');
  },
);

conformance(
  {
    id: 'ldap.library.max-ttl-zero',
    level: 'MUST',
    also: ['ldap.leases.revoke-path'],
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
      const ex = t
        .as('ldap.leases.revoke-path')
        .check(
          await t.svc.put('sys/leases/renew', { body: { lease_id: leaseId(co), increment: 36000 } }),
          statusIs(200),
        );
      renewed = Number((ex.response.body as { lease_duration?: number }).lease_duration);
    }
    expectThat(
      renewed > 9 * 3600,
      'renewed',
      renewed,
      '> 32400',
      'the renewal 27h after check-out still gets a full ttl',
    );
    const st = data(t.check(await t.svc.get(`${mount.path}/library/${set}/status`), statusIs(200)))[a.cn] as
      | { available?: boolean }
      | undefined;
    expectThat(st?.available === false, 'status', st?.available, false, 'the check-out is still out after 27h');
  },
);
