/**
 * The jobs document's rules as named values and functions: the reference scheduler's routes, store
 * and action stream call `rules.x` and never ask which switch is on. `documented` is the plainest
 * reading of jobs-service.md; switches/ (the one table of the area's faults and variants) replaces
 * single rules of it, so a reader finds each rule here, under the name of what the document says.
 */
import { randomUUID } from 'node:crypto';
import type { Capability } from './acl.js';
import type { Job } from './job.js';
import { compareJobToToken } from './paginate.js';
import { documentedParameters, type ParameterRules } from './parameter-rules.js';

/** The payload limit of a dispatch (jobs-service.md Dispatch job). */
export const DISPATCH_PAYLOAD_LIMIT = 16384;
/** Submissions kept per job (jobs-service.md Read job submission: "the last 6"). */
export const SUBMISSIONS_KEPT = 6;

/**
 * What a route needs of a token (route metadata, see router.ts). A request passes when the token
 * holds any one of the permission's capabilities in the namespace; `null` needs none.
 */
export type Permission =
  | 'list-jobs'
  | 'read-job'
  | 'read-job-scaling'
  | 'submit-job'
  | 'dispatch-job'
  | 'force-periodic'
  | 'scale-job'
  | 'parse-job'
  | 'policy-override'
  | 'alloc-exec'
  | 'alloc-node-exec';

/** With the rules of the parameters and answers (parameter-rules.ts). */
export interface SchedulerRules extends ParameterRules {
  // ---- endpoints and answers (the document's endpoint table and resource field lists) -------------
  /** The endpoint (`METHOD /path` as the document's table writes it) is served. */
  served(endpoint: string): boolean;
  /**
   * An endpoint's answer body as it goes out (the resources with their documented fields), named as
   * the document's table writes it; `answer` (parameter-rules.ts) then sees it by route key.
   */
  endpointAnswer(endpoint: string, body: unknown): unknown;
  /** The namespace of a request that names none (Endpoints: "default `default`"). */
  defaultNamespace: string;
  /** A new evaluation's or deployment's ID (UUIDs in the document's samples). */
  newId(kind: 'evaluation' | 'deployment'): string;

  // ---- ACL (jobs.acl.*) --------------------------------------------------------------------------
  /** The capabilities each permission accepts (any one of them). */
  capabilities: Record<Permission, Capability[] | null>;
  /** The namespace a permission is checked in: the request's own. */
  aclNamespace(namespace: string, permission: Permission): string;
  /**
   * The permission an endpoint checks (its row of the document's ACL column), `endpoint` in the
   * document's form (`GET /v1/job/:job_id/summary`); `null` checks none.
   */
  endpointPermission(endpoint: string, permission: Permission): Permission | null;
  /** A request with PolicyOverride needs namespace:policy-override besides the endpoint's own capability. */
  policyOverrideIsAdditional: boolean;

  // ---- registration (jobs.register.*, jobs.update.*) ---------------------------------------------
  /** A registered job as stored: the definition the request carried, canonicalized. */
  storedJob(job: Job): Job;
  /** The job definition of a request as the scheduler decodes it: every field it carries. */
  decodedJob(job: Job): Job;
  /** EnforceIndex refuses a stale JobModifyIndex. */
  enforcesIndex: boolean;
  /** EnforceIndex registers a new job only with JobModifyIndex 0 (a new job has no other index to match). */
  enforceIndexNewJobNeedsZero: boolean;
  /** PreserveCounts keeps the group counts of the registered job. */
  preservesCounts: boolean;
  /** A new version is made only when the definition changed. */
  definitionChanged(old: string, next: string): boolean;
  /** The Version of a changed definition. */
  nextVersion(current: number): number;
  /** Registering a service or batch job creates an evaluation. */
  registerCreatesEval: boolean;
  /** EvalPriority gives the evaluation its priority (0: the job's). */
  evalPriority(requested: number): number;
  /** Processing an evaluation places the allocations the job needs. */
  placesAllocations: boolean;
  /** A service job with an update strategy gets a deployment for each new version. */
  createsDeployments: boolean;
  /** A deployment completes once its allocations are healthy. */
  deploymentsComplete: boolean;
  /** Submission sources kept per job. */
  submissionsKept: number;
  /** Variant: evaluations are processed after the write answered. */
  asyncEvaluations: boolean;
  /** Variant: groups of a service job without update block get the default update strategy. */
  defaultUpdateStrategy: boolean;

