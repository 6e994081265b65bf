// size: 19 tests of POST /v1/jobs and what a registration returns (versions, evaluations, submissions).
/** Register, update, read, evaluations of a registration, submissions. */
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
    id: 'jobs.read.unknown-404',
    also: ['jobs.errors.rejections-4xx', 'jobs.errors.body-json-or-text'],
    level: 'MUST',
    title: 'GET /v1/job/:job_id of an unknown job answers 4xx with a JSON or text body',
  },
  async (t) => {
    const ex = await t.sched.get(`job/${enc(t.unique('missing'))}`);
    t.check(ex, clientError);
    const ok =
      typeof ex.response.body === 'string' || (typeof ex.response.body === 'object' && ex.response.body !== null);
    expectThat(ok, 'error-body', 'the error body is JSON or text', 'JSON or text', ex.response.body);
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
      'a registration creates an evaluation and names it',
      'non-empty EvalID',
      evalId,
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
      'the evaluation of the write response is listed for the job',
      evalId,
      body<Obj[]>(evals).map((e) => e.ID),
    );
    // `job-register` is the document's example of TriggeredBy, not a rule: any non-empty reason.
    expectThat(
      typeof found!.TriggeredBy === 'string' && found!.TriggeredBy !== '',
      'eval',
      'TriggeredBy of a registration evaluation names what triggered it (for example job-register)',
      'a non-empty string',
      found!.TriggeredBy,
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
    expectThat(list.length >= 1, 'evaluations', 'a registered job has at least one evaluation', '>= 1', list.length);
    expectThat(
      list.every((e) => e.JobID === id),
      'evaluations',
      'every evaluation belongs to the job',
      id,
      list.map((e) => e.JobID),
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
    const first = await register(t, job, { extra: { EnforceIndex: true, JobModifyIndex: 0 } });
    const index = body(first).JobModifyIndex as number;
    await refusedUnchanged(t, id, 'EnforceIndex with JobModifyIndex 0 for an existing job', () =>
      t.sched.post('jobs', { body: { Job: { ...job, Priority: 41 }, EnforceIndex: true, JobModifyIndex: 0 } }),
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
    t.as('jobs.update.path-job-id').check(ex2, ok);
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
      'the changed definition is a new, higher integer Version',
      `an integer > ${JSON.stringify(before.Version)}`,
      after.Version,
    );
    t.proving('jobs.update.path-job-id', () =>
      expectEqual(after.TaskGroups[0].Tasks[0].Env, { MODE: 'secondary' }, 'the update was applied'),
    );
    t.proving('jobs.index.monotonic', () =>
      expectThat(
        after.ModifyIndex > before.ModifyIndex,
        'index',
        'ModifyIndex grows with each write',
        `> ${before.ModifyIndex}`,
        after.ModifyIndex,
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
  },
);

conformance(
  {
    id: 'jobs.submission.read',
    also: ['jobs.register.submission-reference-only'],
    level: 'MUST',
    title:
      'GET /v1/job/:job_id/submission?version=0 returns the source sent with the job, which does not drive scheduling',
  },
  async (t) => {
    const id = t.unique('sub');
    const source = `job "${id}" {\n  group "work" {\n    count = 7\n  }\n}\n`;
    await register(t, jobDefinition('batch', id), {
      extra: { Submission: { Source: source, Format: 'hcl2', VariableFlags: { X: 'x' }, Variables: '' } },
    });
    const version = await currentVersion(t, id);
    const sub = await t.sched.get(`job/${enc(id)}/submission`, { query: { version } });
    t.check(
      sub,
      ok,
      bodyAt('/Source', source),
      bodyAt('/Format', 'hcl2'),
      bodyAt('/Version', version),
      bodyAt('/JobID', id),
      bodyAt('/VariableFlags', { X: 'x' }),
    );
    expectEqual(
      (await readJob(t, id)).TaskGroups[0].Count,
      1,
      'the job runs its JSON definition, not the submitted source (count 7)',
    );
  },
);

conformance(
  {
    id: 'jobs.submission.version-required',
    level: 'MUST',
    title: 'GET /v1/job/:job_id/submission without version is refused',
  },
  async (t) => {
    const id = t.unique('subv');
    await register(t, jobDefinition('batch', id), { extra: { Submission: { Source: '# source', Format: 'hcl2' } } });
    t.check(
      await t.sched.get(`job/${enc(id)}/submission`, { query: { version: await currentVersion(t, id) } }),
      ok,
      bodyAt('/Source', '# source'),
    );
    refused(t, await t.sched.get(`job/${enc(id)}/submission`, { validate: false }), 'GET submission without version');
  },
);

/** No submission: a refusal (4xx, or any non-2xx where rejections-4xx is off), or 200 with nothing in it. */
function noSubmission(ex: { response: { status: number; body: unknown } }): boolean {
  if (ex.response.status >= 400 && ex.response.status < 600) return true;
  const b = ex.response.body as Obj | null | string;
  return (
    ex.response.status >= 200 &&
    ex.response.status < 300 &&
    (b === null || b === '' || (typeof b === 'object' && !b.Source))
  );
}

conformance(
  {
    id: 'jobs.submission.absent-when-not-supplied',
    level: 'MUST',
    title: 'GET /v1/job/:job_id/submission of a version registered without Submission has no data',
  },
  async (t) => {
    const id = t.unique('nosub');
    const job = jobDefinition('batch', id);
    await register(t, job, { extra: { Submission: { Source: '# first version', Format: 'hcl2' } } });
    const first = await currentVersion(t, id);
    t.check(await update(t, { ...job, Priority: 45 }), ok);
    const second = await currentVersion(t, id);
    expectThat(second !== first, 'version', 'the update made a new version', `not ${first}`, second);
    const ex = await t.sched.get(`job/${enc(id)}/submission`, { query: { version: second } });
    expectThat(
      noSubmission(ex),
      'submission',
      'no submission data for the second version, registered without one (not the source of the first)',
      '4xx or an empty answer',
      { status: ex.response.status, body: ex.response.body },
    );
  },
);

conformance(
  {
    id: 'jobs.submission.keep-last-6',
    level: 'MUST',
    title: 'GET /v1/job/:job_id/submission keeps only the 6 most recent sources',
  },
  async (t) => {
    const id = t.unique('six');
    const job = jobDefinition('batch', id);
    // The Version each registration made, as read back (the document gives no numbering).
    const versions: number[] = [];
    for (let n = 0; n < 8; n++) {
      const ex = await t.sched.post('jobs', {
        body: { Job: { ...job, Meta: { v: String(n) } }, Submission: { Source: `# source ${n}`, Format: 'hcl2' } },
      });
      if (n === 0)
        t.track(`job ${id}`, () => t.sched.delete(`job/${enc(id)}`, { query: { purge: true }, validate: false }));
      t.check(ex, ok);
      versions.push(await currentVersion(t, id));
    }
    expectEqual(new Set(versions).size, 8, 'eight changed registrations made eight versions');
    for (const n of [0, 1]) {
      const ex = await t.sched.get(`job/${enc(id)}/submission`, { query: { version: versions[n] } });
      expectThat(
        noSubmission(ex),
        'submission',
        `the source of registration ${n + 1} is older than the 6 kept sources`,
        'no submission',
        ex.response.body,
      );
    }
    for (const n of [2, 7]) {
      t.check(
        await t.sched.get(`job/${enc(id)}/submission`, { query: { version: versions[n] } }),
        ok,
        bodyAt('/Source', `# source ${n}`),
      );
    }
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
    // A forced collection may only be queued: the job is gone once the collector ran (polled).
    await waitFor(
      'garbage collection removes the stopped job',
      async () => t.sched.get(`job/${enc(id)}`),
      (ex) => showsNoJob(ex, id),
    );
    await absent(t, id, 'the collected job');
  },
);
