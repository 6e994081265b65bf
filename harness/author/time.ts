/**
 * Moving time for a test. Time belongs to the service whose rules the test checks: the secrets
 * suites move the secrets service's clock, the jobs suite the scheduler's. Each clock is moved
 * through its own API (with that API's token and header names), never through the other one,
 * and moving one leaves the other (two clocks on the embedded reference, as on real services):
 * each is a lock domain of its own (harness/domain-locks/declarations.ts).
 */
import type { TargetConfig } from '../config/types.js';
import type { ApiClient } from '../http/client.js';
import { CheckFailure } from '../checks/failure.js';

export type TimeOwner = 'svc' | 'sched';

/** Suite areas whose time is the scheduler's. */
const SCHEDULER_AREAS = new Set(['jobs']);

export function timeOwnerOf(area: string | undefined): TimeOwner {
  return area && SCHEDULER_AREAS.has(area) ? 'sched' : 'svc';
}

type Skip = (reason: string, setting?: string) => never;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function moveTime(
  cfg: TargetConfig,
  owner: TimeOwner,
  clients: { svc: ApiClient; sched: ApiClient },
  seconds: number,
  skip: Skip,
): Promise<void> {
  if (owner === 'sched') return moveSchedulerTime(cfg, clients.sched, seconds);
  if (cfg.capabilities.clock) {
    const ex = await clients.svc.post('sys/reference/clock', { body: { advance: seconds } });
    if (ex.response.status !== 200)
      throw new CheckFailure('clock', 'the reference clock did not advance', 200, ex.response.status);
    return;
  }
  if (seconds <= cfg.timing.maxRealWaitSeconds) {
    await sleep(seconds * 1000 + 250);
    return;
  }
  skip(
    `needs ${seconds}s to pass and the target has no controllable clock`,
    'timing.maxRealWaitSeconds or capabilities.clock',
  );
}

/**
 * The scheduler's clock: the reference's own control (`POST /v1/reference/clock`) where the
 * scheduler is the reference; otherwise nothing. A real scheduler does its work on its own time:
 * the tests poll for the state they expect after an advance (every timing.pollMs, bounded by
 * timing.settleSeconds), so they wait as long as the scheduler takes and no longer, never a fixed
 * sleep, and a short wait is never a reason to skip.
 */
async function moveSchedulerTime(cfg: TargetConfig, sched: ApiClient, seconds: number): Promise<void> {
  if (cfg.capabilities.schedControl) {
    const ex = await sched.post('reference/clock', { body: { advance: seconds }, validate: false });
    if (ex.response.status !== 200)
      throw new CheckFailure('clock', "the reference scheduler's clock did not advance", 200, ex.response.status);
  }
}