  // ---- reads -----------------------------------------------------------------------------------
  /** A job is found only in its own namespace. */
  jobsAreNamespaced: boolean;
  /** Reading an unknown job answers 404. */
  unknownJobIs404: boolean;
  /** The job as read (durations in nanoseconds). */
  jobView(view: Job): Job;
  /** Reading a submission needs its version. */
  submissionVersionRequired: boolean;
  /** A version registered without a submission has none (not an earlier version's). */
  submissionOnlyWhenSupplied: boolean;

  // ---- list (jobs.list.*) ------------------------------------------------------------------------
  listHonoursPrefix: boolean;
  /** Whether a job ID matches the prefix query parameter (an index-prefix filter: starts with it). */
  listPrefixMatches: (id: string, prefix: string) => boolean;
  listHonoursFilter: boolean;
  /** A page holds at most per_page items. */
  pageOverfill: boolean;
  /** A truncated page carries X-Sched-NextToken. */
  listSendsNextToken: boolean;
  /** Orders a job against a next_token: by namespace, then ID (a token of namespace=* pages names both). */
  compareJobToToken: (job: { Namespace: string; ID: string }, token: string) => number;
  /** meta=true adds Meta to list items. */
  listMetaOnRequest: boolean;
  /** namespace=*: every namespace the token may list (of all the scheduler knows). */
  wildcardNamespaces(allowed: Set<string>, all: Set<string>): Set<string>;

  // ---- versions (jobs.versions.*, jobs.revert.*, jobs.stable.*, jobs.tag.*) ----------------------
  /** Diffs are filled only with diffs=true (or diff_version/diff_tag). */
  versionDiffsOnRequest: boolean;
  /** `diffs` of the versions list (default false) as the query gives it: diffs only when true. */
  versionDiffsRequested: (given: boolean | undefined) => boolean;
  /** Diffs, when asked for, are given. */
  versionDiffsGiven: boolean;
  /** diff_version names the version diffed against. */
  diffVersionHonoured: boolean;
  revertJobIdRequired: boolean;
  revertOneOfVersionOrTag: boolean;
  revertByTag: boolean;
  revertEnforcesPrior: boolean;
  /** A revert copies the target version's definition. */
  revertCopiesTarget: boolean;
  /** Setting stability changes Stable of that version. */
  stableSets: boolean;
  /** Marking the current version stable shows on the job read (the job is its current version). */
  stableMarksCurrentJob: boolean;
  /** Marking a version stable changes no current definition. */
  stableKeepsJob: boolean;
  /** A tag without Version goes to the latest version. */
  tagDefaultsToLatest: boolean;
  tagUniquePerJob: boolean;
  /** A tag is kept on the version it names. */
  tagsKept: boolean;
  tagDeletes: boolean;
  /** Deleting a tag leaves the job's other tags on their versions. */
  tagDeleteKeepsOthers: boolean;

  // ---- allocations and deployments ---------------------------------------------------------------
  allocationsAllHonoured: boolean;
  /** `all` of the allocations list (default false) as the query gives it: earlier jobs' only when true. */
  allocationsAllRequested: (given: boolean | undefined) => boolean;
  deploymentsAllHonoured: boolean;

  // ---- stop and gc (jobs.stop.*, jobs.gc.*) ------------------------------------------------------
  /** A stop removes the job at once only with purge=true. */
  stopRemoves(purge: boolean): boolean;
  /** global=true is an ordinary stop (single region). */
  globalStopAccepted: boolean;
  /** no_shutdown_delay=true skips the group shutdown_delay. */
  honoursNoShutdownDelay: boolean;
  /** `no_shutdown_delay` of a stop (default false) as the query gives it: skip the delay only when true. */
  noShutdownDelayRequested: (given: boolean | undefined) => boolean;
  /** Forced garbage collection removes stopped jobs. */
  gcCollectsStopped: boolean;
  /** Variant: a forced collection is queued and runs after the answer. */
  gcQueued: boolean;
  /** Variant: purging also forgets the job's allocations and deployments. */
  purgeCollectsAllocations: boolean;

