/**
 * The jobs area's faults on access and the wire (ACL checks, the action stream, the JSON content
 * type): each breaks one catalogued rule of the jobs API by replacing rules of ../rules.ts or, the
 * wire-level ones, by rewriting the answer in the server's one response function (see
 * reference/switches.ts). Gathered, in order, by index.ts.
 */
import { switchesOf } from '../../switches.js';
import type { Wire } from '../http.js';
import type { SchedulerRules } from '../rules.js';

const { fault } = switchesOf<SchedulerRules, Wire>(['jobs']);

/** An ACL fault: the rules with these permissions no longer checked. */
const unchecked = (breaks: string, description: string, ...permissions: (keyof SchedulerRules['capabilities'])[]) => ({
  breaks,
  description,
  replace: (rules: SchedulerRules) => ({
    capabilities: { ...rules.capabilities, ...Object.fromEntries(permissions.map((p) => [p, null])) },
  }),
});

export const accessSwitches = [
  fault(
    'jobs.acl-list-unchecked',
    unchecked('jobs.acl.list-jobs', 'listing jobs needs no list-jobs capability', 'list-jobs'),
  ),
  fault(
    'jobs.acl-read-unchecked',
    unchecked('jobs.acl.read-job', 'reading a job needs no read-job capability', 'read-job'),
  ),
  fault(
    'jobs.acl-submit-unchecked',
    unchecked('jobs.acl.submit-job', 'registering a job needs no submit-job capability', 'submit-job'),
  ),
  fault(
    'jobs.acl-dispatch-unchecked',
    unchecked('jobs.acl.dispatch-job', 'dispatching needs no dispatch-job capability', 'dispatch-job'),
  ),
  fault('jobs.action-stream-left-open', {
    breaks: 'jobs.action.ws-frames-order',
    statements: ['doc.jobs.run-action.output-frames'],
    description:
      'the action stream sends the output and the stdout close frame, then neither the exited frame nor a close',
    replace: () => ({ actionStreamEnds: false }),
  }),
  fault('jobs.action-handshake-ignored', {
    breaks: 'jobs.action.ws-handshake-auth',
    statements: ['doc.jobs.run-action.ws-handshake'],
    description: 'with ws_handshake=true a bad auth_token in the first frame is accepted',
    replace: () => ({ actionHandshakeChecked: false }),
  }),
  fault('jobs.json-content-type-missing', {
    breaks: 'jobs.content-type.json',
    description: 'successful answers carry Content-Type text/plain',
    rewrite: (w: Wire): Wire =>
      w.contentType === 'application/json' ? { ...w, contentType: 'text/plain; charset=utf-8' } : w,
  }),
  fault(
    'jobs.acl-scale-unchecked',
    unchecked(
      'jobs.acl.scale-job',
      'scaling needs no scale-job or submit-job capability',
      'scale-job',
      'read-job-scaling',
    ),
  ),
  fault(
    'jobs.acl-parse-unchecked',
    unchecked('jobs.acl.parse-job', 'parsing needs no parse-job or submit-job capability', 'parse-job'),
  ),
  fault(
    'jobs.acl-alloc-exec-unchecked',
    unchecked(
      'jobs.acl.alloc-exec',
      'the action stream needs no alloc-exec capability',
      'alloc-exec',
      'alloc-node-exec',
    ),
  ),
  fault(
    'jobs.acl-policy-override-unchecked',
    unchecked('jobs.acl.policy-override', 'PolicyOverride needs no policy-override capability', 'policy-override'),
  ),
  // The action stream's checks were always made in the request's own namespace.
  fault('jobs.acl-namespace-unchecked', {
    breaks: 'jobs.acl.namespace-access',
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
];
