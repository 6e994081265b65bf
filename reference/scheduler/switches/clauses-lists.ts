/**
 * The jobs area's faults on the clauses of the Job list item, Job summary, Job submission,
 * Allocation and task event field lists ("Resources and their fields"): a field an answer leaves
 * out, or a counter that counts what another should, written from the document and the reference
 * alone. Each rewrites one endpoint's answer (the stored state stays as it was). Gathered, in
 * order, by index.ts.
 */
import { switchesOf } from '../../switches.js';
import { isObj, type Job } from '../job.js';
import type { SchedulerRules } from '../rules.js';
import { dropped, each, onAnswer, clause as fault } from './edits.js';

// `fault(name, declaration)` makes an entry of this file's table (edits.ts `clause`); the table is declared once, at its end.
const { fault: declared } = switchesOf<SchedulerRules>(['jobs']);

const LIST = 'GET /v1/jobs';
const SUMMARY = 'GET /v1/job/:job_id/summary';
const SUBMISSION = 'GET /v1/job/:job_id/submission';
const ALLOCS = 'GET /v1/job/:job_id/allocations';

/** The summary with `change` applied to the counters of every group. */
const counters = (statement: string, description: string, change: (g: Job) => void) =>
  onAnswer(SUMMARY, 'jobs.summary.read', [statement], description, (s) => {
    for (const g of Object.values((isObj(s.Summary) ? s.Summary : {}) as Record<string, Job>)) change(g);
    return s;
  });
const moved = (g: Job, from: string, to: string) => {
  g[to] = Number(g[to] ?? 0) + Number(g[from] ?? 0);
  g[from] = 0;
};

/** Every task event of every allocation with `field` left out. */
const eventDrops = (field: string, statement: string) =>
  onAnswer(
    ALLOCS,
    'jobs.allocations.list',
    [statement],
    `the task events of an allocation leave out ${field}`,
    each((a) => {
      for (const st of Object.values((isObj(a.TaskStates) ? a.TaskStates : {}) as Record<string, Job>))
        for (const e of Array.isArray(st.Events) ? st.Events : []) if (isObj(e)) delete e[field];
      return a;
    }),
  );

