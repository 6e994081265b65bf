/**
 * Legal variants of the jobs area (see reference/variants.ts): behaviours the jobs document allows
 * and the real scheduler shows. Each is read at one place of the reference scheduler.
 */
import { variantsOf } from '../variants.js';

const v = variantsOf(['jobs']);

export const ASYNC_EVALUATIONS = 'jobs.async-evaluations';
export const DEFAULT_DEPLOYMENTS = 'jobs.default-deployments';
export const QUEUED_GC = 'jobs.gc-queued';
export const REFUSALS_500 = 'jobs.refusals-500';
export const EXTRA_FRAMES = 'jobs.action-extra-frames';
export const PERIODIC_CHILD_PER_SECOND = 'jobs.periodic-child-per-second';
export const PURGE_COLLECTS_ALLOCATIONS = 'jobs.purge-collects-allocations';

export const variants = [
  v(
    ASYNC_EVALUATIONS,
    'jobs-service.md Objects: "Evaluation Status: complete, blocked"; "Complete lists of allowed Status and Type values: not shown. Transitions: not shown."',
    'Evaluations are created pending and processed after the write answered (store.ts process()): allocations and deployments appear later, as on the real scheduler.',
  ),
  v(
    DEFAULT_DEPLOYMENTS,
    'jobs-service.md Objects: Deployment fields are listed; when a deployment is created is not shown',
    "Every group of a service job without an update block gets the real scheduler's default update strategy (MinHealthyTime 10 s), so every service job has a deployment after registration and scaling waits for it (job.ts canonicalize).",
  ),
  v(
    QUEUED_GC,
    'jobs-service.md Stop job: "purge ... otherwise left to garbage collection" (how and when collection runs: not shown)',
    'PUT /v1/system/gc answers at once and collects a moment later (server.ts control).',
  ),
  v(
    REFUSALS_500,
    'jobs-service.md Errors: "Status codes beyond the above are not given per endpoint."',
    "Refusals of the document's rules answer 500 with the error message, as the real scheduler does for errors raised behind its RPC layer; the documented 400 (scaling during an active deployment) stays 400 (server.ts send).",
    {
      assumptions: ['jobs.errors.rejections-4xx', 'robustness.sched.invalid-4xx', 'robustness.sched.boundary-no-5xx'],
      suites: ['jobs', 'robustness'],
    },
  ),
  v(
    EXTRA_FRAMES,
    'jobs-service.md Run action: output frames listed are stdout data, stdout close and exited; other frames are not excluded',
    'The action stream also sends frames the document does not list (an empty stderr data frame, a stderr close frame) (actions.ts).',
  ),
  v(
    PERIODIC_CHILD_PER_SECOND,
    'jobs-service.md Force periodic instance: "Creates an instance even if it violates prohibit_overlap"; child IDs are not given',
    'A periodic instance is named after its launch second: two forces within one second register the same child again (a new evaluation each), as the real scheduler does (store.ts launchChild).',
  ),
  v(
    PURGE_COLLECTS_ALLOCATIONS,
    'jobs-service.md Stop job: "purge ... purge immediately"; what happens to the allocations of a purged job is not shown',
    'Purging a job also removes its allocations and deployments, so all=true has nothing of the earlier job to show (store.ts stop).',
    { assumptions: ['jobs.allocations.all-after-purge'] },
  ),
];
