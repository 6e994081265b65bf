/**
 * Periodic jobs of the reference scheduler: the next launch of a cron spec (croner, a maintained
 * cron library, in the job's time zone) and the timer that launches each instance on the
 * scheduler's clock (Store.launchChild), skipping a launch while an instance runs when the job
 * prohibits overlap.
 */
import { Cron } from 'croner';
import type { Clock } from '../clock.js';
import { isPeriodic, type Job } from './job.js';
import type { Entry, Store } from './store.js';

/** Schedules the next launch of a periodic job (and cancels the one scheduled before). */
export function schedulePeriodic(store: Store, e: Entry): void {
  e.cancelPeriodic?.();
  e.cancelPeriodic = undefined;
  const p = e.job.Periodic;
  if (!isPeriodic(e.job) || !p.Enabled || e.job.Stop) return;
  const next = nextLaunch(store.clock, e.job);
  if (next === null) return;
  e.cancelPeriodic = store.clock.at(next, () => {
    if (store.jobs.get(e.key) !== e) return;
    const running = store.children(e).some((c) => store.status(c) !== 'dead');
    if (!(p.ProhibitOverlap && running)) store.launchChild(e, next);
    schedulePeriodic(store, e);
  });
}

/** Next launch time in clock milliseconds, or null. */
export function nextLaunch(clock: Clock, job: Job): number | null {
  try {
    const cron = new Cron(String(job.Periodic.Spec), { paused: true, timezone: job.Periodic.TimeZone || undefined });
    const next = cron.nextRun(new Date(clock.now()));
    cron.stop();
    return next ? next.getTime() : null;
  } catch {
    return null;
  }
}
