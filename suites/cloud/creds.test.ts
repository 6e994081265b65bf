// The cloud credential lifecycle of one mount: what credentials create in the directory, and what the end of their lease removes.
import { suite, conformance } from '../../harness/index.js';
import { bodyAt, statusBetween, statusIs, success, errorMessage } from '../../harness/checks/index.js';
import {
  cloudMount,
  eventually,
  fail,
  groupIds,
  loginsEventually,
  probe,
  propagation,
  requireConfigured,
  revokeLease,
  sameDefinition,
  sameScope,
  purgeAfterTest,
} from './helpers.js';
import {
  existingApp,
  expectGone,
  principalState,
  readCreds,
  revokedPrincipal,
  rolesAndGroups,
  rolesOnly,
  writeRole,
} from './leases.js';
import { configuredCloudMount } from './mounts.js';

const s = suite('cloud');
const cloud = cloudMount(s);

conformance(
  {
    id: 'cloud.creds.response',
    level: 'MUST',
    title: 'GET /cloud/creds/:name returns data.client_id and data.client_secret with a lease',
  },
  async (t) => {
    requireConfigured(t, cloud);
    const { body } = await rolesAndGroups(t);
    const role = await writeRole(t, cloud.path, body);
    const ex = await t.svc.get(`${cloud.path}/creds/${role}`);
    const issued = ex.response.body as { lease_id?: string; data?: { client_id?: string } } | undefined;
    const leaseId = issued?.lease_id;
    if (leaseId) t.track(`lease ${leaseId}`, () => revokeLease(t, leaseId), 'revoke');
    if (leaseId && typeof issued?.data?.client_id === 'string') await purgeAfterTest(t, issued.data.client_id);
    // No format is checked: client ids and secrets are the directory's (dialect and variants vary them).
    t.check(
      ex,
      statusIs(200),
      bodyAt('/data/client_id', (v: unknown) => typeof v === 'string' && v.length > 0, 'is a non-empty client id'),
      bodyAt(
        '/data/client_secret',
        (v: unknown) => typeof v === 'string' && v.length > 0,
        'is a non-empty client secret',
      ),
      bodyAt('/lease_id', (v: unknown) => typeof v === 'string' && v.length > 0, 'names the lease'),
      bodyAt('/lease_duration', (v: unknown) => typeof v === 'number' && v > 0, 'is positive'),
    );
  },
);

conformance(
  {
    id: 'cloud.creds.principal-created',
    also: ['cloud.creds.response'],
    level: 'MUST',
    title:
      'GET /cloud/creds/:name creates an application and principal holding the role assignments and group memberships',
  },
  async (t) => {
    requireConfigured(t, cloud);
    const p = probe(t);
    const { body, roleName, groupName, scope } = await rolesAndGroups(t);
    const c = await readCreds(t, cloud.path, await writeRole(t, cloud.path, body));
    const state = await principalState(p, c.clientId);
    if (!state.app || !state.sp)
      fail(
        'directory-principal',
        `the directory has no application and principal for client_id ${c.clientId}`,
        'both present',
        { app: !!state.app, principal: !!state.sp },
      );
    const wanted = (await p.roleDefinitions(roleName))[0]?.id ?? roleName;
    if (!state.assignments.some((a) => sameScope(a.scope, scope) && sameDefinition(a.roleDefinitionId, wanted))) {
      fail(
        'role-assignment',
        `the principal lacks the assignment of ${roleName} on ${scope}`,
        { roleDefinitionId: wanted, scope },
        state.assignments,
      );
    }
    if (!state.groups.some((g) => g.displayName === groupName))
      fail(
        'group-membership',
        `the principal is not a member of ${groupName}`,
        groupName,
        state.groups.map((g) => g.displayName),
      );
  },
);

