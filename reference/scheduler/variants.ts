/**
 * Legal variants of the jobs area (see reference/variants.ts): behaviours the jobs document allows
 * and the real scheduler shows. Each replaces one rule of rules.ts, in switches.ts.
 */
import { variantsOf } from '../variants.js';

const v = variantsOf(['jobs']);

export const variants = [
  v(
    'jobs.async-evaluations',
    'jobs-service.md Objects: "Evaluation Status: complete, blocked"; "Complete lists of allowed Status and Type values: not shown. Transitions: not shown."',
    'Evaluations are created pending and processed after the write answered (store.ts process()): allocations and deployments appear later, as on the real scheduler.',
  ),
  v(
    'jobs.default-deployments',
    'jobs-service.md Objects: Deployment fields are listed; when a deployment is created is not shown',
    "Every group of a service job without an update block gets the real scheduler's default update strategy (MinHealthyTime 10 s), so every service job has a deployment after registration and scaling waits for it (job.ts canonicalize).",
  ),
  v(
    'jobs.gc-queued',
    'jobs-service.md Stop job: "purge ... otherwise left to garbage collection" (how and when collection runs: not shown)',
    'PUT /v1/system/gc answers at once and collects a moment later (routes/control.ts).',
  ),
  v(
    'jobs.refusals-500',
    'jobs-service.md Errors: "Status codes beyond the above are not given per endpoint."',
    "Refusals of the document's rules answer 500 with the error message, as the real scheduler does for errors raised behind its RPC layer; the documented 400 (scaling during an active deployment) stays 400 (switches.ts, in the one response function).",
    {
      assumptions: ['jobs.errors.rejections-4xx', 'robustness.sched.invalid-4xx', 'robustness.sched.boundary-no-5xx'],
      suites: ['jobs', 'robustness'],
    },
  ),
  v(
    'jobs.action-extra-frames',
    'jobs-service.md Run action: output frames listed are stdout data, stdout close and exited; other frames are not excluded',
    'The action stream also sends frames the document does not list (an empty stderr data frame, a stderr close frame) (actions.ts).',
  ),
  v(
    'jobs.periodic-child-per-second',
    'jobs-service.md Force periodic instance: "Creates an instance even if it violates prohibit_overlap"; child IDs are not given',
    'A periodic instance is named after its launch second: two forces within one second register the same child again (a new evaluation each), as the real scheduler does (store.ts launchChild).',
  ),
  v(
    'jobs.purge-collects-allocations',
    'jobs-service.md Stop job: "purge ... purge immediately"; what happens to the allocations of a purged job is not shown',
    'Purging a job also removes its allocations and deployments, so all=true has nothing of the earlier job to show (store.ts stop).',
    { assumptions: ['jobs.allocations.all-after-purge'] },
  ),
];
