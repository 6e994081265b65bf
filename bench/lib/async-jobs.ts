/**
 * Phase 5 of the bench: the jobs suite against a scheduler that does its work after it answers:
 * the reference started alone with the variants jobs.async-evaluations, jobs.default-deployments
 * and jobs.gc-queued, whose clock the run may not move (capabilities.schedControl false), so
 * every delay of the scheduler (reference/scheduler/delays.ts) passes in real time, as against a
 * real scheduler. The suite's waits poll the state they wait for; how much of the wall they cost
 * is measured, not assumed: the same run at the delays D and at 2D differs only by the delays on
 * its critical path at D (everything else is the same work), so
 *   critical-path delay C = wall(2D) - wall(D), and the figure is wall(D) / C.
 */
import { join } from 'node:path';
import { DEFAULT_DELAYS, type SchedulerDelays } from '../../reference/scheduler/delays.js';
import { conformanceRun, f1 } from './run.js';
import { startTarget, stopTarget, targetConfig } from './targets.js';

const VARIANTS = ['jobs.async-evaluations', 'jobs.default-deployments', 'jobs.gc-queued'];
/** The goal of issue 26: the wall within 1.5x of the delays on the critical path. */
const GOAL = 1.5;

const delaysText = (d: SchedulerDelays) =>
  Object.entries(d)
    .map(([k, v]) => `${k}=${v}`)
    .join(',');

async function run(
  opts: { tmp: string; reportDir: string; rootToken: string; args: string[] },
  name: string,
  delays: SchedulerDelays,
): Promise<number> {
  const target = await startTarget(opts.rootToken, false, { variants: VARIANTS, schedDelays: delaysText(delays) });
  try {
    const { env } = targetConfig(opts.tmp, `async-${name}`, opts.rootToken, target, target.svcAddr, target.schedAddr, {
      capabilities: { schedControl: false },
      // Bounds of the polls, well above the longest delay (a deployment at 2D).
      timing: { maxRealWaitSeconds: 0, pollMs: 100, settleSeconds: 120 },
    });
    const r = await conformanceRun({ reportDir: join(opts.reportDir, name), suites: ['jobs'], env, args: opts.args });
    console.log(
      `  delays ${name}: ${f1(r.wallSeconds)} s wall, time to first test ${f1(r.firstTestSeconds)} s; ${r.summary}`,
    );
    return r.wallSeconds;
  } finally {
    await stopTarget(target);
  }
}

export async function asyncJobsBench(opts: {
  tmp: string;
  reportDir: string;
  rootToken: string;
  args: string[];
}): Promise<void> {
  console.log(
    `\njobs suite against a scheduler that works after it answers (variants ${VARIANTS.join(', ')}; its clock not moved, capabilities.schedControl false)`,
  );
  console.log(`  D = ${delaysText(DEFAULT_DELAYS)} (ms)`);
  const twice: SchedulerDelays = { ...DEFAULT_DELAYS };
  for (const k of Object.keys(twice) as (keyof SchedulerDelays)[]) twice[k] *= 2;
  const d = await run(opts, 'D', DEFAULT_DELAYS);
  const d2 = await run(opts, '2D', twice);
  const critical = d2 - d;
  console.log(
    `  delay on the critical path at D = wall(2D) - wall(D) = ${f1(critical)} s; wall(D) / that = ${critical > 0 ? (d / critical).toFixed(2) : 'n/a'} (goal <= ${GOAL})`,
  );
}