export const clauseListSwitches = [
  // ---- Job list item ---------------------------------------------------------------------------
  fault('jobs.list-items-drop-id', dropped(LIST, 'ID', 'jobs.list.returns-items', 'doc.jobs.list-item.id')),
  fault(
    'jobs.list-items-drop-parent-id',
    dropped(LIST, 'ParentID', 'jobs.list.returns-items', 'doc.jobs.list-item.parent-id'),
  ),
  fault('jobs.list-items-drop-name', dropped(LIST, 'Name', 'jobs.list.returns-items', 'doc.jobs.list-item.name')),
  fault('jobs.list-items-drop-type', dropped(LIST, 'Type', 'jobs.list.returns-items', 'doc.jobs.list-item.type')),
  fault(
    'jobs.list-items-drop-priority',
    dropped(LIST, 'Priority', 'jobs.list.returns-items', 'doc.jobs.list-item.priority'),
  ),
  fault('jobs.list-items-drop-status', dropped(LIST, 'Status', 'jobs.list.returns-items', 'doc.jobs.list-item.status')),
  fault(
    'jobs.list-items-drop-status-description',
    dropped(LIST, 'StatusDescription', 'jobs.list.returns-items', 'doc.jobs.list-item.status-description'),
  ),
  fault(
    'jobs.list-items-drop-job-summary',
    dropped(LIST, 'JobSummary', 'jobs.list.returns-items', 'doc.jobs.list-item.job-summary'),
  ),
  fault(
    'jobs.list-items-drop-modify-index',
    dropped(LIST, 'ModifyIndex', 'jobs.list.returns-items', 'doc.jobs.list-item.modify-index'),
  ),
  fault(
    'jobs.list-items-drop-job-modify-index',
    dropped(LIST, 'JobModifyIndex', 'jobs.list.returns-items', 'doc.jobs.list-item.job-modify-index'),
  ),
  // ---- Job summary -----------------------------------------------------------------------------
  fault('jobs.summary-drops-job-id', dropped(SUMMARY, 'JobID', 'jobs.summary.read', 'doc.jobs.summary.job-id')),
  fault(
    'jobs.summary-drops-create-index',
    dropped(SUMMARY, 'CreateIndex', 'jobs.summary.read', 'doc.jobs.summary.create-index'),
  ),
  fault(
    'jobs.summary-drops-modify-index',
    dropped(SUMMARY, 'ModifyIndex', 'jobs.summary.read', 'doc.jobs.summary.modify-index'),
  ),
  fault(
    'jobs.summary-keyed-by-task',
    onAnswer(
      SUMMARY,
      'jobs.summary.read',
      ['doc.jobs.summary.keyed-by-group'],
      "the summary is keyed by the name of each group's first task instead of the group",
      (s) => ({
        ...s,
        Summary: Object.fromEntries(
          Object.entries(isObj(s.Summary) ? s.Summary : {}).map(([g, c]) => [`${g}-task`, c]),
        ),
      }),
    ),
  ),
  fault(
    'jobs.summary-queued-zero',
    counters('doc.jobs.summary.queued', 'the summary counts no queued allocation (Queued stays 0)', (g) => {
      g.Queued = 0;
    }),
  ),
  fault(
    'jobs.summary-complete-as-running',
    counters('doc.jobs.summary.complete', 'the summary counts complete allocations under Running', (g) =>
      moved(g, 'Complete', 'Running'),
    ),
  ),
  fault(
    'jobs.summary-running-as-starting',
    counters('doc.jobs.summary.running', 'the summary counts running allocations under Starting', (g) =>
      moved(g, 'Running', 'Starting'),
    ),
  ),
  fault(
    'jobs.summary-starting-as-queued',
    counters('doc.jobs.summary.starting', 'the summary counts starting (pending) allocations under Queued', (g) =>
      moved(g, 'Starting', 'Queued'),
    ),
  ),
  fault(
    'jobs.summary-children-running-dead-swapped',
    onAnswer(
      SUMMARY,
      'jobs.summary.read',
      ['doc.jobs.summary.children-running', 'doc.jobs.summary.children-dead'],
      'the summary counts running children under Dead and dead ones under Running',
      (s) =>
        isObj(s.Children)
          ? { ...s, Children: { ...s.Children, Running: s.Children.Dead, Dead: s.Children.Running } }
          : s,
    ),
  ),
  fault(
    'jobs.summary-children-pending-as-running',
    onAnswer(
      SUMMARY,
      'jobs.summary.read',
      ['doc.jobs.summary.children-pending'],
      'the summary counts pending children under Running',
      (s) => {
        if (isObj(s.Children)) moved(s.Children, 'Pending', 'Running');
        return s;
      },
    ),
  ),
  // ---- Job submission --------------------------------------------------------------------------
  fault(
    'jobs.submission-drops-job-index',
    dropped(SUBMISSION, 'JobIndex', 'jobs.submission.read', 'doc.jobs.submission.job-index'),
  ),
  fault(
    'jobs.submission-drops-job-id',
    dropped(SUBMISSION, 'JobID', 'jobs.submission.read', 'doc.jobs.submission.job-id'),
  ),
  fault(
    'jobs.submission-drops-namespace',
    dropped(SUBMISSION, 'Namespace', 'jobs.submission.read', 'doc.jobs.submission.namespace-field'),
  ),
  fault(
    'jobs.submission-drops-source',
    dropped(SUBMISSION, 'Source', 'jobs.submission.read', 'doc.jobs.submission.source'),
  ),
  fault(
    'jobs.submission-variable-flags-first-only',
    onAnswer(
      SUBMISSION,
      'jobs.submission.read',
      ['doc.jobs.submission.variable-flags'],
      'the submission keeps only the first of its VariableFlags',
      (s) =>
        isObj(s.VariableFlags)
          ? { ...s, VariableFlags: Object.fromEntries(Object.entries(s.VariableFlags).slice(0, 1)) }
          : s,
    ),
  ),
  fault(
    'jobs.submission-drops-version',
    dropped(SUBMISSION, 'Version', 'jobs.submission.read', 'doc.jobs.submission.version'),
  ),
  // ---- Allocation ------------------------------------------------------------------------------
  fault('jobs.allocations-drop-id', dropped(ALLOCS, 'ID', 'jobs.allocations.list', 'doc.jobs.allocation.id')),
  fault('jobs.allocations-drop-name', dropped(ALLOCS, 'Name', 'jobs.allocations.list', 'doc.jobs.allocation.name')),
  fault(
    'jobs.allocations-drop-node-id',
    dropped(ALLOCS, 'NodeID', 'jobs.allocations.list', 'doc.jobs.allocation.node-id'),
  ),
  fault(
    'jobs.allocations-drop-previous-allocation',
    dropped(ALLOCS, 'PreviousAllocation', 'jobs.allocations.list', 'doc.jobs.allocation.previous-allocation'),
  ),
  fault(
    'jobs.allocations-drop-next-allocation',
    dropped(ALLOCS, 'NextAllocation', 'jobs.allocations.list', 'doc.jobs.allocation.next-allocation'),
  ),
  fault(
    'jobs.allocations-drop-reschedule-tracker',
    dropped(ALLOCS, 'RescheduleTracker', 'jobs.allocations.list', 'doc.jobs.allocation.reschedule-tracker'),
  ),
  fault(
    'jobs.allocations-drop-job-id',
    dropped(ALLOCS, 'JobID', 'jobs.allocations.list', 'doc.jobs.allocation.job-id'),
  ),
  fault(
    'jobs.allocations-drop-task-group',
    dropped(ALLOCS, 'TaskGroup', 'jobs.allocations.list', 'doc.jobs.allocation.task-group'),
  ),
  fault(
    'jobs.allocations-drop-task-states',
    dropped(ALLOCS, 'TaskStates', 'jobs.allocations.list', 'doc.jobs.allocation.task-states'),
  ),
  fault(
    'jobs.allocations-drop-desired-status',
    dropped(ALLOCS, 'DesiredStatus', 'jobs.allocations.list', 'doc.jobs.allocation.desired-status'),
  ),
  fault(
    'jobs.allocations-drop-client-status',
    dropped(ALLOCS, 'ClientStatus', 'jobs.allocations.list', 'doc.jobs.allocation.client-status'),
  ),
  fault(
    'jobs.allocations-drop-create-index',
    dropped(ALLOCS, 'CreateIndex', 'jobs.allocations.list', 'doc.jobs.allocation.create-index'),
  ),
  fault(
    'jobs.allocations-drop-modify-index',
    dropped(ALLOCS, 'ModifyIndex', 'jobs.allocations.list', 'doc.jobs.allocation.modify-index'),
  ),
  fault(
    'jobs.allocations-drop-create-time',
    dropped(ALLOCS, 'CreateTime', 'jobs.allocations.list', 'doc.jobs.allocation.create-time'),
  ),
  fault(
    'jobs.allocations-drop-modify-time',
    dropped(ALLOCS, 'ModifyTime', 'jobs.allocations.list', 'doc.jobs.allocation.modify-time'),
  ),
  // ---- Task events (every event carries every listed field) ---------------------------------------
  fault('jobs.task-events-drop-type', eventDrops('Type', 'doc.jobs.task-event.type')),
  fault('jobs.task-events-drop-time', eventDrops('Time', 'doc.jobs.task-event.time')),
  fault('jobs.task-events-drop-fails-task', eventDrops('FailsTask', 'doc.jobs.task-event.fails-task')),
  fault('jobs.task-events-drop-restart-reason', eventDrops('RestartReason', 'doc.jobs.task-event.restart-reason')),
  fault('jobs.task-events-drop-setup-error', eventDrops('SetupError', 'doc.jobs.task-event.setup-error')),
  fault('jobs.task-events-drop-driver-error', eventDrops('DriverError', 'doc.jobs.task-event.driver-error')),
  fault('jobs.task-events-drop-exit-code', eventDrops('ExitCode', 'doc.jobs.task-event.exit-code')),
  fault('jobs.task-events-drop-signal', eventDrops('Signal', 'doc.jobs.task-event.signal')),
  fault('jobs.task-events-drop-message', eventDrops('Message', 'doc.jobs.task-event.message')),
  fault('jobs.task-events-drop-kill-timeout', eventDrops('KillTimeout', 'doc.jobs.task-event.kill-timeout')),
  fault('jobs.task-events-drop-kill-error', eventDrops('KillError', 'doc.jobs.task-event.kill-error')),
  fault('jobs.task-events-drop-kill-reason', eventDrops('KillReason', 'doc.jobs.task-event.kill-reason')),
  fault('jobs.task-events-drop-start-delay', eventDrops('StartDelay', 'doc.jobs.task-event.start-delay')),
  fault('jobs.task-events-drop-download-error', eventDrops('DownloadError', 'doc.jobs.task-event.download-error')),
  fault(
    'jobs.task-events-drop-validation-error',
    eventDrops('ValidationError', 'doc.jobs.task-event.validation-error'),
  ),
  fault('jobs.task-events-drop-disk-limit', eventDrops('DiskLimit', 'doc.jobs.task-event.disk-limit')),
  fault('jobs.task-events-drop-failed-sibling', eventDrops('FailedSibling', 'doc.jobs.task-event.failed-sibling')),
  fault('jobs.task-events-drop-secrets-error', eventDrops('SecretsError', 'doc.jobs.task-event.secrets-error')),
  fault(
    'jobs.task-events-drop-task-signal-reason',
    eventDrops('TaskSignalReason', 'doc.jobs.task-event.task-signal-reason'),
  ),
  fault('jobs.task-events-drop-task-signal', eventDrops('TaskSignal', 'doc.jobs.task-event.task-signal')),
].map(([name, declaration]) => declared(name, declaration));
