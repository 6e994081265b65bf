// size: 20 tests of POST /v1/jobs and what a registration returns (versions, evaluations, paths).
/** Register, update, read, evaluations of a registration (submissions: submission.test.ts). */
import { suite, conformance } from '../../harness/index.js';
import { clientError, bodyAt, jsonContentType, expectThat, expectEqual } from '../../harness/checks/index.js';
import { jobDefinition } from '../../fixtures/jobs/index.js';
import {
  body,
  currentVersion,
  enc,
  readJob,
  refused,
  refusedUnchanged,
  register,
  registered,
  trackJob,
  update,
  waitFor,
  type Obj,
  ok,
  absent,
  showsNoJob,
} from './helpers.js';
import { schedNamespace } from '../../harness/index.js';
import { writeAnswer } from './answers.js';

suite('jobs');

const isIndex = (v: unknown) => Number.isInteger(v) && (v as number) >= 0;

conformance(
  {
    id: 'jobs.register.creates-job',
    also: ['jobs.read.returns-job', 'jobs.namespace.default'],
    level: 'MUST',
    title: 'POST /v1/jobs registers a job that GET /v1/job/:job_id then returns in namespace default',
  },
  async (t) => {
    const id = t.unique('reg');
    const ex = await register(t, jobDefinition('service', id));
    t.check(
      ex,
      bodyAt('/JobModifyIndex', (v: unknown) => isIndex(v) && (v as number) > 0, 'is a positive integer index'),
    );
    const read = await t.sched.get(`job/${enc(id)}`);
    t.check(
      read,
      ok,
      bodyAt('/ID', id),
      bodyAt('/Type', 'service'),
      bodyAt('/TaskGroups/0/Name', 'cache'),
      bodyAt('/TaskGroups/0/Tasks/0/Driver', t.config.sched.runningTask.Driver),
      bodyAt('/JobModifyIndex', body(ex).JobModifyIndex, 'equals the JobModifyIndex of the write response'),
    );
    t.as('jobs.namespace.default').check(read, bodyAt('/Namespace', 'default'));
    // The document says Version is an integer, not where it starts.
    t.as('jobs.read.returns-job').check(read, bodyAt('/Version', Number.isInteger, 'is an integer'));
  },
);

conformance(
  {
    id: 'jobs.content-type.json',
    level: 'MUST',
    title: 'GET /v1/job/:job_id and GET /v1/jobs answer application/json',
  },
  async (t) => {
    const { id } = await registered(t, 'batch', 'ctype');
    t.check(await t.sched.get(`job/${enc(id)}`), ok, jsonContentType);
    t.check(await t.sched.get('jobs', { query: { prefix: id } }), ok, jsonContentType);
  },
);

conformance(
  {
    id: 'jobs.types.durations-ns',
    level: 'MUST',
    title: 'GET /v1/job/:job_id returns durations as the integer nanoseconds registered',
  },
  async (t) => {
    const { id } = await registered(t, 'service', 'dur');
    const job = await readJob(t, id);
    const group = job.TaskGroups[0];
    expectEqual(group.Tasks[0].KillTimeout, 5_000_000_000, 'KillTimeout read back as integer nanoseconds');
    expectEqual(
      group.RestartPolicy.Interval,
      1_800_000_000_000,
      'RestartPolicy.Interval read back as integer nanoseconds',
    );
    expectEqual(group.RestartPolicy.Delay, 15_000_000_000, 'RestartPolicy.Delay read back as integer nanoseconds');
  },
);

conformance(
  {
    id: 'jobs.types.indexes-integer',
    level: 'MUST',
    title: 'GET /v1/job/:job_id returns CreateIndex, ModifyIndex and JobModifyIndex as integers',
  },
  async (t) => {
    const { id } = await registered(t, 'batch', 'idx');
    const read = await t.sched.get(`job/${enc(id)}`);
    for (const f of ['CreateIndex', 'ModifyIndex', 'JobModifyIndex'])
      t.check(read, bodyAt(`/${f}`, isIndex, 'is a non-negative integer'));
  },
);

