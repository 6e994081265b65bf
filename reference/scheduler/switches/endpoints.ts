/**
 * The jobs area's faults on the document's endpoint table and its Versioning section: one endpoint
 * the scheduler does not serve (it answers 404 Invalid URL, as for a path it does not know), and the
 * API served without its /v1 prefix. Each replaces `served` of ../rules.ts. Gathered, in order, by
 * index.ts.
 */
import { switchesOf } from '../../switches.js';
import type { SchedulerRules } from '../rules.js';

const { fault } = switchesOf<SchedulerRules>(['jobs']);

/** `endpoint` (the document's `METHOD /path`) is not served; `breaks` is the requirement exercising it. */
const missing = (endpoint: string, breaks: string, ...statements: string[]) => ({
  breaks,
  statements,
  description: `${endpoint} is not served (404)`,
  replace: (r: SchedulerRules) => ({ served: (e: string) => e !== endpoint && r.served(e) }),
});

export const endpointSwitches = [
  fault(
    'jobs.list-endpoint-missing',
    missing('GET /v1/jobs', 'jobs.list.returns-items', 'doc.jobs.list.endpoint', 'doc.jobs.overview.op-lists'),
  ),
  fault(
    'jobs.register-endpoint-missing',
    missing(
      'POST /v1/jobs',
      'jobs.register.creates-job',
      'doc.jobs.register.endpoint',
      'doc.jobs.overview.registers',
      'doc.jobs.overview.op-registers',
    ),
  ),
  fault(
    'jobs.parse-endpoint-missing',
    missing('POST /v1/jobs/parse', 'jobs.parse.hcl-to-json', 'doc.jobs.parse.endpoint'),
  ),
  fault(
    'jobs.read-endpoint-missing',
    missing('GET /v1/job/:job_id', 'jobs.read.returns-job', 'doc.jobs.read.endpoint', 'doc.jobs.overview.op-reads'),
  ),
  fault(
    'jobs.submission-endpoint-missing',
    missing(
      'GET /v1/job/:job_id/submission',
      'jobs.submission.read',
      'doc.jobs.submission.endpoint',
      'doc.jobs.overview.submission',
    ),
  ),
  fault(
    'jobs.versions-endpoint-missing',
    missing(
      'GET /v1/job/:job_id/versions',
      'jobs.versions.list',
      'doc.jobs.versions.endpoint',
      'doc.jobs.overview.op-reads-versions',
    ),
  ),
  fault(
    'jobs.allocations-endpoint-missing',
    missing(
      'GET /v1/job/:job_id/allocations',
      'jobs.allocations.list',
      'doc.jobs.allocations.endpoint',
      'doc.jobs.overview.op-reads-allocations',
    ),
  ),
  fault(
    'jobs.evaluations-endpoint-missing',
    missing(
      'GET /v1/job/:job_id/evaluations',
      'jobs.evaluations.list',
      'doc.jobs.evaluations.endpoint',
      'doc.jobs.overview.op-reads-evaluations',
    ),
  ),
  fault(
    'jobs.deployments-endpoint-missing',
    missing(
      'GET /v1/job/:job_id/deployments',
      'jobs.deployments.list',
      'doc.jobs.deployments.endpoint',
      'doc.jobs.overview.op-reads-deployments',
    ),
  ),
  fault(
    'jobs.deployment-endpoint-missing',
    missing('GET /v1/job/:job_id/deployment', 'jobs.deployment.latest', 'doc.jobs.deployment.endpoint'),
  ),
  fault(
    'jobs.summary-endpoint-missing',
    missing(
      'GET /v1/job/:job_id/summary',
      'jobs.summary.read',
      'doc.jobs.summary.endpoint',
      'doc.jobs.overview.op-reads-summaries',
    ),
  ),
  fault(
    'jobs.update-endpoint-missing',
    missing(
      'POST /v1/job/:job_id',
      'jobs.update.path-job-id',
      'doc.jobs.update.endpoint',
      'doc.jobs.overview.op-updates',
    ),
  ),
  fault(
    'jobs.dispatch-endpoint-missing',
    missing(
      'POST /v1/job/:job_id/dispatch',
      'jobs.dispatch.creates-child',
      'doc.jobs.dispatch.endpoint',
      'doc.jobs.overview.op-dispatches',
    ),
  ),
  fault(
    'jobs.dispatch-payload-endpoint-missing',
    missing('POST /v1/job/:job_id/dispatch/payload', 'jobs.dispatch.raw-payload', 'doc.jobs.dispatch-payload.endpoint'),
  ),
  fault(
    'jobs.revert-endpoint-missing',
    missing(
      'POST /v1/job/:job_id/revert',
      'jobs.revert.by-version',
      'doc.jobs.revert.endpoint',
      'doc.jobs.overview.op-reverts',
    ),
  ),
  fault(
    'jobs.stable-endpoint-missing',
    missing('POST /v1/job/:job_id/stable', 'jobs.stable.set', 'doc.jobs.stable.endpoint'),
  ),
  fault(
    'jobs.evaluate-endpoint-missing',
    missing('POST /v1/job/:job_id/evaluate', 'jobs.evaluate.creates-eval', 'doc.jobs.evaluate.endpoint'),
  ),
  fault(
    'jobs.plan-endpoint-missing',
    missing('POST /v1/job/:job_id/plan', 'jobs.plan.dry-run', 'doc.jobs.plan.endpoint', 'doc.jobs.overview.op-plans'),
  ),
  fault(
    'jobs.periodic-force-endpoint-missing',
    missing('POST /v1/job/:job_id/periodic/force', 'jobs.periodic.force', 'doc.jobs.periodic.endpoint'),
  ),
  fault(
    'jobs.stop-endpoint-missing',
    missing(
      'DELETE /v1/job/:job_id',
      'jobs.stop.marks-stopped',
      'doc.jobs.stop.endpoint',
      'doc.jobs.overview.op-stops',
    ),
  ),
  fault(
    'jobs.scale-status-endpoint-missing',
    missing('GET /v1/job/:job_id/scale', 'jobs.scale.status', 'doc.jobs.scale-status.endpoint'),
  ),
  fault(
    'jobs.scale-endpoint-missing',
    missing(
      'POST /v1/job/:job_id/scale',
      'jobs.scale.sets-count',
      'doc.jobs.scale.endpoint',
      'doc.jobs.overview.op-scales',
    ),
  ),
  fault(
    'jobs.services-endpoint-missing',
    missing(
      'GET /v1/job/:job_id/services',
      'jobs.services.list',
      'doc.jobs.services.endpoint',
      'doc.jobs.overview.op-reads-services',
    ),
  ),
  fault(
    'jobs.actions-endpoint-missing',
    missing(
      'GET /v1/job/:job_id/actions',
      'jobs.actions.list',
      'doc.jobs.actions.endpoint',
      'doc.jobs.overview.op-reads-actions',
    ),
  ),
  fault(
    'jobs.action-stream-endpoint-missing',
    missing('WebSocket /v1/job/:job_id/action', 'jobs.action.ws-frames-order', 'doc.jobs.run-action.endpoint'),
  ),
  fault(
    'jobs.tag-endpoint-missing',
    missing(
      'POST /v1/job/:job_id/versions/:tag_name/tag',
      'jobs.tag.create',
      'doc.jobs.tag.endpoint',
      'doc.jobs.overview.op-tags',
    ),
  ),
  fault(
    'jobs.tag-delete-endpoint-missing',
    missing('DELETE /v1/job/:job_id/versions/:tag_name/tag', 'jobs.tag.delete', 'doc.jobs.tag-delete.endpoint'),
  ),
  fault('jobs.paths-unversioned', {
    breaks: 'jobs.paths.v1-prefix',
    statements: ['doc.jobs.versioning.v1'],
    description: 'the jobs API is served without its /v1 prefix: no /v1 path answers',
    replace: () => ({ served: () => false }),
  }),
];
