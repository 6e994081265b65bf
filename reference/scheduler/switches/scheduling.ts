/**
 * The jobs area's faults on scheduling (dispatch, plan, scale, periodic force, evaluate, the job's
 * allocations and deployments, garbage collection): each breaks one catalogued rule of the jobs
 * API by replacing rules of ../rules.ts (see reference/switches.ts). Gathered, in order, by index.ts.
 */
import { switchesOf } from '../../switches.js';
import type { SchedulerRules } from '../rules.js';

const { fault } = switchesOf<SchedulerRules>(['jobs']);

export const schedulingSwitches = [
  fault('jobs.dispatch-payload-unlimited', {
    breaks: 'jobs.dispatch.payload-max-16k',
    statements: ['doc.jobs.limits.dispatch-payload', 'doc.jobs.dispatch.payload-limit'],
    description: 'a dispatch payload above 16384 bytes is accepted',
    replace: () => ({ dispatchPayloadLimit: Number.POSITIVE_INFINITY }),
  }),
  fault('jobs.dispatch-payload-required-ignored', {
    breaks: 'jobs.dispatch.payload-required',
    statements: ['doc.jobs.job.parameterized-payload'],
    description: 'a dispatch without payload is accepted when the job requires one',
    replace: () => ({ dispatchPayloadRequiredChecked: false }),
  }),
  fault('jobs.dispatch-meta-required-ignored', {
    breaks: 'jobs.dispatch.meta-required',
    statements: ['doc.jobs.job.parameterized-meta-required'],
    description: 'a dispatch missing MetaRequired keys is accepted',
    replace: () => ({ dispatchMetaRequiredChecked: false }),
  }),
  fault('jobs.dispatch-meta-unpermitted-accepted', {
    breaks: 'jobs.dispatch.meta-optional-only',
    statements: ['doc.jobs.job.parameterized-meta-optional'],
    description: 'a dispatch with meta keys outside MetaRequired/MetaOptional is accepted',
    replace: () => ({ dispatchMetaUnpermittedRefused: false }),
  }),
  fault('jobs.dispatch-idempotency-ignored', {
    breaks: 'jobs.dispatch.idempotency-token',
    statements: ['doc.jobs.dispatch.idempotency-token'],
    description: 'a repeated idempotency_token dispatches a second child',
    replace: () => ({ dispatchIdempotent: false }),
  }),
  fault('jobs.dispatch-idempotency-any-job', {
    breaks: 'jobs.dispatch.idempotency-token',
    statements: ['doc.jobs.dispatch.idempotency-token'],
    description:
      "an idempotency_token is looked up among every job's children: a dispatch of another job with it answers the first job's child",
    replace: () => ({ dispatchIdempotentPerJob: false }),
  }),
  fault('jobs.dispatch-prefix-template-ignored', {
    breaks: 'jobs.dispatch.id-prefix-template',
    statements: ['doc.jobs.dispatch.id-prefix-template'],
    description: 'IdPrefixTemplate does not appear in the dispatched job ID',
    replace: () => ({ dispatchIdPrefixTemplate: false }),
  }),
  fault('jobs.dispatch-not-parameterized-accepted', {
    breaks: 'jobs.dispatch.not-parameterized-400',
    statements: ['doc.jobs.overview.dispatch-parameterized'],
    description: 'dispatching a job that is not parameterized is accepted',
    replace: () => ({ dispatchNeedsParameterized: false }),
  }),
  fault('jobs.plan-registers', {
    breaks: 'jobs.plan.dry-run',
    statements: ['doc.jobs.plan.dry-run'],
    description: 'plan registers the job instead of a dry run',
    replace: () => ({ planDryRun: false }),
  }),
  fault('jobs.plan-no-diff', {
    breaks: 'jobs.plan.diff',
    statements: ['doc.jobs.plan.diff'],
    description: 'plan with Diff=true returns no Diff',
    replace: () => ({ planDiff: false }),
  }),
  fault('jobs.plan-no-annotations', {
    breaks: 'jobs.plan.annotations',
    statements: ['doc.jobs.plan.annotations'],
    description: 'plan returns no Annotations.DesiredTGUpdates',
    replace: () => ({ planAnnotations: false }),
  }),
  fault('jobs.scale-ignores-deployment', {
    breaks: 'jobs.scale.active-deployment-400',
    statements: ['doc.jobs.lifecycle.scale-active-deployment', 'doc.jobs.errors.scale-active-deployment'],
    description: 'scaling is allowed while a deployment is active',
    replace: () => ({ scaleBlockedByDeployment: false }),
  }),
  fault('jobs.scale-message-and-error', {
    breaks: 'jobs.scale.message-xor-error',
    statements: ['doc.jobs.scale.message-error'],
    description: 'a scale request with both Message and Error (or neither) is accepted',
    replace: () => ({ scaleMessageXorError: false }),
  }),
  fault('jobs.scale-count-ignored', {
    breaks: 'jobs.scale.sets-count',
    statements: ['doc.jobs.scale.count'],
    description: 'scaling records the event but leaves the group count unchanged',
    replace: () => ({ scaleSetsCount: false }),
  }),
  fault('jobs.periodic-force-respects-overlap', {
    breaks: 'jobs.periodic.force-ignores-overlap',
    statements: ['doc.jobs.periodic.ignores-overlap'],
    description: 'periodic/force refuses while a child runs and prohibit_overlap is set',
    replace: () => ({ forceIgnoresOverlap: false }),
  }),
  fault('jobs.periodic-force-any-job', {
    breaks: 'jobs.periodic.force-not-periodic-400',
    description: 'periodic/force on a non-periodic job answers 200',
    replace: () => ({ forceNeedsPeriodic: false }),
  }),
  fault('jobs.allocations-all-ignored', {
    breaks: 'jobs.allocations.all',
    statements: ['doc.jobs.allocations.all'],
    description: 'all=true leaves out allocations of an earlier job with the same ID',
    replace: () => ({ allocationsAllHonoured: false }),
  }),
  fault('jobs.allocations-all-false-includes-earlier', {
    breaks: 'jobs.allocations.all',
    statements: ['doc.jobs.allocations.all'],
    description:
      'all=false lists the allocations of an earlier job with the same ID (any all parameter counts as true)',
    replace: () => ({ allocationsAllRequested: (given) => given !== undefined }),
  }),
  fault('jobs.deployments-all-ignored', {
    breaks: 'jobs.deployments.all',
    statements: ['doc.jobs.allocations.all'],
    description: 'all=true leaves out deployments of an earlier job with the same ID',
    replace: () => ({ deploymentsAllHonoured: false }),
  }),
  fault('jobs.deployment-never-successful', {
    breaks: 'jobs.deployment.created-for-service-update',
    statements: ['doc.jobs.values.deployment-status-successful'],
    description: 'deployments stay running forever',
    replace: () => ({ deploymentsComplete: false }),
  }),
  fault('jobs.dispatch-meta-dropped', {
    breaks: 'jobs.dispatch.meta',
    statements: ['doc.jobs.dispatch.meta'],
    description: 'the dispatch Meta is not stored in the child job',
    replace: () => ({ dispatchKeepsMeta: false }),
  }),
  fault('jobs.dispatch-raw-payload-dropped', {
    breaks: 'jobs.dispatch.raw-payload',
    statements: ['doc.jobs.dispatch-payload.body'],
    description: 'the raw request body does not become the child Payload',
    replace: () => ({ rawDispatchPayload: () => Buffer.alloc(0) }),
  }),
  fault('jobs.evaluate-no-eval', {
    breaks: 'jobs.evaluate.creates-eval',
    description: 'evaluate answers without creating an evaluation',
    replace: () => ({ evaluateCreatesEval: false }),
  }),
  fault('jobs.evaluate-jobid-optional', {
    breaks: 'jobs.evaluate.jobid-required',
    statements: ['doc.jobs.evaluate.job-id'],
    description: 'an evaluate body without JobID is accepted',
    replace: () => ({ evaluateJobIdRequired: false }),
  }),
  fault('jobs.scale-event-dropped', {
    breaks: 'jobs.scale.event-recorded',
    statements: ['doc.jobs.scale.meta'],
    description: 'scale requests are not recorded as scaling events',
    replace: () => ({ scaleRecordsEvent: false }),
  }),
  fault('jobs.scale-target-group-optional', {
    breaks: 'jobs.scale.target-group-required',
    statements: ['doc.jobs.scale.target', 'doc.jobs.scale.target-group'],
    description: 'a scale request without Target.Group scales the first group',
    replace: () => ({ scaleTargetGroupRequired: false }),
  }),
  fault('jobs.gc-keeps-stopped', {
    breaks: 'jobs.gc.stopped-job-deregistered',
    statements: ['doc.jobs.lifecycle.stopped-gc'],
    description: 'garbage collection keeps stopped jobs',
    replace: () => ({ gcCollectsStopped: false }),
  }),
];
