// Defaults after a later write: a role field never written holds its default after an update that omits it too, even when the role written just before holds another value; and what such an update does to a field that holds a value (an assumption). Each test has a mount of its own, so "the role written just before" is the test's.
import { suite, conformance, namesOf, type T } from '../../harness/index.js';
import { success } from '../../harness/checks/index.js';
import { cloudMount, eventually, fail, probe, propagation, requireConfigured } from './helpers.js';
import { configuredCloudMount } from './mounts.js';
import {
  type Creds,
  principalState,
  readCreds,
  revokedPrincipal,
  rolesAndGroups,
  rolesOnly,
  writeRole,
} from './leases.js';

const s = suite('cloud');
// The file's own roles live on fresh mounts; the shared one tells whether the root credentials work.
const cloud = cloudMount(s);

/** A fresh mount configured with the root client, once the shared one shows the root client works. */
async function configuredMount(t: T): Promise<string> {
  requireConfigured(t, cloud);
  return configuredCloudMount(t);
}

/**
 * On a fresh mount: role A written with `a`, then role B with `b` (the role written just before
 * A's update), then A updated with its cloud_roles again and nothing else. Returns A's name. The
 * writes are write-list's rule (which the tests name).
 */
async function updatedAfterAnother(
  t: T,
  mount: string,
  a: Record<string, unknown>,
  b: Record<string, unknown>,
  before?: (role: string) => Promise<unknown>,
): Promise<{ role: string; other: string }> {
  const roles = await rolesOnly(t);
  const role = await t.proving('cloud.roles.write-list', () => writeRole(t, mount, { ...roles, ...a }));
  await before?.(role);
  // B's write carries the field under test: a refusal of it fails the test's own rule.
  const other = await writeRole(t, mount, { ...(b.cloud_roles ? {} : roles), ...b });
  t.as('cloud.roles.write-list').check(await t.svc.post(`${mount}/roles/${role}`, { body: roles }), success);
  return { role, other };
}

// lease_duration counts whole seconds left, so a tick of the clock may show one second less.
const close = (a: number, b: number) => Math.abs(a - b) <= 1;

/** The application of a credential, as the directory shows it. */
async function appOf(t: T, c: Creds) {
  const app = await probe(t).appByClientId(c.clientId);
  if (!app) fail('directory-app', `no application with client_id ${c.clientId} exists`, 'an application', undefined);
  return app;
}

conformance(
  {
    id: 'cloud.roles.ttl',
    also: ['cloud.roles.write-list', 'cloud.creds.response'],
    level: 'MUST',
    title:
      'a role without ttl keeps the engine default after an update that omits ttl, even right after a role with one',
  },
  async (t) => {
    const mount = await configuredMount(t);
    let before = 0;
    const { role } = await updatedAfterAnother(t, mount, {}, { ttl: 600 }, async (r) => {
      before = (await readCreds(t, mount, r)).leaseDuration;
    });
    const after = (await readCreds(t, mount, role)).leaseDuration;
    if (!close(before, after))
      fail(
        'engine-default-ttl',
        'after an update that omitted ttl the role no longer has the engine default',
        before,
        after,
      );
  },
);

conformance(
  {
    id: 'cloud.roles.max-ttl',
    also: ['cloud.roles.write-list', 'cloud.creds.response'],
    level: 'MUST',
    title:
      'a role without max_ttl keeps the engine maximum after an update that omits max_ttl, even right after a role with one',
  },
  async (t) => {
    const mount = await configuredMount(t);
    let before = 0;
    const { role } = await updatedAfterAnother(t, mount, {}, { max_ttl: 300 }, async (r) => {
      before = (await readCreds(t, mount, r)).leaseDuration;
    });
    const after = (await readCreds(t, mount, role)).leaseDuration;
    if (!close(before, after))
      fail('engine-maximum', 'after an update that omitted max_ttl the role lease is capped otherwise', before, after);
  },
);

conformance(
  {
    id: 'cloud.roles.tags',
    also: ['cloud.roles.write-list', 'cloud.creds.response'],
    level: 'MUST',
    title:
      'a role without tags still creates applications without tags after an update that omits tags, even right after a role with tags',
  },
  async (t) => {
    const mount = await configuredMount(t);
    const { role, other } = await updatedAfterAnother(t, mount, {}, { tags: 'team:platform' });
    // The role written before does attach its tag: an application without tags is told apart.
    if (!(await appOf(t, await readCreds(t, mount, other))).tags.length)
      fail('tags', 'the role with tags created an application without them', ['team:platform'], []);
    const app = await appOf(t, await readCreds(t, mount, role));
    if (app.tags.length) fail('no-tags', 'after an update that omitted tags the application has tags', [], app.tags);
  },
);

conformance(
  {
    id: 'cloud.roles.sign-in-audience',
    also: ['cloud.roles.write-list', 'cloud.creds.response'],
    level: 'MUST',
    title:
      "a role without sign_in_audience still creates applications with the directory's default after an update that omits it, even right after a role with one",
  },
  async (t) => {
    const mount = await configuredMount(t);
    const p = probe(t);
    // What the directory gives an application nobody chose an audience for.
    const { app: plain } = await p.createApp(t.unique('plain'));
    t.track(`application ${plain.displayName}`, () => p.deleteApp(plain));
    const audiences = ['CloudADMyOrg', 'CloudADMultipleOrgs', 'CloudADandPersonalAccount', 'PersonalAccount'];
    const other = audiences.find(
      (a) => namesOf('svc', t.config).value('cloud', 'sign_in_audience', a) !== plain.signInAudience,
    )!;
    const { role, other: otherRole } = await updatedAfterAnother(t, mount, {}, { sign_in_audience: other });
    // The role written before does set its audience: the default is told apart.
    const set = await appOf(t, await readCreds(t, mount, otherRole));
    if (set.signInAudience === plain.signInAudience)
      fail(
        'sign-in-audience',
        `the role with sign_in_audience ${other} created an application without it`,
        other,
        set.signInAudience,
      );
    const app = await appOf(t, await readCreds(t, mount, role));
    if (app.signInAudience !== plain.signInAudience)
      fail(
        'sign-in-audience-default',
        "after an update that omitted sign_in_audience the application has another audience than the directory's default",
        plain.signInAudience,
        app.signInAudience,
      );
  },
);

