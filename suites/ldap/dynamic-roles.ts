/**
 * Dynamic roles of one ldap mount, for the test files that create them (dynamic.test.ts,
 * templates.test.ts): a role with the fixture LDIF, its credentials (lease revoked and account
 * removed after the test), a template rendered into the created entry, a role whose creation fails.
 */
import type { MountRef, T } from '../../harness/index.js';
import { statusIs, success } from '../../harness/checks/index.js';
import { deleteEntry } from '../../harness/directory/index.js';
import { creationLdif, deletionLdif, failingCreationLdif } from '../../fixtures/ldap/roles.js';
import { admin, attribute, data, directory, leaseId, LONG, revokeLease } from './helpers.js';

export interface Creds {
  username: string;
  password: string;
  dns: string[];
  lease: string;
  ex: Awaited<ReturnType<T['svc']['get']>>;
}

export function dynamicRoles(mount: MountRef) {
  const rolePath = (name: string) => `${mount.path}/role/${name}`;
  const userDn = (t: T) => directory(t).userDn;
  const dnOf = (t: T, cn: string) => `cn=${cn},${userDn(t)}`;

  async function createRole(t: T, body: Record<string, unknown>, base = 'dyn'): Promise<string> {
    const name = t.unique(base);
    // rollback_ldif is "recommended": sent unless the test leaves it out (rollback_ldif: undefined).
    const full = {
      creation_ldif: creationLdif(userDn(t)),
      deletion_ldif: deletionLdif(userDn(t)),
      rollback_ldif: deletionLdif(userDn(t)),
      default_ttl: LONG,
      ...body,
    };
    t.check(await t.svc.post(rolePath(name), { body: full }), success);
    t.track(`dynamic role ${name}`, () => t.svc.delete(rolePath(name)));
    return name;
  }

  async function creds(t: T, role: string): Promise<Creds> {
    const ex = t.check(await t.svc.get(`${mount.path}/creds/${role}`), statusIs(200));
    const d = data<{ username: string; password: string; distinguished_names: string[] }>(ex);
    const lease = leaseId(ex);
    t.track(`lease of ${role}`, () => revokeLease(t, lease), 'revoke');
    t.track(`account ${d.username}`, () => deleteEntry(admin(t), dnOf(t, d.username)));
    return { username: d.username, password: d.password, dns: d.distinguished_names ?? [], lease, ex };
  }

  /**
   * Renders `expr` through a creation LDIF into the entry's description and reads it back from the
   * directory. The role's default_ttl is one hour, far below any mount or system maximum, so the
   * lease gets exactly that ttl: a longer one (the suite's usual 8760h) is capped by the mount's
   * maximum on a real product, and what the time fields show for a ttl the lease cannot have is
   * not settled by the documents.
   */
  async function rendered(
    t: T,
    expr: string,
    base = 'tpl',
  ): Promise<{ value: string; role: string; username: string; leaseSeconds: number; lease: string }> {
    const role = await createRole(
      t,
      { creation_ldif: creationLdif(userDn(t), `description: ${expr}\n`), default_ttl: '1h' },
      base,
    );
    const c = await creds(t, role);
    const values = await attribute(t, dnOf(t, c.username), 'description');
    const leaseSeconds = Number((c.ex.response.body as { lease_duration?: number }).lease_duration);
    return { value: values?.[0] ?? '', role, username: c.username, leaseSeconds, lease: c.lease };
  }

  /** Creates a role whose username is the role name, so a failed creation's entries can be found. */
  async function failingRole(t: T, rollback: string | undefined): Promise<string> {
    const name = t.unique('fail');
    const body: Record<string, unknown> = {
      creation_ldif: failingCreationLdif(userDn(t)),
      deletion_ldif: deletionLdif(userDn(t)),
      username_template: '{{.RoleName}}',
    };
    if (rollback) body.rollback_ldif = rollback;
    t.check(await t.svc.post(rolePath(name), { body }), success);
    t.track(`dynamic role ${name}`, () => t.svc.delete(rolePath(name)));
    t.track('entries of the failed creation', async () => {
      await deleteEntry(admin(t), dnOf(t, name));
      await deleteEntry(admin(t), dnOf(t, `${name}-third`));
    });
    return name;
  }

  return { rolePath, userDn, dnOf, createRole, creds, rendered, failingRole };
}
