/**
 * The one table of the jobs area's switches (faults.ts and variants.ts declare them): each fault or
 * variant replaces one named rule of rules.ts (`withSwitches`), or rewrites the answer in the
 * server's one response function (`rewriteWith`, the wire-level ones). Nothing else in the
 * reference scheduler names a switch.
 */
import type { Faults } from '../faults.js';
import { rewriteWith, withSwitches } from '../switches.js';
import type { Variants } from '../variants.js';
import type { Wire } from './http.js';
import type { Job } from './job.js';
import { type SchedulerRules, documented } from './rules.js';

type Replace = (rules: SchedulerRules) => Partial<SchedulerRules>;
const open = (rules: SchedulerRules, ...permissions: (keyof SchedulerRules['capabilities'])[]) => ({
  capabilities: { ...rules.capabilities, ...Object.fromEntries(permissions.map((p) => [p, null])) },
});

const secondsView = (view: Job): Job => {
  for (const g of view.TaskGroups ?? [])
    for (const t of g.Tasks ?? []) if (typeof t.KillTimeout === 'number') t.KillTimeout = t.KillTimeout / 1e9;
  return view;
};

const faultRules = {
  'jobs.update-no-version-bump': () => ({ nextVersion: (current: number) => current }),
  'jobs.unchanged-bumps-version': () => ({ definitionChanged: () => true }),
  'jobs.enforce-index-ignored': () => ({ enforcesIndex: false }),
  'jobs.register-no-eval': () => ({ registerCreatesEval: false }),
  'jobs.read-unknown-200': () => ({ unknownJobIs404: false }),
  'jobs.submission-keeps-all': () => ({ submissionsKept: Number.POSITIVE_INFINITY }),
  'jobs.submission-version-optional': () => ({ submissionVersionRequired: false }),
  'jobs.list-no-next-token': () => ({ listSendsNextToken: false }),
  'jobs.list-page-overfill': () => ({ pageOverfill: true }),
  'jobs.list-prefix-ignored': () => ({ listHonoursPrefix: false }),
  'jobs.list-filter-ignored': () => ({ listHonoursFilter: false }),
  'jobs.list-wildcard-default-only': () => ({ wildcardNamespaces: () => new Set(['default']) }),
  'jobs.list-meta-missing': () => ({ listMetaOnRequest: false }),
  'jobs.dispatch-payload-unlimited': () => ({ dispatchPayloadLimit: Number.POSITIVE_INFINITY }),
  'jobs.dispatch-payload-required-ignored': () => ({ dispatchPayloadRequiredChecked: false }),
  'jobs.dispatch-meta-required-ignored': () => ({ dispatchMetaRequiredChecked: false }),
  'jobs.dispatch-meta-unpermitted-accepted': () => ({ dispatchMetaUnpermittedRefused: false }),
  'jobs.dispatch-idempotency-ignored': () => ({ dispatchIdempotent: false }),
  'jobs.dispatch-prefix-template-ignored': () => ({ dispatchIdPrefixTemplate: false }),
  'jobs.dispatch-not-parameterized-accepted': () => ({ dispatchNeedsParameterized: false }),
  'jobs.plan-registers': () => ({ planDryRun: false }),
  'jobs.plan-no-diff': () => ({ planDiff: false }),
  'jobs.plan-no-annotations': () => ({ planAnnotations: false }),
  'jobs.scale-ignores-deployment': () => ({ scaleBlockedByDeployment: false }),
  'jobs.scale-message-and-error': () => ({ scaleMessageXorError: false }),
  'jobs.scale-count-ignored': () => ({ scaleSetsCount: false }),
  'jobs.revert-enforce-prior-ignored': () => ({ revertEnforcesPrior: false }),
  'jobs.revert-tag-ignored': () => ({ revertByTag: false }),
  'jobs.revert-wrong-version': () => ({ revertCopiesTarget: false }),
  'jobs.tag-not-unique': () => ({ tagUniquePerJob: false }),
  'jobs.tag-latest-wrong': () => ({ tagDefaultsToLatest: false }),
  'jobs.stable-ignored': () => ({ stableSets: false }),
  'jobs.versions-diffs-null': () => ({ versionDiffsGiven: false }),
  'jobs.versions-diff-version-ignored': () => ({ diffVersionHonoured: false }),
  'jobs.stop-purge-ignored': () => ({ stopRemoves: () => false }),
  'jobs.stop-deletes': () => ({ stopRemoves: () => true }),
  'jobs.no-shutdown-delay-ignored': () => ({ honoursNoShutdownDelay: false }),
  'jobs.periodic-force-respects-overlap': () => ({ forceIgnoresOverlap: false }),
  'jobs.periodic-force-any-job': () => ({ forceNeedsPeriodic: false }),
  'jobs.parse-no-canonicalize': () => ({ parseCanonicalizes: false }),
  'jobs.parse-variables-ignored': () => ({ parseUsesVariables: false }),
  'jobs.acl-list-unchecked': (r) => open(r, 'list-jobs'),
  'jobs.acl-read-unchecked': (r) => open(r, 'read-job'),
  'jobs.acl-submit-unchecked': (r) => open(r, 'submit-job'),
  'jobs.acl-dispatch-unchecked': (r) => open(r, 'dispatch-job'),
  'jobs.action-exit-before-close': () => ({ actionCloseBeforeExit: false }),
  'jobs.action-handshake-ignored': () => ({ actionHandshakeChecked: false }),
  'jobs.action-stream-left-open': () => ({ actionStreamEnds: false }),
  'jobs.durations-in-seconds': (r) => ({ jobView: (view: Job) => secondsView(r.jobView(view)) }),
  'jobs.namespace-ignored': () => ({ jobsAreNamespaced: false }),
  'jobs.preserve-counts-ignored': () => ({ preservesCounts: false }),
  'jobs.eval-priority-ignored': () => ({ evalPriority: () => 0 }),
  'jobs.submission-from-previous': () => ({ submissionOnlyWhenSupplied: false }),
  'jobs.versions-diffs-by-default': () => ({ versionDiffsOnRequest: false }),
  'jobs.allocations-all-ignored': () => ({ allocationsAllHonoured: false }),
  'jobs.deployments-all-ignored': () => ({ deploymentsAllHonoured: false }),
  'jobs.deployment-never-successful': () => ({ deploymentsComplete: false }),
  'jobs.dispatch-meta-dropped': () => ({ dispatchKeepsMeta: false }),
  'jobs.dispatch-raw-payload-dropped': () => ({ rawDispatchPayload: () => Buffer.alloc(0) }),
  'jobs.revert-both-accepted': () => ({ revertOneOfVersionOrTag: false }),
  'jobs.revert-jobid-optional': () => ({ revertJobIdRequired: false }),
  'jobs.evaluate-no-eval': () => ({ evaluateCreatesEval: false }),
  'jobs.evaluate-jobid-optional': () => ({ evaluateJobIdRequired: false }),
  'jobs.scale-event-dropped': () => ({ scaleRecordsEvent: false }),
  'jobs.scale-target-group-optional': () => ({ scaleTargetGroupRequired: false }),
  'jobs.tag-delete-ignored': () => ({ tagDeletes: false }),
  'jobs.stop-global-rejected': () => ({ globalStopAccepted: false }),
  'jobs.gc-keeps-stopped': () => ({ gcCollectsStopped: false }),
  'jobs.acl-scale-unchecked': (r) => open(r, 'scale-job', 'read-job-scaling'),
  'jobs.acl-parse-unchecked': (r) => open(r, 'parse-job'),
  'jobs.acl-alloc-exec-unchecked': (r) => open(r, 'alloc-exec', 'alloc-node-exec'),
  'jobs.acl-policy-override-unchecked': (r) => open(r, 'policy-override'),
  // The action stream's checks were always made in the request's own namespace.
  'jobs.acl-namespace-unchecked': (r) => ({
    aclNamespace: (namespace, permission) =>
      permission === 'alloc-exec' || permission === 'alloc-node-exec'
        ? r.aclNamespace(namespace, permission)
        : 'default',
  }),
  'jobs.action-task-optional': () => ({ actionNeedsTask: false }),
  'jobs.stable-replaces-job': () => ({ stableKeepsJob: false }),
  'jobs.action-tty-size-breaks': () => ({ actionTtySizeAccepted: false }),
} satisfies { [name: string]: Replace };

