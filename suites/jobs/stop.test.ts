/** DELETE /v1/job/:job_id: stop, purge, global, no_shutdown_delay. */
import { suite, conformance, type T } from '../../harness/index.js';
import { bodyAt, expectEqual, expectThat } from '../../harness/checks/index.js';
import { jobDefinition } from '../../fixtures/jobs/index.js';
import { body, enc, readJob, register, registered, waitAdvancing, type Obj, ok, absent } from './helpers.js';
import { writeAnswer } from './answers.js';

suite('jobs');

conformance(
  {
    id: 'jobs.stop.marks-stopped',
    also: ['jobs.scale.status'],
    level: 'MUST',
    title: 'DELETE /v1/job/:job_id stops the job, which stays readable with Stop true',
  },
  async (t) => {
    const { id } = await registered(t, 'service', 'stop');
    const ex = await t.sched.delete(`job/${enc(id)}`);
    // A write response; stopping a service job makes an evaluation (its allocations are to stop).
    t.check(ex, ok, ...writeAnswer({ evaluation: true }));
    const job = await readJob(t, id);
    expectEqual(job.Stop, true, 'Stop of the stopped job');
    t.check(ex, bodyAt('/JobModifyIndex', job.JobModifyIndex, "is the stopped job's JobModifyIndex"));
    t.as('jobs.scale.status').check(await t.sched.get(`job/${enc(id)}/scale`), ok, bodyAt('/JobStopped', true));
  },
);

conformance(
  {
    id: 'jobs.stop.marks-stopped',
    level: 'MUST',
    title: 'DELETE /v1/job/:job_id?purge=false stops the job without purging it (it stays readable with Stop true)',
  },
  async (t) => {
    const { id } = await registered(t, 'service', 'nopurge');
    t.check(await t.sched.delete(`job/${enc(id)}`, { query: { purge: false } }), ok);
    expectEqual((await readJob(t, id)).Stop, true, 'Stop of the job stopped with purge=false');
  },
);

conformance(
  { id: 'jobs.stop.purge', level: 'MUST', title: 'DELETE /v1/job/:job_id?purge=true removes the job at once' },
  async (t) => {
    const { id } = await registered(t, 'service', 'purge');
    t.check(await t.sched.delete(`job/${enc(id)}`, { query: { purge: true } }), ok);
    await absent(t, id, 'the purged job');
    expectEqual(
      body<Obj[]>(await t.sched.get('jobs', { query: { prefix: id } })).length,
      0,
      'the purged job is not listed',
    );
  },
);

conformance(
  { id: 'jobs.stop.global', level: 'MUST', title: 'DELETE /v1/job/:job_id?global=true stops a single-region job' },
  async (t) => {
    const { id } = await registered(t, 'service', 'glob');
    t.check(await t.sched.delete(`job/${enc(id)}`, { query: { global: true } }), ok);
    expectEqual((await readJob(t, id)).Stop, true, 'Stop after a global stop');
  },
);

conformance(
  {
    id: 'jobs.stop.eval-priority',
    level: 'MUST',
    title: 'DELETE /v1/job/:job_id?eval_priority=70 gives the evaluation of the stop priority 70',
  },
  async (t) => {
    const { id } = await registered(t, 'batch', 'stopprio');
    const ex = await t.sched.delete(`job/${enc(id)}`, { query: { eval_priority: 70 } });
    t.check(ex, ok);
    const evalId = body(ex).EvalID;
    if (typeof evalId !== 'string' || !evalId) t.notApplicable('the stop created no evaluation (no EvalID)');
    const evals = body<Obj[]>(await t.sched.get(`job/${enc(id)}/evaluations`)) ?? [];
    const ev = evals.find((e) => e.ID === evalId);
    expectThat(
      !!ev,
      'eval',
      evals.map((e) => e.ID),
      evalId,
      "the stop's evaluation is listed for the job",
    );
    expectEqual(ev!.Priority, 70, "the priority of the stop's evaluation");
  },
);

/** A service job whose group waits 60 s before its allocations stop, running. */
async function delayedJob(t: T, base: string): Promise<string> {
  const id = t.unique(base);
  const job = jobDefinition('service', id);
  job.TaskGroups![0]!.ShutdownDelay = 60_000_000_000;
  await register(t, job);
  await t.advance(3);
  await waitAdvancing(
    t,
    'an allocation runs',
    () => runningAllocs(t, id),
    (a) => a.length > 0,
  );
  return id;
}

const runningAllocs = async (t: T, id: string) =>
  body<Obj[]>(await t.sched.get(`job/${enc(id)}/allocations`)).filter((a) => a.ClientStatus === 'running');

conformance(
  {
    id: 'jobs.stop.no-shutdown-delay',
    level: 'MUST',
    title: 'DELETE /v1/job/:job_id?no_shutdown_delay=true stops allocations without waiting the group shutdown_delay',
    movesClock: 'so allocations start and stop',
  },
  async (t) => {
    const quick = await delayedJob(t, 'nsd');
    const slow = await delayedJob(t, 'sd');
    const slowFalse = await delayedJob(t, 'sdf');
    t.check(await t.sched.delete(`job/${enc(quick)}`, { query: { no_shutdown_delay: true, eval_priority: 70 } }), ok);
    t.check(await t.sched.delete(`job/${enc(slow)}`), ok);
    t.check(await t.sched.delete(`job/${enc(slowFalse)}`, { query: { no_shutdown_delay: false } }), ok);
    expectEqual((await readJob(t, quick)).Stop, true, 'Stop after a stop without shutdown delay');
    await t.advance(5);
    await waitAdvancing(
      t,
      'allocations stopped without the shutdown delay',
      () => runningAllocs(t, quick),
      (a) => a.length === 0,
    );
    expectThat(
      (await runningAllocs(t, slow)).length > 0,
      'shutdown-delay',
      0,
      'running allocations',
      'a plain stop still waits the 60 s shutdown_delay (control)',
    );
    const stillRunning = (await runningAllocs(t, slowFalse)).length;
    expectThat(
      stillRunning > 0,
      'shutdown-delay',
      stillRunning,
      'running allocations',
      'a stop with no_shutdown_delay=false still waits the 60 s shutdown_delay',
    );
  },
);
