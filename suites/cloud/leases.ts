/**
 * Roles and credentials of a cloud mount, as the credential tests use them: a role written and
 * removed after the test, credentials read with their lease (revoked after the test unless the
 * test revokes it), and what the directory holds for a credential's principal.
 */
import type { T } from '../../harness/index.js';
import { bodyAt, statusIs, success } from '../../harness/checks/index.js';
import {
  canRead,
  type DirectoryProbe,
  eventually,
  fail,
  fixtureGroupName,
  fixtureRoleName,
  loginsEventually,
  probe,
  propagation,
  revokeLease,
  scopeFor,
  purgeAfterTest,
} from './helpers.js';

export interface Creds {
  clientId: string;
  clientSecret: string;
  leaseId: string;
  leaseDuration: number;
}

/** Writes a run-unique role (deleted after the test) and returns its name. */
export async function writeRole(t: T, mount: string, body: Record<string, unknown>): Promise<string> {
  const name = t.unique('role');
  t.check(await t.svc.post(`${mount}/roles/${name}`, { body }), success);
  t.track(`role ${name}`, () => t.svc.delete(`${mount}/roles/${name}`));
  return name;
}

const nonEmpty = (v: unknown) => typeof v === 'string' && v.length > 0;

/**
 * Reads credentials of `role`. The test goes on to use the client id, the secret or the lease:
 * the response's fields are checked as `cloud.creds.response` (which every test reading
 * credentials names), so a response without them fails that rule rather than the one under test.
 */
export async function readCreds(t: T, mount: string, role: string, opts: { track?: boolean } = {}): Promise<Creds> {
  const ex = await t.svc.get(`${mount}/creds/${role}`);
  t.check(ex, statusIs(200));
  t.as('cloud.creds.response').check(
    ex,
    bodyAt('/data/client_id', nonEmpty, 'is a non-empty client id'),
    bodyAt('/data/client_secret', nonEmpty, 'is a non-empty client secret'),
    bodyAt('/lease_id', nonEmpty, 'names the lease'),
  );
  const b = ex.response.body as {
    data: { client_id: string; client_secret: string };
    lease_id: string;
    lease_duration: number;
  };
  t.secret(b.data.client_secret);
  // The client id is the created (or used) application's: it names an application of the directory.
  if (canRead(t))
    await t.proving('cloud.creds.response', async () => {
      const p = probe(t);
      if (!(await eventually(propagation(t), async () => Boolean(await p.appByClientId(b.data.client_id)))))
        fail(
          'client-id',
          `no application of the directory has the returned client_id ${b.data.client_id}`,
          'an application',
          undefined,
        );
    });
  if (opts.track !== false) t.track(`lease ${b.lease_id}`, () => revokeLease(t, b.lease_id), 'revoke');
  await purgeAfterTest(t, b.data.client_id);
  return {
    clientId: b.data.client_id,
    clientSecret: b.data.client_secret,
    leaseId: b.lease_id,
    leaseDuration: b.lease_duration,
  };
}

/** A role body naming the first fixture role definition (on a run-unique scope) and the first group. */
export async function rolesAndGroups(
  t: T,
): Promise<{ body: Record<string, unknown>; roleName: string; groupName: string; scope: string }> {
  const roleName = await fixtureRoleName(t);
  const groupName = await fixtureGroupName(t);
  const scope = await scopeFor(t);
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

/** A role body naming the first fixture role definition on a fresh run-unique scope, and no group. */
export async function rolesOnly(t: T): Promise<Record<string, unknown>> {
  return { cloud_roles: JSON.stringify([{ role_name: await fixtureRoleName(t), scope: await scopeFor(t) }]) };
}

/** The principal of a client id with what the directory holds for it. */
export async function principalState(p: DirectoryProbe, clientId: string) {
  const app = await p.appByClientId(clientId);
  const sp = await p.spByClientId(clientId);
  const assignments = sp ? await p.assignmentsOf(sp.id) : [];
  const groups = sp ? await p.groupsOf(sp.id) : [];
  return { app, sp, assignments, groups };
}

/** A fresh existing application (with its principal) for application_object_id roles, removed after the test. */
export async function existingApp(t: T, p: DirectoryProbe) {
  const { app } = await p.createApp(t.unique('existing'));
  t.track(`application ${app.displayName}`, () => p.deleteApp(app));
  return app;
}

/**
 * Expects the principal of `c` removed: its application and principal gone, no role assignment of
 * it left, no member list of `groups` (ids) naming it, and its secret refused.
 */
export async function expectGone(
  t: T,
  p: DirectoryProbe,
  c: Creds,
  spId: string,
  groups: string[],
  what: string,
): Promise<void> {
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
  const memberships = await p.groupsListing(spId, groups);
  if (memberships.length)
    fail('memberships-removed', `${what}: group memberships of the removed principal remain`, [], memberships);
  if (!(await loginsEventually(t, p, c.clientId, c.clientSecret, false)))
    fail('secret-refused', `${what}: the generated secret still authenticates`, 'refused', 200);
}

/**
 * Revokes credentials of `role` and returns the ids of their application and principal once both
 * are gone. That revocation removes them is the rule of revoke-removes (which the tests name).
 */
export async function revokedPrincipal(
  t: T,
  p: DirectoryProbe,
  mount: string,
  role: string,
  groups: string[],
): Promise<{ app: string; sp: string }> {
  const c = await readCreds(t, mount, role, { track: false });
  const app = await p.appByClientId(c.clientId);
  const sp = await p.spByClientId(c.clientId);
  if (!app || !sp) fail('directory-principal', 'no application or principal was created', 'present', undefined);
  t.check(await revokeLease(t, c.leaseId), success);
  await t.proving('cloud.creds.revoke-removes', () => expectGone(t, p, c, sp.id, groups, 'after revocation'));
  return { app: app.id, sp: sp.id };
}
