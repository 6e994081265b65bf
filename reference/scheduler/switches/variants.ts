/**
 * The jobs area's legal variants: behaviours the jobs document allows and the real scheduler shows,
 * each replacing rules of ../rules.ts or rewriting the answer in the server's one response function
 * (see reference/switches.ts). index.ts applies them after the faults.
 */
import { switchesOf } from '../../switches.js';
import type { Wire } from '../http.js';
import type { SchedulerRules } from '../rules.js';

const { variant } = switchesOf<SchedulerRules, Wire>(['jobs']);

/** The list answers whose order the document does not give (every list but the versions' Diffs pairs). */
const LISTS = [
  'GET /v1/jobs',
  'GET /v1/job/:job_id/allocations',
  'GET /v1/job/:job_id/evaluations',
  'GET /v1/job/:job_id/deployments',
  'GET /v1/job/:job_id/services',
  'GET /v1/job/:job_id/actions',
];

/** An evaluation's or deployment's ID in a form other than a UUID: a kind prefix and a counter. */
let serial = 0;
const counted = (kind: string) => `${kind.slice(0, 4)}-${String(++serial).padStart(8, '0')}`;

/** Go's omitempty: a member holding '', 0, false, null, an empty list or an empty map is left out. */
const holdsNothing = (v: unknown): boolean =>
  v === '' ||
  v === 0 ||
  v === false ||
  v === null ||
  (Array.isArray(v) && v.length === 0) ||
  (typeof v === 'object' && v !== null && !Array.isArray(v) && Object.keys(v).length === 0);
/** `o` without its members that hold nothing (only those named in `keys`, when given). */
const withoutEmpty =
  (keys?: string[]) =>
  (o: unknown): unknown =>
    o && typeof o === 'object' && !Array.isArray(o)
      ? Object.fromEntries(Object.entries(o).filter(([k, v]) => !(holdsNothing(v) && (!keys || keys.includes(k)))))
      : o;
const each = (f: (o: unknown) => unknown) => (b: unknown) => (Array.isArray(b) ? b.map(f) : b);
/**
 * The answers whose empty members the variant leaves out: every member of a listed evaluation or
 * allocation (and of the evaluations a plan creates), and the named members elsewhere (query
 * meta's LastContact 0 and KnownLeader false stay: the suite reads them as values).
 */
const OMITTING: Record<string, (body: unknown) => unknown> = {
  'GET /v1/job/:job_id/evaluations': each(withoutEmpty()),
  'GET /v1/job/:job_id/allocations': each(withoutEmpty()),
  'POST /v1/job/:job_id/plan': (b) => {
    const plan = b as { CreatedEvals?: unknown } | null;
    return plan && Array.isArray(plan.CreatedEvals)
      ? { ...plan, CreatedEvals: plan.CreatedEvals.map(withoutEmpty()) }
      : b;
  },
  'DELETE /v1/job/:job_id/versions/:tag_name/tag': withoutEmpty(['VolumeEvalID', 'VolumeEvalIndex', 'NextToken']),
  'POST /v1/job/:job_id/versions/:tag_name/tag': withoutEmpty(['NextToken']),
  'GET /v1/job/:job_id/versions': withoutEmpty(['NextToken']),
  'GET /v1/job/:job_id/scale': withoutEmpty(['JobStopped']),
  'GET /v1/job/:job_id': withoutEmpty(['Stop', 'Stable', 'ParentID']),
};

