/**
 * The TTLs of a dynamic role that writes none, or more than the system allows: the system/engine
 * default and the mount/system maximum. The documents give no values; the catalogue assumes the
 * real product's 768h (assumptions.ldap.dynamic.system-ttls).
 */
import { conformance } from '../../harness/index.js';
import { errorMessage, expectThat, statusIs } from '../../harness/checks/index.js';
import { creationLdif, deletionLdif } from '../../fixtures/ldap/roles.js';
import { directory, ldapSuite, refused } from './helpers.js';
import { dynamicRoles } from './dynamic-roles.js';

const { mount } = ldapSuite();
const { rolePath, createRole, creds } = dynamicRoles(mount);

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
      'lease_duration is the system default lease TTL',
      SYSTEM_TTL,
      issued,
    );
    const renewed = leaseSeconds(
      t.check(await t.svc.put('sys/leases/renew', { body: { lease_id: c.lease, increment: BEYOND } }), statusIs(200)),
    );
    expectThat(
      renewed > 0 && renewed <= SYSTEM_TTL,
      'max-ttl',
      'the renewed lease ends within the system maximum',
      `<= ${SYSTEM_TTL}`,
      renewed,
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
        default_ttl: '1h',
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
      'the renewed lease ends within the system maximum, not the longer role max_ttl',
      `<= ${SYSTEM_TTL}`,
      renewed,
    );
  },
);
