/** Plan (dry run with diff and annotations), evaluate, periodic force. */
import { suite, conformance, type T } from '../../harness/index.js';
import { bodyAt, expectThat, expectEqual } from '../../harness/checks/index.js';
import { jobDefinition } from '../../fixtures/jobs/index.js';
import {
  body,
  enc,
  readJob,
  registered,
  trackJob,
  type Obj,
  refused,
  refusedUnchanged,
  ok,
  absent,
} from './helpers.js';

suite('jobs');

const plan = (t: T, id: string, job: Obj, diff = true) =>
  t.sched.post(`job/${enc(id)}/plan`, { body: { Job: job, Diff: diff } });
const evalIds = async (t: T, id: string) =>
  body<Obj[]>(await t.sched.get(`job/${enc(id)}/evaluations`))
    .map((e) => e.ID as string)
    .sort();

conformance(
  {
    id: 'jobs.plan.dry-run',
    level: 'MUST',
    title: 'POST /v1/job/:job_id/plan leaves the job, its versions and its evaluations unchanged',
  },
  async (t) => {
    const { id, job } = await registered(t, 'service', 'pdry');
    const before = await readJob(t, id);
    const evalsBefore = await evalIds(t, id);
    const changed = structuredClone(job);
    changed.TaskGroups![0]!.Count = 3;
    changed.TaskGroups![0]!.Tasks![0]!.Env = { MODE: 'planned' };
    t.check(
      await plan(t, id, changed),
      ok,
      bodyAt('/JobModifyIndex', before.JobModifyIndex, "is the registered job's index"),
    );
    const after = await readJob(t, id);
    expectEqual(
      [after.Version, after.JobModifyIndex, after.TaskGroups[0].Count, after.TaskGroups[0].Tasks[0].Env],
      [before.Version, before.JobModifyIndex, 1, { MODE: 'primary' }],
      'version, index, count and env after the plan',
    );
    expectEqual(await evalIds(t, id), evalsBefore, 'the plan created no evaluation of the job');
    const versions = body(await t.sched.get(`job/${enc(id)}/versions`)).Versions as Obj[];
    expectEqual(versions.length, 1, 'the plan added no version');
  },
);

conformance(
  {
    id: 'jobs.plan.diff',
    level: 'MUST',
    title:
      'POST /v1/job/:job_id/plan with Diff returns Edited for a change and Added for a new job, which stays unregistered',
  },
  async (t) => {
    const { id, job } = await registered(t, 'service', 'pdiff');
    const changed = structuredClone(job);
    changed.TaskGroups![0]!.Tasks![0]!.Env = { MODE: 'planned' };
    t.check(await plan(t, id, changed), ok, bodyAt('/Diff/Type', 'Edited'), bodyAt('/Diff/ID', id));
    const fresh = t.unique('pnew');
    trackJob(t, fresh);
    t.check(await plan(t, fresh, jobDefinition('batch', fresh)), ok, bodyAt('/Diff/Type', 'Added'));
    await absent(t, fresh, 'a job only planned');
  },
);

conformance(
  {
    id: 'jobs.plan.annotations',
    level: 'MUST',
    title: 'POST /v1/job/:job_id/plan of a new job annotates one placement per count',
  },
  async (t) => {
    const fresh = t.unique('pann');
    trackJob(t, fresh);
    const job = jobDefinition('service', fresh);
    job.TaskGroups![0]!.Count = 3;
    const ex = await plan(t, fresh, job);
    t.check(ex, ok, bodyAt('/Annotations/DesiredTGUpdates/cache/Place', 3));
    for (const k of ['Stop', 'Ignore', 'InPlaceUpdate', 'DestructiveUpdate', 'Migrate']) {
      t.check(ex, bodyAt(`/Annotations/DesiredTGUpdates/cache/${k}`, 0));
    }
  },
);

conformance(
  { id: 'jobs.plan.job-required', level: 'MUST', title: 'POST /v1/job/:job_id/plan without Job is refused' },
  async (t) => {
    const { id } = await registered(t, 'batch', 'preq');
    refused(
      t,
      await t.sched.post(`job/${enc(id)}/plan`, { body: { Diff: true }, validate: false }),
      'a plan without Job',
    );
  },
);