export const variantSwitches = [
  variant('jobs.async-evaluations', {
    allows:
      'jobs-service.md Objects: "Evaluation Status: complete, blocked"; "Complete lists of allowed Status and Type values: not shown. Transitions: not shown."',
    description:
      'Evaluations are created pending and processed after the write answered (store.ts process()): allocations and deployments appear later, as on the real scheduler.',
    replace: () => ({ asyncEvaluations: true }),
  }),
  variant('jobs.default-deployments', {
    allows: 'jobs-service.md Objects: Deployment fields are listed; when a deployment is created is not shown',
    description:
      "Every group of a service job without an update block gets the real scheduler's default update strategy (MinHealthyTime 10 s), so every service job has a deployment after registration and scaling waits for it (job.ts canonicalize).",
    replace: () => ({ defaultUpdateStrategy: true }),
  }),
  variant('jobs.gc-queued', {
    allows:
      'jobs-service.md Stop job: "purge ... otherwise left to garbage collection" (how and when collection runs: not shown)',
    description: 'PUT /v1/system/gc answers at once and collects a moment later (routes/control.ts).',
    replace: () => ({ gcQueued: true }),
  }),
  // The real scheduler refuses most rule violations with 500 and the message; a status the
  // document gives itself stays.
  variant('jobs.refusals-500', {
    allows: 'jobs-service.md Errors: "Status codes beyond the above are not given per endpoint."',
    description:
      "Refusals of the document's rules answer 500 with the error message, as the real scheduler does for errors raised behind its RPC layer; the documented 400 (scaling during an active deployment) stays 400 (switches.ts, in the one response function).",
    assumptions: ['jobs.errors.rejections-4xx', 'robustness.sched.invalid-4xx', 'robustness.sched.boundary-no-5xx'],
    suites: ['jobs', 'robustness'],
    rewrite: (w: Wire): Wire => (w.refusal && w.status === 400 && !w.refusal.documented ? { ...w, status: 500 } : w),
  }),
  variant('jobs.action-extra-frames', {
    allows:
      'jobs-service.md Run action: output frames listed are stdout data, stdout close and exited; other frames are not excluded',
    description:
      'The action stream also sends frames the document does not list (an empty stderr data frame, a stderr close frame) (actions.ts).',
    replace: () => ({ actionExtraFrames: true }),
  }),
  variant('jobs.periodic-child-per-second', {
    allows:
      'jobs-service.md Force periodic instance: "Creates an instance even if it violates prohibit_overlap"; child IDs are not given',
    description:
      'A periodic instance is named after its launch second: two forces within one second register the same child again (a new evaluation each), as the real scheduler does (store.ts launchChild).',
    replace: () => ({ periodicChildPerSecond: true }),
  }),
  variant('jobs.lists-reversed', {
    allows:
      'jobs-service.md List jobs: "Response: array of job list items"; List allocations / deployments: "Responses: arrays"; List job versions: "Versions (array of jobs)": no order is given',
    description:
      "Every list answer (jobs, allocations, evaluations, deployments, services, actions, the versions with their diffs) comes in the reverse of the reference's order; pages of GET /v1/jobs are reversed inside each page (switches/variants.ts, rules.endpointAnswer).",
    replace: (r) => ({
      endpointAnswer: (endpoint: string, body: unknown) => {
        const out = r.endpointAnswer(endpoint, body);
        if (LISTS.includes(endpoint) && Array.isArray(out)) return [...out].reverse();
        if (endpoint === 'GET /v1/job/:job_id/versions' && out && typeof out === 'object') {
          const v = out as { Versions?: unknown[]; Diffs?: unknown[] | null };
          return {
            ...v,
            Versions: [...(v.Versions ?? [])].reverse(),
            Diffs: v.Diffs ? [...v.Diffs].reverse() : v.Diffs,
          };
        }
        return out;
      },
    }),
  }),
  variant('jobs.ids-not-uuid', {
    allows:
      'jobs-service.md Resources and their fields > Evaluation, Deployment: ID is listed without a format (UUIDs appear in samples only)',
    description:
      'Evaluation and deployment IDs are a kind prefix and a counter (eval-00000001), not UUIDs (switches/variants.ts, rules.newId); allocation IDs stay UUIDs, as the action stream names alloc_id a UUID.',
    replace: () => ({ newId: counted }),
  }),
  variant('jobs.empty-values-omitted', {
    allows:
      'jobs-service.md Resources and their fields: the fields of an evaluation, an allocation and the responses are listed, not that a member holding no value is sent; Common response fields: "EvalID and EvalCreateIndex are present only when an evaluation was created"',
    description:
      "Listed evaluations and allocations and the evaluations a plan creates leave out every member holding no value ('', 0, false, null, empty lists and maps), as the real scheduler's encoder does; a job read leaves out Stop, Stable and ParentID, the scale status JobStopped, the tag answers and the versions NextToken, and the tag delete VolumeEvalID and VolumeEvalIndex, when they hold nothing (switches/variants.ts, rules.endpointAnswer).",
    replace: (r) => ({
      endpointAnswer: (endpoint: string, body: unknown) => {
        const out = r.endpointAnswer(endpoint, body);
        const omit = OMITTING[endpoint];
        return omit ? omit(out) : out;
      },
    }),
  }),
  variant('jobs.purge-collects-allocations', {
    allows:
      'jobs-service.md Stop job: "purge ... purge immediately"; what happens to the allocations of a purged job is not shown',
    description:
      'Purging a job also removes its allocations and deployments, so all=true has nothing of the earlier job to show (store.ts stop).',
    assumptions: ['jobs.allocations.all-after-purge'],
    replace: () => ({ purgeCollectsAllocations: true }),
  }),
];
