// size: the read-back of every resource the document lists (job, summary with children, submission, write response, query meta), each test making the object it reads.
/**
 * The resources of the jobs document and their fields, read back: a job definition with every
 * sub-structure the document lists, the job types, a periodic job, the job summary with its
 * children, a json submission, the write response and the query meta of versions and tags.
 */
import { suite, conformance, type T } from '../../harness/index.js';
import { bodyAt, expectThat, expectEqual } from '../../harness/checks/index.js';
import { jobDefinition } from '../../fixtures/jobs/index.js';
import {
  body,
  currentVersion,
  enc,
  expectContains,
  missingFields,
  ok,
  readJob,
  register,
  registered,
  showsNoJob,
  trackJob,
  update,
  waitFor,
  type Obj,
} from './helpers.js';

suite('jobs');

const isInt = (v: unknown) => Number.isInteger(v);
const isIndex = (v: unknown) => Number.isInteger(v) && (v as number) >= 0;
/** Absent, null or empty: what a field that holds nothing may read as. */
const isEmpty = (v: unknown) => v === undefined || v === null || v === '' || v === 0;

/** Nanoseconds since the epoch of a wall-clock millisecond time. */
const ns = (ms: number) => ms * 1_000_000;

conformance(
  {
    id: 'jobs.read.returns-job',
    level: 'MUST',
    title:
      'GET /v1/job/:job_id returns the definition registered: top-level fields, constraints, affinities, task groups and tasks as sent',
  },
  async (t) => {
    const id = t.unique('full');
    // Placed nowhere (datacenter cf-nowhere): only the stored definition matters here.
    const job = jobDefinition('everything', id);
    const before = Date.now();
    await register(t, job);
    const read = await t.sched.get(`job/${enc(id)}`);
    t.check(read, ok);
    const got = body(read);
    // Every field that differs is named (checked last, so the checks below run whatever differs).
    const differing = missingFields(got, job);
    // The path names the job by its ID: a prefix of it is another, unknown ID.
    const prefix = await t.sched.get(`job/${enc(id.slice(0, -1))}`);
    expectThat(
      showsNoJob(prefix, id),
      'job_id',
      { status: prefix.response.status, ID: (prefix.response.body as Obj | null | undefined)?.ID },
      'a refusal or another job',
      'GET /v1/job/:job_id with a prefix of the ID does not answer the job',
    );
    t.check(
      read,
      bodyAt('/Datacenters', ['cf-nowhere'], 'is the array of datacenters sent'),
      bodyAt('/Priority', 45, 'is the integer priority sent'),
      bodyAt('/Status', (v: unknown) => typeof v === 'string' && v !== '', 'is a status'),
      // A false flag holds nothing: absent, or false (the document lists the field, not that an
      // empty one is sent).
      bodyAt('/Stop', (v: unknown) => v === undefined || v === false, 'is false (or absent) for a job not stopped'),
      bodyAt('/Stable', (v: unknown) => v === undefined || typeof v === 'boolean', 'is a boolean (or absent)'),
      bodyAt('/Version', isInt, 'is an integer'),
      bodyAt('/ParentID', isEmpty, 'is empty for a job without a parent'),
      // Fields the scheduler fills and may leave empty: of their type where shown.
      bodyAt('/StatusDescription', (v: unknown) => v === undefined || typeof v === 'string', 'is a string (or absent)'),
      bodyAt('/SchedTokenID', (v: unknown) => v === undefined || typeof v === 'string', 'is a string (or absent)'),
    );
    for (const f of ['CreateIndex', 'ModifyIndex', 'JobModifyIndex'])
      t.check(read, bodyAt(`/${f}`, isIndex, 'is an index'));
    // The scheduler's clock may run ahead of the wall clock (a test scheduler's simulated time): no upper bound.
    t.check(
      read,
      bodyAt(
        '/SubmitTime',
        (v: unknown) => isInt(v) && (v as number) >= ns(before - 60_000),
        'is integer nanoseconds since the epoch, not before the registration',
      ),
    );
    const submitted = got.SubmitTime as number;
    const changed = jobDefinition('everything', id, { Meta: { owner: 'conformance', tier: 'changed' } });
    t.check(await update(t, changed), ok);
    const again = await readJob(t, id);
    expectThat(
      again.SubmitTime >= submitted && again.Version > got.Version,
      'submit-time',
      again.SubmitTime,
      `>= ${submitted}`,
      'a new version of the job has its own SubmitTime, not earlier than the first',
    );
    expectEqual(differing, [], 'the job read back holds every field sent (where it differs: sent, read)');
  },
);