conformance(
  {
    id: 'cloud.creds.principal-created',
    also: ['cloud.roles.write-list', 'cloud.creds.response'],
    level: 'MUST',
    title:
      'a role without cloud_groups still joins no group after an update that omits them, even right after a role with groups',
  },
  async (t) => {
    const mount = await configuredMount(t);
    const p = probe(t);
    const { body: withGroups, groupName } = await rolesAndGroups(t);
    const { role, other } = await updatedAfterAnother(t, mount, {}, withGroups);
    // The role written before does join its group: a membership is told apart.
    const joined = await principalState(p, (await readCreds(t, mount, other)).clientId);
    if (!joined.groups.some((g) => g.displayName === groupName))
      fail('group-membership', `the principal of the role with groups is not a member of ${groupName}`, groupName, []);
    const { sp, groups } = await principalState(p, (await readCreds(t, mount, role)).clientId);
    if (!sp) fail('directory-principal', 'no principal was created', 'present', undefined);
    if (groups.length)
      fail(
        'no-group-membership',
        'after an update that omitted cloud_groups the principal is a member of groups',
        [],
        groups.map((g) => g.displayName),
      );
  },
);

conformance(
  {
    id: 'cloud.creds.permanently-delete',
    also: ['cloud.roles.write-list', 'cloud.creds.revoke-removes', 'cloud.creds.response'],
    level: 'MUST',
    title:
      'a role without permanently_delete still keeps revoked applications as deleted items after an update that omits it, even right after a role with it',
  },
  async (t) => {
    const mount = await configuredMount(t);
    const p = probe(t);
    const { role } = await updatedAfterAnother(t, mount, {}, { permanently_delete: true });
    const ids = await t.proving('cloud.creds.revoke-removes', () => revokedPrincipal(t, p, mount, role, []));
    for (const id of [ids.app, ids.sp]) t.track(`deleted item ${id}`, () => p.purge(id));
    const kept = await eventually(propagation(t), async () =>
      Boolean((await p.deletedItem(ids.app)) && (await p.deletedItem(ids.sp))),
    );
    if (!kept)
      fail(
        'soft-deleted',
        'after an update that omitted permanently_delete the revoked application or principal is not among the deleted items',
        'both kept',
        { application: !!(await p.deletedItem(ids.app)), principal: !!(await p.deletedItem(ids.sp)) },
      );
  },
);

conformance(
  {
    id: 'cloud.roles.update-keeps-omitted',
    also: ['cloud.roles.ttl', 'cloud.roles.write-list', 'cloud.creds.response'],
    level: 'SHOULD',
    title:
      'POST /cloud/roles/:name on a role with ttl 600, without ttl, keeps it: credentials after the update last 600 s',
  },
  async (t) => {
    const mount = await configuredMount(t);
    const roles = await rolesOnly(t);
    const role = await t.proving('cloud.roles.write-list', () => writeRole(t, mount, { ...roles, ttl: 600 }));
    // The rule first (the role ttl sets the lease), then the open point: what the update keeps.
    const first = await readCreds(t, mount, role);
    t.proving('cloud.roles.ttl', () => {
      if (!close(first.leaseDuration, 600))
        fail('lease-duration', 'ttl 600 did not give a 600-second lease', 600, first.leaseDuration);
    });
    t.as('cloud.roles.write-list').check(await t.svc.post(`${mount}/roles/${role}`, { body: roles }), success);
    const after = (await readCreds(t, mount, role)).leaseDuration;
    if (!close(after, 600))
      fail(
        'update-keeps-omitted',
        'after an update that omitted ttl the lease is no longer 600 s: the update reset ttl',
        600,
        after,
      );
  },
);

conformance(
  {
    id: 'cloud.roles.update-keeps-omitted',
    also: ['cloud.creds.principal-created', 'cloud.roles.write-list', 'cloud.creds.response'],
    level: 'SHOULD',
    title:
      'POST /cloud/roles/:name on a role with cloud_groups, without cloud_groups, keeps them: its principal still joins the group',
  },
  async (t) => {
    const mount = await configuredMount(t);
    const p = probe(t);
    const { body, groupName } = await rolesAndGroups(t);
    const role = await t.proving('cloud.roles.write-list', () => writeRole(t, mount, body));
    const joins = async () => (await principalState(p, (await readCreds(t, mount, role)).clientId)).groups;
    // The rule first (the principal joins the role's group), then the open point: what the update keeps.
    const first = await joins();
    t.proving('cloud.creds.principal-created', () => {
      if (!first.some((g) => g.displayName === groupName))
        fail(
          'group-membership',
          `the principal is not a member of ${groupName}`,
          groupName,
          first.map((g) => g.displayName),
        );
    });
    t.as('cloud.roles.write-list').check(
      await t.svc.post(`${mount}/roles/${role}`, { body: { cloud_roles: body.cloud_roles } }),
      success,
    );
    const after = await joins();
    if (!after.some((g) => g.displayName === groupName))
      fail(
        'update-keeps-omitted',
        'after an update that omitted cloud_groups the principal no longer joins the group: the update dropped them',
        groupName,
        after.map((g) => g.displayName),
      );
  },
);
