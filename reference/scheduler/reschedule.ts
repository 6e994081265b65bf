/**
 * Failed allocations and their rescheduling in the simulated cluster (jobs-service.md, Create
 * evaluation: "`EvalOptions` with `ForceReschedule` (boolean, default false: reschedule failed
 * allocations immediately even past reschedule limits or delays)").
 *
 * The reference runs no processes: a task whose command is `false` (the POSIX utility that always
 * exits 1) fails, every other task runs as before. Its allocation fails once the group's
 * RestartPolicy has restarted it `Attempts` times, `Delay` apart. A failed allocation is replaced
 * by an evaluation only when its ReschedulePolicy allows it (unlimited, or attempts left within
 * the interval) and its delay has passed, or when the evaluation forces it. (The reference makes
 * no follow-up evaluation of its own at the end of the delay.)
 */
import type { Job } from './job.js';
import type { Alloc } from './sim.js';

const NS_PER_MS = 1_000_000;

/** The names of the group's tasks whose command always fails. */
export function failingTasks(group: Job | undefined): string[] {
  return (group?.Tasks ?? [])
    .filter((t: Job) => {
      const command = t?.Config?.command;
      return typeof command === 'string' && command.split('/').pop() === 'false';
    })
    .map((t: Job) => String(t.Name));
}

/** How long the group's RestartPolicy keeps restarting a failing task before the allocation fails. */
export function restartsMs(group: Job | undefined): number {
  const policy = group?.RestartPolicy ?? {};
  return (Math.max(0, Number(policy.Attempts) || 0) * Math.max(0, Number(policy.Delay) || 0)) / NS_PER_MS;
}

/**
 * Whether the failed allocation may be replaced now under its group's ReschedulePolicy: its delay
 * has passed and it has attempts left (a forced reschedule checks neither: `checks`).
 */
export function rescheduleAllowed(
  alloc: Alloc,
  group: Job | undefined,
  nowMs: number,
  checks: { delay: boolean; limit: boolean } = { delay: true, limit: true },
): boolean {
  const policy = group?.ReschedulePolicy;
  if (!policy) return !checks.delay && !checks.limit;
  const failedAtMs = Number(alloc.failedAtMs ?? 0);
  if (checks.delay && nowMs < failedAtMs + Math.max(0, Number(policy.Delay) || 0) / NS_PER_MS) return false;
  if (!checks.limit || policy.Unlimited === true) return true;
  const intervalMs = Math.max(0, Number(policy.Interval) || 0) / NS_PER_MS;
  const recent = (alloc.RescheduleTracker?.Events ?? []).filter(
    (ev: Job) => Number(ev.RescheduleTime) / NS_PER_MS >= nowMs - intervalMs,
  ).length;
  return recent < Math.max(0, Number(policy.Attempts) || 0);
}

/** The reschedule tracker of an allocation that replaces `previous` (its events carried over). */
export function trackerAfter(previous: Alloc, nowMs: number, delayNs: number): Job {
  return {
    Events: [
      ...(previous.RescheduleTracker?.Events ?? []),
      {
        PrevAllocID: previous.ID,
        PrevNodeID: previous.NodeID,
        RescheduleTime: nowMs * NS_PER_MS,
        Delay: delayNs,
      },
    ],
  };
}