  // ---- dispatch (jobs.dispatch.*) ----------------------------------------------------------------
  dispatchNeedsParameterized: boolean;
  dispatchPayloadRequiredChecked: boolean;
  dispatchPayloadLimit: number;
  dispatchMetaUnpermittedRefused: boolean;
  dispatchMetaRequiredChecked: boolean;
  dispatchIdempotent: boolean;
  /** An idempotency token names a dispatch of the job dispatched (its children), not of any job. */
  dispatchIdempotentPerJob: boolean;
  dispatchIdPrefixTemplate: boolean;
  dispatchKeepsMeta: boolean;
  /** The raw request body of dispatch/payload is the child's Payload. */
  rawDispatchPayload(body: Buffer): Buffer;

  // ---- evaluate, plan, periodic, scale -----------------------------------------------------------
  evaluateJobIdRequired: boolean;
  evaluateCreatesEval: boolean;
  /** `EvalOptions.ForceReschedule` replaces the job's failed allocations past their reschedule limits. */
  forceRescheduleHonoured: boolean;
  /** What an evaluate request without `EvalOptions.ForceReschedule` does (the document: false). */
  forceRescheduleDefault: boolean;
  /** An explicit `ForceReschedule: false` is false (a broken scheduler takes any value as set). */
  forceRescheduleFalseHonoured: boolean;
  /** Plan is a dry run. */
  planDryRun: boolean;
  planDiff: boolean;
  planAnnotations: boolean;
  /** periodic/force needs a periodic job. */
  forceNeedsPeriodic: boolean;
  /** periodic/force creates an instance even if it violates prohibit_overlap. */
  forceIgnoresOverlap: boolean;
  /** Variant: a periodic instance is named after its launch second (two in one second share it). */
  periodicChildPerSecond: boolean;
  scaleTargetGroupRequired: boolean;
  scaleMessageXorError: boolean;
  scaleBlockedByDeployment: boolean;
  scaleSetsCount: boolean;
  /** A scale request without Count (optional) changes no count: it only records its event. */
  scaleWithoutCountKeepsCount: boolean;
  scaleRecordsEvent: boolean;

  // ---- parse (jobs.parse.*) ----------------------------------------------------------------------
  parseCanonicalizes: boolean;
  parseUsesVariables: boolean;

  // ---- the action stream (jobs.action.*) ---------------------------------------------------------
  /** The task driver lacks file system isolation, so the stream also needs alloc-node-exec. */
  lacksFsIsolation(driver: string): boolean;
  actionNeedsTask: boolean;
  /** With ws_handshake=true the first frame's auth_token is checked. */
  actionHandshakeChecked: boolean;
  /** tty_size frames are accepted (and ignored). */
  actionTtySizeAccepted: boolean;
  /** The stdout close frame comes before the exited frame. */
  actionCloseBeforeExit: boolean;
  /** The stream ends with the exited frame (and the server closes it). */
  actionStreamEnds: boolean;
  /** Variant: frames the document does not list (stderr data and close). */
  actionExtraFrames: boolean;
}

