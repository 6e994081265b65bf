/**
 * The TTLs of dynamic roles: default_ttl and max_ttl as written (a duration string or integer
 * seconds), and a role that writes none, or more than the system allows: the system/engine default
 * and the mount/system maximum. The documents give no values for those; the catalogue assumes the
 * real product's 768h (assumptions.ldap.dynamic.system-ttls). A lease is renewed through
 * sys/leases/renew and revoked through sys/leases/revoke, itself an assumption (ldap.leases.revoke-path),
 * as is what a revocation does to the account (ldap.dynamic.revoke-deletes).
 */
import { conformance } from '../../harness/index.js';
import { bodyAt, errorMessage, expectThat, statusIs, success } from '../../harness/checks/index.js';
import { creationLdif, deletionLdif } from '../../fixtures/ldap/roles.js';
import { directory, durationOf, exists, ldapSuite, refused, revokeLease } from './helpers.js';
import { dynamicRoles } from './dynamic-roles.js';

const { mount } = ldapSuite();
const { rolePath, dnOf, createRole, creds } = dynamicRoles(mount);

/** The system default and maximum lease TTL the assumption names: 768 hours. */
const SYSTEM_TTL = 768 * 3600;
/** Longer than the system maximum, as a renewal increment or a role max_ttl. */
const BEYOND = '10000h';

const leaseSeconds = (ex: { response: { body: unknown } }) =>
  Number((ex.response.body as { lease_duration?: number }).lease_duration);

conformance(
  {
    id: 'ldap.dynamic.system-ttls',
    level: 'MUST',
    title:
      'A role without default_ttl and max_ttl gives leases of the system default that renew up to the system maximum',
  },
  async (t) => {
    const role = await createRole(t, { default_ttl: undefined });
    const c = await creds(t, role);
    const issued = leaseSeconds(c.ex);
    expectThat(
      issued >= SYSTEM_TTL - 5 && issued <= SYSTEM_TTL,
      'default-ttl',
      issued,
      SYSTEM_TTL,
      'lease_duration is the system default lease TTL',
    );
    const renewed = leaseSeconds(
      t.check(await t.svc.put('sys/leases/renew', { body: { lease_id: c.lease, increment: BEYOND } }), statusIs(200)),
    );
    expectThat(
      renewed > 0 && renewed <= SYSTEM_TTL,
      'max-ttl',
      renewed,
      `<= ${SYSTEM_TTL}`,
      'the renewed lease ends within the system maximum',
    );
  },
);

conformance(
  {
    id: 'ldap.dynamic.system-ttls',
    level: 'MUST',
    title: 'A role max_ttl above the system maximum is refused or its leases still end within the system maximum',
  },
  async (t) => {
    const name = t.unique('beyond');
    const userDn = directory(t).userDn;
    const write = await t.svc.post(rolePath(name), {
      body: {
        creation_ldif: creationLdif(userDn),
        deletion_ldif: deletionLdif(userDn),
        default_ttl: 3600,
        max_ttl: BEYOND,
      },
    });
    t.track(`dynamic role ${name}`, () => t.svc.delete(rolePath(name)));
    // "never longer": refusing the role (with a status the documents do not name) is one way to keep it.
    if (write.response.status >= 400) {
      t.check(write, refused, errorMessage);
      return;
    }
    t.check(write, statusIs(200, 204));
    const c = await creds(t, name);
    const renewed = leaseSeconds(
      t.check(await t.svc.put('sys/leases/renew', { body: { lease_id: c.lease, increment: BEYOND } }), statusIs(200)),
    );
    expectThat(
      renewed > 0 && renewed <= SYSTEM_TTL,
      'max-ttl',
      renewed,
      `<= ${SYSTEM_TTL}`,
      'the renewed lease ends within the system maximum, not the longer role max_ttl',
    );
  },
);

conformance(
  { id: 'ldap.dynamic.default-ttl', level: 'MUST', title: 'The credential lease lasts the role default_ttl' },
  async (t) => {
    const role = await createRole(t, { default_ttl: 7200 });
    const d = leaseSeconds((await creds(t, role)).ex);
    expectThat(d <= 7200 && d >= 7190, 'ttl', d, 7200, 'lease_duration is the default_ttl');
  },
);

conformance(
  {
    id: 'ldap.dynamic.max-ttl',
    level: 'MUST',
    also: ['ldap.leases.revoke-path'],
    title: 'Renewing a dynamic lease never goes past the role max_ttl',
  },
  async (t) => {
    const role = await createRole(t, { default_ttl: 3600, max_ttl: '2h' });
    const c = await creds(t, role);
    const renewed = t
      .as('ldap.leases.revoke-path')
      .check(await t.svc.put('sys/leases/renew', { body: { lease_id: c.lease, increment: 36000 } }), statusIs(200));
    const d = leaseSeconds(renewed);
    expectThat(d <= 7200, 'max-ttl', d, '<= 7200', 'the renewed lease ends within max_ttl');
  },
);

conformance(
  {
    id: 'ldap.dynamic.ttl-formats',
    level: 'MUST',
    title: 'default_ttl written as a duration string gives leases of its seconds',
  },
  async (t) => {
    for (const [written, secs] of [
      ['2h', 7200],
      ['90m', 5400],
    ] as const) {
      const role = await createRole(t, { default_ttl: written });
      const d = leaseSeconds((await creds(t, role)).ex);
      expectThat(d <= secs && d >= secs - 10, 'ttl', d, secs, `lease_duration is default_ttl ${written} in seconds`);
    }
  },
);

conformance(
  {
    id: 'ldap.dynamic.ttl-formats',
    level: 'MUST',
    also: ['ldap.leases.revoke-path'],
    title: 'max_ttl written as integer seconds reads back as that many seconds and bounds the renewed lease',
  },
  async (t) => {
    const role = await createRole(t, { default_ttl: 3600, max_ttl: 7200 });
    t.check(
      await t.svc.get(rolePath(role)),
      statusIs(200),
      bodyAt('/data/max_ttl', durationOf(7200), 'is the max_ttl written (7200 seconds)'),
    );
    const c = await creds(t, role);
    const renewed = t
      .as('ldap.leases.revoke-path')
      .check(await t.svc.put('sys/leases/renew', { body: { lease_id: c.lease, increment: 36000 } }), statusIs(200));
    const d = leaseSeconds(renewed);
    expectThat(d > 0 && d <= 7200, 'max-ttl', d, '<= 7200', 'the renewed lease ends within max_ttl');
  },
);

conformance(
  {
    id: 'ldap.dynamic.revoke-deletes',
    level: 'MUST',
    also: ['ldap.leases.revoke-path'],
    title: 'PUT /sys/leases/revoke of a dynamic lease runs deletion_ldif: the account is gone',
  },
  async (t) => {
    const role = await createRole(t, {});
    const c = await creds(t, role);
    t.check(await revokeLease(t, c.lease), success);
    expectThat(
      !(await exists(t, dnOf(t, c.username))),
      'deleted',
      'present',
      'absent',
      'the dynamic account is gone after revoke',
    );
  },
);