conformance(
  {
    id: 'jobs.read.returns-job',
    level: 'MUST',
    title: 'GET /v1/job/:job_id of a periodic job returns its Periodic block: Enabled, Spec, SpecType, ProhibitOverlap',
  },
  async (t) => {
    const { id, job } = await registered(t, 'periodic', 'perread');
    const got = await readJob(t, id);
    expectContains(got.Periodic, job.Periodic, 'the Periodic block read back');
  },
);

conformance(
  {
    id: 'jobs.read.returns-job',
    level: 'MUST',
    title:
      "GET /v1/job/:job_id of a parameterized job returns its ParameterizedJob block and the task's DispatchPayload",
  },
  async (t) => {
    const { id, job } = await registered(t, 'parameterized', 'parread');
    const got = await readJob(t, id);
    expectContains(got.ParameterizedJob, job.ParameterizedJob, 'the ParameterizedJob block read back');
    expectContains(
      got.TaskGroups?.[0]?.Tasks?.[0]?.DispatchPayload,
      job.TaskGroups![0]!.Tasks![0]!.DispatchPayload,
      "the task's DispatchPayload read back",
    );
  },
);

conformance(
  {
    id: 'jobs.register.creates-job',
    level: 'MUST',
    title: 'POST /v1/jobs of a sysbatch job answers a write response; the job reads back as Type sysbatch',
  },
  async (t) => {
    const id = t.unique('sysb');
    const ex = await register(t, jobDefinition('sysbatch', id));
    t.check(
      ex,
      bodyAt('/JobModifyIndex', isIndex, 'is an index'),
      bodyAt('/Index', isIndex, 'is an index'),
      bodyAt('/Warnings', (v: unknown) => typeof v === 'string', 'is a string'),
      bodyAt('/LastContact', isInt, 'is an integer'),
      bodyAt('/KnownLeader', (v: unknown) => typeof v === 'boolean', 'is a boolean'),
    );
    t.check(await t.sched.get(`job/${enc(id)}`), ok, bodyAt('/Type', 'sysbatch'), bodyAt('/ID', id));
  },
);

conformance(
  {
    id: 'jobs.register.creates-job',
    level: 'MUST',
    title: 'POST /v1/jobs of a batch job registers it; the job reads back as Type batch',
  },
  async (t) => {
    const { id } = await registered(t, 'batch', 'btype', { Datacenters: ['cf-nowhere'] });
    t.check(await t.sched.get(`job/${enc(id)}`), ok, bodyAt('/Type', 'batch'), bodyAt('/ID', id));
  },
);

/** The evaluations of a job, read once. */
const evaluationsOf = async (t: T, id: string) => {
  const ex = await t.sched.get(`job/${enc(id)}/evaluations`);
  t.check(ex, ok);
  return body<Obj[]>(ex) ?? [];
};

conformance(
  {
    id: 'jobs.register.eval-created',
    level: 'MUST',
    title:
      'Write responses name an evaluation of the job when they create one, and none when they do not (a parameterized job, a stability flag)',
  },
  async (t) => {
    // A parameterized job is not evaluated until it is dispatched.
    const param = await registered(t, 'parameterized', 'evnone');
    expectThat(
      isEmpty(body(param.ex).EvalID) && isEmpty(body(param.ex).EvalCreateIndex),
      'eval',
      { EvalID: body(param.ex).EvalID, EvalCreateIndex: body(param.ex).EvalCreateIndex },
      'absent or empty',
      'registering a parameterized job creates no evaluation: EvalID and EvalCreateIndex are absent or empty',
    );
    expectEqual(await evaluationsOf(t, param.id), [], 'the parameterized job has no evaluation');
    const { id, job } = await registered(t, 'service', 'evwrite');
    const changed = structuredClone(job);
    changed.TaskGroups![0]!.Tasks![0]!.Env = { MODE: 'secondary' };
    const writes: [string, Obj][] = [
      ['POST /v1/job/:job_id', body(await update(t, changed))],
      ['DELETE /v1/job/:job_id', body(await t.sched.delete(`job/${enc(id)}`))],
    ];
    const listed = (await evaluationsOf(t, id)).map((e) => e.ID as string);
    for (const [what, answer] of writes) {
      expectThat(
        typeof answer.EvalID === 'string' && listed.includes(answer.EvalID),
        'eval',
        answer.EvalID,
        listed,
        `${what} creates an evaluation: its EvalID is one of the job's evaluations`,
      );
      expectThat(
        isIndex(answer.EvalCreateIndex) && answer.EvalCreateIndex > 0,
        'eval',
        answer.EvalCreateIndex,
        'a positive index',
        `${what}: EvalCreateIndex`,
      );
    }
    const stable = await t.sched.post(`job/${enc(id)}/stable`, {
      body: { JobID: id, JobVersion: await currentVersion(t, id), Stable: true },
    });
    t.check(stable, ok);
    expectThat(
      isEmpty(body(stable).EvalID),
      'eval',
      body(stable).EvalID,
      'absent or empty',
      'marking a version stable creates no evaluation: no EvalID',
    );
    expectEqual(
      (await evaluationsOf(t, id)).map((e) => e.ID as string).sort(),
      [...listed].sort(),
      'marking a version stable added no evaluation',
    );
  },
);

