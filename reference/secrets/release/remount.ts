/**
 * `POST sys/remount {from, to}` (the real product's path; the documents only say mounts live at
 * paths) and the known issue of 1.13.9-1.13.13, 1.14.5-1.14.9, 1.15.0-1.15.5: with more non-local
 * mounts than rollback workers (256 unless `SVC_ROLLBACK_WORKERS` says more), an unmount or
 * remount deadlocks.
 *
 * Simulation at an affected version: the remount answers 503 at once and changes nothing, so a
 * run sees the symptom without hanging. Only remount carries it: unmounts must keep working so
 * that every run (and the other suites sharing the reference) can clean up.
 */
import type { SecretsCore } from '../core.js';
import type { SysRoute } from '../sys.js';
import { SvcError, badRequest, forbidden, methodNotAllowed } from '../errors.js';
import { rollbackWorkers } from './versions.js';

const normalize = (p: string) => p.replace(/^\/+/, '').replace(/\/*$/, '/');

/** Mounts that replicate (everything not mounted with `local`). */
export function nonLocalMounts(core: SecretsCore): number {
  let n = 0;
  for (const m of core.mounts.values()) if (m.options.local !== 'true') n++;
  return n;
}

function deadlocks(core: SecretsCore): boolean {
  const affected = core.release.affected('release.known.many-mounts-deadlock', core.options.settings.version);
  return affected && nonLocalMounts(core) > rollbackWorkers(core.options.settings.env);
}

export const remountRoutes: SysRoute[] = [
  {
    pattern: /^sys\/remount$/,
    async handle(ctx) {
      if (ctx.method !== 'POST' && ctx.method !== 'PUT') throw methodNotAllowed();
      if (
        ctx.token &&
        !ctx.core.can(ctx.token, 'sudo', ctx.fullPath) &&
        !ctx.core.can(ctx.token, 'update', ctx.fullPath)
      )
        throw forbidden();
      const { from, to } = ctx.body;
      if (typeof from !== 'string' || !from.trim()) throw badRequest('"from" must be a mount path');
      if (typeof to !== 'string' || !to.trim()) throw badRequest('"to" must be a mount path');
      const ns = ctx.namespace ? `${ctx.namespace}/` : '';
      const src = normalize(ns + from);
      const dst = normalize(ns + to);
      const mount = ctx.core.mounts.get(src);
      if (mount?.kind !== 'secret') throw badRequest(`no secrets engine mounted at ${from}`);
      if (['sys/', 'auth/', 'cubbyhole/', 'identity/'].some((r) => dst.slice(ns.length).startsWith(r)))
        throw badRequest(`cannot remount to reserved path ${to}`);
      for (const existing of ctx.core.mounts.keys()) {
        if (existing !== src && (dst.startsWith(existing) || existing.startsWith(dst)))
          throw badRequest(`path is already in use at ${existing}`);
      }
      if (deadlocks(ctx.core)) {
        ctx.core.log(
          `remount ${src} -> ${dst} deadlocked: ${nonLocalMounts(ctx.core)} non-local mounts, ${rollbackWorkers(ctx.core.options.settings.env)} rollback workers (known issue of ${String(ctx.core.options.settings.version)}, simulated)`,
        );
        throw new SvcError(503, ['request timed out: mount table lock not acquired (rollback workers exhausted)']);
      }
      // Leases name their mount path; the real product moves them, the reference revokes them.
      await ctx.core.leases.revokePrefix(src);
      ctx.core.mounts.delete(src);
      mount.path = dst;
      ctx.core.mounts.set(dst, mount);
      return { data: { migration_id: crypto.randomUUID() } };
    },
  },
];
