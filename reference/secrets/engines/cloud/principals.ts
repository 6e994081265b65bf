/**
 * The cloud engine's work in the directory: a role's roles and groups resolved to directory
 * objects, and the principal a credential belongs to (application, service principal, role
 * assignments, group memberships) created and removed, with partial work undone on failure.
 */
import { randomUUID } from 'node:crypto';
import { badRequest } from '../../errors.js';
import { type DirectoryClient, odata, orMissing } from './directory-client.js';
import type { GroupItem, RoleItem } from './roles.js';
import type { CloudRules, Principal, ResolvedGroup, ResolvedRole, RoleEntry } from './rules.js';

/** A role definition as the resource manager answers it. */
type Def = { id: string; properties?: { roleName?: string } };

/**
 * A role's cloud_roles resolved to role definitions: by id (a full id, or the definition's name in
 * the configured subscription), or by a name unique in that subscription (where definitions live).
 */
export async function resolveRoles(
  rules: CloudRules,
  client: DirectoryClient,
  items: RoleItem[],
  subscriptionId: string,
): Promise<ResolvedRole[]> {
  const inSubscription = subscriptionId ? `/subscriptions/${subscriptionId}` : '';
  const out: ResolvedRole[] = [];
  const seen = new Set<string>();
  for (const [index, item] of items.entries()) {
    let def: Def | undefined;
    if (item.role_id) {
      const id = item.role_id.startsWith('/')
        ? item.role_id
        : `${inSubscription}/providers/Microsoft.Authorization/roleDefinitions/${encodeURIComponent(item.role_id)}`;
      def = await orMissing(() => client.arm<Def>('GET', id));
      if (!def) rules.missingResource(`no role found for role_id: '${item.role_id}'`, index);
    } else {
      const defs = await client.armList<Def>(
        `${inSubscription}/providers/Microsoft.Authorization/roleDefinitions`,
        `roleName eq ${odata(item.role_name!)}`,
      );
      if (defs.length > 1)
        throw badRequest(`multiple matches found for role_name: '${item.role_name}'; specify role_id instead`);
      def = defs[0];
      if (!def) rules.missingResource(`no role found for role_name: '${item.role_name}'`, index);
    }
    const resolved = def
      ? { role_name: def.properties?.roleName ?? '', role_id: def.id, scope: item.scope }
      : { role_name: item.role_name ?? '', role_id: item.role_id ?? '', scope: item.scope };
    const key = `${resolved.role_id}||${resolved.scope}`;
    if (seen.has(key)) throw badRequest(`duplicate role_id and scope: '${resolved.role_id}', '${resolved.scope}'`);
    seen.add(key);
    out.push(resolved);
  }
  return out;
}

/** A role's cloud_groups resolved to groups of the directory (by object id or by unique name). */
export async function resolveGroups(
  rules: CloudRules,
  client: DirectoryClient,
  items: GroupItem[],
): Promise<ResolvedGroup[]> {
  type G = { id: string; displayName: string };
  const out: ResolvedGroup[] = [];
  for (const [index, item] of items.entries()) {
    let g: G | undefined;
    if (item.object_id) {
      g = await orMissing(() => client.graph<G>('GET', `/groups/${encodeURIComponent(item.object_id!)}`));
      if (!g) rules.missingResource(`no group found for object_id: '${item.object_id}'`, index);
    } else {
      const filter = encodeURIComponent(`displayName eq ${odata(item.group_name!)}`);
      const list = await client.graphList<G>(`/groups?$filter=${filter}`);
      if (list.length > 1)
        throw badRequest(`multiple matches found for group_name: '${item.group_name}'; specify object_id instead`);
      g = list[0];
      if (!g) rules.missingResource(`no group found for group_name: '${item.group_name}'`, index);
    }
    if (!g) continue;
    if (out.some((o) => o.object_id === g!.id)) throw badRequest(`duplicate object_id '${g.id}'`);
    out.push({ group_name: g.displayName, object_id: g.id });
  }
  return out;
}

/** Assigns `roles` to the principal `spId`: one assignment each, under its scope; their ids. */
export async function assignRoles(client: DirectoryClient, spId: string, roles: ResolvedRole[]): Promise<string[]> {
  const ids: string[] = [];
  for (const r of roles) {
    const a = await client.arm<{ id: string }>(
      'PUT',
      `${r.scope}/providers/Microsoft.Authorization/roleAssignments/${randomUUID()}`,
      { properties: { roleDefinitionId: r.role_id, principalId: spId } },
    );
    ids.push(a.id);
  }
  return ids;
}

