// size: one fault per field the resources list, each a few lines; split by resource it would scatter one table.
/**
 * The jobs area's faults on the resources the document lists and their fields (Resources and their
 * fields, States and transitions, Versioning): a field an answer drops, leaves empty or writes in
 * another type or unit, as a vendor's serializer might. Each replaces `endpointAnswer` of ../rules.ts for one
 * endpoint (the answer as it goes out; the model's state stays as it was) or a rule of the model.
 * Gathered, in order, by index.ts.
 */
import { randomUUID } from 'node:crypto';
import { switchesOf } from '../../switches.js';
import { clone, type Job } from '../job.js';
import type { SchedulerRules } from '../rules.js';

const { fault } = switchesOf<SchedulerRules>(['jobs']);

/** The answer of `endpoint` changed by `change`, given a copy of what the rules before it answered. */
const answered =
  (endpoint: string, change: (body: Job) => Job) =>
  (r: SchedulerRules): Partial<SchedulerRules> => ({
    endpointAnswer: (e, body) => {
      const out = r.endpointAnswer(e, body);
      return e === endpoint && out !== null && typeof out === 'object' ? change(clone(out) as Job) : out;
    },
  });

/** `change` applied to every element of a list answer. */
const each = (change: (item: Job) => Job) => (list: Job) => (list as Job[]).map(change);
const without = (o: Job, ...fields: string[]): Job => {
  for (const f of fields) delete o[f];
  return o;
};

const JOB = 'GET /v1/job/:job_id';
const tasksOf = (job: Job): Job[] => (job.TaskGroups ?? []).flatMap((g: Job) => g.Tasks ?? []);

