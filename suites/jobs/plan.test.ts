/** Plan (dry run, diff, annotations, response fields) and evaluate; PolicyOverride on plan: acl.test.ts; periodic force: periodic.test.ts. */
import { suite, conformance, type T } from '../../harness/index.js';
import { bodyAt, expectThat, expectEqual } from '../../harness/checks/index.js';
import { jobDefinition } from '../../fixtures/jobs/index.js';
import { body, enc, readJob, registered, trackJob, type Obj, refused, ok, absent } from './helpers.js';
import { writeAnswer } from './answers.js';

suite('jobs');

const plan = (t: T, id: string, job: Obj, diff = true) =>
  t.sched.post(`job/${enc(id)}/plan`, { body: { Job: job, Diff: diff } });

/** Every field diff anywhere in a job diff (job, group, task and object levels). */
function fieldDiffs(diff: Obj | null | undefined): Obj[] {
  if (!diff) return [];
  const out: Obj[] = [...(diff.Fields ?? [])];
  for (const k of ['Objects', 'TaskGroups', 'Tasks']) for (const d of diff[k] ?? []) out.push(...fieldDiffs(d));
  return out;
}
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
    const ex = await plan(t, id, changed);
    t.check(ex, ok, bodyAt('/Diff/ID', id));
    // Job, task group and task diffs down to the field diff of the change.
    const diff = body(ex).Diff as Obj;
    const group = (diff.TaskGroups ?? []).find((g: Obj) => g.Name === 'cache') as Obj | undefined;
    const task = (group?.Tasks ?? []).find((k: Obj) => k.Name === 'redis') as Obj | undefined;
    const field = fieldDiffs(task).find((f) => String(f.Name).includes('MODE'));
    expectThat(
      !!field && field.Old === 'primary' && field.New === 'planned',
      'diff',
      diff,
      'Diff.TaskGroups[cache].Tasks[redis] ... MODE primary -> planned',
      'the diff holds the task group cache, its task redis and the field diff of MODE primary -> planned',
    );
    const fresh = t.unique('pnew');
    trackJob(t, fresh);
    const added = await plan(t, fresh, jobDefinition('batch', fresh));
    t.check(
      added,
      ok,
      bodyAt('/Diff/Type', (v: unknown) => typeof v === 'string' && v.length > 0, 'a type'),
    );
    t.assuming('jobs.diff.type-names', () =>
      expectEqual(
        [diff.Type, body(added).Diff.Type],
        ['Edited', 'Added'],
        'Type of the diffs of a changed and a new job',
      ),
    );
    await absent(t, fresh, 'a job only planned');
  },
);

conformance(
  {
    id: 'jobs.plan.diff',
    level: 'MUST',
    title: 'POST /v1/job/:job_id/plan without Diff (and with Diff false) answers no diff',
  },
  async (t) => {
    const { id, job } = await registered(t, 'service', 'pnodiff');
    const changed = structuredClone(job);
    changed.TaskGroups![0]!.Tasks![0]!.Env = { MODE: 'planned' };
    for (const diff of [undefined, false]) {
      const ex = await t.sched.post(`job/${enc(id)}/plan`, { body: { Job: changed, Diff: diff } });
      t.check(
        ex,
        ok,
        bodyAt('/Diff', (v: unknown) => v === null || v === undefined, `is null or absent with Diff ${diff}`),
      );
    }
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
    t.check(ex, ok);
    for (const k of ['Place', 'Stop', 'Ignore', 'InPlaceUpdate', 'DestructiveUpdate', 'Migrate'])
      t.check(ex, bodyAt(`/Annotations/DesiredTGUpdates/cache/${k}`, Number.isInteger, 'is an integer'));
    // What the counts mean is not given: the real scheduler's reading is the assumption.
    t.assuming('jobs.plan.annotations-place', () => {
      const u = body(ex).Annotations.DesiredTGUpdates.cache as Obj;
      expectEqual(
        [u.Place, u.Stop, u.Ignore, u.InPlaceUpdate, u.DestructiveUpdate, u.Migrate],
        [3, 0, 0, 0, 0, 0],
        'one placement per count of a new job and no other update',
      );
    });
  },
);