const variantRules = {
  'jobs.async-evaluations': () => ({ asyncEvaluations: true }),
  'jobs.default-deployments': () => ({ defaultUpdateStrategy: true }),
  'jobs.gc-queued': () => ({ gcQueued: true }),
  'jobs.action-extra-frames': () => ({ actionExtraFrames: true }),
  'jobs.periodic-child-per-second': () => ({ periodicChildPerSecond: true }),
  'jobs.purge-collects-allocations': () => ({ purgeCollectsAllocations: true }),
} satisfies { [name: string]: Replace };

const faultWire = {
  'jobs.json-content-type-missing': (w: Wire): Wire =>
    w.contentType === 'application/json' ? { ...w, contentType: 'text/plain; charset=utf-8' } : w,
  'jobs.acl-denied-401': (w: Wire): Wire => (w.refusal && w.status === 403 ? { ...w, status: 401 } : w),
};

const variantWire = {
  // The real scheduler refuses most rule violations with 500 and the message; a status the
  // document gives itself stays.
  'jobs.refusals-500': (w: Wire): Wire =>
    w.refusal && w.status === 400 && !w.refusal.documented ? { ...w, status: 500 } : w,
};

/** The rules of a reference scheduler with these switches on. */
export function schedulerRules(faults: Faults, variants: Variants): SchedulerRules {
  return withSwitches(withSwitches(documented, faults, faultRules), variants, variantRules);
}

/** The rewriting of every answer by the wire-level switches on. */
export function schedulerWire(faults: Faults, variants: Variants): (w: Wire) => Wire {
  const byFaults = rewriteWith(faults, faultWire);
  const byVariants = rewriteWith(variants, variantWire);
  return (w) => byVariants(byFaults(w));
}
