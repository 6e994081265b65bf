// Several where the documents allow several: every cloud_roles item and every cloud_groups item of a role applied to its principal, and several leases of one role, each ended on its own.
import { suite, conformance } from '../../harness/index.js';
import { success } from '../../harness/checks/index.js';
import {
  cloudMount,
  fail,
  fixtureGroupNames,
  fixtureRoleName,
  groupIds,
  loginsEventually,
  probe,
  requireConfigured,
  revokeLease,
  sameDefinition,
  sameScope,
  scopeFor,
} from './helpers.js';
import { expectGone, principalState, readCreds, rolesAndGroups, writeRole } from './leases.js';

const s = suite('cloud');
const cloud = cloudMount(s);

conformance(
  {
    id: 'cloud.creds.principal-created',
    also: ['cloud.creds.response'],
    level: 'MUST',
    title: 'GET /cloud/creds/:name gives the principal every cloud_roles item of the role, not only the first',
  },
  async (t) => {
    requireConfigured(t, cloud);
    const p = probe(t);
    const roleName = await fixtureRoleName(t);
    // One definition on three run-unique scopes: three items, none a duplicate of another.
    const scopes = [await scopeFor(t, 'scope-a'), await scopeFor(t, 'scope-b'), await scopeFor(t, 'scope-c')];
    const body = { cloud_roles: JSON.stringify(scopes.map((scope) => ({ role_name: roleName, scope }))) };
    const c = await readCreds(t, cloud.path, await writeRole(t, cloud.path, body));
    const { sp, assignments } = await principalState(p, c.clientId);
    if (!sp)
      fail('directory-principal', `the directory has no principal for client_id ${c.clientId}`, 'present', undefined);
    const wanted = (await p.roleDefinitions(roleName))[0]?.id ?? roleName;
    const missing = scopes.filter(
      (scope) => !assignments.some((a) => sameScope(a.scope, scope) && sameDefinition(a.roleDefinitionId, wanted)),
    );
    if (missing.length)
      fail(
        'every-role-assigned',
        `the principal lacks the assignment of ${roleName} on ${missing.length} of the role's ${scopes.length} scopes`,
        scopes,
        assignments.map((a) => a.scope),
      );
  },
);

conformance(
  {
    id: 'cloud.creds.principal-created',
    also: ['cloud.creds.response'],
    level: 'MUST',
    title:
      'GET /cloud/creds/:name makes the principal a member of every cloud_groups item of the role, not only the first',
  },
  async (t) => {
    requireConfigured(t, cloud);
    const p = probe(t);
    const groups = await fixtureGroupNames(t, 2);
    const body = {
      cloud_roles: JSON.stringify([{ role_name: await fixtureRoleName(t), scope: await scopeFor(t) }]),
      cloud_groups: JSON.stringify(groups.map((group_name) => ({ group_name }))),
    };
    const c = await readCreds(t, cloud.path, await writeRole(t, cloud.path, body));
    const { sp, groups: joined } = await principalState(p, c.clientId);
    if (!sp)
      fail('directory-principal', `the directory has no principal for client_id ${c.clientId}`, 'present', undefined);
    const names = joined.map((g) => g.displayName);
    const missing = groups.filter((g) => !names.includes(g));
    if (missing.length)
      fail('every-group-joined', `the principal is not a member of ${missing.join(', ')}`, groups, names);
  },
);

conformance(
  {
    id: 'cloud.creds.revoke-removes',
    also: ['cloud.creds.response'],
    level: 'MUST',
    title: 'of two credentials of one role, revoking the first removes its own principal and leaves the second working',
  },
  async (t) => {
    requireConfigured(t, cloud);
    const p = probe(t);
    const { body, groupName } = await rolesAndGroups(t);
    const role = await writeRole(t, cloud.path, body);
    const first = await readCreds(t, cloud.path, role, { track: false });
    const second = await readCreds(t, cloud.path, role);
    if (first.clientId === second.clientId)
      fail('two-principals', 'two credentials of a role name the same application', 'two client ids', first.clientId);
    const sp = await p.spByClientId(first.clientId);
    if (!sp) fail('directory-principal', 'no principal was created', 'present', undefined);
    t.check(await revokeLease(t, first.leaseId), success);
    await expectGone(t, p, first, sp.id, await groupIds(t, groupName), 'after revoking the first lease');
    if (!(await p.appByClientId(second.clientId)) || !(await p.spByClientId(second.clientId)))
      fail(
        'other-principal-kept',
        'revoking one lease removed the application or principal of another lease of the role',
        'present',
        'removed',
      );
    if (!(await loginsEventually(t, p, second.clientId, second.clientSecret, true)))
      fail('other-secret', 'the secret of the lease not revoked stopped working', 200, 'refused');
  },
);
