/**
 * The jobs area's faults on access and the wire (ACL checks, the action stream, the JSON content
 * type): each breaks one catalogued rule of the jobs API by replacing rules of ../rules.ts or, the
 * wire-level ones, by rewriting the answer in the server's one response function (see
 * reference/switches.ts). One fault per row of the document's ACL column: the endpoint checks no
 * capability, or takes one alternative of an "or" only. Gathered, in order, by index.ts.
 */
import { switchesOf } from '../../switches.js';
import type { Capability } from '../acl.js';
import type { Wire } from '../http.js';
import type { Permission, SchedulerRules } from '../rules.js';

const { fault } = switchesOf<SchedulerRules, Wire>(['jobs']);

/** An ACL fault: the rules with these permissions no longer checked anywhere. */
const unchecked = (
  breaks: string,
  statements: string[],
  description: string,
  ...permissions: (keyof SchedulerRules['capabilities'])[]
) => ({
  breaks,
  statements,
  description,
  replace: (rules: SchedulerRules) => ({
    capabilities: { ...rules.capabilities, ...Object.fromEntries(permissions.map((p) => [p, null])) },
  }),
});

/**
 * One row of the ACL column skipped: `endpoint` (the document's `METHOD /path`) no longer checks
 * `permission` (its own capability, or the policy-override check of a write); other checks stay.
 */
const endpointUnchecked = (
  endpoint: string,
  breaks: string,
  statement: string,
  capability: string,
  permission: Permission,
) => ({
  breaks,
  statements: [statement],
  description: `${endpoint} is served without checking ${capability}`,
  replace: (r: SchedulerRules) => ({
    endpointPermission: (e: string, p: Permission) =>
      e === endpoint && p === permission ? null : r.endpointPermission(e, p),
  }),
});

/** A permission that accepts only some of the capabilities the document's "or" lists. */
const onlyCapabilities = (
  breaks: string,
  statement: string,
  description: string,
  permission: Permission,
  ...capabilities: Capability[]
) => ({
  breaks,
  statements: [statement],
  description,
  replace: (r: SchedulerRules) => ({ capabilities: { ...r.capabilities, [permission]: capabilities } }),
});

const readJob = (path: string, statement: string) =>
  endpointUnchecked(`GET /v1/job/:job_id${path}`, 'jobs.acl.read-job', statement, 'read-job', 'read-job');
const submitJob = (endpoint: string, statement: string) =>
  endpointUnchecked(endpoint, 'jobs.acl.submit-job', statement, 'submit-job', 'submit-job');

