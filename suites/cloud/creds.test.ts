// size: the cloud credential lifecycle (issue, lease, renew, revoke) of one mount: 12 tests over its roles.
import { suite, conformance, type T } from '../../harness/index.js';
import { bodyAt, statusBetween, statusIs, success, errorMessage } from '../../harness/checks/index.js';
import {
  cloudMount,
  eventually,
  fail,
  fixtureGroupName,
  fixtureRoleName,
  loginsEventually,
  probe,
  propagation,
  requireConfigured,
  revokeLease,
  scopeFor,
  type DirectoryProbe,
} from './helpers.js';

const s = suite('cloud');
const cloud = cloudMount(s);

interface Creds {
  clientId: string;
  clientSecret: string;
  leaseId: string;
  leaseDuration: number;
}

async function writeRole(t: T, body: Record<string, unknown>): Promise<string> {
  const name = t.unique('role');
  t.check(await t.svc.post(`${cloud.path}/roles/${name}`, { body }), success);
  t.track(`role ${name}`, () => t.svc.delete(`${cloud.path}/roles/${name}`));
  return name;
}

async function readCreds(t: T, role: string, opts: { track?: boolean } = {}): Promise<Creds> {
  const ex = await t.svc.get(`${cloud.path}/creds/${role}`);
  t.check(ex, statusIs(200));
  const b = ex.response.body as {
    data: { client_id: string; client_secret: string };
    lease_id: string;
    lease_duration: number;
  };
  t.secret(b.data.client_secret);
  if (opts.track !== false) t.track(`lease ${b.lease_id}`, () => revokeLease(t, b.lease_id), 'revoke');
  return {
    clientId: b.data.client_id,
    clientSecret: b.data.client_secret,
    leaseId: b.lease_id,
    leaseDuration: b.lease_duration,
  };
}

async function rolesAndGroups(
  t: T,
): Promise<{ body: Record<string, unknown>; roleName: string; groupName: string; scope: string }> {
  const roleName = await fixtureRoleName(t);
  const groupName = await fixtureGroupName(t);
  const scope = scopeFor(t);
  return {
    roleName,
    groupName,
    scope,
    body: {
      cloud_roles: JSON.stringify([{ role_name: roleName, scope }]),
      cloud_groups: JSON.stringify([{ group_name: groupName }]),
    },
  };
}

/** The principal of a client id with what the directory holds for it. */
async function principalState(p: DirectoryProbe, clientId: string) {
  const app = await p.appByClientId(clientId);
  const sp = await p.spByClientId(clientId);
  const assignments = sp ? await p.assignmentsOf(sp.id) : [];
  const groups = sp ? await p.groupsOf(sp.id) : [];
  return { app, sp, assignments, groups };
}

async function expectGone(t: T, p: DirectoryProbe, c: Creds, spId: string, what: string): Promise<void> {
  const gone = await eventually(
    propagation(t),
    async () => !(await p.appByClientId(c.clientId)) && !(await p.spByClientId(c.clientId)),
  );
  if (!gone)
    fail(
      'directory-removed',
      `${what}: the application or service principal of ${c.clientId} still exists`,
      'removed',
      'present',
    );
  const assignments = await p.assignmentsOf(spId);
  if (assignments.length)
    fail(
      'assignments-removed',
      `${what}: role assignments of the removed principal remain`,
      [],
      assignments.map((a) => a.scope),
    );
  const groups = await p.groupsListing(spId);
  if (groups.length)
    fail('memberships-removed', `${what}: group memberships of the removed principal remain`, [], groups);
  if (!(await loginsEventually(t, p, c.clientId, c.clientSecret, false)))
    fail('secret-refused', `${what}: the generated secret still authenticates`, 'refused', 200);
}

conformance(
  {
    id: 'cloud.creds.response',
    level: 'MUST',
    title: 'GET /cloud/creds/:name returns data.client_id and data.client_secret with a lease',
  },
  async (t) => {
    requireConfigured(t, cloud);
    const { body } = await rolesAndGroups(t);
    const role = await writeRole(t, body);
    const ex = await t.svc.get(`${cloud.path}/creds/${role}`);
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
    const leaseId = (ex.response.body as { lease_id: string }).lease_id;
    t.track(`lease ${leaseId}`, () => revokeLease(t, leaseId), 'revoke');
  },
);