conformance(
  {
    id: 'jobs.summary.read',
    level: 'MUST',
    title:
      'GET /v1/job/:job_id/summary of a parameterized job has JobID, Namespace, indexes and counts its children: one pending, one dead',
  },
  async (t) => {
    // Placed nowhere: a dispatched child stays pending; the one stopped is dead.
    const { id } = await registered(t, 'parameterized', 'sumkids', { Datacenters: ['cf-nowhere'] });
    const kids: string[] = [];
    for (const tenant of ['a', 'b']) {
      const ex = await t.sched.post(`job/${enc(id)}/dispatch`, { body: { Meta: { tenant } } });
      const child = body(ex)?.DispatchedJobID;
      if (typeof child === 'string' && child) trackJob(t, child);
      t.check(ex, ok);
      kids.push(String(child));
    }
    t.check(await t.sched.delete(`job/${enc(kids[1]!)}`), ok);
    const summary = await t.sched.get(`job/${enc(id)}/summary`);
    t.check(
      summary,
      ok,
      bodyAt('/JobID', id),
      bodyAt('/Namespace', 'default'),
      bodyAt('/CreateIndex', isIndex, 'is an index'),
      bodyAt('/ModifyIndex', isIndex, 'is an index'),
    );
    const children = body(summary).Children as Obj | null;
    const counts = ['Pending', 'Running', 'Dead'].map((k) => children?.[k]);
    expectThat(
      counts.every(isInt) && counts.reduce((a, b) => a + b, 0) === 2,
      'children',
      children,
      'integers adding up to 2',
      'Children counts the two dispatched jobs as Pending, Running or Dead',
    );
    // Each counter told apart: the child never placed is pending, the stopped one dead (polled: a
    // summary is the scheduler's work after the writes).
    const settled = await waitFor(
      'the summary counts the stopped child',
      async () => body(await t.sched.get(`job/${enc(id)}/summary`)).Children as Obj | null,
      (c) => Number(c?.Dead ?? 0) + Number(c?.Running ?? 0) >= 1,
    );
    expectEqual(
      { Pending: settled?.Pending, Running: settled?.Running, Dead: settled?.Dead },
      { Pending: 1, Running: 0, Dead: 1 },
      'Children of a parent with a child never placed and a stopped one',
    );
  },
);

conformance(
  {
    id: 'jobs.submission.read',
    level: 'MUST',
    title:
      'GET /v1/job/:job_id/submission returns a json source with its Variables, JobIndex and Namespace as submitted',
  },
  async (t) => {
    const id = t.unique('subjson');
    const source = JSON.stringify({ Job: { ID: id, TaskGroups: [{ Name: 'work', Count: 3 }] } });
    const ex = await register(t, jobDefinition('batch', id), {
      extra: { Submission: { Source: source, Format: 'json', Variables: 'region = "eu"\n', VariableFlags: {} } },
    });
    const version = await currentVersion(t, id);
    const sub = await t.sched.get(`job/${enc(id)}/submission`, { query: { version } });
    t.check(
      sub,
      ok,
      bodyAt('/Format', 'json'),
      bodyAt('/Source', source),
      bodyAt('/Variables', 'region = "eu"\n'),
      bodyAt('/JobID', id),
      bodyAt('/Namespace', 'default'),
      bodyAt('/Version', version),
      bodyAt('/JobIndex', isIndex, 'is an index'),
    );
    expectThat(
      body(sub).JobIndex <= body(ex).JobModifyIndex,
      'submission',
      body(sub).JobIndex,
      `<= ${body(ex).JobModifyIndex}`,
      'JobIndex is an index of the job when the source was submitted, not a later one',
    );
  },
);