conformance(
  {
    id: 'jobs.evaluate.creates-eval',
    also: ['jobs.evaluate.json-payload-0-8-4'],
    level: 'MUST',
    title: 'POST /v1/job/:job_id/evaluate with a JSON body creates a new evaluation of the job',
  },
  async (t) => {
    const { id } = await registered(t, 'service', 'peval');
    const before = await evalIds(t, id);
    const ex = await t.sched.post(`job/${enc(id)}/evaluate`, {
      body: { JobID: id, EvalOptions: { ForceReschedule: true } },
    });
    t.as('jobs.evaluate.json-payload-0-8-4').check(ex, ok);
    t.check(
      ex,
      ok,
      bodyAt(
        '/EvalID',
        (v: unknown) => typeof v === 'string' && v.length > 0 && !before.includes(v),
        'names a new evaluation',
      ),
    );
    const after = body<Obj[]>(await t.sched.get(`job/${enc(id)}/evaluations`));
    const ev = after.find((e) => e.ID === body(ex).EvalID);
    expectThat(
      !!ev,
      'eval',
      'the new evaluation is listed for the job',
      body(ex).EvalID,
      after.map((e) => e.ID),
    );
    expectEqual(ev!.JobID, id, 'JobID of the new evaluation');
  },
);

conformance(
  {
    id: 'jobs.evaluate.jobid-required',
    level: 'MUST',
    title: 'POST /v1/job/:job_id/evaluate with a JSON body without JobID is refused',
  },
  async (t) => {
    const { id } = await registered(t, 'batch', 'pevj');
    refused(
      t,
      await t.sched.post(`job/${enc(id)}/evaluate`, {
        body: { EvalOptions: { ForceReschedule: false } },
        validate: false,
      }),
      'an evaluate request without JobID',
    );
  },
);

const childrenOf = async (t: T, id: string) => body<Obj[]>(await t.sched.get('jobs', { query: { prefix: `${id}/` } }));

conformance(
  {
    id: 'jobs.periodic.force',
    also: ['jobs.periodic.force-ignores-overlap'],
    level: 'MUST',
    title:
      'POST /v1/job/:job_id/periodic/force launches an instance each time, even while one runs with prohibit_overlap',
  },
  async (t) => {
    const { id } = await registered(t, 'periodic', 'pforce');
    const track = async () => {
      for (const c of await childrenOf(t, id)) trackJob(t, c.ID);
    };
    const first = await t.sched.post(`job/${enc(id)}/periodic/force`);
    await track();
    t.check(
      first,
      ok,
      bodyAt('/EvalID', (v: unknown) => typeof v === 'string' && v.length > 0, 'names an evaluation'),
      bodyAt('/EvalCreateIndex', Number.isInteger, 'is an integer'),
    );
    const kids = await childrenOf(t, id);
    expectEqual(kids.length, 1, 'one instance after the first force');
    expectEqual(kids[0]!.ParentID, id, 'the instance is a child of the periodic job');
    const second = await t.sched.post(`job/${enc(id)}/periodic/force`);
    await track();
    t.check(
      second,
      ok,
      bodyAt(
        '/EvalID',
        (v: unknown) => typeof v === 'string' && v.length > 0 && v !== body(first).EvalID,
        'names a new evaluation',
      ),
    );
    // Forces are told apart by their evaluations: instance IDs may be named after the launch second,
    // so two forces within one second can launch the same instance again (a new evaluation each).
    const launched = async (evalId: string) => {
      for (const c of await childrenOf(t, id)) {
        if (body<Obj[]>(await t.sched.get(`job/${enc(c.ID)}/evaluations`)).some((e) => e.ID === evalId))
          return c.ID as string;
      }
      return undefined;
    };
    const [a, b] = [await launched(body(first).EvalID), await launched(body(second).EvalID)];
    expectThat(
      !!a && !!b,
      'instances',
      "each force's evaluation belongs to an instance of the periodic job, although one still runs and overlap is prohibited",
      'two evaluations of instances',
      { first: a, second: b },
    );
    if (a === b) t.note(`both forces launched instance ${a} (same launch second); told apart by their evaluations`);
  },
);

conformance(
  {
    id: 'jobs.periodic.force-not-periodic-400',
    level: 'MUST',
    title: 'POST /v1/job/:job_id/periodic/force of a job that is not periodic is refused',
  },
  async (t) => {
    const { id } = await registered(t, 'batch', 'pnot');
    await refusedUnchanged(t, id, 'a periodic force of a job that is not periodic', () =>
      t.sched.post(`job/${enc(id)}/periodic/force`),
    );
  },
);
