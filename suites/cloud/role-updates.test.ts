// Updates of an existing cloud role: what an update that omits a field does to its stored value (not shown by the documents: an assumption), and the rule that leans on it (application_object_id against a stored permanently_delete).
import { suite, conformance, type T } from '../../harness/index.js';
import { errorMessage, statusBetween, success } from '../../harness/checks/index.js';
import { cloudMount, type DirectoryProbe, eventually, fail, probe, propagation, requireConfigured } from './helpers.js';
import { revokedPrincipal, rolesOnly } from './leases.js';

const s = suite('cloud');
const cloud = cloudMount(s);

/**
 * Whether credentials of `role`, once revoked, leave no deleted item (the application and
 * principal were deleted permanently). Their removal is revoke-removes' rule (which the tests
 * name); the deleted items are purged after the test either way.
 */
async function purgedOnRevoke(t: T, p: DirectoryProbe, role: string): Promise<boolean> {
  const ids = await t.proving('cloud.creds.revoke-removes', () => revokedPrincipal(t, p, cloud.path, role, []));
  for (const id of [ids.app, ids.sp]) t.track(`deleted item ${id}`, () => p.purge(id));
  return eventually(propagation(t), async () => !(await p.deletedItem(ids.app)) && !(await p.deletedItem(ids.sp)));
}

/**
 * A role holding permanently_delete true, then updated with its cloud_roles again and without
 * permanently_delete; the writes are write-list's rule. Returns the role's name (removed after the test).
 */
async function updatedWithoutPermanentlyDelete(t: T): Promise<string> {
  const roles = await rolesOnly(t);
  const name = t.unique('role');
  t.track(`role ${name}`, () => t.svc.delete(`${cloud.path}/roles/${name}`));
  const write = (body: Record<string, unknown>) => t.svc.post(`${cloud.path}/roles/${name}`, { body });
  t.as('cloud.roles.write-list').check(await write({ ...roles, permanently_delete: true }), success);
  t.as('cloud.roles.write-list').check(await write(roles), success);
  return name;
}

conformance(
  {
    id: 'cloud.roles.update-keeps-omitted',
    also: [
      'cloud.roles.write-list',
      'cloud.creds.permanently-delete',
      'cloud.creds.revoke-removes',
      'cloud.creds.response',
    ],
    level: 'SHOULD',
    title:
      'POST /cloud/roles/:name on a role holding permanently_delete true, without permanently_delete, keeps it: credentials after the update are deleted permanently',
  },
  async (t) => {
    requireConfigured(t, cloud);
    const p = probe(t);
    // First the rule itself, on a role never updated: the difference below is then the update's.
    const plain = t.unique('role');
    t.track(`role ${plain}`, () => t.svc.delete(`${cloud.path}/roles/${plain}`));
    t.as('cloud.roles.write-list').check(
      await t.svc.post(`${cloud.path}/roles/${plain}`, { body: { ...(await rolesOnly(t)), permanently_delete: true } }),
      success,
    );
    await t.proving('cloud.creds.permanently-delete', async () => {
      if (!(await purgedOnRevoke(t, p, plain)))
        fail(
          'permanently-deleted',
          'with permanently_delete the revoked application or principal is kept among deleted items',
          'purged',
          'kept',
        );
    });
    const updated = await updatedWithoutPermanentlyDelete(t);
    if (!(await purgedOnRevoke(t, p, updated)))
      fail(
        'update-keeps-omitted',
        'after an update that omitted permanently_delete, the revoked application or principal is kept among deleted items: the update reset permanently_delete to its default (false)',
        'purged (permanently_delete kept)',
        'kept as deleted items',
      );
  },
);

conformance(
  {
    id: 'cloud.roles.app-object-forbids-permanently-delete',
    also: ['cloud.roles.write-list', 'cloud.creds.revoke-removes', 'cloud.creds.response'],
    level: 'MUST',
    title:
      'POST /cloud/roles/:name adding application_object_id to a role that holds permanently_delete true is refused (the stored value counts, not only the one sent)',
  },
  async (t) => {
    requireConfigured(t, cloud);
    const p = probe(t);
    const name = await updatedWithoutPermanentlyDelete(t);
    // The trigger: the role still holds permanently_delete after an update that omits it. Whether an
    // update keeps an omitted field is not shown (cloud.roles.update-keeps-omitted): a target that
    // resets it leaves nothing stored for this rule to refuse.
    if (!(await purgedOnRevoke(t, p, name)))
      t.notApplicable(
        'an update omitting permanently_delete reset it on this target, so the role no longer holds it (assumption cloud.roles.update-keeps-omitted)',
        'assumptions.cloud.roles.update-keeps-omitted',
      );
    const { app } = await p.createApp(t.unique('existing'));
    t.track(`application ${app.displayName}`, () => p.deleteApp(app));
    // The update sends application_object_id alone: the role still holds permanently_delete true.
    t.check(
      await t.svc.post(`${cloud.path}/roles/${name}`, { body: { application_object_id: app.id } }),
      statusBetween(400, 499),
      errorMessage,
    );
  },
);

conformance(
  {
    id: 'cloud.roles.app-object-forbids-permanently-delete',
    also: ['cloud.roles.write-list'],
    level: 'MUST',
    title:
      'POST /cloud/roles/:name sending permanently_delete true to a role that holds application_object_id is refused (the stored value counts, not only the one sent)',
  },
  async (t) => {
    requireConfigured(t, cloud);
    const p = probe(t);
    const { app } = await p.createApp(t.unique('existing'));
    t.track(`application ${app.displayName}`, () => p.deleteApp(app));
    const name = t.unique('role');
    t.track(`role ${name}`, () => t.svc.delete(`${cloud.path}/roles/${name}`));
    t.as('cloud.roles.write-list').check(
      await t.svc.post(`${cloud.path}/roles/${name}`, { body: { application_object_id: app.id } }),
      success,
    );
    // The update sends permanently_delete alone: the role still holds application_object_id (and a
    // target that reset an omitted field would hold neither it nor cloud_roles: refused as well).
    t.check(
      await t.svc.post(`${cloud.path}/roles/${name}`, { body: { permanently_delete: true } }),
      statusBetween(400, 499),
      errorMessage,
    );
  },
);