/** Query meta of a versions or tag answer: Index, LastContact, KnownLeader, NextToken. */
const queryMeta = [
  bodyAt('/Index', isIndex, 'is an index'),
  bodyAt('/LastContact', isInt, 'is an integer'),
  bodyAt('/KnownLeader', (v: unknown) => typeof v === 'boolean', 'is a boolean'),
  // No next page: the token holds nothing, and may be left out.
  bodyAt('/NextToken', (v: unknown) => v === undefined || typeof v === 'string', 'is a string (or absent)'),
];

conformance(
  {
    id: 'jobs.versions.list',
    level: 'MUST',
    title: 'GET /v1/job/:job_id/versions answers its query meta: Index, LastContact, KnownLeader and NextToken',
  },
  async (t) => {
    const { id } = await registered(t, 'batch', 'vmeta');
    t.check(await t.sched.get(`job/${enc(id)}/versions`), ok, ...queryMeta);
  },
);

conformance(
  {
    id: 'jobs.tag.create',
    also: ['jobs.tag.delete'],
    level: 'MUST',
    title: 'POST and DELETE /v1/job/:job_id/versions/:tag_name/tag answer their query meta',
  },
  async (t) => {
    const { id } = await registered(t, 'batch', 'tmeta');
    t.check(
      await t.sched.post(`job/${enc(id)}/versions/meta/tag`, { body: { Description: 'query meta' } }),
      ok,
      ...queryMeta,
    );
    t.as('jobs.tag.delete').check(await t.sched.delete(`job/${enc(id)}/versions/meta/tag`), ok, ...queryMeta);
  },
);

conformance(
  {
    id: 'jobs.read.returns-job',
    level: 'MUST',
    title: 'GET /v1/job/:job_id of a job no node can place reads Status pending; its evaluation is blocked',
    also: ['jobs.evaluations.list'],
  },
  async (t) => {
    const { id } = await registered(t, 'batch', 'blocked', { Datacenters: ['cf-nowhere'] });
    // Evaluations run after the registration answered: polled until one is blocked and the one
    // before it is done with (it names the blocked one, or has left pending). The real scheduler
    // writes the blocked evaluation before it finishes the one that made it, so a read between the
    // two sees the first still pending, without BlockedEval.
    const settled = (list: Obj[]) => {
      const blocked = list.find((e) => e.Status === 'blocked');
      const before = blocked && list.find((e) => e.ID === blocked.PreviousEval);
      return !!blocked && (!before || !!before.BlockedEval || before.Status !== 'pending');
    };
    const evals = await t.proving('jobs.evaluations.list', () =>
      waitFor(
        'an evaluation of the unplaceable job is blocked, and the one before it done with',
        () => evaluationsOf(t, id),
        settled,
      ),
    );
    t.proving('jobs.evaluations.list', () =>
      expectThat(
        evals.every((e) => e.JobID === id),
        'evaluations',
        evals.map((e) => e.JobID),
        id,
        'the blocked evaluation belongs to the job',
      ),
    );
    // The evaluation that could not place the job names the blocked one it left (BlockedEval) and
    // what failed (FailedTGAllocs, per group); the blocked one names it (PreviousEval).
    const blocked = evals.find((e) => e.Status === 'blocked')!;
    const first = evals.find((e) => e.ID === blocked.PreviousEval);
    t.proving('jobs.evaluations.list', () => {
      expectThat(
        !!first,
        'evaluations',
        blocked.PreviousEval,
        evals.map((e) => e.ID),
        'the blocked evaluation names the evaluation before it (PreviousEval), one of the job',
      );
      expectEqual(first!.BlockedEval, blocked.ID, 'BlockedEval of the evaluation that could not place the job');
      expectThat(
        typeof first!.FailedTGAllocs?.work === 'object' && first!.FailedTGAllocs.work !== null,
        'evaluations',
        first!.FailedTGAllocs,
        'an object keyed by group',
        'FailedTGAllocs of the evaluation that could not place the job holds its group work',
      );
    });
    expectEqual((await readJob(t, id)).Status, 'pending', 'Status of a job none of whose allocations could be placed');
  },
);
