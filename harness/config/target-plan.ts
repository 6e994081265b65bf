/**
 * Which target each API of a run is: the embedded reference or an external target. Decided once,
 * here, from the fully loaded config (file, environment and flags: an address set anywhere
 * counts), and every entry point asks this function: the command line (harness/cli/run.ts),
 * `npm test` (vitest.config.ts), the target's preparation (harness/setup/target.ts) and the early
 * start of the reference (harness/setup/early-start.ts). bin/svc-conformance.mjs only preloads the
 * reference's modules on a guess (`embeddedLikely` below), and nothing starts the reference unless
 * this function asks for it.
 */
import { envOf } from './settings.js';
import type { TargetConfig } from './types.js';

/** The suites that use the scheduler API; the others need only the secrets service. */
const SCHEDULER_SUITES = new Set(['jobs', 'robustness']);

export type TargetKind = 'embedded' | 'external';

export interface TargetPlan {
  /** The secrets service: external when `svc.addr` is set, else the embedded reference. */
  svc: TargetKind;
  /** The scheduler: unused when no selected suite needs it, external when `sched.addr` is set. */
  sched: TargetKind | 'unused';
}

/** The config a decision reads: the addresses and the suites. */
export type PlanInput = { svc: Pick<TargetConfig['svc'], 'addr'>; sched: Pick<TargetConfig['sched'], 'addr'> } & {
  run: Pick<TargetConfig['run'], 'suites'>;
};

/** Whether a run of these suites uses the scheduler API. */
export function usesScheduler(suites: readonly string[]): boolean {
  return suites.some((s) => SCHEDULER_SUITES.has(s));
}

/** The one decision: embedded or external, per API. */
export function targetPlan(cfg: PlanInput): TargetPlan {
  return {
    svc: cfg.svc.addr ? 'external' : 'embedded',
    sched: !usesScheduler(cfg.run.suites) ? 'unused' : cfg.sched.addr ? 'external' : 'embedded',
  };
}

/** Whether the run starts the embedded reference (for either API). */
export const startsEmbedded = (plan: TargetPlan): boolean => plan.svc === 'embedded' || plan.sched === 'embedded';

/** Whether the run reaches an external target (which the pre-flight check asks before vitest starts). */
export const reachesExternal = (plan: TargetPlan): boolean => plan.svc === 'external' || plan.sched === 'external';

/**
 * The guess of bin/svc-conformance.mjs, before any config is read: whether the run will likely
 * start the embedded reference, so that its thread loads the reference's modules beside vitest's
 * start-up. Only a guess, never a decision: the thread starts the reference only when
 * `targetPlan` of the loaded config asks for it (harness/setup/early-start.ts), and an unused
 * thread is unref'd and holds nothing up. The secrets service is surely external when the
 * environment gives its address (the environment wins over the file); an address in the config
 * file is known only once the file is read, and then the preload was merely idle.
 */
export function embeddedLikely(env: Record<string, string | undefined>): boolean {
  return !env[envOf('svc.addr')];
}
