/**
 * The rules of jobs-service.md "Endpoints > Parameters and responses" the reference scheduler
 * follows besides rules.ts: the defaults of the request parameters, the namespace a request acts
 * in, and the answer each route gives. rules.ts merges them into SchedulerRules; switches/ replaces
 * single ones (a parameter ignored, a default wrong, a field dropped).
 */
import type { Job } from './job.js';

/** A route of the router, as `<METHOD> <path>` (router.ts routeKey): `GET /v1/job/*id/versions`. */
export type RouteKey = string;

export interface ParameterRules {
  // ---- every route (router.ts) -------------------------------------------------------------------
  /** The namespace a request acts in: its `namespace` query parameter (default `default`). */
  requestNamespace(route: RouteKey, namespace: string): string;
  /** The answer of a route as the document gives it. */
  answer(route: RouteKey, body: unknown): unknown;

  // ---- list jobs ---------------------------------------------------------------------------------
  /** `per_page` when omitted (0: not paginated). */
  listDefaultPerPage: number;
  /** `per_page` of this request as the query gives it (undefined when omitted: the default stands in). */
  listPerPage(given: number | undefined): number | undefined;
  /** `meta` when omitted. */
  listMetaDefault: boolean;

  // ---- create and update job ---------------------------------------------------------------------
  /** `Job` is required on create (POST /v1/jobs) and on update (POST /v1/job/:job_id). */
  jobRequired: { create: boolean; update: boolean };
  /** The update's path job_id must name the body's job (the body's job is not registered elsewhere). */
  updateMatchesPathId: boolean;
  /** The definition scheduled: the JSON job, never the Submission's source. */
  scheduledDefinition(job: Job, submission: Job | null): Job;
  /** Whether the index is enforced: `EnforceIndex` (default false). */
  enforceIndexRequested(flag: boolean, jobModifyIndex: number | undefined): boolean;
  /** Which register routes check `EnforceIndex` (create, POST /v1/jobs; update, POST /v1/job/:job_id). */
  enforceIndexChecked(route: 'create' | 'update'): boolean;
  /** With EnforceIndex, `JobModifyIndex` 0 registers only a new job (refused for a job that exists). */
  enforceIndexZeroMeansNew: boolean;
  /** The job of an update as stored, given the current definition: the body's job (never merged). */
  updatedJob(current: Job, next: Job): Job;
  /** `JobModifyIndex` when omitted (0), given the job's current index. */
  jobModifyIndexDefault(current: number): number;
  /** `PreserveCounts` when omitted. */
  preserveCountsDefault: boolean;
  /** An explicit `PreserveCounts: false` is false (a broken scheduler takes any value as set). */
  preserveCountsFalseHonoured: boolean;
  /** Which routes check `PolicyOverride` (needs namespace:policy-override when set). */
  policyOverrideChecked(route: 'register' | 'plan' | 'scale'): boolean;
  /** An explicit `PolicyOverride: false` is false (a broken scheduler takes any value as set). */
  policyOverrideFalseHonoured: boolean;

  // ---- parse -------------------------------------------------------------------------------------
  parseNeedsJobHcl: boolean;
  /** `Canonicalize` when omitted. */
  parseCanonicalizeDefault: boolean;
  /** An explicit `Canonicalize: false` is false (a broken scheduler takes any value as set). */
  parseCanonicalizeFalseHonoured: boolean;
  /** `Variables` of a parse as the body gives it (undefined when omitted): default empty. */
  parseVariables(given: string | undefined): string;

  // ---- read --------------------------------------------------------------------------------------
  /** A job is read by its exact ID (never another job whose ID starts with it). */
  readExactId: boolean;
  /** Job IDs compare case-sensitively (`Web` and `web` are two jobs). */
  readCaseSensitive: boolean;

  // ---- versions and tags -------------------------------------------------------------------------
  /** A tagged version is kept however many versions follow. */
  tagsKeepVersions: boolean;
  /** `diff_tag` (the real scheduler's name for comparing with a tagged version) is honoured. */
  diffTagHonoured: boolean;
  /** The name a tag is stored under, given the path's tag_name: that name. */
  tagName(path: string): string;
  tagKeepsDescription: boolean;
  /** The version a tag goes to: `Version` when given, else the latest. */
  tagVersionOf(requested: number | undefined, latest: number): number;
  /** Diffs of the versions list compare each version with the previous one (else with the oldest listed). */
  diffsAgainstPrevious: boolean;
  /** Submissions kept are the newest ones (else the oldest). */
  submissionsKeptNewest: boolean;

