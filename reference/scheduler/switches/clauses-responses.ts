/**
 * The jobs area's faults on the clauses of the answers "Endpoints > Parameters and responses"
 * lists (every write endpoint's write response, dispatch, plan, periodic force, scale status,
 * versions diffs): a field an answer leaves out, written from the document and the reference
 * alone. Each rewrites one endpoint's answer (the stored state stays as it was). Gathered, in
 * order, by index.ts.
 */
import { switchesOf } from '../../switches.js';
import { isObj, type Job } from '../job.js';
import type { SchedulerRules } from '../rules.js';
import { dropped, onAnswer, without, clause as fault, slug, inEachGroup } from './edits.js';

// `fault(name, declaration)` makes an entry of this file's table (edits.ts `clause`); the table is declared once, at its end.
const { fault: declared } = switchesOf<SchedulerRules>(['jobs']);

const PLAN = 'POST /v1/job/:job_id/plan';
const SCALE = 'GET /v1/job/:job_id/scale';
const VERSIONS = 'GET /v1/job/:job_id/versions';

/** The plan answer with `field` left out of every group of FailedTGAllocs. */
const failedDrops = (field: string) =>
  onAnswer(
    PLAN,
    'jobs.plan.failed-tg-allocs',
    [`doc.jobs.plan.failed-${slug(field)}`],
    `the plan's FailedTGAllocs leave out ${field}`,
    (p) => {
      inEachGroup(p.FailedTGAllocs, field);
      return p;
    },
  );
/** The plan answer with `field` left out of every group of Annotations.DesiredTGUpdates. */
const annotationDrops = (field: string) =>
  onAnswer(
    PLAN,
    'jobs.plan.annotations',
    [`doc.jobs.plan.annotations-${slug(field)}`],
    `the plan's DesiredTGUpdates leave out ${field}`,
    (p) => {
      if (isObj(p.Annotations)) inEachGroup(p.Annotations.DesiredTGUpdates, field);
      return p;
    },
  );
/** The versions answer with `field` left out of every job diff. */
const diffDrops = (field: string, statement: string) =>
  onAnswer(
    VERSIONS,
    'jobs.versions.diffs',
    [statement],
    `the job diffs of the versions list leave out ${field}`,
    (v) => ({
      ...v,
      Diffs: Array.isArray(v.Diffs) ? v.Diffs.map((d: Job) => (isObj(d) ? without(d, field) : d)) : v.Diffs,
    }),
  );