/** Adds the principal `spId` to each group (a reference to the directory object). */
export async function joinGroups(client: DirectoryClient, spId: string, groups: ResolvedGroup[]): Promise<string[]> {
  const ids: string[] = [];
  for (const g of groups) {
    await client.graph('POST', `/groups/${encodeURIComponent(g.object_id)}/members/$ref`, {
      '@odata.id': `https://graph.microsoft.com/v1.0/directoryObjects/${spId}`,
    });
    ids.push(g.object_id);
  }
  return ids;
}

/** Creates application + principal with the role's assignments and memberships; undoes partial work on failure. */
export async function createPrincipal(
  rules: CloudRules,
  client: DirectoryClient,
  roleName: string,
  role: RoleEntry,
): Promise<Principal> {
  const app = await client.graph<{ id: string; appId: string }>('POST', '/applications', {
    displayName: `svc-${roleName}-${randomUUID().slice(0, 8)}`,
    ...(role.sign_in_audience ? { signInAudience: role.sign_in_audience } : {}),
    tags: rules.applicationTags(role),
  });
  const principal: Principal = {
    appObjectId: app.id,
    appId: app.appId,
    spObjectId: '',
    assignmentIds: [],
    groupIds: [],
  };
  try {
    const sp = await client.graph<{ id: string }>('POST', '/servicePrincipals', { appId: app.appId });
    principal.spObjectId = sp.id;
    principal.assignmentIds = await assignRoles(client, sp.id, rules.assignmentsOf(role));
    principal.groupIds = await joinGroups(client, sp.id, rules.groupsOf(role));
    return principal;
  } catch (err) {
    await removePrincipal(rules, client, principal, true).catch(() => {});
    throw err;
  }
}

/** Removes role assignments by id (a 204 or 404: already gone) and memberships of `spId`. */
async function unassign(client: DirectoryClient, assignmentIds: string[], spId: string, groupIds: string[]) {
  for (const id of assignmentIds) await orMissing(() => client.arm('DELETE', id));
  if (spId)
    for (const g of groupIds)
      await orMissing(() => client.graph('DELETE', `/groups/${encodeURIComponent(g)}/members/${spId}/$ref`));
}

/** Removes a principal's assignments and memberships, then (as the rules say) the principal and its application. */
export async function removePrincipal(
  rules: CloudRules,
  client: DirectoryClient,
  p: Principal,
  permanently: boolean,
): Promise<void> {
  if (rules.revokeRemovesAssignments) await unassign(client, p.assignmentIds, p.spObjectId, p.groupIds);
  if (!rules.revokeRemovesPrincipal) return;
  if (p.spObjectId) {
    await orMissing(() => client.graph('DELETE', `/servicePrincipals/${p.spObjectId}`));
    if (rules.permanentDelete(permanently, 'servicePrincipal'))
      await orMissing(() => client.graph('DELETE', `/directory/deletedItems/${p.spObjectId}`));
  }
  await client.graph('DELETE', `/applications/${p.appObjectId}`);
  if (rules.permanentDelete(permanently, 'application'))
    await orMissing(() => client.graph('DELETE', `/directory/deletedItems/${p.appObjectId}`));
}

/** A role with persist_app: its principal created once, or its assignments and memberships re-applied. */
export async function persistApp(
  rules: CloudRules,
  client: DirectoryClient,
  roleName: string,
  role: RoleEntry,
): Promise<void> {
  if (role.managed) {
    // Role changed: re-apply assignments and memberships on the kept principal.
    const old = role.managed;
    await unassign(client, old.assignmentIds, old.spObjectId, old.groupIds);
    role.managed = {
      ...old,
      assignmentIds: await assignRoles(client, old.spObjectId, role.cloud_roles),
      groupIds: await joinGroups(client, old.spObjectId, role.cloud_groups),
    };
    return;
  }
  role.managed = await createPrincipal(rules, client, roleName, role);
  role.application_object_id = role.managed.appObjectId;
  role.application_id = role.managed.appId;
}