export const documented: SchedulerRules = {
  ...documentedParameters,
  served: () => true,
  endpointAnswer: (_endpoint, body) => body,
  defaultNamespace: 'default',
  newId: () => randomUUID(),

  capabilities: {
    'list-jobs': ['list-jobs'],
    'read-job': ['read-job'],
    'read-job-scaling': ['read-job-scaling', 'read-job'],
    'submit-job': ['submit-job'],
    'dispatch-job': ['dispatch-job'],
    'force-periodic': ['dispatch-job', 'submit-job'],
    'scale-job': ['scale-job', 'submit-job'],
    'parse-job': ['parse-job', 'submit-job'],
    'policy-override': ['policy-override'],
    'alloc-exec': ['alloc-exec'],
    // Drivers without file system isolation (raw_exec) also need alloc-node-exec.
    'alloc-node-exec': ['alloc-node-exec'],
  },
  aclNamespace: (namespace) => namespace,
  endpointPermission: (_endpoint, permission) => permission,
  policyOverrideIsAdditional: true,

  storedJob: (job) => job,
  decodedJob: (job) => job,
  enforcesIndex: true,
  enforceIndexNewJobNeedsZero: true,
  preservesCounts: true,
  definitionChanged: (old, next) => old !== next,
  nextVersion: (current) => current + 1,
  registerCreatesEval: true,
  evalPriority: (requested) => requested,
  placesAllocations: true,
  createsDeployments: true,
  deploymentsComplete: true,
  submissionsKept: SUBMISSIONS_KEPT,
  asyncEvaluations: false,
  defaultUpdateStrategy: false,

  jobsAreNamespaced: true,
  unknownJobIs404: true,
  jobView: (view) => view,
  submissionVersionRequired: true,
  submissionOnlyWhenSupplied: true,

  listHonoursPrefix: true,
  listPrefixMatches: (id, prefix) => id.startsWith(prefix),
  listHonoursFilter: true,
  pageOverfill: false,
  listSendsNextToken: true,
  compareJobToToken,
  listMetaOnRequest: true,
  wildcardNamespaces: (allowed) => allowed,

  versionDiffsOnRequest: true,
  versionDiffsRequested: (given) => given ?? false,
  versionDiffsGiven: true,
  diffVersionHonoured: true,
  revertJobIdRequired: true,
  revertOneOfVersionOrTag: true,
  revertByTag: true,
  revertEnforcesPrior: true,
  revertCopiesTarget: true,
  stableSets: true,
  stableMarksCurrentJob: true,
  stableKeepsJob: true,
  tagDefaultsToLatest: true,
  tagUniquePerJob: true,
  tagsKept: true,
  tagDeletes: true,
  tagDeleteKeepsOthers: true,

  allocationsAllHonoured: true,
  allocationsAllRequested: (given) => given ?? false,
  deploymentsAllHonoured: true,

  stopRemoves: (purge) => purge,
  globalStopAccepted: true,
  honoursNoShutdownDelay: true,
  noShutdownDelayRequested: (given) => given ?? false,
  gcCollectsStopped: true,
  gcQueued: false,
  purgeCollectsAllocations: false,

  dispatchNeedsParameterized: true,
  dispatchPayloadRequiredChecked: true,
  dispatchPayloadLimit: DISPATCH_PAYLOAD_LIMIT,
  dispatchMetaUnpermittedRefused: true,
  dispatchMetaRequiredChecked: true,
  dispatchIdempotent: true,
  dispatchIdempotentPerJob: true,
  dispatchIdPrefixTemplate: true,
  dispatchKeepsMeta: true,
  rawDispatchPayload: (body) => body,

  evaluateJobIdRequired: true,
  evaluateCreatesEval: true,
  forceRescheduleHonoured: true,
  forceRescheduleDefault: false,
  forceRescheduleFalseHonoured: true,
  planDryRun: true,
  planDiff: true,
  planAnnotations: true,
  forceNeedsPeriodic: true,
  forceIgnoresOverlap: true,
  periodicChildPerSecond: false,
  scaleTargetGroupRequired: true,
  scaleMessageXorError: true,
  scaleBlockedByDeployment: true,
  scaleSetsCount: true,
  scaleWithoutCountKeepsCount: true,
  scaleRecordsEvent: true,

  parseCanonicalizes: true,
  parseUsesVariables: true,

  // Of the real scheduler's built-in drivers only raw_exec runs tasks without file system isolation.
  lacksFsIsolation: (driver) => driver === 'raw_exec',
  actionNeedsTask: true,
  actionHandshakeChecked: true,
  actionTtySizeAccepted: true,
  actionCloseBeforeExit: true,
  actionStreamEnds: true,
  actionExtraFrames: false,
};
