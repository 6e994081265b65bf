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

  // ---- read --------------------------------------------------------------------------------------
  /** A job is read by its exact ID (never another job whose ID starts with it). */
  readExactId: boolean;

  // ---- versions and tags -------------------------------------------------------------------------
  /** A tagged version is kept however many versions follow. */
  tagsKeepVersions: boolean;
  /** `diff_tag` (the real scheduler's name for comparing with a tagged version) is honoured. */
  diffTagHonoured: boolean;
  /** The name a tag is stored under, given the path's tag_name: that name. */
  tagName(path: string): string;
  tagKeepsDescription: boolean;

  // ---- deployments -------------------------------------------------------------------------------
  /** GET /v1/job/:job_id/deployment: the most recent deployment (else the oldest). */
  latestDeploymentIsNewest: boolean;

  // ---- dispatch ----------------------------------------------------------------------------------
  /** The ID of a dispatched child: IdPrefixTemplate before the part that tells children apart. */
  dispatchedId(parent: string, template: string, unique: string): string;

  // ---- revert and stability ----------------------------------------------------------------------
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

  // ---- scale -------------------------------------------------------------------------------------
  scaleEnforcesIndex: boolean;
  /** The `JobModifyIndex` a scale request gives is read (else its default stands in for it). */
  scaleReadsJobModifyIndex: boolean;
  /** `JobModifyIndex` of a scale request when omitted (0), given the job's current index. */
  scaleJobModifyIndexDefault(current: number): number;
  /** The request's Meta is stored in the scaling event. */
  scaleEventKeepsMeta: boolean;

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
}

export const documentedParameters: ParameterRules = {
  requestNamespace: (_route, namespace) => namespace,
  answer: (_route, body) => body,

  listDefaultPerPage: 0,
  listMetaDefault: false,

  jobRequired: { create: true, update: true },
  updateMatchesPathId: true,
  scheduledDefinition: (job) => job,
  enforceIndexRequested: (flag) => flag,
  jobModifyIndexDefault: () => 0,
  preserveCountsDefault: false,
  preserveCountsFalseHonoured: true,
  policyOverrideChecked: () => true,
  policyOverrideFalseHonoured: true,

  parseNeedsJobHcl: true,
  parseCanonicalizeDefault: false,
  parseCanonicalizeFalseHonoured: true,

  readExactId: true,

  tagsKeepVersions: true,
  diffTagHonoured: true,
  tagName: (path) => path,
  tagKeepsDescription: true,

  latestDeploymentIsNewest: true,

  dispatchedId: (parent, template, unique) => `${parent}/dispatch-${template ? `${template}-` : ''}${unique}`,

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

  scaleEnforcesIndex: true,
  scaleReadsJobModifyIndex: true,
  scaleJobModifyIndexDefault: () => 0,
  scaleEventKeepsMeta: true,

  actionNeedsAction: true,
  actionNeedsAlloc: true,
  actionTtyDefault: false,
  actionHandshakeDefault: false,
  actionUpgrades: true,
  actionAuthFrameField: 'auth_token',
  actionSendsClose: true,
  actionTtyControlSequences: true,
};