  // ---- deployments -------------------------------------------------------------------------------
  /** GET /v1/job/:job_id/deployment: the most recent deployment (else the oldest). */
  latestDeploymentIsNewest: boolean;

  // ---- dispatch ----------------------------------------------------------------------------------
  /** The ID of a dispatched child: IdPrefixTemplate before the part that tells children apart. */
  dispatchedId(parent: string, template: string, unique: string): string;

  // ---- revert and stability ----------------------------------------------------------------------
  /** EnforcePriorVersion is checked on a revert by TaggedVersion too (not only by JobVersion). */
  revertPriorCheckedByTag: boolean;
  /** `JobVersion` of a revert naming neither it nor TaggedVersion (0), given the current version. */
  revertDefaultVersion(current: number): number;
  /** The optional revert fields the request may carry (`DiscoveryToken`, `SecretsToken`). */
  revertTakes(field: 'DiscoveryToken' | 'SecretsToken'): boolean;
  /** Variant: a revert registers the target definition as a new version (else restores that version). */
  revertMakesNewVersion: boolean;
  /** The stability body may carry `JobID`. */
  stableTakesJobId: boolean;
  /** `JobVersion` of a stability request when omitted (0), given the current version. */
  stableDefaultVersion(current: number): number;
  /** `Stable` when omitted (false), given the version's flag. */
  stableDefault(current: boolean): boolean;

  // ---- evaluate, plan, periodic force, stop ------------------------------------------------------
  /** The evaluate endpoint takes a JSON payload. */
  evaluateTakesJson: boolean;
  /** A plan without Job is refused. */
  planNeedsJob: boolean;
  /** `Diff` when omitted. */
  planDiffDefault: boolean;
  /** periodic/force takes no body (path only). */
  periodicForcePathOnly: boolean;
  /** `eval_priority` of a stop: the stop's evaluation priority (0: the job's). */
  stopEvalPriority(requested: number): number;
  /** `purge` of a stop (default false), as the query gives it (undefined when omitted): purge only when true. */
  stopPurgeRequested(given: boolean | undefined): boolean;
  /** Whether an evaluate request forces the reschedule, given its ForceReschedule (undefined when omitted) and what it reads as. */
  forceRescheduleApplied(value: boolean, given: boolean | undefined): boolean;
  /** A forced reschedule replaces a failed allocation past its reschedule limit (attempts used up). */
  forceRescheduleOverridesLimits: boolean;
  /** A forced reschedule replaces a failed allocation within its reschedule delay. */
  forceRescheduleOverridesDelays: boolean;
  /** The evaluations a plan's scheduler would create (a blocked evaluation for what it cannot place). */
  planCreatedEvals(evals: Job[]): Job[] | null;

  // ---- scale -------------------------------------------------------------------------------------
  scaleEnforcesIndex: boolean;
  /** The `JobModifyIndex` a scale request gives is read (else its default stands in for it). */
  scaleReadsJobModifyIndex: boolean;
  /** `JobModifyIndex` of a scale request when omitted (0), given the job's current index. */
  scaleJobModifyIndexDefault(current: number): number;
  /** The request's Meta is stored in the scaling event. */
  scaleEventKeepsMeta: boolean;
  /** Whether a scale request with (`message`) or without a Message and with or without an Error passes: exactly one. */
  scaleAccepts(message: boolean, error: boolean): boolean;
  /** A Message the scale request may carry (any string). */
  scaleMessageOk(message: string): boolean;
  /** A Target.Group naming no group of the job is refused. */
  scaleUnknownGroupRefused: boolean;

  // ---- the action stream -------------------------------------------------------------------------
  actionNeedsAction: boolean;
  actionNeedsAlloc: boolean;
  /** `tty` when omitted. */
  actionTtyDefault: boolean;
  /** `ws_handshake` when omitted. */
  actionHandshakeDefault: boolean;
  /** The action request is a WebSocket upgrade (else answered as plain HTTP). */
  actionUpgrades: boolean;
  /** The field of the first frame that carries the token. */
  actionAuthFrameField: string;
  /** The stream sends `{stdout: {close: true}}`. */
  actionSendsClose: boolean;
  /** With tty=true the data includes terminal control sequences. */
  actionTtyControlSequences: boolean;
  /** Whether the action runs with a terminal, given `tty`: only with tty=true. */
  actionTerminal(tty: boolean): boolean;
  /** How a stdout data frame carries its bytes: base64. */
  actionDataEncoding: 'base64' | 'utf8';
  /** The stream sends `{exited: true, result: {}}` before it ends. */
  actionSendsExited: boolean;

