/**
 * The jobs area's faults on the clauses of "Resources and their fields > Job" (its top-level
 * fields, Constraint, Periodic, ParameterizedJob): each breaks one field the way a vendor's build
 * might, written from the document and the reference alone. A field a client sends is dropped by
 * the scheduler's decoder (it never reaches the stored job, so the read shows the default, if any,
 * in its place); a field the scheduler fills is left out of, or mistyped in, the job read.
 * Gathered, in order, by index.ts.
 */
import { badRequest } from '../errors.js';
import { isObj, type Job } from '../job.js';
import { switchesOf } from '../../switches.js';
import type { SchedulerRules } from '../rules.js';
import { decoderDrops, decoderKeepsFirst, decoding, dropped, onAnswer, without, clause as fault } from './edits.js';

// `fault(name, declaration)` makes an entry of this file's table (edits.ts `clause`); the table is declared once, at its end.
const { fault: declared } = switchesOf<SchedulerRules>(['jobs']);

const JOB = 'GET /v1/job/:job_id';
const READ = 'jobs.read.returns-job';

/** A decoder that refuses a job carrying `field` (an unknown field to a strict decoder). */
const refusing = (field: string, statement: string) =>
  decoding(READ, [statement], `a job carrying ${field} is refused as an unknown field`, (job) => {
    if (job[field] !== undefined && job[field] !== null && job[field] !== '')
      throw badRequest(`unknown field "${field}"`);
  });

/** The job read with `field` of its Periodic (or ParameterizedJob) block left out. */
const blockDrops = (block: 'Periodic' | 'ParameterizedJob', field: string, statement: string) =>
  onAnswer(JOB, READ, [statement], `${JOB} answers the ${block} block without ${field}`, (job) =>
    isObj(job[block]) ? { ...job, [block]: without(job[block], field) } : job,
  );

/** A non-ASCII character of a string, written as the scheduler's latin-1 round trip would leave it. */
const mangled = (s: string) => s.replace(/[^\u0000-\u007f]/g, '?');