export const accessSwitches = [
  fault(
    'jobs.acl-list-unchecked',
    unchecked('jobs.acl.list-jobs', ['doc.jobs.acl.list'], 'listing jobs needs no list-jobs capability', 'list-jobs'),
  ),
  fault(
    'jobs.acl-read-unchecked',
    unchecked(
      'jobs.acl.read-job',
      [
        'doc.jobs.acl.read',
        'doc.jobs.acl.versions',
        'doc.jobs.acl.allocations',
        'doc.jobs.acl.evaluations',
        'doc.jobs.acl.deployments',
        'doc.jobs.acl.deployment',
        'doc.jobs.acl.summary',
        'doc.jobs.acl.services',
        'doc.jobs.acl.actions',
      ],
      'reading a job needs no read-job capability',
      'read-job',
    ),
  ),
  fault(
    'jobs.acl-submit-unchecked',
    unchecked(
      'jobs.acl.submit-job',
      [
        'doc.jobs.acl.register',
        'doc.jobs.acl.update',
        'doc.jobs.acl.revert',
        'doc.jobs.acl.stable',
        'doc.jobs.acl.evaluate',
        'doc.jobs.acl.plan',
        'doc.jobs.acl.stop',
      ],
      'registering a job needs no submit-job capability',
      'submit-job',
    ),
  ),
  fault(
    'jobs.acl-dispatch-unchecked',
    unchecked(
      'jobs.acl.dispatch-job',
      ['doc.jobs.acl.dispatch', 'doc.jobs.acl.dispatch-payload'],
      'dispatching needs no dispatch-job capability',
      'dispatch-job',
    ),
  ),
  fault('jobs.action-stream-left-open', {
    breaks: 'jobs.action.ws-frames-order',
    statements: ['doc.jobs.run-action.exited-frame'],
    description:
      'the action stream sends the output and the stdout close frame, then neither the exited frame nor a close',
    replace: () => ({ actionStreamEnds: false }),
  }),
  fault('jobs.action-handshake-ignored', {
    breaks: 'jobs.action.ws-handshake-auth',
    statements: ['doc.jobs.run-action.ws-handshake', 'doc.jobs.auth.ws-handshake'],
    description: 'with ws_handshake=true a bad auth_token in the first frame is accepted',
    replace: () => ({ actionHandshakeChecked: false }),
  }),
  fault('jobs.json-content-type-missing', {
    breaks: 'jobs.content-type.json',
    statements: ['doc.jobs.endpoints.json'],
    description: 'successful answers carry Content-Type text/plain',
    rewrite: (w: Wire): Wire =>
      w.contentType === 'application/json' ? { ...w, contentType: 'text/plain; charset=utf-8' } : w,
  }),
  fault(
    'jobs.acl-scale-unchecked',
    unchecked(
      'jobs.acl.scale-job',
      ['doc.jobs.acl.scale', 'doc.jobs.acl.scale-status'],
      'scaling needs no scale-job or submit-job capability',
      'scale-job',
      'read-job-scaling',
    ),
  ),
  fault(
    'jobs.acl-parse-unchecked',
    unchecked(
      'jobs.acl.parse-job',
      ['doc.jobs.acl.parse'],
      'parsing needs no parse-job or submit-job capability',
      'parse-job',
    ),
  ),
  fault(
    'jobs.acl-alloc-exec-unchecked',
    unchecked(
      'jobs.acl.alloc-exec',
      ['doc.jobs.acl.run-action'],
      'the action stream needs no alloc-exec capability',
      'alloc-exec',
      'alloc-node-exec',
    ),
  ),
  fault(
    'jobs.acl-policy-override-unchecked',
    unchecked(
      'jobs.acl.policy-override',
      ['doc.jobs.endpoints.policy-override-acl'],
      'PolicyOverride needs no policy-override capability',
      'policy-override',
    ),
  ),
  // The action stream's checks were always made in the request's own namespace.
  fault('jobs.acl-namespace-unchecked', {
    breaks: 'jobs.acl.namespace-access',
    statements: ['doc.jobs.endpoints.namespace-acl', 'doc.jobs.auth.namespace-access', 'doc.jobs.endpoints.acl-form'],
    description: "a token's capabilities in namespace default apply to every namespace",
    replace: (r) => ({
      aclNamespace: (namespace, permission) =>
        permission === 'alloc-exec' || permission === 'alloc-node-exec'
          ? r.aclNamespace(namespace, permission)
          : 'default',
    }),
  }),
  fault('jobs.acl-denied-401', {
    breaks: 'jobs.acl.denied-status',
    description: 'denied requests answer 401 instead of 403',
    rewrite: (w: Wire): Wire => (w.refusal && w.status === 403 ? { ...w, status: 401 } : w),
  }),
  fault('jobs.action-task-optional', {
    breaks: 'jobs.action.query-required',
    statements: ['doc.jobs.run-action.task'],
    description: 'the action stream runs without the task query parameter',
    replace: () => ({ actionNeedsTask: false }),
  }),
  fault('jobs.action-tty-size-breaks', {
    breaks: 'jobs.action.tty-size',
    statements: ['doc.jobs.run-action.tty-size-frame'],
    description: 'a tty_size frame closes the stream with an error',
    replace: () => ({ actionTtySizeAccepted: false }),
  }),

  // ---- one row of the ACL column each --------------------------------------------------------------
  fault('jobs.acl-ignored', {
    breaks: 'jobs.acl.list-jobs',
    statements: ['doc.jobs.auth.acl'],
    description: 'any valid token may call every endpoint: capabilities are never looked at',
    replace: () => ({ endpointPermission: () => null }),
  }),
  fault('jobs.acl-register-unchecked', submitJob('POST /v1/jobs', 'doc.jobs.acl.register')),
  fault('jobs.acl-update-unchecked', submitJob('POST /v1/job/:job_id', 'doc.jobs.acl.update')),
  fault('jobs.acl-revert-unchecked', submitJob('POST /v1/job/:job_id/revert', 'doc.jobs.acl.revert')),
  fault('jobs.acl-stable-unchecked', submitJob('POST /v1/job/:job_id/stable', 'doc.jobs.acl.stable')),
  fault('jobs.acl-evaluate-unchecked', submitJob('POST /v1/job/:job_id/evaluate', 'doc.jobs.acl.evaluate')),
  fault('jobs.acl-plan-unchecked', submitJob('POST /v1/job/:job_id/plan', 'doc.jobs.acl.plan')),
  fault('jobs.acl-stop-unchecked', submitJob('DELETE /v1/job/:job_id', 'doc.jobs.acl.stop')),
  fault('jobs.acl-read-job-unchecked', readJob('', 'doc.jobs.acl.read')),
  fault('jobs.acl-versions-unchecked', readJob('/versions', 'doc.jobs.acl.versions')),
  fault('jobs.acl-allocations-unchecked', readJob('/allocations', 'doc.jobs.acl.allocations')),
  fault('jobs.acl-evaluations-unchecked', readJob('/evaluations', 'doc.jobs.acl.evaluations')),
  fault('jobs.acl-deployments-unchecked', readJob('/deployments', 'doc.jobs.acl.deployments')),
  fault('jobs.acl-deployment-unchecked', readJob('/deployment', 'doc.jobs.acl.deployment')),
  fault('jobs.acl-summary-unchecked', readJob('/summary', 'doc.jobs.acl.summary')),
  fault('jobs.acl-services-unchecked', readJob('/services', 'doc.jobs.acl.services')),
  fault('jobs.acl-actions-unchecked', readJob('/actions', 'doc.jobs.acl.actions')),
  fault(
    'jobs.acl-dispatch-endpoint-unchecked',
    endpointUnchecked(
      'POST /v1/job/:job_id/dispatch',
      'jobs.acl.dispatch-job',
      'doc.jobs.acl.dispatch',
      'dispatch-job',
      'dispatch-job',
    ),
  ),
  fault(
    'jobs.acl-dispatch-payload-unchecked',
    endpointUnchecked(
      'POST /v1/job/:job_id/dispatch/payload',
      'jobs.acl.dispatch-job',
      'doc.jobs.acl.dispatch-payload',
      'dispatch-job',
      'dispatch-job',
    ),
  ),
  fault(
    'jobs.acl-periodic-force-unchecked',
    endpointUnchecked(
      'POST /v1/job/:job_id/periodic/force',
      'jobs.acl.dispatch-job',
      'doc.jobs.acl.periodic',
      'dispatch-job or submit-job',
      'force-periodic',
    ),
  ),
  fault(
    'jobs.acl-periodic-force-submit-only',
    onlyCapabilities(
      'jobs.acl.dispatch-job',
      'doc.jobs.acl.periodic',
      'a periodic force with dispatch-job alone is denied: only submit-job is accepted',
      'force-periodic',
      'submit-job',
    ),
  ),
  fault(
    'jobs.acl-scale-status-unchecked',
    endpointUnchecked(
      'GET /v1/job/:job_id/scale',
      'jobs.acl.scale-job',
      'doc.jobs.acl.scale-status',
      'read-job-scaling or read-job',
      'read-job-scaling',
    ),
  ),
  fault(
    'jobs.acl-scale-status-read-job-only',
    onlyCapabilities(
      'jobs.acl.scale-job',
      'doc.jobs.acl.scale-status',
      'reading the scale status with read-job-scaling alone is denied: only read-job is accepted',
      'read-job-scaling',
      'read-job',
    ),
  ),
  fault(
    'jobs.acl-scale-endpoint-unchecked',
    endpointUnchecked(
      'POST /v1/job/:job_id/scale',
      'jobs.acl.scale-job',
      'doc.jobs.acl.scale',
      'scale-job or submit-job',
      'scale-job',
    ),
  ),
  fault(
    'jobs.acl-scale-scale-job-only',
    onlyCapabilities(
      'jobs.acl.scale-job',
      'doc.jobs.acl.scale',
      'scaling with submit-job alone is denied: only scale-job is accepted',
      'scale-job',
      'scale-job',
    ),
  ),
  fault(
    'jobs.acl-parse-needs-submit-job',
    onlyCapabilities(
      'jobs.acl.parse-either',
      'doc.jobs.acl.parse',
      'parsing with parse-job alone is denied: only submit-job is accepted',
      'parse-job',
      'submit-job',
    ),
  ),
  fault('jobs.acl-node-exec-unchecked', {
    breaks: 'jobs.acl.alloc-node-exec',
    statements: ['doc.jobs.acl.run-action'],
    description: 'the action stream of a task without file system isolation (raw_exec) needs no alloc-node-exec',
    replace: () => ({ lacksFsIsolation: () => false }),
  }),
  fault('jobs.acl-node-exec-always', {
    breaks: 'jobs.acl.alloc-exec',
    statements: ['doc.jobs.acl.run-action'],
    description: 'the action stream needs alloc-node-exec besides alloc-exec for every driver, isolated or not',
    replace: () => ({ lacksFsIsolation: () => true }),
  }),
  fault('jobs.acl-policy-override-instead-of-submit', {
    breaks: 'jobs.acl.policy-override',
    statements: ['doc.jobs.endpoints.policy-override-acl'],
    description:
      "a request with PolicyOverride passes with namespace:policy-override alone (the endpoint's own capability, submit-job or scale-job, is not checked)",
    replace: () => ({ policyOverrideIsAdditional: false }),
  }),
  fault(
    'jobs.acl-update-policy-override-unchecked',
    endpointUnchecked(
      'POST /v1/job/:job_id',
      'jobs.acl.policy-override',
      'doc.jobs.endpoints.policy-override-acl',
      'policy-override',
      'policy-override',
    ),
  ),
  fault(
    'jobs.acl-plan-policy-override-unchecked',
    endpointUnchecked(
      'POST /v1/job/:job_id/plan',
      'jobs.acl.policy-override',
      'doc.jobs.plan.policy-override',
      'policy-override',
      'policy-override',
    ),
  ),
  fault(
    'jobs.acl-scale-policy-override-unchecked',
    endpointUnchecked(
      'POST /v1/job/:job_id/scale',
      'jobs.acl.policy-override',
      'doc.jobs.scale.policy-override',
      'policy-override',
      'policy-override',
    ),
  ),
];