export const clauseResponseSwitches = [
  // ---- write responses, endpoint by endpoint -------------------------------------------------------
  fault(
    'jobs.register-answer-drops-index',
    dropped('POST /v1/jobs', 'Index', 'jobs.register.creates-job', 'doc.jobs.write-response.index'),
  ),
  fault(
    'jobs.register-answer-drops-last-contact',
    dropped('POST /v1/jobs', 'LastContact', 'jobs.register.creates-job', 'doc.jobs.write-response.last-contact'),
  ),
  fault(
    'jobs.register-answer-known-leader-string',
    onAnswer(
      'POST /v1/jobs',
      'jobs.register.creates-job',
      ['doc.jobs.write-response.known-leader'],
      'the write response of POST /v1/jobs answers KnownLeader as a string',
      (w) => ({ ...w, KnownLeader: String(w.KnownLeader) }),
    ),
  ),
  fault(
    'jobs.register-answer-drops-eval-id',
    dropped('POST /v1/jobs', 'EvalID', 'jobs.register.eval-created', 'doc.jobs.write-response.eval-id'),
  ),
  fault(
    'jobs.register-answer-drops-eval-create-index',
    dropped(
      'POST /v1/jobs',
      'EvalCreateIndex',
      'jobs.register.eval-created',
      'doc.jobs.write-response.eval-create-index',
    ),
  ),
  fault(
    'jobs.register-answer-drops-job-modify-index',
    dropped('POST /v1/jobs', 'JobModifyIndex', 'jobs.register.creates-job', 'doc.jobs.write-response.job-modify-index'),
  ),
  fault(
    'jobs.update-answer-drops-index',
    dropped('POST /v1/job/:job_id', 'Index', 'jobs.update.path-job-id', 'doc.jobs.update.response'),
  ),
  fault(
    'jobs.stop-answer-drops-known-leader',
    dropped('DELETE /v1/job/:job_id', 'KnownLeader', 'jobs.stop.marks-stopped', 'doc.jobs.stop.response'),
  ),
  // Index, not Warnings: an empty Warnings may be left out (a field holding no value), so a
  // scheduler dropping the empty Warnings of a scale answer breaks nothing.
  fault(
    'jobs.scale-answer-drops-index',
    dropped('POST /v1/job/:job_id/scale', 'Index', 'jobs.scale.sets-count', 'doc.jobs.scale.response'),
  ),
  fault(
    'jobs.revert-answer-drops-eval-id',
    dropped('POST /v1/job/:job_id/revert', 'EvalID', 'jobs.revert.by-version', 'doc.jobs.revert.response'),
  ),
  fault(
    'jobs.evaluate-answer-drops-eval-create-index',
    dropped(
      'POST /v1/job/:job_id/evaluate',
      'EvalCreateIndex',
      'jobs.evaluate.creates-eval',
      'doc.jobs.evaluate.response',
    ),
  ),
  // ---- dispatch, periodic force ---------------------------------------------------------------------
  fault(
    'jobs.dispatch-answer-drops-index',
    dropped(
      'POST /v1/job/:job_id/dispatch',
      'Index',
      'jobs.dispatch.creates-child',
      'doc.jobs.dispatch.response-index',
    ),
  ),
  fault(
    'jobs.dispatch-answer-drops-eval-create-index',
    dropped(
      'POST /v1/job/:job_id/dispatch',
      'EvalCreateIndex',
      'jobs.dispatch.creates-child',
      'doc.jobs.dispatch.response-eval-create-index',
    ),
  ),
  fault(
    'jobs.dispatch-answer-drops-eval-id',
    dropped(
      'POST /v1/job/:job_id/dispatch',
      'EvalID',
      'jobs.dispatch.creates-child',
      'doc.jobs.dispatch.response-eval-id',
    ),
  ),
  fault(
    'jobs.dispatch-answer-drops-dispatched-job-id',
    dropped(
      'POST /v1/job/:job_id/dispatch',
      'DispatchedJobID',
      'jobs.dispatch.creates-child',
      'doc.jobs.dispatch.response-dispatched-job-id',
    ),
  ),
  fault(
    'jobs.periodic-force-answer-drops-eval-id',
    dropped(
      'POST /v1/job/:job_id/periodic/force',
      'EvalID',
      'jobs.periodic.force',
      'doc.jobs.periodic.response-eval-id',
    ),
  ),
  // ---- plan --------------------------------------------------------------------------------------
  fault(
    'jobs.plan-answer-drops-warnings',
    dropped(PLAN, 'Warnings', 'jobs.plan.response', 'doc.jobs.plan.response-warnings'),
  ),
  fault(
    'jobs.plan-answer-drops-job-modify-index',
    dropped(PLAN, 'JobModifyIndex', 'jobs.plan.response', 'doc.jobs.plan.response-job-modify-index'),
  ),
  fault('jobs.plan-failed-drop-coalesced-failures', failedDrops('CoalescedFailures')),
  fault('jobs.plan-failed-drop-allocation-time', failedDrops('AllocationTime')),
  fault('jobs.plan-failed-drop-scores', failedDrops('Scores')),
  fault('jobs.plan-failed-drop-nodes-evaluated', failedDrops('NodesEvaluated')),
  fault('jobs.plan-failed-drop-nodes-filtered', failedDrops('NodesFiltered')),
  fault('jobs.plan-failed-drop-nodes-available', failedDrops('NodesAvailable')),
  fault('jobs.plan-failed-drop-nodes-in-pool', failedDrops('NodesInPool')),
  fault('jobs.plan-failed-drop-class-filtered', failedDrops('ClassFiltered')),
  fault('jobs.plan-failed-drop-constraint-filtered', failedDrops('ConstraintFiltered')),
  fault('jobs.plan-failed-drop-nodes-exhausted', failedDrops('NodesExhausted')),
  fault('jobs.plan-failed-drop-class-exhausted', failedDrops('ClassExhausted')),
  fault('jobs.plan-failed-drop-dimension-exhausted', failedDrops('DimensionExhausted')),
  fault('jobs.plan-annotations-drop-destructive-update', annotationDrops('DestructiveUpdate')),
  fault('jobs.plan-annotations-drop-in-place-update', annotationDrops('InPlaceUpdate')),
  fault('jobs.plan-annotations-drop-stop', annotationDrops('Stop')),
  fault('jobs.plan-annotations-drop-migrate', annotationDrops('Migrate')),
  fault('jobs.plan-annotations-drop-place', annotationDrops('Place')),
  fault('jobs.plan-annotations-drop-ignore', annotationDrops('Ignore')),
  // ---- scale status ----------------------------------------------------------------------------------
  fault(
    'jobs.scale-status-drops-job-create-index',
    dropped(SCALE, 'JobCreateIndex', 'jobs.scale.status', 'doc.jobs.scale-status.job-create-index'),
  ),
  fault('jobs.scale-status-drops-job-id', dropped(SCALE, 'JobID', 'jobs.scale.status', 'doc.jobs.scale-status.job-id')),
  fault(
    'jobs.scale-status-drops-namespace',
    dropped(SCALE, 'Namespace', 'jobs.scale.status', 'doc.jobs.scale-status.namespace'),
  ),
  fault(
    'jobs.scale-status-drops-job-modify-index',
    dropped(SCALE, 'JobModifyIndex', 'jobs.scale.status', 'doc.jobs.scale-status.job-modify-index'),
  ),
  fault(
    'jobs.scale-status-drops-job-stopped',
    dropped(SCALE, 'JobStopped', 'jobs.scale.status', 'doc.jobs.scale-status.job-stopped'),
  ),
  fault(
    'jobs.scale-status-drops-task-groups',
    dropped(SCALE, 'TaskGroups', 'jobs.scale.status', 'doc.jobs.scale-status.task-groups'),
  ),
  fault(
    'jobs.scale-status-groups-drop-desired',
    onAnswer(
      SCALE,
      'jobs.scale.status',
      ['doc.jobs.scale-status.tg-desired'],
      'the groups of the scale status leave out Desired',
      (s) => {
        inEachGroup(s.TaskGroups, 'Desired');
        return s;
      },
    ),
  ),
  fault(
    'jobs.scale-status-groups-drop-events',
    onAnswer(
      SCALE,
      'jobs.scale.status',
      ['doc.jobs.scale-status.tg-events'],
      'the groups of the scale status leave out Events',
      (s) => {
        inEachGroup(s.TaskGroups, 'Events');
        return s;
      },
    ),
  ),
  fault(
    'jobs.scale-status-groups-drop-unhealthy',
    onAnswer(
      SCALE,
      'jobs.scale.status',
      ['doc.jobs.scale-status.tg-unhealthy'],
      'the groups of the scale status leave out Unhealthy',
      (s) => {
        inEachGroup(s.TaskGroups, 'Unhealthy');
        return s;
      },
    ),
  ),
  // ---- versions diffs ------------------------------------------------------------------------------
  fault(
    'jobs.versions-diffs-object',
    onAnswer(
      VERSIONS,
      'jobs.versions.diffs',
      ['doc.jobs.versions.diff-null-or-array'],
      'Diffs is an object keyed by version, not an array',
      (v) =>
        Array.isArray(v.Diffs)
          ? { ...v, Diffs: Object.fromEntries(v.Diffs.map((d: Job, i: number) => [String(i), d])) }
          : v,
    ),
  ),
  fault('jobs.versions-diffs-drop-id', diffDrops('ID', 'doc.jobs.versions.diff-id')),
  fault('jobs.versions-diffs-drop-fields', diffDrops('Fields', 'doc.jobs.versions.diff-fields')),
  fault('jobs.versions-diffs-drop-objects', diffDrops('Objects', 'doc.jobs.versions.diff-objects')),
  fault('jobs.versions-diffs-drop-task-groups', diffDrops('TaskGroups', 'doc.jobs.versions.diff-task-groups')),
].map(([name, declaration]) => declared(name, declaration));
