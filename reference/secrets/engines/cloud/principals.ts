/**
 * The cloud engine's work in the directory: a role's roles and groups resolved to directory
 * objects, and the principal a credential belongs to (application, service principal, role
 * assignments, group memberships) created and removed, with partial work undone on failure.
 */
import { randomUUID } from 'node:crypto';
import { badRequest } from '../../errors.js';
import { type DirectoryClient, orMissing } from './directory-client.js';
import type { GroupItem, RoleItem } from './roles.js';
import type { CloudRules, Principal, ResolvedGroup, ResolvedRole, RoleEntry } from './rules.js';

/**
 * A role's cloud_roles resolved to role definitions of the directory: by id, or by a name unique
 * in the configured subscription (where role definitions live).
 */
export async function resolveRoles(
  rules: CloudRules,
  client: DirectoryClient,
  items: RoleItem[],
  subscriptionId: string,
): Promise<ResolvedRole[]> {
  const inSubscription = subscriptionId ? `&scope=${encodeURIComponent(`/subscriptions/${subscriptionId}`)}` : '';
  type Def = { id: string; roleName: string };
  const out: ResolvedRole[] = [];
  const seen = new Set<string>();
  for (const item of items) {
    let def: Def | undefined;
    if (item.role_id) {
      def =
        (await client.list<Def>(`/roleDefinitions?id=${encodeURIComponent(item.role_id)}`))[0] ??
        (await orMissing(() => client.request<Def>('GET', `/roleDefinitions/${encodeURIComponent(item.role_id!)}`)));
      if (!def) rules.missingResource(`no role found for role_id: '${item.role_id}'`);
    } else {
      const defs = await client.list<Def>(
        `/roleDefinitions?roleName=${encodeURIComponent(item.role_name!)}${inSubscription}`,
      );
      if (defs.length > 1)
        throw badRequest(`multiple matches found for role_name: '${item.role_name}'; specify role_id instead`);
      def = defs[0];
      if (!def) rules.missingResource(`no role found for role_name: '${item.role_name}'`);
    }
    const resolved = def
      ? { role_name: def.roleName, role_id: def.id, scope: item.scope }
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
  for (const item of items) {
    let g: G | undefined;
    if (item.object_id) {
      g = await orMissing(() => client.request<G>('GET', `/groups/${encodeURIComponent(item.object_id!)}`));
      if (!g) rules.missingResource(`no group found for object_id: '${item.object_id}'`);
    } else {
      const list = await client.list<G>(`/groups?displayName=${encodeURIComponent(item.group_name!)}`);
      if (list.length > 1)
        throw badRequest(`multiple matches found for group_name: '${item.group_name}'; specify object_id instead`);
      g = list[0];
      if (!g) rules.missingResource(`no group found for group_name: '${item.group_name}'`);
    }
    if (!g) continue;
    if (out.some((o) => o.object_id === g!.id)) throw badRequest(`duplicate object_id '${g.id}'`);
    out.push({ group_name: g.displayName, object_id: g.id });
  }
  return out;
}

/** Creates application + principal with the role's assignments and memberships; undoes partial work on failure. */
export async function createPrincipal(
  rules: CloudRules,
  client: DirectoryClient,
  roleName: string,
  role: RoleEntry,
): Promise<Principal> {
  const app = await client.request<{ id: string; appId: string }>('POST', '/applications', {
    displayName: `svc-${roleName}-${randomUUID().slice(0, 8)}`,
    ...(role.sign_in_audience ? { signInAudience: role.sign_in_audience } : {}),
    tags: rules.applicationTags(role),
  });
  const principal: Principal = {
    appObjectId: app.id,
    appId: app.appId,
    spObjectId: '',
    assignmentNames: [],
    groupIds: [],
  };
  try {
    const sp = await client.request<{ id: string }>('POST', '/servicePrincipals', { appId: app.appId });
    principal.spObjectId = sp.id;
    for (const r of rules.assignmentsOf(role)) {
      const assignment = randomUUID();
      await client.request('PUT', `/roleAssignments/${assignment}`, {
        roleDefinitionId: r.role_id,
        principalId: sp.id,
        scope: r.scope,
      });
      principal.assignmentNames.push(assignment);
    }
    for (const g of rules.groupsOf(role)) {
      await client.request('POST', `/groups/${g.object_id}/members`, { id: sp.id });
      principal.groupIds.push(g.object_id);
    }
    return principal;
  } catch (err) {
    await removePrincipal(rules, client, principal, true).catch(() => {});
    throw err;
  }
}

/** Removes a principal's assignments and memberships, then (as the rules say) the principal and its application. */
export async function removePrincipal(
  rules: CloudRules,
  client: DirectoryClient,
  p: Principal,
  permanently: boolean,
): Promise<void> {
  if (rules.revokeRemovesAssignments) {
    for (const a of p.assignmentNames) await orMissing(() => client.request('DELETE', `/roleAssignments/${a}`));
    if (p.spObjectId)
      for (const g of p.groupIds)
        await orMissing(() => client.request('DELETE', `/groups/${g}/members/${p.spObjectId}`));
  }
  if (!rules.revokeRemovesPrincipal) return;
  const permanent = rules.permanentDelete(permanently);
  if (p.spObjectId) {
    await orMissing(() => client.request('DELETE', `/servicePrincipals/${p.spObjectId}`));
    if (permanent) await orMissing(() => client.request('DELETE', `/directory/deletedItems/${p.spObjectId}`));
  }
  await client.request('DELETE', `/applications/${p.appObjectId}`);
  if (permanent) await orMissing(() => client.request('DELETE', `/directory/deletedItems/${p.appObjectId}`));
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
    for (const a of old.assignmentNames) await orMissing(() => client.request('DELETE', `/roleAssignments/${a}`));
    for (const g of old.groupIds)
      await orMissing(() => client.request('DELETE', `/groups/${g}/members/${old.spObjectId}`));
    const next: Principal = { ...old, assignmentNames: [], groupIds: [] };
    for (const r of role.cloud_roles) {
      const assignment = randomUUID();
      await client.request('PUT', `/roleAssignments/${assignment}`, {
        roleDefinitionId: r.role_id,
        principalId: old.spObjectId,
        scope: r.scope,
      });
      next.assignmentNames.push(assignment);
    }
    for (const g of role.cloud_groups) {
      await client.request('POST', `/groups/${g.object_id}/members`, { id: old.spObjectId });
      next.groupIds.push(g.object_id);
    }
    role.managed = next;
    return;
  }
  role.managed = await createPrincipal(rules, client, roleName, role);
  role.application_object_id = role.managed.appObjectId;
  role.application_id = role.managed.appId;
}