conformance(
  { id: 'jobs.register.job-required', level: 'MUST', title: 'POST /v1/jobs without Job is refused' },
  async (t) => {
    refused(
      t,
      await t.sched.post('jobs', { body: { EnforceIndex: false }, validate: false }),
      'POST /v1/jobs without Job',
    );
  },
);

conformance(
  {
    id: 'jobs.register.job-required',
    level: 'MUST',
    title: 'POST /v1/job/:job_id without Job is refused and leaves the job as it was',
  },
  async (t) => {
    const { id } = await registered(t, 'batch', 'nojob');
    await refusedUnchanged(t, id, 'POST /v1/job/:job_id without Job', () =>
      t.sched.post(`job/${enc(id)}`, { body: { EnforceIndex: false }, validate: false }),
    );
  },
);

conformance(
  {
    id: 'jobs.errors.rejections-4xx',
    level: 'MUST',
    title: 'POST /v1/job/:job_id/dispatch of a job that is not parameterized is refused with a 4xx',
  },
  async (t) => {
    // The 4xx the catalogue asks of a refusal of the document's rules, on its own (refused()
    // applies it to every other refusal): a target that refuses with 500 switches it off.
    const { id } = await registered(t, 'batch', 'rej4xx');
    t.check(await t.sched.post(`job/${enc(id)}/dispatch`, { body: { Meta: { tenant: 'a' } } }), clientError);
  },
);

conformance(
  {
    id: 'jobs.read.unknown-404',
    // The 4xx of an unknown job is this assumption's; jobs.errors.rejections-4xx (switched off
    // for a scheduler that refuses rule violations with 500) is not named, so it does not skip this.
    also: ['jobs.errors.body-json-or-text'],
    level: 'MUST',
    title: 'GET /v1/job/:job_id of an unknown job answers 4xx with a JSON or text body',
  },
  async (t) => {
    const ex = await t.sched.get(`job/${enc(t.unique('missing'))}`);
    t.check(ex, clientError);
    const ok =
      typeof ex.response.body === 'string' || (typeof ex.response.body === 'object' && ex.response.body !== null);
    expectThat(ok, 'error-body', ex.response.body, 'JSON or text', 'the error body is JSON or text');
  },
);

conformance(
  {
    id: 'jobs.register.eval-created',
    level: 'MUST',
    title: 'POST /v1/jobs answers EvalID of an evaluation listed by GET /v1/job/:job_id/evaluations',
  },
  async (t) => {
    const { id, ex } = await registered(t, 'service', 'eval');
    const evalId = body(ex).EvalID as string;
    expectThat(
      typeof evalId === 'string' && evalId.length > 0,
      'eval',
      evalId,
      'non-empty EvalID',
      'a registration creates an evaluation and names it',
    );
    t.check(
      ex,
      bodyAt('/EvalCreateIndex', (v: unknown) => isIndex(v) && (v as number) > 0, 'is a positive index'),
    );
    const evals = await t.sched.get(`job/${enc(id)}/evaluations`);
    t.check(evals, ok);
    const found = body<Obj[]>(evals).find((e) => e.ID === evalId);
    expectThat(
      !!found,
      'eval',
      body<Obj[]>(evals).map((e) => e.ID),
      evalId,
      'the evaluation of the write response is listed for the job',
    );
    // TriggeredBy is named "for example `job-register`": any trigger the scheduler names will do.
    expectThat(
      typeof found!.TriggeredBy === 'string' && found!.TriggeredBy.length > 0,
      'eval',
      found!.TriggeredBy,
      'a non-empty TriggeredBy',
      'the evaluation names what triggered it',
    );
    expectEqual(found!.JobID, id, 'JobID of the evaluation');
  },
);