export const clauseJobSwitches = [
  // ---- fields a client sends -------------------------------------------------------------------
  // Region as read: one region serves the run, so a submitted Region the scheduler drops comes back as the
  // default, the same value (not observable); a read without it is.
  fault('jobs.read-drops-region', dropped(JOB, 'Region', READ, 'doc.jobs.job.region')),
  fault('jobs.job-name-dropped', decoderDrops('job', 'Name', READ, 'doc.jobs.job.name')),
  fault('jobs.job-all-at-once-dropped', decoderDrops('job', 'AllAtOnce', READ, 'doc.jobs.job.all-at-once')),
  fault('jobs.job-constraints-first-only', decoderKeepsFirst('job', 'Constraints', READ, 'doc.jobs.job.constraints')),
  fault('jobs.job-affinities-dropped', decoderDrops('job', 'Affinities', READ, 'doc.jobs.job.affinities')),
  fault('jobs.job-spreads-first-only', decoderKeepsFirst('job', 'Spreads', READ, 'doc.jobs.job.spreads')),
  fault('jobs.job-update-dropped', decoderDrops('job', 'Update', READ, 'doc.jobs.job.update')),
  fault('jobs.job-multiregion-dropped', decoderDrops('job', 'Multiregion', READ, 'doc.jobs.job.multiregion')),
  fault('jobs.job-migrate-dropped', decoderDrops('job', 'Migrate', READ, 'doc.jobs.job.migrate')),
  fault('jobs.job-reschedule-dropped', decoderDrops('job', 'Reschedule', READ, 'doc.jobs.job.reschedule')),
  fault(
    'jobs.job-secrets-namespace-dropped',
    decoderDrops('job', 'SecretsNamespace', READ, 'doc.jobs.job.secrets-namespace'),
  ),
  fault('jobs.job-secrets-token-refused', refusing('SecretsToken', 'doc.jobs.job.secrets-token')),
  fault('jobs.job-discovery-token-refused', refusing('DiscoveryToken', 'doc.jobs.job.discovery-token')),
  fault(
    'jobs.job-datacenters-first-only',
    decoderKeepsFirst('job', 'Datacenters', READ, 'doc.jobs.job.datacenters-array'),
  ),
  fault(
    'jobs.job-meta-non-ascii-mangled',
    decoding(
      READ,
      ['doc.jobs.job.meta'],
      'job Meta values lose their non-ASCII characters (a latin-1 round trip)',
      (job) => {
        if (isObj(job.Meta))
          for (const [k, v] of Object.entries(job.Meta)) if (typeof v === 'string') job.Meta[k] = mangled(v);
      },
    ),
  ),
  // ---- fields the scheduler fills, as the job read shows them ----------------------------------
  fault('jobs.read-drops-id', dropped(JOB, 'ID', READ, 'doc.jobs.job.id')),
  fault('jobs.read-drops-type', dropped(JOB, 'Type', READ, 'doc.jobs.job.type')),
  fault('jobs.read-drops-task-groups', dropped(JOB, 'TaskGroups', READ, 'doc.jobs.job.task-groups-field')),
  fault('jobs.read-drops-periodic', dropped(JOB, 'Periodic', READ, 'doc.jobs.job.periodic-block')),
  fault(
    'jobs.read-drops-parameterized-job',
    dropped(JOB, 'ParameterizedJob', READ, 'doc.jobs.job.parameterized-block'),
  ),
  fault('jobs.read-drops-payload', dropped(JOB, 'Payload', READ, 'doc.jobs.job.payload')),
  fault('jobs.read-drops-meta', dropped(JOB, 'Meta', READ, 'doc.jobs.job.meta')),
  fault(
    'jobs.read-parent-id-empty',
    onAnswer(
      JOB,
      'jobs.dispatch.child-fields',
      ['doc.jobs.job.parent-id'],
      `${JOB} answers ParentID empty for a dispatched or periodic child`,
      (job) => ({ ...job, ParentID: '' }),
    ),
  ),
  fault(
    'jobs.read-dispatched-false',
    onAnswer(
      JOB,
      'jobs.dispatch.child-fields',
      ['doc.jobs.job.dispatched'],
      `${JOB} answers Dispatched false for a dispatched child`,
      (job) => ({ ...job, Dispatched: false }),
    ),
  ),
  fault(
    'jobs.read-stop-always-false',
    onAnswer(
      JOB,
      'jobs.stop.marks-stopped',
      ['doc.jobs.job.stop'],
      `${JOB} answers Stop false for a stopped job`,
      (job) => ({ ...job, Stop: false }),
    ),
  ),
  fault(
    'jobs.read-create-index-string',
    onAnswer(
      JOB,
      'jobs.types.indexes-integer',
      ['doc.jobs.job.create-index', 'doc.jobs.resources.create-index-integer'],
      `${JOB} answers CreateIndex as a string`,
      (job) => ({ ...job, CreateIndex: String(job.CreateIndex) }),
    ),
  ),
  fault(
    'jobs.read-job-modify-index-string',
    onAnswer(
      JOB,
      'jobs.types.indexes-integer',
      ['doc.jobs.job.job-modify-index', 'doc.jobs.resources.job-modify-index-integer'],
      `${JOB} answers JobModifyIndex as a string`,
      (job) => ({ ...job, JobModifyIndex: String(job.JobModifyIndex) }),
    ),
  ),
  fault(
    'jobs.read-sched-token-id-number',
    onAnswer(JOB, READ, ['doc.jobs.job.sched-token-id'], `${JOB} answers SchedTokenID as a number`, (job) => ({
      ...job,
      SchedTokenID: 0,
    })),
  ),
  fault(
    'jobs.read-constraint-ltarget-dropped',
    onAnswer(
      JOB,
      READ,
      ['doc.jobs.job.constraint-l-target'],
      `${JOB} answers job constraints without LTarget`,
      (job) => ({
        ...job,
        Constraints: job.Constraints?.map((c: Job) => without(c, 'LTarget')) ?? null,
      }),
    ),
  ),
  fault(
    'jobs.read-constraint-rtarget-dropped',
    onAnswer(
      JOB,
      READ,
      ['doc.jobs.job.constraint-r-target'],
      `${JOB} answers job constraints without RTarget`,
      (job) => ({
        ...job,
        Constraints: job.Constraints?.map((c: Job) => without(c, 'RTarget')) ?? null,
      }),
    ),
  ),
  // ---- Periodic and ParameterizedJob -------------------------------------------------------------
  fault('jobs.read-periodic-enabled-dropped', blockDrops('Periodic', 'Enabled', 'doc.jobs.job.periodic-enabled')),
  fault('jobs.read-periodic-spec-dropped', blockDrops('Periodic', 'Spec', 'doc.jobs.job.periodic-spec')),
  fault('jobs.read-periodic-spec-type-dropped', blockDrops('Periodic', 'SpecType', 'doc.jobs.job.periodic-spec-type')),
  fault(
    'jobs.read-parameterized-meta-required-dropped',
    blockDrops('ParameterizedJob', 'MetaRequired', 'doc.jobs.job.parameterized-meta-required'),
  ),
  fault(
    'jobs.read-parameterized-payload-dropped',
    blockDrops('ParameterizedJob', 'Payload', 'doc.jobs.job.parameterized-payload'),
  ),
  // ---- types and values of the state table --------------------------------------------------------
  fault(
    'jobs.service-type-omitted',
    onAnswer(
      JOB,
      'jobs.register.creates-job',
      ['doc.jobs.overview.job-type-service', 'doc.jobs.values.job-type-service'],
      `${JOB} leaves Type out of a service job (the default type)`,
      (job) => (job.Type === 'service' ? without(job, 'Type') : job),
    ),
  ),
  fault(
    'jobs.batch-read-as-service',
    onAnswer(
      JOB,
      'jobs.register.creates-job',
      ['doc.jobs.overview.job-type-batch', 'doc.jobs.values.job-type-batch'],
      `${JOB} answers a batch job with Type service`,
      (job) => (job.Type === 'batch' ? { ...job, Type: 'service' } : job),
    ),
  ),
  fault('jobs.parameterized-block-ignored', {
    breaks: 'jobs.dispatch.creates-child',
    statements: ['doc.jobs.overview.parameterized'],
    description: 'a job is stored without its ParameterizedJob block: a parameterized job becomes a plain batch job',
    replace: (r) => ({ storedJob: (job: Job) => ({ ...r.storedJob(job), ParameterizedJob: null }) }),
  }),
].map(([name, declaration]) => declared(name, declaration));