conformance(
  {
    id: 'cloud.creds.principal-created',
    also: ['cloud.creds.response'],
    level: 'MUST',
    title: 'the principal of a role without cloud_groups joins no group, even right after a role with groups',
  },
  async (t) => {
    requireConfigured(t, cloud);
    const p = probe(t);
    // On a mount of the test's own, the role written just before is the test's.
    const mount = await configuredCloudMount(t);
    const [withGroups, roles] = [(await rolesAndGroups(t)).body, await rolesOnly(t)];
    // A role with a group first: a role without cloud_groups must not take its groups.
    await writeRole(t, mount, withGroups);
    const c = await readCreds(t, mount, await writeRole(t, mount, roles));
    const { sp, groups } = await principalState(p, c.clientId);
    if (!sp)
      fail('directory-principal', `the directory has no principal for client_id ${c.clientId}`, 'present', undefined);
    if (groups.length)
      fail(
        'no-group-membership',
        'the principal of a role without cloud_groups is a member of groups (the default is empty)',
        [],
        groups.map((g) => g.displayName),
      );
  },
);

conformance(
  {
    id: 'cloud.creds.principal-created',
    also: ['cloud.creds.response'],
    level: 'MUST',
    title:
      'a role without application_object_id gets a new application and principal, even right after a role with one',
  },
  async (t) => {
    requireConfigured(t, cloud);
    const p = probe(t);
    const app = await existingApp(t, p);
    // On a mount of the test's own, the role written just before is the test's.
    const mount = await configuredCloudMount(t);
    const roles = await rolesOnly(t);
    await writeRole(t, mount, { application_object_id: app.id });
    const c = await readCreds(t, mount, await writeRole(t, mount, roles));
    if (c.clientId === app.appId)
      fail(
        'dynamic-principal',
        'credentials of a role without application_object_id name the application of another role',
        'a new application',
        c.clientId,
      );
    const state = await principalState(p, c.clientId);
    if (!state.app || !state.sp)
      fail(
        'directory-principal',
        `the directory has no application and principal for client_id ${c.clientId}`,
        'both present',
        { app: !!state.app, principal: !!state.sp },
      );
  },
);

conformance(
  {
    id: 'cloud.creds.secret-authenticates',
    also: ['cloud.creds.response'],
    level: 'MUST',
    title: 'the client_id and client_secret from GET /cloud/creds/:name authenticate against the cloud directory',
  },
  async (t) => {
    requireConfigured(t, cloud);
    const p = probe(t);
    const { body } = await rolesAndGroups(t);
    const c = await readCreds(t, cloud.path, await writeRole(t, cloud.path, body));
    // A directory may take a moment to accept a new secret (bounded by cloud.propagationSeconds).
    if (!(await loginsEventually(t, p, c.clientId, c.clientSecret, true)))
      fail(
        'secret-authenticates',
        'the directory refused the generated client credentials',
        200,
        await p.loginStatus(c.clientId, c.clientSecret),
      );
  },
);

conformance(
  {
    id: 'cloud.creds.revoke-removes',
    also: ['cloud.creds.response'],
    level: 'MUST',
    title: 'revoking a cloud lease removes its application, principal, role assignments and group memberships',
  },
  async (t) => {
    requireConfigured(t, cloud);
    const p = probe(t);
    const { body, groupName } = await rolesAndGroups(t);
    const c = await readCreds(t, cloud.path, await writeRole(t, cloud.path, body), { track: false });
    const sp = await p.spByClientId(c.clientId);
    if (!sp) fail('directory-principal', 'no principal was created', 'present', undefined);
    t.check(await revokeLease(t, c.leaseId), success);
    await expectGone(t, p, c, sp.id, await groupIds(t, groupName), 'after revocation');
  },
);

conformance(
  {
    id: 'cloud.creds.revoke-removes',
    also: ['cloud.creds.response'],
    level: 'MUST',
    title:
      'a role written without persist_app right after a persist_app role keeps the default (false): revoking its lease removes its application and principal',
  },
  async (t) => {
    requireConfigured(t, cloud);
    const p = probe(t);
    const { body, groupName } = await rolesAndGroups(t);
    // The role written just before has persist_app true (on a mount of the test's own, the test's
    // role): the new role must not take it over.
    const mount = await configuredCloudMount(t);
    const persisted = await writeRole(t, mount, { ...body, persist_app: true });
    // Its credentials name the application it keeps, so the test can purge it once the role is gone.
    await readCreds(t, mount, persisted);
    const c = await readCreds(t, mount, await writeRole(t, mount, body), { track: false });
    const sp = await p.spByClientId(c.clientId);
    if (!sp) fail('directory-principal', 'no principal was created', 'present', undefined);
    t.check(await revokeLease(t, c.leaseId), success);
    await expectGone(t, p, c, sp.id, await groupIds(t, groupName), 'after revocation');
  },
);

