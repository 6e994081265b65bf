/**
 * The jobs area's faults on the clauses of the Evaluation, Deployment, Service registration, Job
 * action and Version tag field lists: a field an answer leaves out, written from the document and
 * the reference alone (the answers of the endpoints: clauses-responses.ts). Each rewrites one endpoint's answer (the stored state stays as it was). Gathered, in
 * order, by index.ts.
 */
import { switchesOf } from '../../switches.js';
import type { SchedulerRules } from '../rules.js';
import { dropped, each, onAnswer, clause as fault, slug, inEachGroup } from './edits.js';

// `fault(name, declaration)` makes an entry of this file's table (edits.ts `clause`); the table is declared once, at its end.
const { fault: declared } = switchesOf<SchedulerRules>(['jobs']);

const EVALS = 'GET /v1/job/:job_id/evaluations';
const DEPLOYMENTS = 'GET /v1/job/:job_id/deployments';
const SERVICES = 'GET /v1/job/:job_id/services';
const ACTIONS = 'GET /v1/job/:job_id/actions';

/** The deployments with `field` left out of every group of TaskGroups. */
const deploymentGroupDrops = (field: string) =>
  onAnswer(
    DEPLOYMENTS,
    'jobs.deployments.list',
    [`doc.jobs.deployment.tg-${slug(field)}`],
    `the TaskGroups of a listed deployment leave out ${field}`,
    each((d) => {
      inEachGroup(d.TaskGroups, field);
      return d;
    }),
  );

