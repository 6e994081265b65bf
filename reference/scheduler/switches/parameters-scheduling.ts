/**
 * The jobs area's faults on the parameters and responses of scheduling a job (jobs-service.md
 * "Endpoints > Parameters and responses": allocations, evaluations, deployments, dispatch,
 * evaluate, plan, periodic force, stop, scale, services, actions and the action stream): each
 * breaks one statement of that section, the way a vendor's build might, by replacing rules of
 * ../parameter-rules.ts or ../rules.ts. Gathered, in order, by index.ts.
 */
import { switchesOf } from '../../switches.js';
import type { Job } from '../job.js';
import type { SchedulerRules } from '../rules.js';
import { answeringObject, inDefaultNamespace, nullWhenEmpty } from './answers.js';

const { fault } = switchesOf<SchedulerRules>(['jobs']);

/** The raw body of dispatch/payload read as a dispatch request when it parses as one. */
const jsonDispatch = (r: SchedulerRules) => ({
  rawDispatchPayload: (body: Buffer) => {
    try {
      const request = JSON.parse(body.toString('utf8')) as Job;
      if (request && typeof request.Payload === 'string') return Buffer.from(request.Payload, 'base64');
    } catch {
      // not JSON: the whole body, as documented
    }
    return r.rawDispatchPayload(body);
  },
});