export const resourceSwitches = [
  // ---- Job -------------------------------------------------------------------------------------------
  fault('jobs.read-drops-node-pool', {
    breaks: 'jobs.read.returns-job',
    statements: ['doc.jobs.job.node-pool'],
    description: 'GET /v1/job/:job_id leaves out the job NodePool',
    replace: answered(JOB, (job) => without(job, 'NodePool')),
  }),
  fault('jobs.read-datacenters-string', {
    breaks: 'jobs.read.returns-job',
    statements: ['doc.jobs.job.datacenters-array'],
    description: 'GET /v1/job/:job_id answers Datacenters as one comma-separated string',
    replace: answered(JOB, (job) => ({ ...job, Datacenters: (job.Datacenters ?? []).join(',') })),
  }),
  fault('jobs.read-submit-time-seconds', {
    breaks: 'jobs.read.returns-job',
    statements: ['doc.jobs.job.submit-time'],
    description: 'GET /v1/job/:job_id answers SubmitTime in seconds since the epoch, not nanoseconds',
    replace: answered(JOB, (job) => ({ ...job, SubmitTime: Math.floor(Number(job.SubmitTime) / 1e9) })),
  }),
  fault('jobs.read-constraint-operand-dropped', {
    breaks: 'jobs.read.returns-job',
    statements: ['doc.jobs.job.constraint-operand'],
    description: 'GET /v1/job/:job_id answers job constraints without their Operand',
    replace: answered(JOB, (job) => ({ ...job, Constraints: job.Constraints?.map((c: Job) => without(c, 'Operand')) })),
  }),
  fault('jobs.read-affinity-weight-dropped', {
    breaks: 'jobs.read.returns-job',
    statements: ['doc.jobs.job.affinity'],
    description: 'GET /v1/job/:job_id answers job affinities without their Weight',
    replace: answered(JOB, (job) => ({ ...job, Affinities: job.Affinities?.map((a: Job) => without(a, 'Weight')) })),
  }),
  fault('jobs.read-group-meta-dropped', {
    breaks: 'jobs.read.returns-job',
    statements: ['doc.jobs.group.meta'],
    description: 'GET /v1/job/:job_id answers task groups without their Meta',
    replace: answered(JOB, (job) => {
      for (const g of job.TaskGroups ?? []) delete g.Meta;
      return job;
    }),
  }),
  fault('jobs.read-task-templates-dropped', {
    breaks: 'jobs.read.returns-job',
    statements: ['doc.jobs.task.templates'],
    description: 'GET /v1/job/:job_id answers tasks without their Templates',
    replace: answered(JOB, (job) => {
      for (const t of tasksOf(job)) delete t.Templates;
      return job;
    }),
  }),
  fault('jobs.read-periodic-overlap-dropped', {
    breaks: 'jobs.read.returns-job',
    statements: ['doc.jobs.job.periodic-prohibit-overlap'],
    description: 'GET /v1/job/:job_id answers the Periodic block without ProhibitOverlap',
    replace: answered(JOB, (job) =>
      job.Periodic ? { ...job, Periodic: without(job.Periodic, 'ProhibitOverlap') } : job,
    ),
  }),
  fault('jobs.read-parameterized-meta-optional-dropped', {
    breaks: 'jobs.read.returns-job',
    statements: ['doc.jobs.job.parameterized-meta-optional'],
    description: 'GET /v1/job/:job_id answers the ParameterizedJob block without MetaOptional',
    replace: answered(JOB, (job) =>
      job.ParameterizedJob ? { ...job, ParameterizedJob: without(job.ParameterizedJob, 'MetaOptional') } : job,
    ),
  }),
  fault('jobs.read-priority-string', {
    breaks: 'jobs.read.returns-job',
    statements: ['doc.jobs.job.priority-integer'],
    description: 'GET /v1/job/:job_id answers Priority as a string',
    replace: answered(JOB, (job) => ({ ...job, Priority: String(job.Priority) })),
  }),
  fault('jobs.read-status-empty', {
    breaks: 'jobs.read.returns-job',
    statements: ['doc.jobs.values.job-status-pending', 'doc.jobs.values.job-status-running', 'doc.jobs.job.status'],
    description: 'GET /v1/job/:job_id answers an empty Status, pending or running',
    replace: answered(JOB, (job) => ({ ...job, Status: '' })),
  }),
  fault('jobs.read-version-string', {
    breaks: 'jobs.update.bumps-version',
    statements: ['doc.jobs.versioning.integer-version', 'doc.jobs.job.version'],
    description: 'GET /v1/job/:job_id answers Version as a string',
    replace: answered(JOB, (job) => ({ ...job, Version: String(job.Version) })),
  }),
  fault('jobs.read-indexes-strings', {
    breaks: 'jobs.types.indexes-integer',
    statements: ['doc.jobs.resources.modify-index-integer', 'doc.jobs.job.modify-index'],
    description: 'GET /v1/job/:job_id answers ModifyIndex as a string',
    replace: answered(JOB, (job) => ({ ...job, ModifyIndex: String(job.ModifyIndex) })),
  }),
  fault('jobs.sysbatch-read-as-batch', {
    breaks: 'jobs.register.creates-job',
    statements: ['doc.jobs.overview.job-type-sysbatch', 'doc.jobs.values.job-type-sysbatch'],
    description: 'a sysbatch job reads back as Type batch',
    replace: answered(JOB, (job) => (job.Type === 'sysbatch' ? { ...job, Type: 'batch' } : job)),
  }),
  fault('jobs.periodic-block-ignored', {
    breaks: 'jobs.periodic.force',
    statements: ['doc.jobs.overview.periodic'],
    description: 'a job is stored without its Periodic block: a periodic job becomes a plain batch job',
    replace: (r) => ({ storedJob: (job: Job) => ({ ...r.storedJob(job), Periodic: null }) }),
  }),
  fault('jobs.namespace-default-other', {
    breaks: 'jobs.namespace.default',
    statements: ['doc.jobs.job.namespace-default', 'doc.jobs.endpoints.namespace-default'],
    description: 'a request that names no namespace is served in namespace main, not default',
    replace: () => ({ defaultNamespace: 'main' }),
  }),

  // ---- Job list item, summary, submission ---------------------------------------------------------------
  fault('jobs.list-items-drop-create-index', {
    breaks: 'jobs.list.returns-items',
    statements: ['doc.jobs.list-item.create-index'],
    description: 'GET /v1/jobs answers list items without CreateIndex',
    replace: answered(
      'GET /v1/jobs',
      each((item) => without(item, 'CreateIndex')),
    ),
  }),
  fault('jobs.summary-drops-namespace', {
    breaks: 'jobs.summary.read',
    statements: ['doc.jobs.summary.namespace'],
    description: 'GET /v1/job/:job_id/summary leaves out Namespace',
    replace: answered('GET /v1/job/:job_id/summary', (s) => without(s, 'Namespace')),
  }),
  fault('jobs.summary-drops-lost', {
    breaks: 'jobs.summary.read',
    statements: ['doc.jobs.summary.lost'],
    description: 'GET /v1/job/:job_id/summary counts no Lost allocations (the counter is left out)',
    replace: answered('GET /v1/job/:job_id/summary', (s) => {
      for (const g of Object.values((s.Summary ?? {}) as Job)) delete g.Lost;
      return s;
    }),
  }),
  fault('jobs.summary-failed-as-lost', {
    breaks: 'jobs.summary.read',
    statements: ['doc.jobs.summary.failed'],
    description: 'GET /v1/job/:job_id/summary counts failed allocations under Lost (Failed stays 0)',
    replace: answered('GET /v1/job/:job_id/summary', (s) => {
      for (const g of Object.values((s.Summary ?? {}) as Job)) {
        g.Lost = Number(g.Lost ?? 0) + Number(g.Failed ?? 0);
        g.Failed = 0;
      }
      return s;
    }),
  }),
  fault('jobs.summary-children-zero', {
    breaks: 'jobs.summary.read',
    statements: [
      'doc.jobs.summary.children-pending',
      'doc.jobs.summary.children-running',
      'doc.jobs.summary.children-dead',
    ],
    description: 'GET /v1/job/:job_id/summary never counts children (Pending, Running and Dead stay 0)',
    replace: answered('GET /v1/job/:job_id/summary', (s) => ({ ...s, Children: { Pending: 0, Running: 0, Dead: 0 } })),
  }),
  fault('jobs.submission-drops-variables', {
    breaks: 'jobs.submission.read',
    statements: ['doc.jobs.submission.variables'],
    description: 'GET /v1/job/:job_id/submission leaves out Variables',
    replace: answered('GET /v1/job/:job_id/submission', (s) => without(s, 'Variables')),
  }),
  fault('jobs.submission-format-hcl2', {
    breaks: 'jobs.submission.read',
    statements: ['doc.jobs.submission.format'],
    description: 'GET /v1/job/:job_id/submission answers Format hcl2 for a json source',
    replace: answered('GET /v1/job/:job_id/submission', (s) => ({ ...s, Format: 'hcl2' })),
  }),

  // ---- Allocation, evaluation, deployment, service registration, action ---------------------------------
  fault('jobs.allocations-drop-eval-id', {
    breaks: 'jobs.allocations.list',
    statements: ['doc.jobs.allocation.eval-id'],
    description: 'GET /v1/job/:job_id/allocations answers allocations without EvalID',
    replace: answered(
      'GET /v1/job/:job_id/allocations',
      each((a) => without(a, 'EvalID')),
    ),
  }),
  fault('jobs.task-events-drop-driver-message', {
    breaks: 'jobs.allocations.list',
    statements: ['doc.jobs.task-event.driver-message'],
    description: 'task events of an allocation leave out DriverMessage',
    replace: answered(
      'GET /v1/job/:job_id/allocations',
      each((a) => {
        for (const st of Object.values((a.TaskStates ?? {}) as Job))
          for (const e of st.Events ?? []) delete (e as Job).DriverMessage;
        return a;
      }),
    ),
  }),
  fault('jobs.task-event-types-empty', {
    breaks: 'jobs.allocations.list',
    statements: ['doc.jobs.allocation.event-types'],
    description: 'task events of an allocation carry an empty Type',
    replace: answered(
      'GET /v1/job/:job_id/allocations',
      each((a) => {
        for (const st of Object.values((a.TaskStates ?? {}) as Job))
          for (const e of st.Events ?? []) (e as Job).Type = '';
        return a;
      }),
    ),
  }),
  fault('jobs.alloc-desired-status-empty', {
    breaks: 'jobs.allocations.list',
    statements: ['doc.jobs.values.alloc-desired-status'],
    description: 'allocations answer an empty DesiredStatus',
    replace: answered(
      'GET /v1/job/:job_id/allocations',
      each((a) => ({ ...a, DesiredStatus: '' })),
    ),
  }),
  fault('jobs.alloc-client-status-empty', {
    breaks: 'jobs.allocations.list',
    statements: ['doc.jobs.values.alloc-client-status'],
    description: 'allocations answer an empty ClientStatus',
    replace: answered(
      'GET /v1/job/:job_id/allocations',
      each((a) => ({ ...a, ClientStatus: '' })),
    ),
  }),
  fault('jobs.task-state-empty', {
    breaks: 'jobs.allocations.list',
    statements: ['doc.jobs.values.task-state'],
    description: 'the task states of an allocation answer an empty State',
    replace: answered(
      'GET /v1/job/:job_id/allocations',
      each((a) => {
        for (const st of Object.values((a.TaskStates ?? {}) as Job)) st.State = '';
        return a;
      }),
    ),
  }),
  fault('jobs.evaluations-drop-job-modify-index', {
    breaks: 'jobs.evaluations.list',
    statements: ['doc.jobs.evaluation.job-modify-index'],
    description: 'GET /v1/job/:job_id/evaluations answers evaluations without JobModifyIndex',
    replace: answered(
      'GET /v1/job/:job_id/evaluations',
      each((ev) => without(ev, 'JobModifyIndex')),
    ),
  }),
  fault('jobs.evaluation-triggered-by-empty', {
    breaks: 'jobs.register.eval-created',
    statements: ['doc.jobs.evaluation.triggered-by'],
    description: 'evaluations answer an empty TriggeredBy',
    replace: answered(
      'GET /v1/job/:job_id/evaluations',
      each((ev) => ({ ...ev, TriggeredBy: '' })),
    ),
  }),
  fault('jobs.evaluations-blocked-as-complete', {
    breaks: 'jobs.evaluations.list',
    statements: ['doc.jobs.values.evaluation-status-blocked'],
    description: 'a blocked evaluation is answered with Status complete',
    replace: answered(
      'GET /v1/job/:job_id/evaluations',
      each((ev) => (ev.Status === 'blocked' ? { ...ev, Status: 'complete' } : ev)),
    ),
  }),
  fault('jobs.deployments-drop-job-create-index', {
    breaks: 'jobs.deployments.list',
    statements: ['doc.jobs.deployment.job-create-index'],
    description: 'GET /v1/job/:job_id/deployments answers deployments without JobCreateIndex',
    replace: answered(
      'GET /v1/job/:job_id/deployments',
      each((d) => without(d, 'JobCreateIndex')),
    ),
  }),
  fault('jobs.deployment-healthy-stuck', {
    breaks: 'jobs.deployments.list',
    statements: ['doc.jobs.deployment.task-groups'],
    description: 'the task groups of a listed deployment answer HealthyAllocs 0 however many are healthy',
    replace: answered(
      'GET /v1/job/:job_id/deployments',
      each((d) => {
        for (const g of Object.values((d.TaskGroups ?? {}) as Job)) g.HealthyAllocs = 0;
        return d;
      }),
    ),
  }),
  fault('jobs.services-drop-tags', {
    breaks: 'jobs.services.list',
    statements: ['doc.jobs.service.tags'],
    description: 'GET /v1/job/:job_id/services answers registrations without Tags',
    replace: answered(
      'GET /v1/job/:job_id/services',
      each((s) => without(s, 'Tags')),
    ),
  }),
  fault('jobs.services-port-string', {
    breaks: 'jobs.services.list',
    statements: ['doc.jobs.service.port-integer'],
    description: 'GET /v1/job/:job_id/services answers Port as a string',
    replace: answered(
      'GET /v1/job/:job_id/services',
      each((s) => ({ ...s, Port: String(s.Port) })),
    ),
  }),
  fault('jobs.actions-drop-args', {
    breaks: 'jobs.actions.list',
    statements: ['doc.jobs.action.args'],
    description: 'GET /v1/job/:job_id/actions answers actions without Args',
    replace: answered(
      'GET /v1/job/:job_id/actions',
      each((a) => without(a, 'Args')),
    ),
  }),

  // ---- Version tag, write response, query meta ---------------------------------------------------------
  fault('jobs.tag-time-seconds', {
    breaks: 'jobs.tag.create',
    statements: ['doc.jobs.tag.tagged-time'],
    description: 'the tag answer gives TaggedTime in seconds, not nanoseconds',
    replace: answered('POST /v1/job/:job_id/versions/:tag_name/tag', (tag) => ({
      ...tag,
      TaggedTime: Math.floor(Number(tag.TaggedTime) / 1e9),
    })),
  }),
  fault('jobs.tag-drops-query-meta', {
    breaks: 'jobs.tag.create',
    statements: ['doc.jobs.tag.query-meta', 'doc.jobs.query-meta.tags'],
    description: 'the tag answer leaves out its query meta KnownLeader',
    replace: answered('POST /v1/job/:job_id/versions/:tag_name/tag', (tag) => without(tag, 'KnownLeader')),
  }),
  fault('jobs.versions-drop-last-contact', {
    breaks: 'jobs.versions.list',
    statements: ['doc.jobs.query-meta.versions'],
    description: 'GET /v1/job/:job_id/versions leaves out its query meta LastContact',
    replace: answered('GET /v1/job/:job_id/versions', (v) => without(v, 'LastContact')),
  }),
  fault('jobs.write-drops-warnings', {
    breaks: 'jobs.register.creates-job',
    statements: ['doc.jobs.write-response.warnings'],
    description: 'the write response of POST /v1/jobs leaves out Warnings',
    replace: answered('POST /v1/jobs', (w) => without(w, 'Warnings')),
  }),
  fault('jobs.write-drops-eval-create-index', {
    breaks: 'jobs.register.eval-created',
    statements: ['doc.jobs.write-response.eval-present'],
    description: 'the write response of POST /v1/jobs leaves out EvalCreateIndex although it names an evaluation',
    replace: answered('POST /v1/jobs', (w) => without(w, 'EvalCreateIndex')),
  }),
  fault('jobs.write-invents-eval', {
    breaks: 'jobs.register.eval-created',
    statements: ['doc.jobs.write-response.eval-only-when-created'],
    description: 'setting stability answers an EvalID and EvalCreateIndex although no evaluation was created',
    replace: answered('POST /v1/job/:job_id/stable', (w) => ({
      ...w,
      EvalID: randomUUID(),
      EvalCreateIndex: w.JobModifyIndex,
    })),
  }),

  // ---- what the scheduler does, versions --------------------------------------------------------------
  fault('jobs.no-placement', {
    breaks: 'jobs.allocations.list',
    statements: ['doc.jobs.overview.creates-allocations'],
    description: 'evaluations complete without placing any allocation: every allocation stays queued',
    replace: () => ({ placesAllocations: false }),
  }),
  fault('jobs.no-deployments', {
    breaks: 'jobs.deployment.created-for-service-update',
    statements: ['doc.jobs.overview.creates-deployments'],
    description: 'a service job with an update strategy gets no deployment',
    replace: () => ({ createsDeployments: false }),
  }),
  fault('jobs.versions-only-current', {
    breaks: 'jobs.versions.list',
    statements: ['doc.jobs.versioning.listed'],
    description: 'GET /v1/job/:job_id/versions lists only the current version',
    replace: answered('GET /v1/job/:job_id/versions', (v) => ({ ...v, Versions: (v.Versions ?? []).slice(0, 1) })),
  }),
  fault('jobs.diff-types-empty', {
    breaks: 'jobs.versions.diffs',
    statements: ['doc.jobs.values.diff-type-added', 'doc.jobs.values.diff-type-edited', 'doc.jobs.versions.diff-type'],
    description: 'job diffs of the versions list carry an empty Type',
    replace: answered('GET /v1/job/:job_id/versions', (v) => ({
      ...v,
      Diffs: v.Diffs?.map((d: Job) => ({ ...d, Type: '' })) ?? null,
    })),
  }),
  // A tag is read back through what the document gives it for: compared by tag name, or reverted to by TaggedVersion.
  fault('jobs.tag-not-kept', {
    breaks: 'jobs.revert.by-tag',
    statements: ['doc.jobs.versioning.tagged'],
    description: 'a tag is answered but not kept on its version',
    replace: () => ({ tagsKept: false }),
  }),
];