export const clauseAnswerSwitches = [
  // ---- Evaluation ------------------------------------------------------------------------------
  fault('jobs.evaluations-drop-id', dropped(EVALS, 'ID', 'jobs.evaluations.list', 'doc.jobs.evaluation.id')),
  fault(
    'jobs.evaluations-drop-priority',
    dropped(EVALS, 'Priority', 'jobs.evaluations.list', 'doc.jobs.evaluation.priority'),
  ),
  fault('jobs.evaluations-drop-type', dropped(EVALS, 'Type', 'jobs.evaluations.list', 'doc.jobs.evaluation.type')),
  fault('jobs.evaluations-drop-job-id', dropped(EVALS, 'JobID', 'jobs.evaluations.list', 'doc.jobs.evaluation.job-id')),
  fault(
    'jobs.evaluations-drop-status',
    dropped(EVALS, 'Status', 'jobs.evaluations.list', 'doc.jobs.evaluation.status'),
  ),
  fault(
    'jobs.evaluations-drop-previous-eval',
    dropped(EVALS, 'PreviousEval', 'jobs.evaluations.list', 'doc.jobs.evaluation.previous-eval'),
  ),
  fault(
    'jobs.evaluations-drop-blocked-eval',
    dropped(EVALS, 'BlockedEval', 'jobs.evaluations.list', 'doc.jobs.evaluation.blocked-eval'),
  ),
  fault(
    'jobs.evaluations-drop-failed-tg-allocs',
    dropped(EVALS, 'FailedTGAllocs', 'jobs.evaluations.list', 'doc.jobs.evaluation.failed-tg-allocs'),
  ),
  fault(
    'jobs.evaluations-drop-queued-allocations',
    dropped(EVALS, 'QueuedAllocations', 'jobs.evaluations.list', 'doc.jobs.evaluation.queued-allocations'),
  ),
  fault(
    'jobs.evaluations-drop-snapshot-index',
    dropped(EVALS, 'SnapshotIndex', 'jobs.evaluations.list', 'doc.jobs.evaluation.snapshot-index'),
  ),
  fault(
    'jobs.evaluations-drop-create-index',
    dropped(EVALS, 'CreateIndex', 'jobs.evaluations.list', 'doc.jobs.evaluation.create-index'),
  ),
  fault(
    'jobs.evaluations-drop-modify-index',
    dropped(EVALS, 'ModifyIndex', 'jobs.evaluations.list', 'doc.jobs.evaluation.modify-index'),
  ),
  fault(
    'jobs.evaluations-complete-as-pending',
    onAnswer(
      EVALS,
      'jobs.evaluations.list',
      ['doc.jobs.values.evaluation-status-complete'],
      'processed evaluations are listed with Status pending',
      each((ev) => (ev.Status === 'complete' ? { ...ev, Status: 'pending' } : ev)),
    ),
  ),
  // ---- Deployment ------------------------------------------------------------------------------
  fault('jobs.deployments-drop-id', dropped(DEPLOYMENTS, 'ID', 'jobs.deployments.list', 'doc.jobs.deployment.id')),
  fault(
    'jobs.deployments-drop-job-id',
    dropped(DEPLOYMENTS, 'JobID', 'jobs.deployments.list', 'doc.jobs.deployment.job-id'),
  ),
  fault(
    'jobs.deployments-drop-job-version',
    dropped(DEPLOYMENTS, 'JobVersion', 'jobs.deployments.list', 'doc.jobs.deployment.job-version'),
  ),
  fault(
    'jobs.deployments-drop-job-modify-index',
    dropped(DEPLOYMENTS, 'JobModifyIndex', 'jobs.deployments.list', 'doc.jobs.deployment.job-modify-index'),
  ),
  fault(
    'jobs.deployments-drop-status',
    dropped(DEPLOYMENTS, 'Status', 'jobs.deployments.list', 'doc.jobs.deployment.status'),
  ),
  fault(
    'jobs.deployments-drop-status-description',
    dropped(DEPLOYMENTS, 'StatusDescription', 'jobs.deployments.list', 'doc.jobs.deployment.status-description'),
  ),
  fault(
    'jobs.deployments-drop-create-index',
    dropped(DEPLOYMENTS, 'CreateIndex', 'jobs.deployments.list', 'doc.jobs.deployment.create-index'),
  ),
  fault(
    'jobs.deployments-drop-modify-index',
    dropped(DEPLOYMENTS, 'ModifyIndex', 'jobs.deployments.list', 'doc.jobs.deployment.modify-index'),
  ),
  fault('jobs.deployments-tg-drop-auto-revert', deploymentGroupDrops('AutoRevert')),
  fault('jobs.deployments-tg-drop-promoted', deploymentGroupDrops('Promoted')),
  fault('jobs.deployments-tg-drop-placed-canaries', deploymentGroupDrops('PlacedCanaries')),
  fault('jobs.deployments-tg-drop-desired-canaries', deploymentGroupDrops('DesiredCanaries')),
  fault('jobs.deployments-tg-drop-desired-total', deploymentGroupDrops('DesiredTotal')),
  fault('jobs.deployments-tg-drop-placed-allocs', deploymentGroupDrops('PlacedAllocs')),
  fault('jobs.deployments-tg-drop-unhealthy-allocs', deploymentGroupDrops('UnhealthyAllocs')),
  fault(
    'jobs.deployments-running-as-active',
    onAnswer(
      DEPLOYMENTS,
      'jobs.scale.active-deployment-400',
      ['doc.jobs.values.deployment-status-running'],
      'running deployments are listed with Status active',
      each((d) => (d.Status === 'running' ? { ...d, Status: 'active' } : d)),
    ),
  ),
  fault('jobs.deployments-tg-drop-healthy-allocs', deploymentGroupDrops('HealthyAllocs')),
  // ---- Service registration, job action, version tag ---------------------------------------------
  fault('jobs.services-drop-address', dropped(SERVICES, 'Address', 'jobs.services.list', 'doc.jobs.service.address')),
  fault('jobs.services-drop-alloc-id', dropped(SERVICES, 'AllocID', 'jobs.services.list', 'doc.jobs.service.alloc-id')),
  fault(
    'jobs.services-drop-create-index',
    dropped(SERVICES, 'CreateIndex', 'jobs.services.list', 'doc.jobs.service.create-index'),
  ),
  fault(
    'jobs.services-drop-datacenter',
    dropped(SERVICES, 'Datacenter', 'jobs.services.list', 'doc.jobs.service.datacenter'),
  ),
  fault('jobs.services-drop-id', dropped(SERVICES, 'ID', 'jobs.services.list', 'doc.jobs.service.id')),
  fault('jobs.services-drop-job-id', dropped(SERVICES, 'JobID', 'jobs.services.list', 'doc.jobs.service.job-id')),
  fault(
    'jobs.services-drop-modify-index',
    dropped(SERVICES, 'ModifyIndex', 'jobs.services.list', 'doc.jobs.service.modify-index'),
  ),
  fault(
    'jobs.services-drop-namespace',
    dropped(SERVICES, 'Namespace', 'jobs.services.list', 'doc.jobs.service.namespace'),
  ),
  fault('jobs.services-drop-node-id', dropped(SERVICES, 'NodeID', 'jobs.services.list', 'doc.jobs.service.node-id')),
  fault(
    'jobs.services-drop-service-name',
    dropped(SERVICES, 'ServiceName', 'jobs.services.list', 'doc.jobs.service.service-name'),
  ),
  fault(
    'jobs.services-first-tag-only',
    onAnswer(
      SERVICES,
      'jobs.services.list',
      ['doc.jobs.service.tags'],
      'service registrations carry only the first of their Tags',
      each((s) => (Array.isArray(s.Tags) ? { ...s, Tags: s.Tags.slice(0, 1) } : s)),
    ),
  ),
  fault('jobs.actions-drop-name', dropped(ACTIONS, 'Name', 'jobs.actions.list', 'doc.jobs.action.name')),
  fault('jobs.actions-drop-command', dropped(ACTIONS, 'Command', 'jobs.actions.list', 'doc.jobs.action.command')),
  fault(
    'jobs.actions-drop-task-group-name',
    dropped(ACTIONS, 'TaskGroupName', 'jobs.actions.list', 'doc.jobs.action.task-group-name'),
  ),
  fault('jobs.actions-drop-task-name', dropped(ACTIONS, 'TaskName', 'jobs.actions.list', 'doc.jobs.action.task-name')),
  fault(
    'jobs.actions-first-arg-only',
    onAnswer(
      ACTIONS,
      'jobs.actions.list',
      ['doc.jobs.action.args'],
      'actions are listed with only the first of their Args',
      each((a) => (Array.isArray(a.Args) ? { ...a, Args: a.Args.slice(0, 1) } : a)),
    ),
  ),
  fault(
    'jobs.tag-answer-drops-name',
    dropped('POST /v1/job/:job_id/versions/:tag_name/tag', 'Name', 'jobs.tag.create', 'doc.jobs.tag.name-field'),
  ),
  fault(
    'jobs.tag-answer-drops-description',
    dropped(
      'POST /v1/job/:job_id/versions/:tag_name/tag',
      'Description',
      'jobs.tag.create',
      'doc.jobs.tag.description-field',
    ),
  ),
  fault(
    'jobs.tag-delete-drops-known-leader',
    dropped(
      'DELETE /v1/job/:job_id/versions/:tag_name/tag',
      'KnownLeader',
      'jobs.tag.delete',
      'doc.jobs.tag-delete.query-meta',
    ),
  ),
].map(([name, declaration]) => declared(name, declaration));