conformance(
  {
    id: 'jobs.plan.response',
    level: 'MUST',
    title: 'POST /v1/job/:job_id/plan answers Index, Warnings, CreatedEvals and JobModifyIndex',
  },
  async (t) => {
    const { id, job } = await registered(t, 'batch', 'presp');
    const registeredIndex = (await readJob(t, id)).JobModifyIndex;
    t.check(
      await plan(t, id, { ...job, Priority: 45 }, false),
      ok,
      bodyAt('/Index', Number.isInteger, 'is an integer'),
      bodyAt('/Warnings', (v: unknown) => typeof v === 'string', 'is a string'),
      bodyAt('/CreatedEvals', (v: unknown) => v === null || Array.isArray(v), 'is an array of evaluations (or null)'),
      bodyAt('/JobModifyIndex', registeredIndex, "is the registered job's"),
    );
  },
);

conformance(
  {
    id: 'jobs.plan.next-periodic-launch',
    level: 'MUST',
    title: 'POST /v1/job/:job_id/plan of a periodic job answers NextPeriodicLaunch after the request',
  },
  async (t) => {
    const id = t.unique('pnext');
    trackJob(t, id);
    const asked = Date.now();
    const ex = await plan(t, id, jobDefinition('periodic', id), false);
    t.check(
      ex,
      ok,
      bodyAt(
        '/NextPeriodicLaunch',
        (v: unknown) => typeof v === 'string' && Date.parse(v) >= asked - 1000,
        'is a timestamp not before the request',
      ),
    );
  },
);

conformance(
  {
    id: 'jobs.plan.failed-tg-allocs',
    level: 'MUST',
    title: 'POST /v1/job/:job_id/plan of a job no node can place answers FailedTGAllocs with its metrics',
  },
  async (t) => {
    const id = t.unique('pfail');
    trackJob(t, id);
    const job = jobDefinition('batch', id, { Datacenters: [t.unique('no-such-dc')] });
    const ex = await plan(t, id, job, false);
    t.check(ex, ok);
    const group = String(job.TaskGroups![0]!.Name);
    const metrics = body(ex).FailedTGAllocs?.[group] as Obj | undefined;
    const fields = [
      'CoalescedFailures',
      'AllocationTime',
      'Scores',
      'NodesEvaluated',
      'NodesFiltered',
      'NodesAvailable',
      'NodesInPool',
      'ClassFiltered',
      'ConstraintFiltered',
      'NodesExhausted',
      'ClassExhausted',
      'DimensionExhausted',
    ];
    expectEqual(
      fields.filter((f) => !metrics || !(f in metrics)),
      [],
      `FailedTGAllocs.${group} carries every metric the document lists`,
    );
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
    // A refusal breaks the JSON payload's rule when a call without a payload works, else the
    // endpoint's own: the first failing check names the rule.
    const payloadRefused =
      ex.response.status >= 300 &&
      (await t.sched.post(`job/${enc(id)}/evaluate`, { validate: false })).response.status < 300;
    const payloadCheck = () => t.as('jobs.evaluate.json-payload-0-8-4').check(ex, ok);
    if (payloadRefused) payloadCheck();
    // A write response: its JobModifyIndex is an index of the job's state (the document does not
    // say which one an evaluation answers, the job's or the evaluation's own: either is positive).
    t.check(
      ex,
      ok,
      ...writeAnswer({ evaluation: true }),
      bodyAt('/JobModifyIndex', (v: unknown) => Number.isInteger(v) && (v as number) > 0, 'is a positive index'),
      bodyAt(
        '/EvalID',
        (v: unknown) => typeof v === 'string' && v.length > 0 && !before.includes(v),
        'names a new evaluation',
      ),
    );
    payloadCheck();
    const after = body<Obj[]>(await t.sched.get(`job/${enc(id)}/evaluations`));
    const ev = after.find((e) => e.ID === body(ex).EvalID);
    expectThat(
      !!ev,
      'eval',
      after.map((e) => e.ID),
      body(ex).EvalID,
      'the new evaluation is listed for the job',
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

conformance(
  {
    id: 'jobs.plan.created-evals-blocked',
    level: 'MUST',
    title:
      'POST /v1/job/:job_id/plan of a job no node can place lists the blocked evaluation it would create in CreatedEvals',
  },
  async (t) => {
    const id = t.unique('pcreated');
    trackJob(t, id);
    const ex = await plan(t, id, jobDefinition('batch', id, { Datacenters: [t.unique('no-such-dc')] }), false);
    t.check(ex, ok);
    const created = body(ex).CreatedEvals as Obj[] | null;
    expectThat(
      Array.isArray(created) && created.length > 0 && created.every((e) => e.JobID === id && e.Status === 'blocked'),
      'created-evals',
      created,
      'an array of blocked evaluations of the job',
      'CreatedEvals holds the blocked evaluation of the job the scheduler would leave what it cannot place to',
    );
  },
);