conformance(
  {
    id: 'jobs.evaluations.list',
    level: 'MUST',
    title: 'GET /v1/job/:job_id/evaluations lists only evaluations of that job',
  },
  async (t) => {
    const { id } = await registered(t, 'batch', 'evl');
    const evals = await t.sched.get(`job/${enc(id)}/evaluations`);
    t.check(evals, ok);
    const list = body<Obj[]>(evals);
    expectThat(list.length >= 1, 'evaluations', list.length, '>= 1', 'a registered job has at least one evaluation');
    expectThat(
      list.every((e) => e.JobID === id),
      'evaluations',
      list.map((e) => e.JobID),
      id,
      'every evaluation belongs to the job',
    );
  },
);

conformance(
  {
    id: 'jobs.register.eval-priority',
    level: 'MUST',
    title: 'POST /v1/jobs with EvalPriority sets the evaluation priority; without it the job priority is used',
  },
  async (t) => {
    const a = jobDefinition('batch', t.unique('evp'));
    const exA = await register(t, a, { extra: { EvalPriority: 90 } });
    const b = jobDefinition('batch', t.unique('evp'));
    const exB = await register(t, b);
    const prio = async (id: string, evalId: string) =>
      body<Obj[]>(await t.sched.get(`job/${enc(id)}/evaluations`)).find((e) => e.ID === evalId)?.Priority;
    expectEqual(await prio(String(a.ID), body(exA).EvalID), 90, 'evaluation priority with EvalPriority 90');
    expectEqual(
      await prio(String(b.ID), body(exB).EvalID),
      40,
      'evaluation priority defaults to the job priority (40)',
    );
  },
);

conformance(
  {
    id: 'jobs.register.enforce-index',
    level: 'MUST',
    title: 'POST /v1/jobs with EnforceIndex registers only when JobModifyIndex matches (0 = only a new job)',
  },
  async (t) => {
    const id = t.unique('cas');
    const job = jobDefinition('batch', id);
    await register(t, job, { extra: { EnforceIndex: true, JobModifyIndex: 0 } });
    const index = (await readJob(t, id)).JobModifyIndex as number;
    await refusedUnchanged(t, id, 'EnforceIndex with JobModifyIndex 0 for an existing job', () =>
      t.sched.post('jobs', { body: { Job: { ...job, Priority: 41 }, EnforceIndex: true, JobModifyIndex: 0 } }),
    );
    // JobModifyIndex defaults to 0: EnforceIndex alone is the same check-and-set as index 0.
    await refusedUnchanged(t, id, 'EnforceIndex without JobModifyIndex for an existing job', () =>
      t.sched.post('jobs', { body: { Job: { ...job, Priority: 41 }, EnforceIndex: true } }),
    );
    await refusedUnchanged(t, id, 'EnforceIndex with a JobModifyIndex that is not the current one', () =>
      t.sched.post('jobs', {
        body: { Job: { ...job, Priority: 42 }, EnforceIndex: true, JobModifyIndex: index + 1000 },
      }),
    );
    expectEqual((await readJob(t, id)).Priority, 40, 'refused registrations left the job unchanged');
    t.check(
      await t.sched.post('jobs', {
        body: { Job: { ...job, Priority: 43 }, EnforceIndex: true, JobModifyIndex: index },
      }),
      ok,
    );
    expectEqual((await readJob(t, id)).Priority, 43, 'the registration with the current index was applied');
    // The same check-and-set on the update path (POST /v1/job/:job_id).
    await refusedUnchanged(t, id, 'POST /v1/job/:job_id with EnforceIndex and a stale JobModifyIndex', () =>
      update(t, { ...job, Priority: 42 }, { EnforceIndex: true, JobModifyIndex: index }),
    );
    // EnforceIndex defaults to false: a stale JobModifyIndex alone enforces nothing.
    t.check(await t.sched.post('jobs', { body: { Job: { ...job, Priority: 44 }, JobModifyIndex: index + 1000 } }), ok);
    expectEqual((await readJob(t, id)).Priority, 44, 'without EnforceIndex the stale JobModifyIndex was not enforced');
    // A new job has no current index to match: only index 0 registers it.
    const unknown = jobDefinition('batch', t.unique('cas'));
    trackJob(t, String(unknown.ID));
    await refusedUnchanged(t, String(unknown.ID), 'EnforceIndex with a non-zero JobModifyIndex for a new job', () =>
      t.sched.post('jobs', { body: { Job: unknown, EnforceIndex: true, JobModifyIndex: index } }),
    );
    const fresh = jobDefinition('batch', t.unique('cas'));
    t.check(await register(t, fresh, { extra: { EnforceIndex: true } }), ok);
  },
);

