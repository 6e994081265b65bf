/**
 * The job the reschedule tests fail on purpose: a batch task that fails at once (the target's
 * `sched.failingTask`), no restarts, and one reschedule attempt `delayNs` after a failure within two
 * days. Not Attempts 0: the document does not say whether that is a limit used up or rescheduling
 * switched off (the real scheduler reads it so, and then forces nothing).
 */
import type { T } from '../../harness/index.js';
import { jobDefinition, type JobDefinition } from '../../fixtures/jobs/index.js';

/** A day in nanoseconds (the unit of durations inside job definitions). */
export const DAY_NS = 86_400_000_000_000;

export function failingBatchJob(t: T, id: string, delayNs: number): JobDefinition {
  const job = jobDefinition('batch-failing', id);
  job.TaskGroups![0]!.ReschedulePolicy = {
    Attempts: 1,
    Interval: 2 * DAY_NS,
    Delay: delayNs,
    DelayFunction: 'constant',
    MaxDelay: delayNs,
    Unlimited: false,
  };
  Object.assign(job.TaskGroups![0]!.Tasks![0]!, structuredClone(t.config.sched.failingTask));
  return job;
}