  // ---- dispatch ----------------------------------------------------------------------------------
  /** The bytes of a dispatch `Payload` (base64): the decoded bytes. */
  dispatchPayloadBytes(base64: string, decoded: Buffer): Buffer;
  /** What an idempotency token is compared by: the token alone (never the rest of the request). */
  idempotencyKey(token: string, request: { payload: Buffer; meta: Record<string, string> | null }): string;
  /** The dispatch Meta stored in the child (every key). */
  dispatchedMeta(meta: Record<string, string> | null): Record<string, string> | null;
  /** The MetaRequired keys a dispatch is checked against (every key). */
  dispatchRequiredKeys(required: string[]): string[];
  /** A raw dispatch body of this content type is taken (any). */
  rawDispatchAccepts(contentType: string): boolean;
}

export const documentedParameters: ParameterRules = {
  requestNamespace: (_route, namespace) => namespace,
  answer: (_route, body) => body,

  listDefaultPerPage: 0,
  listPerPage: (given) => given,
  listMetaDefault: false,

  jobRequired: { create: true, update: true },
  updateMatchesPathId: true,
  scheduledDefinition: (job) => job,
  enforceIndexRequested: (flag) => flag,
  enforceIndexChecked: () => true,
  enforceIndexZeroMeansNew: true,
  updatedJob: (_current, next) => next,
  jobModifyIndexDefault: () => 0,
  preserveCountsDefault: false,
  preserveCountsFalseHonoured: true,
  policyOverrideChecked: () => true,
  policyOverrideFalseHonoured: true,

  parseNeedsJobHcl: true,
  parseCanonicalizeDefault: false,
  parseCanonicalizeFalseHonoured: true,
  parseVariables: (given) => given ?? '',

  readExactId: true,
  readCaseSensitive: true,

  tagsKeepVersions: true,
  diffTagHonoured: true,
  tagName: (path) => path,
  tagKeepsDescription: true,
  tagVersionOf: (requested, latest) => requested ?? latest,
  diffsAgainstPrevious: true,
  submissionsKeptNewest: true,

  latestDeploymentIsNewest: true,

  dispatchedId: (parent, template, unique) => `${parent}/dispatch-${template ? `${template}-` : ''}${unique}`,

  revertPriorCheckedByTag: true,
  revertDefaultVersion: () => 0,
  revertTakes: () => true,
  revertMakesNewVersion: true,
  stableTakesJobId: true,
  stableDefaultVersion: () => 0,
  stableDefault: () => false,

  evaluateTakesJson: true,
  planNeedsJob: true,
  planDiffDefault: false,
  periodicForcePathOnly: true,
  stopEvalPriority: (requested) => requested,
  stopPurgeRequested: (given) => given ?? false,
  forceRescheduleApplied: (value) => value,
  forceRescheduleOverridesLimits: true,
  forceRescheduleOverridesDelays: true,
  planCreatedEvals: (evals) => evals,

  scaleEnforcesIndex: true,
  scaleReadsJobModifyIndex: true,
  scaleJobModifyIndexDefault: () => 0,
  scaleEventKeepsMeta: true,
  scaleAccepts: (message, error) => message !== error,
  scaleMessageOk: () => true,
  scaleUnknownGroupRefused: true,

  actionNeedsAction: true,
  actionNeedsAlloc: true,
  actionTtyDefault: false,
  actionHandshakeDefault: false,
  actionUpgrades: true,
  actionAuthFrameField: 'auth_token',
  actionSendsClose: true,
  actionTtyControlSequences: true,
  actionTerminal: (tty) => tty,
  actionDataEncoding: 'base64',
  actionSendsExited: true,

  dispatchPayloadBytes: (_base64, decoded) => decoded,
  idempotencyKey: (token) => token,
  dispatchedMeta: (meta) => meta,
  dispatchRequiredKeys: (required) => required,
  rawDispatchAccepts: () => true,
};
