/**
 * `GET sys/metrics` (the real product's telemetry endpoint, not shown in the documents) with the
 * expiration gauges, and the known issue of 1.13.9/1.14.5/1.15.1: gathering the expiration
 * metrics walked the live lease map while other requests wrote to it and crashed the node
 * ("concurrent map writes").
 *
 * Simulation at an affected version: gathering stays open for a short window and fails with a
 * 500 if a lease or token is created or revoked meanwhile (the crash of that node, reduced to the
 * request that hit it so a run can go on). A fixed version counts from a snapshot and never fails.
 */
import type { SecretsCore } from '../core.js';
import type { SysRoute } from '../sys.js';
import { SvcError, forbidden, methodNotAllowed } from '../errors.js';

/** How long an affected gathering stays exposed to concurrent writes (bounded, never a hang). */
export const GATHER_WINDOW_MS = 250;

class MutationWatch {
  generation = 0;
  private waiters = new Set<() => void>();

  bump(): void {
    this.generation++;
    for (const wake of this.waiters) wake();
    this.waiters.clear();
  }

  /** Resolves true at the next write, false after `ms` without one. */
  nextWrite(ms: number): Promise<boolean> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiters.delete(wake);
        resolve(false);
      }, ms);
      const wake = () => {
        clearTimeout(timer);
        resolve(true);
      };
      this.waiters.add(wake);
    });
  }
}

const watches = new WeakMap<SecretsCore, MutationWatch>();

/**
 * Observes lease and token writes of one core. The core has no change events, so the write
 * methods of its lease manager and token store are wrapped (once per core) instead of editing them.
 */
export function watchWrites(core: SecretsCore): MutationWatch {
  let watch = watches.get(core);
  if (watch) return watch;
  const w = new MutationWatch();
  watch = w;
  watches.set(core, w);
  const wrap = <T extends object>(target: T, names: (keyof T)[]) => {
    for (const name of names) {
      const original = target[name] as unknown as (...args: unknown[]) => unknown;
      (target as Record<keyof T, unknown>)[name] = (...args: unknown[]) => {
        w.bump();
        return original.apply(target, args);
      };
    }
  };
  wrap(core.leases, ['create', 'revoke', 'renew']);
  wrap(core.tokens, ['create', 'revoke']);
  return w;
}

interface Gauge {
  Name: string;
  Value: number;
  Labels: Record<string, string>;
}

async function expirationGauges(core: SecretsCore): Promise<Gauge[]> {
  const watch = watchWrites(core);
  const version = core.options.settings.version;
  if (core.release.affected('release.known.expiration-metrics-crash', version)) {
    const before = watch.generation;
    const written = await watch.nextWrite(GATHER_WINDOW_MS);
    if (written || watch.generation !== before) {
      core.log(
        `fatal error: concurrent map writes while gathering expiration metrics (known issue of ${String(version)}, simulated)`,
      );
      throw new SvcError(500, ['internal error']);
    }
  }
  const leases = core.leases.list().length;
  return [
    { Name: 'svc.expire.num_leases', Value: leases, Labels: {} },
    { Name: 'svc.core.mount_table.num_entries', Value: core.mounts.size, Labels: {} },
  ];
}

export const metricsRoutes: SysRoute[] = [
  {
    pattern: /^sys\/metrics$/,
    async handle(ctx) {
      if (ctx.method !== 'GET') throw methodNotAllowed();
      if (ctx.token && !ctx.core.can(ctx.token, 'read', ctx.fullPath)) throw forbidden();
      const gauges = await expirationGauges(ctx.core);
      const now = new Date(ctx.core.options.clock.now()).toISOString();
      return { rawBody: { Timestamp: now, Gauges: gauges, Counters: [], Samples: [] } };
    },
  },
];