conformance(
  {
    id: 'jobs.update.bumps-version',
    also: ['jobs.update.path-job-id', 'jobs.index.monotonic'],
    level: 'MUST',
    title:
      'POST /v1/job/:job_id with a changed definition creates a higher integer version with a higher JobModifyIndex',
  },
  async (t) => {
    const { id, job, ex } = await registered(t, 'service', 'upd');
    const before = await readJob(t, id);
    const changed = structuredClone(job);
    changed.TaskGroups![0]!.Tasks![0]!.Env = { MODE: 'secondary' };
    const ex2 = await update(t, changed);
    // A write response; the changed service job is evaluated.
    t.as('jobs.update.path-job-id').check(ex2, ok, ...writeAnswer({ evaluation: true }));
    t.check(
      ex2,
      bodyAt(
        '/JobModifyIndex',
        (v: unknown) => (v as number) > body(ex).JobModifyIndex,
        "is higher than the first registration's",
      ),
    );
    const after = await readJob(t, id);
    // The document says Version is an integer; a change makes a new one, so it grows (by how much is not said).
    expectThat(
      Number.isInteger(before.Version) && Number.isInteger(after.Version) && after.Version > before.Version,
      'version',
      after.Version,
      `an integer > ${JSON.stringify(before.Version)}`,
      'the changed definition is a new, higher integer Version',
    );
    t.proving('jobs.update.path-job-id', () =>
      expectEqual(after.TaskGroups[0].Tasks[0].Env, { MODE: 'secondary' }, 'the update was applied'),
    );
    t.proving('jobs.index.monotonic', () =>
      expectThat(
        after.ModifyIndex > before.ModifyIndex,
        'index',
        after.ModifyIndex,
        `> ${before.ModifyIndex}`,
        'ModifyIndex grows with each write',
      ),
    );
  },
);

conformance(
  {
    id: 'jobs.update.unchanged-keeps-version',
    level: 'SHOULD',
    title: 'POST /v1/job/:job_id with an identical definition keeps the version',
  },
  async (t) => {
    const { id, job } = await registered(t, 'batch', 'same');
    const before = await currentVersion(t, id);
    t.check(await update(t, job), ok);
    expectEqual(await currentVersion(t, id), before, 'Version after registering the same definition again');
  },
);

conformance(
  {
    id: 'jobs.register.preserve-counts',
    level: 'MUST',
    title: 'POST /v1/jobs with PreserveCounts keeps the existing group count',
  },
  async (t) => {
    const { id, job } = await registered(t, 'service', 'keep');
    const bigger = structuredClone(job);
    bigger.TaskGroups![0]!.Count = 4;
    bigger.Meta = { team: 'changed' };
    t.check(await t.sched.post('jobs', { body: { Job: bigger, PreserveCounts: true } }), ok);
    const read = await readJob(t, id);
    expectEqual(read.Meta, { team: 'changed' }, 'the rest of the update was applied');
    expectEqual(read.TaskGroups[0].Count, 1, 'the group count was preserved');
    t.check(await t.sched.post('jobs', { body: { Job: bigger } }), ok);
    expectEqual((await readJob(t, id)).TaskGroups[0].Count, 4, 'without PreserveCounts the new count applies');
    bigger.TaskGroups![0]!.Count = 5;
    t.check(await t.sched.post('jobs', { body: { Job: bigger, PreserveCounts: false } }), ok);
    expectEqual((await readJob(t, id)).TaskGroups[0].Count, 5, 'with PreserveCounts false the new count applies');
  },
);

