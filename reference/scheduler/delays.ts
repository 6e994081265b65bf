/**
 * How long the reference scheduler takes to do its work after it answered, on its clock: what a
 * client sees pending until the clock moves on (the harness moves it where it may: reference/clock)
 * or real time passes (a run that may not move it, as against a real scheduler). Each delay is
 * one named value, the same the real scheduler's defaults suggest, and can be changed where the
 * reference is started (`startReference({ schedDelays })`, `npm run reference -- --sched-delays`),
 * so a bench can tell the time a run spends waiting for the scheduler from the rest.
 */
export interface SchedulerDelays {
  /** Variant jobs.async-evaluations: from the write to the processing of its evaluation. */
  evaluationMs: number;
  /** Variant jobs.gc-queued: from the answer to PUT /v1/system/gc to the collection. */
  gcMs: number;
  /** Variant jobs.default-deployments: the MinHealthyTime of the default update block. */
  defaultMinHealthyMs: number;
  /** From an allocation's placement to its task running. */
  allocationStartMs: number;
  /** How long a batch task runs before it exits successfully. */
  batchRunMs: number;
}

export const DEFAULT_DELAYS: Readonly<SchedulerDelays> = {
  evaluationMs: 300,
  gcMs: 500,
  defaultMinHealthyMs: 10_000,
  allocationStartMs: 1000,
  batchRunMs: 5000,
};

const NAMES = Object.keys(DEFAULT_DELAYS) as (keyof SchedulerDelays)[];

/**
 * `name=ms,name=ms` (for example `evaluationMs=300,defaultMinHealthyMs=2000`) over the defaults;
 * an unknown name or a value that is not a non-negative number of milliseconds is refused.
 */
export function parseDelays(text: string | undefined): SchedulerDelays {
  const out: SchedulerDelays = { ...DEFAULT_DELAYS };
  for (const part of (text ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const [name, value] = part.split('=').map((s) => s.trim()) as [string, string | undefined];
    const ms = Number(value);
    if (!NAMES.includes(name as keyof SchedulerDelays))
      throw new Error(`unknown scheduler delay "${name}" (one of ${NAMES.join(', ')})`);
    if (value === undefined || value === '' || !Number.isFinite(ms) || ms < 0)
      throw new Error(`scheduler delay ${name} needs a non-negative number of milliseconds, got "${value ?? ''}"`);
    out[name as keyof SchedulerDelays] = ms;
  }
  return out;
}
