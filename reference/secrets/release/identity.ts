/**
 * Identity groups, as far as the login known issue needs them (`identity/group`, the real
 * product's paths; not shown in the documents), and the known issue of 1.13.8-1.13.9,
 * 1.14.4-1.14.5, 1.15.0-1.15.1: a login fails with an internal error when the user's entity is
 * a member of a group in another namespace whose policies name one that does not exist.
 *
 * A fixed version ignores those policies: since 1.13.8 group policies apply only within the
 * group's namespace hierarchy, so a group of another namespace does not add to the token.
 */
import { randomUUID } from 'node:crypto';
import type { EngineResponse } from '../engine.js';
import type { SecretsCore } from '../core.js';
import type { SysRoute } from '../sys.js';
import { SvcError, badRequest, forbidden, methodNotAllowed, notFound } from '../errors.js';

interface Group {
  id: string;
  name: string;
  namespace: string;
  policies: string[];
  memberEntityIds: string[];
}

const stores = new WeakMap<SecretsCore, Map<string, Group>>();
function groupsOf(core: SecretsCore): Map<string, Group> {
  let g = stores.get(core);
  if (!g) stores.set(core, (g = new Map()));
  return g;
}

function stringList(value: unknown, field: string): string[] {
  if (value === undefined || value === null) return [];
  const list = typeof value === 'string' ? value.split(',') : value;
  if (!Array.isArray(list) || list.some((v) => typeof v !== 'string'))
    throw badRequest(`${field} must be a list of strings`);
  return [...new Set((list as string[]).map((s) => s.trim()).filter(Boolean))];
}

function view(g: Group): Record<string, unknown> {
  return {
    id: g.id,
    name: g.name,
    type: 'internal',
    policies: g.policies,
    member_entity_ids: g.memberEntityIds,
    namespace_id: g.namespace || 'root',
  };
}

export const identityRoutes: SysRoute[] = [
  {
    pattern: /^identity\/group\/?$/,
    async handle(ctx) {
      if (ctx.method !== 'POST' && ctx.method !== 'PUT') throw methodNotAllowed();
      if (ctx.token && !ctx.core.can(ctx.token, 'update', ctx.fullPath)) throw forbidden();
      const groups = groupsOf(ctx.core);
      const name = ctx.body.name === undefined ? `group-${randomUUID().slice(0, 8)}` : ctx.body.name;
      if (typeof name !== 'string' || !name) throw badRequest('name must be a non-empty string');
      const policies = stringList(ctx.body.policies, 'policies');
      const members = stringList(ctx.body.member_entity_ids, 'member_entity_ids');
      const existing = [...groups.values()].find((g) => g.namespace === ctx.namespace && g.name === name);
      const group: Group = existing ?? {
        id: randomUUID(),
        name,
        namespace: ctx.namespace,
        policies: [],
        memberEntityIds: [],
      };
      group.policies = policies;
      group.memberEntityIds = members;
      groups.set(group.id, group);
      return { data: { id: group.id, name: group.name } };
    },
  },
  {
    pattern: /^identity\/group\/id\/([^/]+)$/,
    async handle(ctx, m) {
      const groups = groupsOf(ctx.core);
      const group = groups.get(m[1]!);
      const cap = ctx.method === 'GET' ? 'read' : ctx.method === 'DELETE' ? 'delete' : 'update';
      if (ctx.token && !ctx.core.can(ctx.token, cap, ctx.fullPath)) throw forbidden();
      if (ctx.method === 'GET') {
        if (!group || group.namespace !== ctx.namespace) throw notFound();
        return { data: view(group) };
      }
      if (ctx.method === 'DELETE') {
        if (group && group.namespace === ctx.namespace) groups.delete(group.id);
        return {};
      }
      throw methodNotAllowed();
    },
  },
];

/**
 * Runs after an auth method issued a token. `namespace` is the login's namespace. On an affected
 * version, policies of groups in other namespaces are resolved and a missing one is an internal
 * error; the token just issued is revoked, as the real login never returned it.
 */
export async function afterLogin(core: SecretsCore, namespace: string, result: EngineResponse): Promise<void> {
  const auth = result.auth as { entity_id?: unknown; client_token?: unknown } | undefined;
  const entityId = typeof auth?.entity_id === 'string' ? auth.entity_id : '';
  if (!entityId) return;
  const affected = core.release.affected('release.known.login-missing-group-policy', core.options.settings.version);
  if (!affected) return;
  for (const group of groupsOf(core).values()) {
    if (group.namespace === namespace || !group.memberEntityIds.includes(entityId)) continue;
    const missing = group.policies.filter((p) => p !== 'default' && !core.policies.has(p));
    if (missing.length) {
      if (typeof auth?.client_token === 'string') core.tokens.revoke(auth.client_token);
      core.log(
        `login failed: group ${group.id} in namespace ${group.namespace || 'root'} names missing policies (known issue of ${String(core.options.settings.version)}, simulated)`,
      );
      throw new SvcError(500, ['internal error']);
    }
  }
}