conformance(
  {
    id: 'jobs.namespace.isolation',
    level: 'MUST',
    title: 'GET /v1/job/:job_id finds a job only in the namespace it was registered in',
  },
  async (t) => {
    const ns = await schedNamespace(t);
    const id = t.unique('nsjob');
    trackJob(t, id, ns);
    const ex = await t.sched.post('jobs', {
      body: { Job: jobDefinition('batch', id, { Namespace: ns }) },
      query: { namespace: ns },
    });
    t.check(ex, ok);
    t.check(await t.sched.get(`job/${enc(id)}`, { query: { namespace: ns } }), ok, bodyAt('/Namespace', ns));
    t.check(await t.sched.get(`job/${enc(id)}`), clientError);
  },
);

conformance(
  {
    id: 'jobs.gc.stopped-job-deregistered',
    level: 'MUST',
    title: 'a stopped job stays until garbage collection (PUT /v1/system/gc) removes it',
    sequential: 'forces a garbage collection of every stopped job (and moves the scheduler clock)',
  },
  async (t) => {
    const { id } = await registered(t, 'batch', 'gc');
    t.check(await t.sched.delete(`job/${enc(id)}`), ok);
    expectEqual((await readJob(t, id)).Stop, true, 'the stopped job is still readable before garbage collection');
    await t.advance(10);
    const gc = await t.sched.put('system/gc', { validate: false });
    if (gc.response.status === 404 || gc.response.status === 405)
      t.skip('the target has no forced garbage collection endpoint PUT /v1/system/gc');
    t.check(gc, ok);
    // A forced collection may only be queued: the job is gone once the collector ran (polled). A
    // collection takes only what is collectable when it runs, and the stopped job's allocations
    // end after the stop answered (a real task is killed, within its KillTimeout): the collection
    // is forced again, at most once a second, while the job is still there.
    let forcedAt = Date.now();
    await waitFor(
      'garbage collection removes the stopped job',
      async () => {
        if (Date.now() - forcedAt >= 1000) {
          forcedAt = Date.now();
          t.check(await t.sched.put('system/gc', { validate: false }), ok);
        }
        return t.sched.get(`job/${enc(id)}`);
      },
      (ex) => showsNoJob(ex, id),
    );
    await absent(t, id, 'the collected job');
  },
);

conformance(
  {
    id: 'jobs.update.path-job-id',
    level: 'MUST',
    title: 'POST /v1/job/:job_id with the Job of another ID never registers that other job',
  },
  async (t) => {
    const { id, job } = await registered(t, 'batch', 'path');
    const other = t.unique('path-other');
    trackJob(t, other);
    const ex = await t.sched.post(`job/${enc(id)}`, { body: { Job: { ...job, ID: other, Name: other } } });
    // The path names the job updated: a mismatch may be refused or applied to the path's job, but
    // the body's job must not come into being under its own ID.
    const read = await t.sched.get(`job/${enc(other)}`);
    expectThat(
      !(read.response.status === 200 && body(read)?.ID === other),
      'path',
      { update: ex.response.status, read: read.response.status },
      `no job ${other}`,
      `POST /v1/job/${id} registered no job ${other}`,
    );
  },
);

conformance(
  {
    id: 'jobs.update.path-job-id',
    level: 'MUST',
    title:
      'POST /v1/job/:job_id registers the Job of the body; a field it leaves out is not kept from the version before (assumption)',
  },
  async (t) => {
    const { id, job } = await registered(t, 'service', 'replace');
    expectEqual((await readJob(t, id)).Meta, { team: 'cache' }, 'the Meta of the first version');
    const { Meta: _, ...withoutMeta } = job;
    t.check(await update(t, { ...withoutMeta, Priority: 55 }), ok);
    const read = await readJob(t, id);
    expectEqual(read.Priority, 55, 'the update was applied');
    // What becomes of a field the new definition leaves out is not said: the open point only.
    t.assuming('jobs.update.replaces-definition', () =>
      expectThat(
        read.Meta === undefined || read.Meta === null || Object.keys(read.Meta as Obj).length === 0,
        'update',
        read.Meta,
        'no Meta',
        'the job read after an update without Meta holds no Meta (the update replaces, never merges)',
      ),
    );
  },
);
