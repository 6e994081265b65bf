/**
 * `sys/locked-users` of the reference, as the real product has it (added in 1.13):
 *
 *   GET  sys/locked-users[?mount_accessor=A]
 *        -> data: { by_namespace: [{ namespace_id, namespace_path, counts,
 *                                    mount_accessors: [{ mount_accessor, counts, alias_identifiers: [user, ...] }] }],
 *                   total }
 *        Locked users of the request's namespace and its children, largest counts first.
 *   POST sys/locked-users/:mount_accessor/unlock/:alias_identifier
 *        -> 204. Unlocks the user at once; succeeds when the user is not locked (idempotent);
 *           400 when the accessor names no auth mount of the namespace.
 *
 * For the lead's sys router:
 *   - `lockedUsersRoutes: SysRoute[]` plugs into `reference/secrets/sys/extensions.ts`;
 *   - or call `listLockedUsers(core, { namespace, mountAccessor })` and
 *     `unlockLockedUser(core, { namespace, mountAccessor, aliasIdentifier })` directly
 *     (both throw SvcError for bad input; ACL checks are the caller's when called directly).
 * The lockout state lives in `lockout.ts`, one book per reference instance keyed by its token store.
 */
import type { SecretsCore } from '../../core.js';
import type { SysRoute } from '../../sys.js';
import { badRequest, forbidden, methodNotAllowed } from '../../errors.js';
import { lockoutBook, lockoutPolicy } from './lockout.js';
import { userpassRulesFor } from './switches.js';

export interface LockedUsersData {
  by_namespace: {
    namespace_id: string;
    namespace_path: string;
    counts: number;
    mount_accessors: { mount_accessor: string; counts: number; alias_identifiers: string[] }[];
  }[];
  total: number;
}

/** Namespace of a mount path (`ns1/auth/userpass/` -> `ns1`). */
function namespaceOf(mountPath: string): string {
  const i = mountPath.indexOf('auth/');
  return i > 0 ? mountPath.slice(0, i - 1) : '';
}

const within = (ns: string, parent: string) => parent === '' || ns === parent || ns.startsWith(`${parent}/`);

function authMountByAccessor(core: SecretsCore, namespace: string, accessor: string) {
  return [...core.mounts.values()].find(
    (m) => m.kind === 'auth' && m.accessor === accessor && namespaceOf(m.path) === namespace,
  );
}

export function listLockedUsers(
  core: SecretsCore,
  opts: { namespace: string; mountAccessor?: string },
): LockedUsersData {
  let only: string | undefined;
  if (opts.mountAccessor) {
    const mount = authMountByAccessor(core, opts.namespace, opts.mountAccessor);
    if (!mount) throw badRequest(`mount accessor "${opts.mountAccessor}" not found in this namespace`);
    only = mount.path;
  }
  const rules = userpassRulesFor(core.faults, core.variants);
  const book = lockoutBook(core.tokens, rules);
  const locked = rules.listsLockedUsers
    ? book.locked(rules.lockoutPolicy(lockoutPolicy(core.options.settings)), core.options.clock.now())
    : new Map<string, string[]>();
  const byNs = new Map<string, LockedUsersData['by_namespace'][number]>();
  for (const [mountPath, users] of locked) {
    const mount = core.mounts.get(mountPath);
    if (!mount || (only && mountPath !== only)) continue;
    const ns = namespaceOf(mountPath);
    if (!within(ns, opts.namespace)) continue;
    let entry = byNs.get(ns);
    if (!entry)
      byNs.set(
        ns,
        (entry = { namespace_id: ns || 'root', namespace_path: ns ? `${ns}/` : '', counts: 0, mount_accessors: [] }),
      );
    entry.mount_accessors.push({
      mount_accessor: mount.accessor,
      counts: users.length,
      alias_identifiers: rules.lockedUsersOrder(users),
    });
    entry.counts += users.length;
  }
  const by_namespace = [...byNs.values()].sort((a, b) => b.counts - a.counts);
  for (const ns of by_namespace) ns.mount_accessors.sort((a, b) => b.counts - a.counts);
  return { by_namespace, total: by_namespace.reduce((n, e) => n + e.counts, 0) };
}

export function unlockLockedUser(
  core: SecretsCore,
  opts: { namespace: string; mountAccessor: string; aliasIdentifier: string },
): void {
  const mount = authMountByAccessor(core, opts.namespace, opts.mountAccessor);
  if (!mount) throw badRequest(`mount accessor "${opts.mountAccessor}" not found in this namespace`);
  lockoutBook(core.tokens, userpassRulesFor(core.faults, core.variants)).unlock(
    mount.path,
    opts.aliasIdentifier.toLowerCase(),
  );
}

export const lockedUsersRoutes: SysRoute[] = [
  {
    pattern: /^sys\/locked-users\/?$/,
    async handle(ctx) {
      if (ctx.method !== 'GET') throw methodNotAllowed();
      if (ctx.token && !ctx.core.can(ctx.token, 'read', ctx.fullPath)) throw forbidden();
      return {
        data: listLockedUsers(ctx.core, {
          namespace: ctx.namespace,
          mountAccessor: ctx.query.get('mount_accessor') ?? undefined,
        }),
      };
    },
  },
  {
    pattern: /^sys\/locked-users\/([^/]+)\/unlock\/([^/]+)$/,
    async handle(ctx, match) {
      if (ctx.method !== 'POST' && ctx.method !== 'PUT') throw methodNotAllowed();
      if (ctx.token && !ctx.core.can(ctx.token, 'update', ctx.fullPath)) throw forbidden();
      unlockLockedUser(ctx.core, { namespace: ctx.namespace, mountAccessor: match[1]!, aliasIdentifier: match[2]! });
      return {};
    },
  },
];