conformance(
  {
    id: 'cloud.creds.principal-created',
    level: 'MUST',
    title:
      'GET /cloud/creds/:name creates an application and principal holding the role assignments and group memberships',
  },
  async (t) => {
    requireConfigured(t, cloud);
    const p = probe(t);
    const { body, roleName, groupName, scope } = await rolesAndGroups(t);
    const c = await readCreds(t, await writeRole(t, body));
    const state = await principalState(p, c.clientId);
    if (!state.app || !state.sp)
      fail(
        'directory-principal',
        `the directory has no application and principal for client_id ${c.clientId}`,
        'both present',
        { app: !!state.app, principal: !!state.sp },
      );
    const defs = await p.roleDefinitions();
    const wanted = defs.find((d) => d.roleName === roleName)?.id;
    if (!state.assignments.some((a) => a.scope === scope && a.roleDefinitionId === wanted)) {
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
    id: 'cloud.creds.secret-authenticates',
    level: 'MUST',
    title: 'the client_id and client_secret from GET /cloud/creds/:name authenticate against the cloud directory',
  },
  async (t) => {
    requireConfigured(t, cloud);
    const p = probe(t);
    const { body } = await rolesAndGroups(t);
    const c = await readCreds(t, await writeRole(t, body));
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
    level: 'MUST',
    title: 'revoking a cloud lease removes its application, principal, role assignments and group memberships',
  },
  async (t) => {
    requireConfigured(t, cloud);
    const p = probe(t);
    const { body } = await rolesAndGroups(t);
    const c = await readCreds(t, await writeRole(t, body), { track: false });
    const sp = await p.spByClientId(c.clientId);
    if (!sp) fail('directory-principal', 'no principal was created', 'present', undefined);
    t.check(await revokeLease(t, c.leaseId), success);
    await expectGone(t, p, c, sp.id, 'after revocation');
  },
);

conformance(
  {
    id: 'cloud.creds.revoke-removes',
    also: ['cloud.roles.ttl'],
    level: 'MUST',
    title: 'a cloud lease that reaches the role ttl removes its principal from the directory',
    movesClock: 'past the lease ttl',
  },
  async (t) => {
    requireConfigured(t, cloud);
    const p = probe(t);
    const { body } = await rolesAndGroups(t);
    const c = await readCreds(t, await writeRole(t, { ...body, ttl: 30 }));
    const sp = await p.spByClientId(c.clientId);
    if (!sp) fail('directory-principal', 'no principal was created', 'present', undefined);
    if (c.leaseDuration > 30) fail('lease-duration', 'the lease outlives the role ttl', '<= 30', c.leaseDuration);
    await t.advance(31);
    await expectGone(t, p, c, sp.id, 'after the ttl passed');
  },
);

conformance(
  {
    id: 'cloud.roles.ttl',
    level: 'MUST',
    title: 'the role ttl sets the lease duration of GET /cloud/creds/:name, as a string or integer seconds',
  },
  async (t) => {
    requireConfigured(t, cloud);
    const { body } = await rolesAndGroups(t);
    const fromString = await readCreds(t, await writeRole(t, { ...body, ttl: '1h' }));
    // lease_duration counts whole seconds left, so a tick of the clock may show one second less.
    const about = (v: number, want: number) => v === want || v === want - 1;
    if (!about(fromString.leaseDuration, 3600))
      fail('lease-duration', 'ttl "1h" did not give a one-hour lease', 3600, fromString.leaseDuration);
    const fromInt = await readCreds(
      t,
      await writeRole(t, {
        ...body,
        cloud_roles: JSON.stringify([{ role_name: await fixtureRoleName(t), scope: scopeFor(t) }]),
        ttl: 600,
      }),
    );
    if (!about(fromInt.leaseDuration, 600))
      fail('lease-duration', 'ttl 600 did not give a 600-second lease', 600, fromInt.leaseDuration);
  },
);

conformance(
  {
    id: 'cloud.roles.max-ttl',
    level: 'MUST',
    title: 'the role max_ttl caps the lease of GET /cloud/creds/:name and its renewal',
  },
  async (t) => {
    requireConfigured(t, cloud);
    const { body } = await rolesAndGroups(t);
    const c = await readCreds(t, await writeRole(t, { ...body, max_ttl: 120 }));
    if (c.leaseDuration > 120) fail('lease-duration', 'the lease exceeds the role max_ttl', '<= 120', c.leaseDuration);
    const renew = await t.svc.put('sys/leases/renew', { body: { lease_id: c.leaseId, increment: 3600 } });
    if (renew.response.status !== 200) {
      // The run shares one clock: another suite may have moved it past this short lease.
      t.note(`renewal answered ${renew.response.status}; only the issued lease was checked against max_ttl`);
      return;
    }
    const after = (renew.response.body as { lease_duration?: number }).lease_duration ?? 0;
    if (after > 120) fail('renewed-duration', 'renewal extended the lease past max_ttl', '<= 120', after);
  },
);

/** A fresh existing application for application_object_id roles, removed after the test. */
async function existingApp(t: T, p: DirectoryProbe) {
  const { app } = await p.createApp(t.unique('existing'));
  t.track(`application ${app.displayName}`, () => p.deleteApp(app));
  return app;
}

conformance(
  {
    id: 'cloud.creds.app-object-adds-secret',
    level: 'MUST',
    title:
      'GET /cloud/creds/:name of an application_object_id role adds a secret to that application and the lease end removes only it',
  },
  async (t) => {
    requireConfigured(t, cloud);
    const p = probe(t);
    const app = await existingApp(t, p);
    const role = await writeRole(t, { application_object_id: app.id });
    const c = await readCreds(t, role, { track: false });
    if (c.clientId !== app.appId)
      fail('client-id', 'credentials of an application_object_id role name another application', app.appId, c.clientId);
    const withSecret = await p.appByClientId(app.appId);
    if ((withSecret?.passwordCredentials.length ?? 0) !== app.passwordCredentials.length + 1)
      fail(
        'secret-added',
        'no secret was added to the existing application',
        app.passwordCredentials.length + 1,
        withSecret?.passwordCredentials.length,
      );
    if (!(await loginsEventually(t, p, c.clientId, c.clientSecret, true)))
      fail('secret-authenticates', 'the added secret does not authenticate', 200, 'refused');
    t.check(await revokeLease(t, c.leaseId), success);
    const removed = await loginsEventually(t, p, c.clientId, c.clientSecret, false);
    if (!removed) fail('secret-removed', 'the secret still authenticates after the lease was revoked', 'refused', 200);
    const after = await p.appByClientId(app.appId);
    if (!after) fail('app-kept', 'revoking the lease deleted the existing application', 'present', undefined);
    if (after.passwordCredentials.length !== app.passwordCredentials.length)
      fail(
        'secret-removed',
        'the application keeps more secrets than before the credentials',
        app.passwordCredentials.length,
        after.passwordCredentials.length,
      );
  },
);

conformance(
  {
    id: 'cloud.roles.app-object-ignores-roles',
    level: 'MUST',
    title: 'GET /cloud/creds/:name of a role with application_object_id ignores cloud_roles',
  },
  async (t) => {
    requireConfigured(t, cloud);
    const p = probe(t);
    const app = await existingApp(t, p);
    const role = await writeRole(t, {
      application_object_id: app.id,
      cloud_roles: JSON.stringify([{ role_name: await fixtureRoleName(t), scope: scopeFor(t) }]),
    });
    const c = await readCreds(t, role);
    if (c.clientId !== app.appId)
      fail(
        'client-id',
        'the engine created a new application instead of using application_object_id',
        app.appId,
        c.clientId,
      );
    const sp = await p.spByClientId(app.appId);
    const assignments = sp ? await p.assignmentsOf(sp.id) : [];
    if (assignments.length)
      fail(
        'no-assignments',
        'cloud_roles were assigned although application_object_id was set',
        [],
        assignments.map((a) => a.scope),
      );
  },
);

conformance(
  {
    id: 'cloud.creds.persist-app',
    level: 'MUST',
    title: 'with persist_app the application outlives its leases and lives as long as the role',
  },
  async (t) => {
    requireConfigured(t, cloud);
    const p = probe(t);
    const { body } = await rolesAndGroups(t);
    const role = await writeRole(t, { ...body, persist_app: true });
    const first = await readCreds(t, role, { track: false });
    const second = await readCreds(t, role);
    if (first.clientId !== second.clientId)
      fail(
        'same-app',
        'two credentials of a persist_app role name different applications',
        first.clientId,
        second.clientId,
      );
    t.check(await revokeLease(t, first.leaseId), success);
    if (!(await p.appByClientId(first.clientId)))
      fail('app-persists', 'revoking one lease deleted the persisted application', 'present', undefined);
    if (!(await loginsEventually(t, p, second.clientId, second.clientSecret, true)))
      fail('other-secret', 'the other lease secret stopped working', 200, 'refused');
    const revoked = await loginsEventually(t, p, first.clientId, first.clientSecret, false);
    if (!revoked) fail('secret-removed', 'the revoked lease secret still authenticates', 'refused', 200);
    t.check(await revokeLease(t, second.leaseId), success);
    t.check(await t.svc.delete(`${cloud.path}/roles/${role}`), success);
    const gone = await eventually(propagation(t), async () => !(await p.appByClientId(first.clientId)));
    if (!gone)
      fail(
        'app-removed-with-role',
        'the persisted application remains after the role was deleted',
        'removed',
        'present',
      );
  },
);

conformance(
  {
    id: 'cloud.creds.permanently-delete',
    level: 'MUST',
    title: 'with permanently_delete the revoked application and principal leave no deleted item',
  },
  async (t) => {
    requireConfigured(t, cloud);
    const p = probe(t);
    const { body } = await rolesAndGroups(t);
    const c = await readCreds(t, await writeRole(t, { ...body, permanently_delete: true }), { track: false });
    const app = await p.appByClientId(c.clientId);
    const sp = await p.spByClientId(c.clientId);
    if (!app || !sp) fail('directory-principal', 'no application or principal was created', 'present', undefined);
    t.check(await revokeLease(t, c.leaseId), success);
    await expectGone(t, p, c, sp.id, 'after revocation');
    const leftovers = [await p.deletedItem(app.id), await p.deletedItem(sp.id)].filter(Boolean);
    if (leftovers.length)
      fail('permanently-deleted', 'the application or principal is kept among deleted items', [], leftovers);
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