export const parameterSchedulingSwitches = [
  // ---- allocations, evaluations, deployments ----------------------------------------------------
  fault('jobs.allocations-namespace-ignored', {
    breaks: 'jobs.allocations.namespace',
    statements: ['doc.jobs.allocations.namespace'],
    description: 'GET /v1/job/:job_id/allocations ignores the namespace query parameter (reads default)',
    replace: inDefaultNamespace('GET /v1/job/*id/allocations'),
  }),
  fault('jobs.allocations-null-when-empty', {
    breaks: 'jobs.allocations.list',
    statements: ['doc.jobs.allocations.response'],
    description: 'a job without allocations answers null instead of an empty array',
    replace: nullWhenEmpty('GET /v1/job/*id/allocations'),
  }),
  fault('jobs.evaluations-namespace-ignored', {
    breaks: 'jobs.evaluations.namespace',
    statements: ['doc.jobs.evaluations.namespace'],
    description: 'GET /v1/job/:job_id/evaluations ignores the namespace query parameter (reads default)',
    replace: inDefaultNamespace('GET /v1/job/*id/evaluations'),
  }),
  fault('jobs.deployment-oldest', {
    breaks: 'jobs.deployment.latest',
    statements: ['doc.jobs.deployment.latest'],
    description: 'GET /v1/job/:job_id/deployment answers the oldest deployment of the job, not the most recent',
    replace: () => ({ latestDeploymentIsNewest: false }),
  }),
  // ---- dispatch ----------------------------------------------------------------------------------
  fault('jobs.dispatch-namespace-ignored', {
    breaks: 'jobs.dispatch.namespace',
    statements: ['doc.jobs.dispatch.namespace'],
    description: 'POST /v1/job/:job_id/dispatch ignores the namespace query parameter (dispatches in default)',
    replace: inDefaultNamespace('WRITE /v1/job/*id/dispatch'),
  }),
  fault('jobs.dispatch-template-as-suffix', {
    breaks: 'jobs.dispatch.id-prefix-template',
    statements: ['doc.jobs.dispatch.id-prefix-template'],
    description: 'IdPrefixTemplate is appended at the end of the dispatched ID instead of prefixing it',
    replace: (r) => ({
      dispatchedId: (parent, template, unique) =>
        `${r.dispatchedId(parent, '', unique)}${template ? `-${template}` : ''}`,
    }),
  }),
  fault('jobs.dispatch-no-job-create-index', {
    breaks: 'jobs.dispatch.creates-child',
    statements: ['doc.jobs.dispatch.response-job-create-index'],
    description: 'the dispatch answer has no JobCreateIndex',
    replace: answeringObject('WRITE /v1/job/*id/dispatch', ({ JobCreateIndex: _, ...rest }) => rest),
  }),
  fault('jobs.dispatch-raw-json-parsed', {
    breaks: 'jobs.dispatch.raw-payload',
    statements: ['doc.jobs.dispatch-payload.body'],
    description:
      'a JSON body sent to dispatch/payload is read as a dispatch request (its Payload field), not kept whole',
    replace: jsonDispatch,
  }),
  fault('jobs.dispatch-raw-answers-id-only', {
    breaks: 'jobs.dispatch.raw-payload',
    statements: ['doc.jobs.dispatch-payload.response'],
    description: 'dispatch/payload answers only DispatchedJobID (no Index, JobCreateIndex, EvalCreateIndex, EvalID)',
    replace: answeringObject('WRITE /v1/job/*id/dispatch/payload', ({ DispatchedJobID }) => ({ DispatchedJobID })),
  }),
  // ---- evaluate, plan, periodic force ------------------------------------------------------------
  fault('jobs.evaluate-json-refused', {
    breaks: 'jobs.evaluate.json-payload-0-8-4',
    statements: ['doc.jobs.evaluate.json-payload', 'doc.jobs.versioning.evaluate-json'],
    description: 'POST /v1/job/:job_id/evaluate refuses a JSON payload (only an empty body is taken)',
    replace: () => ({ evaluateTakesJson: false }),
  }),
  fault('jobs.evaluate-force-reschedule-ignored', {
    breaks: 'jobs.evaluate.force-reschedule',
    statements: ['doc.jobs.evaluate.force-reschedule'],
    description:
      'EvalOptions.ForceReschedule true is ignored: a failed allocation within its reschedule delay (or past its limit) stays failed',
    replace: () => ({ forceRescheduleHonoured: false }),
  }),
  fault('jobs.evaluate-force-reschedule-always', {
    breaks: 'jobs.evaluate.force-reschedule',
    statements: ['doc.jobs.evaluate.force-reschedule-default'],
    description:
      'every evaluate request reschedules failed allocations past their limits or within their delays, ForceReschedule false or absent too (the default is false)',
    replace: () => ({ forceRescheduleDefault: true }),
  }),
  fault('jobs.evaluate-force-reschedule-false-forces', {
    breaks: 'jobs.evaluate.force-reschedule',
    statements: ['doc.jobs.evaluate.force-reschedule-default'],
    description: 'EvalOptions.ForceReschedule false forces the reschedule (any ForceReschedule value is taken as true)',
    replace: () => ({ forceRescheduleFalseHonoured: false }),
  }),
  fault('jobs.evaluate-answer-job-modify-index-zero', {
    breaks: 'jobs.evaluate.creates-eval',
    statements: ['doc.jobs.evaluate.response'],
    description: "the evaluate write response carries JobModifyIndex 0 instead of the job's",
    replace: answeringObject('WRITE /v1/job/*id/evaluate', (answer) => ({ ...answer, JobModifyIndex: 0 })),
  }),
  fault('jobs.plan-job-optional', {
    breaks: 'jobs.plan.job-required',
    statements: ['doc.jobs.plan.job-required'],
    description: 'a plan without Job plans the registered job instead of being refused',
    replace: () => ({ planNeedsJob: false }),
  }),
  fault('jobs.plan-diff-by-default', {
    breaks: 'jobs.plan.diff',
    statements: ['doc.jobs.plan.diff'],
    description: 'a plan without Diff answers the diff (Diff defaults to true)',
    replace: () => ({ planDiffDefault: true }),
  }),
  fault('jobs.plan-policy-override-ignored', {
    breaks: 'jobs.acl.policy-override',
    statements: ['doc.jobs.plan.policy-override'],
    description: 'POST /v1/job/:job_id/plan ignores PolicyOverride (no policy-override capability needed)',
    replace: (r) => ({ policyOverrideChecked: (route) => route !== 'plan' && r.policyOverrideChecked(route) }),
  }),
  fault('jobs.plan-answer-no-index', {
    breaks: 'jobs.plan.response',
    statements: ['doc.jobs.plan.response-index'],
    description: 'the plan answer has no Index',
    replace: answeringObject('WRITE /v1/job/*id/plan', ({ Index: _, ...rest }) => rest),
  }),
  fault('jobs.plan-no-next-periodic-launch', {
    breaks: 'jobs.plan.next-periodic-launch',
    statements: ['doc.jobs.plan.next-periodic-launch'],
    description: 'the plan of a periodic job answers the zero time as NextPeriodicLaunch',
    replace: answeringObject('WRITE /v1/job/*id/plan', (answer) => ({
      ...answer,
      NextPeriodicLaunch: '0001-01-01T00:00:00Z',
    })),
  }),
  fault('jobs.plan-diff-no-task-groups', {
    breaks: 'jobs.plan.diff',
    statements: ['doc.jobs.plan.diff-shape'],
    description: 'the plan Diff stops at the job level (no task group, task, object or field diffs below it)',
    replace: answeringObject('WRITE /v1/job/*id/plan', (answer) =>
      answer.Diff ? { ...answer, Diff: { ...answer.Diff, TaskGroups: null } } : answer,
    ),
  }),
  fault('jobs.plan-no-failed-tg-allocs', {
    breaks: 'jobs.plan.failed-tg-allocs',
    statements: ['doc.jobs.plan.failed-tg-allocs'],
    description: 'the plan answers FailedTGAllocs null even when no node can place the job',
    replace: answeringObject('WRITE /v1/job/*id/plan', (answer) => ({ ...answer, FailedTGAllocs: null })),
  }),
  fault('jobs.periodic-force-needs-body', {
    breaks: 'jobs.periodic.force',
    statements: ['doc.jobs.periodic.path-only'],
    description: 'POST /v1/job/:job_id/periodic/force without a body is refused (a JSON body is expected)',
    replace: () => ({ periodicForcePathOnly: false }),
  }),
  fault('jobs.periodic-force-no-eval-create-index', {
    breaks: 'jobs.periodic.force',
    statements: ['doc.jobs.periodic.response-eval-create-index'],
    description: 'the periodic force answer has no EvalCreateIndex',
    replace: answeringObject('WRITE /v1/job/*id/periodic/force', ({ EvalCreateIndex: _, ...rest }) => rest),
  }),
  // ---- stop --------------------------------------------------------------------------------------
  fault('jobs.stop-purge-false-purges', {
    breaks: 'jobs.stop.marks-stopped',
    statements: ['doc.jobs.stop.purge-default', 'doc.jobs.stop.purge'],
    description: 'a stop with purge=false purges the job (any purge parameter is taken as a request to purge)',
    replace: () => ({ stopPurgeRequested: (given) => given !== undefined }),
  }),
  fault('jobs.stop-eval-priority-ignored', {
    breaks: 'jobs.stop.eval-priority',
    statements: ['doc.jobs.stop.eval-priority'],
    description: "eval_priority of a stop is ignored (the stop's evaluation takes the job priority)",
    replace: () => ({ stopEvalPriority: () => 0 }),
  }),
  fault('jobs.stop-namespace-ignored', {
    breaks: 'jobs.stop.namespace',
    statements: ['doc.jobs.stop.namespace'],
    description: 'DELETE /v1/job/:job_id ignores the namespace query parameter (stops in default)',
    replace: inDefaultNamespace('DELETE /v1/job/*id'),
  }),
  fault('jobs.stop-answer-job-modify-index-zero', {
    breaks: 'jobs.stop.marks-stopped',
    statements: ['doc.jobs.stop.response'],
    description: "the stop's write response carries JobModifyIndex 0 instead of the stopped job's",
    replace: answeringObject('DELETE /v1/job/*id', (answer) => ({ ...answer, JobModifyIndex: 0 })),
  }),
  // ---- scale -------------------------------------------------------------------------------------
  fault('jobs.scale-status-counts-stuck', {
    breaks: 'jobs.scale.status',
    statements: [
      'doc.jobs.scale-status.tg-placed',
      'doc.jobs.scale-status.tg-running',
      'doc.jobs.scale-status.tg-healthy',
    ],
    description: 'the scale status counts no Placed, Running or Healthy allocation (stuck at 0)',
    replace: answeringObject('GET /v1/job/*id/scale', (status) => {
      for (const g of Object.values((status.TaskGroups ?? {}) as Record<string, Job>)) {
        g.Placed = 0;
        g.Running = 0;
        g.Healthy = 0;
      }
      return status;
    }),
  }),
  fault('jobs.scale-without-count-zeroes', {
    breaks: 'jobs.scale.count-omitted-unchanged',
    statements: ['doc.jobs.scale.count'],
    description: 'a scale request without Count sets the group count to 0 (instead of only recording its event)',
    replace: () => ({ scaleWithoutCountKeepsCount: false }),
  }),
  fault('jobs.scale-enforce-index-ignored', {
    breaks: 'jobs.scale.enforce-index',
    statements: ['doc.jobs.scale.enforce-index'],
    description: 'EnforceIndex of a scale request is ignored (a stale JobModifyIndex still scales)',
    replace: () => ({ scaleEnforcesIndex: false }),
  }),
  fault('jobs.scale-job-modify-index-unread', {
    breaks: 'jobs.scale.enforce-index',
    statements: ['doc.jobs.scale.job-modify-index'],
    description:
      "the JobModifyIndex of a scale request is not read (its default 0 stands in): an enforced scale naming the job's current index is refused",
    replace: () => ({ scaleReadsJobModifyIndex: false }),
  }),
  fault('jobs.scale-policy-override-ignored', {
    breaks: 'jobs.acl.policy-override',
    statements: ['doc.jobs.scale.policy-override'],
    description: 'POST /v1/job/:job_id/scale ignores PolicyOverride (no policy-override capability needed)',
    replace: (r) => ({ policyOverrideChecked: (route) => route !== 'scale' && r.policyOverrideChecked(route) }),
  }),
  fault('jobs.scale-event-meta-dropped', {
    breaks: 'jobs.scale.event-recorded',
    statements: ['doc.jobs.scale.meta'],
    description: 'the scaling event is recorded without the request Meta',
    replace: () => ({ scaleEventKeepsMeta: false }),
  }),
  fault('jobs.scale-answer-job-modify-index-zero', {
    breaks: 'jobs.scale.sets-count',
    statements: ['doc.jobs.scale.response'],
    description: "the scale write response carries JobModifyIndex 0 instead of the scaled job's",
    replace: answeringObject('WRITE /v1/job/*id/scale', (answer) => ({ ...answer, JobModifyIndex: 0 })),
  }),
  // ---- services and actions ----------------------------------------------------------------------
  fault('jobs.services-null-when-empty', {
    breaks: 'jobs.services.list',
    statements: ['doc.jobs.services.response'],
    description: 'a job without service registrations answers null instead of an empty array',
    replace: nullWhenEmpty('GET /v1/job/*id/services'),
  }),
  fault('jobs.actions-null-when-empty', {
    breaks: 'jobs.actions.list',
    statements: ['doc.jobs.actions.response'],
    description: 'a job without actions answers null instead of an empty array',
    replace: nullWhenEmpty('GET /v1/job/*id/actions'),
  }),
  // ---- the action stream -------------------------------------------------------------------------
  fault('jobs.action-action-optional', {
    breaks: 'jobs.action.query-required',
    statements: ['doc.jobs.run-action.action'],
    description: "the action stream runs the task's first action when the action query parameter is missing",
    replace: () => ({ actionNeedsAction: false }),
  }),
  fault('jobs.action-alloc-optional', {
    breaks: 'jobs.action.query-required',
    statements: ['doc.jobs.run-action.alloc-id'],
    description: 'the action stream picks a running allocation when alloc_id is missing',
    replace: () => ({ actionNeedsAlloc: false }),
  }),
  fault('jobs.action-tty-default-true', {
    breaks: 'jobs.action.tty-size',
    statements: ['doc.jobs.run-action.tty'],
    description: 'an action stream without tty runs with a terminal (tty defaults to true)',
    replace: () => ({ actionTtyDefault: true }),
  }),
  fault('jobs.action-handshake-by-default', {
    breaks: 'jobs.action.ws-frames-order',
    statements: ['doc.jobs.run-action.ws-handshake-default'],
    description: 'an action stream without ws_handshake waits for an auth_token frame (ws_handshake defaults to true)',
    replace: () => ({ actionHandshakeDefault: true }),
  }),
  fault('jobs.action-no-upgrade', {
    breaks: 'jobs.action.ws-frames-order',
    statements: ['doc.jobs.run-action.upgrade'],
    description: 'the action request is answered as plain HTTP 200 with the output, not upgraded to a WebSocket',
    replace: () => ({ actionUpgrades: false }),
  }),
  fault('jobs.action-auth-frame-token-field', {
    breaks: 'jobs.action.ws-handshake-auth',
    statements: ['doc.jobs.run-action.auth-frame'],
    description: 'the handshake frame is read from a `token` field instead of `auth_token`',
    replace: () => ({ actionAuthFrameField: 'token' }),
  }),
  fault('jobs.action-no-close-frame', {
    breaks: 'jobs.action.ws-frames-order',
    statements: ['doc.jobs.run-action.close-frame'],
    description: 'the action stream never sends {stdout: {close: true}}',
    replace: () => ({ actionSendsClose: false }),
  }),
  fault('jobs.action-tty-plain', {
    breaks: 'jobs.action.control-sequences',
    statements: ['doc.jobs.run-action.control-sequences'],
    description: 'with tty=true the output carries no terminal control sequences (plain text)',
    replace: () => ({ actionTtyControlSequences: false }),
  }),
];