conformance(
  {
    id: 'cloud.creds.revoke-removes',
    also: ['cloud.roles.ttl', 'cloud.creds.response'],
    level: 'MUST',
    title: 'a cloud lease that reaches the role ttl removes its principal from the directory',
    movesClock: 'past the lease ttl',
  },
  async (t) => {
    requireConfigured(t, cloud);
    const p = probe(t);
    const { body, groupName } = await rolesAndGroups(t);
    const c = await readCreds(t, cloud.path, await writeRole(t, cloud.path, { ...body, ttl: 30 }));
    const sp = await p.spByClientId(c.clientId);
    if (!sp) fail('directory-principal', 'no principal was created', 'present', undefined);
    t.proving('cloud.roles.ttl', () => {
      if (c.leaseDuration > 30) fail('lease-duration', 'the lease outlives the role ttl', '<= 30', c.leaseDuration);
    });
    await t.advance(31);
    await expectGone(t, p, c, sp.id, await groupIds(t, groupName), 'after the ttl passed');
  },
);

conformance(
  {
    id: 'cloud.creds.permanently-delete',
    also: ['cloud.creds.revoke-removes', 'cloud.creds.response'],
    level: 'MUST',
    title: 'with permanently_delete the revoked application and principal leave no deleted item',
  },
  async (t) => {
    requireConfigured(t, cloud);
    const p = probe(t);
    const { body, groupName } = await rolesAndGroups(t);
    const groups = await groupIds(t, groupName);
    const ids = await revokedPrincipal(
      t,
      p,
      cloud.path,
      await writeRole(t, cloud.path, { ...body, permanently_delete: true }),
      groups,
    );
    const leftovers = [await p.deletedItem(ids.app), await p.deletedItem(ids.sp)].filter(Boolean);
    if (leftovers.length)
      fail('permanently-deleted', 'the application or principal is kept among deleted items', [], leftovers);
  },
);

conformance(
  {
    id: 'cloud.creds.permanently-delete',
    also: ['cloud.creds.revoke-removes', 'cloud.creds.response'],
    level: 'MUST',
    title:
      'without permanently_delete the revoked application and principal are kept as deleted items, even right after a role with it',
  },
  async (t) => {
    requireConfigured(t, cloud);
    const p = probe(t);
    const { body, groupName } = await rolesAndGroups(t);
    const groups = await groupIds(t, groupName);
    // A role with permanently_delete first (on a mount of the test's own, the test's role): a role
    // without it must not take its value.
    const mount = await configuredCloudMount(t);
    await writeRole(t, mount, { ...body, permanently_delete: true });
    const ids = await revokedPrincipal(t, p, mount, await writeRole(t, mount, body), groups);
    for (const id of [ids.app, ids.sp]) t.track(`deleted item ${id}`, () => p.purge(id));
    const kept = await eventually(propagation(t), async () =>
      Boolean((await p.deletedItem(ids.app)) && (await p.deletedItem(ids.sp))),
    );
    if (!kept)
      fail(
        'soft-deleted',
        'the revoked application or principal is not among the deleted items (permanently_delete defaults to false)',
        'both kept',
        { application: !!(await p.deletedItem(ids.app)), principal: !!(await p.deletedItem(ids.sp)) },
      );
  },
);

conformance(
  {
    id: 'cloud.creds.unknown-role',
    level: 'SHOULD',
    title: 'GET /cloud/creds/:name for a role that does not exist answers 4xx',
  },
  async (t) => {
    requireConfigured(t, cloud);
    t.check(await t.svc.get(`${cloud.path}/creds/${t.unique('nobody')}`), statusBetween(400, 404), errorMessage);
  },
);
