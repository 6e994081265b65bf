// size: what a job runs and lists (allocations, deployments, summary counters, services), each needing allocations that run, fail or finish.
/**
 * What the scheduler runs for a job and lists for it: allocations (all=true), deployments, the
 * summary and the service registrations, and the arrays they answer when there is nothing to list.
 */
import { suite, conformance, type T } from '../../harness/index.js';
import { bodyAt, expectThat, expectEqual } from '../../harness/checks/index.js';
import { jobDefinition } from '../../fixtures/jobs/index.js';
import { body, enc, register, registered, waitAdvancing, waitFor, type Obj, ok } from './helpers.js';

suite('jobs');

/** Lets simulated (or real) time pass so allocations start and deployments settle. */
async function settle(t: T, seconds: number): Promise<void> {
  await t.advance(seconds);
}

const allocsOf = async (t: T, id: string, query: Record<string, string | boolean> = {}) => {
  const ex = await t.sched.get(`job/${enc(id)}/allocations`, { query });
  t.check(ex, ok);
  return body<Obj[]>(ex);
};

const deploymentsOf = async (t: T, id: string, query: Record<string, string | boolean> = {}) => {
  const ex = await t.sched.get(`job/${enc(id)}/deployments`, { query });
  t.check(ex, ok);
  return body<Obj[]>(ex);
};

const emptyArray = bodyAt('', (v: unknown) => Array.isArray(v) && v.length === 0, 'is an empty array');

conformance(
  {
    id: 'jobs.allocations.list',
    also: ['jobs.deployments.list'],
    level: 'MUST',
    title: 'GET /v1/job/:job_id/allocations and /deployments of a job with none answer empty arrays',
  },
  async (t) => {
    // A parameterized job runs nothing itself: its dispatched children do.
    const { id } = await registered(t, 'parameterized', 'snone');
    t.check(await t.sched.get(`job/${enc(id)}/allocations`), ok, emptyArray);
    t.as('jobs.deployments.list').check(await t.sched.get(`job/${enc(id)}/deployments`), ok, emptyArray);
  },
);

conformance(
  {
    id: 'jobs.summary.read',
    level: 'MUST',
    title: 'GET /v1/job/:job_id/summary counts a failed allocation under Failed',
  },
  async (t) => {
    const id = t.unique('sfail');
    // A batch task that fails at once, with no restarts and no reschedule attempts.
    const job = jobDefinition('batch-failing', id);
    Object.assign(job.TaskGroups![0]!.Tasks![0]!, structuredClone(t.config.sched.failingTask));
    await register(t, job);
    const group = String(job.TaskGroups![0]!.Name);
    const failed = (
      await waitAdvancing(
        t,
        'the allocation fails',
        () => allocsOf(t, id),
        (a) => a.some((x) => x.ClientStatus === 'failed'),
      )
    ).filter((x) => x.ClientStatus === 'failed' && x.TaskGroup === group).length;
    const counters = await waitFor(
      `the summary counts the failed allocation of group ${group} under Failed`,
      async () => {
        const ex = await t.sched.get(`job/${enc(id)}/summary`);
        t.check(ex, ok, bodyAt('/JobID', id));
        return (body(ex).Summary?.[group] ?? {}) as Obj;
      },
      (c) => c.Failed >= failed,
    );
    expectThat(
      counters.Failed >= failed && counters.Failed > 0,
      'summary',
      counters,
      `at least ${failed}`,
      `the Failed counter of group ${group} counts its failed allocations`,
    );
  },
);

conformance(
  {
    id: 'jobs.summary.read',
    level: 'MUST',
    title: 'GET /v1/job/:job_id/summary counts an allocation pending across the read under Starting',
  },
  async (t) => {
    const { id } = await registered(t, 'service', 'sstart');
    const pending = async () =>
      new Set((await allocsOf(t, id)).filter((a) => a.ClientStatus === 'pending').map((a) => a.ID as string));
    await waitFor(
      'the job has an allocation',
      () => allocsOf(t, id),
      (a) => a.length > 0,
    );
    // Pending in the reads before and after the summary: pending when the summary was made.
    const before = await pending();
    const ex = await t.sched.get(`job/${enc(id)}/summary`);
    t.check(ex, ok);
    const after = await pending();
    const across = [...before].filter((a) => after.has(a)).length;
    if (across === 0) t.notApplicable('no allocation of the job stayed pending across the summary read');
    const counters = (body(ex).Summary?.cache ?? {}) as Obj;
    expectThat(
      Number(counters.Starting) >= across,
      'summary',
      counters,
      `at least ${across}`,
      `Starting counts the ${across} allocation(s) pending across the read, not Queued`,
    );
  },
);

conformance(
  {
    id: 'jobs.services.list',
    level: 'MUST',
    title: 'GET /v1/job/:job_id/services of a job without services answers an empty array',
  },
  async (t) => {
    const { id } = await registered(t, 'batch', 'snosvc');
    t.check(await t.sched.get(`job/${enc(id)}/services`), ok, emptyArray);
  },
);

conformance(
  {
    id: 'jobs.allocations.list',
    level: 'MUST',
    title: 'GET /v1/job/:job_id/allocations lists one running allocation per count',
  },
  async (t) => {
    const id = t.unique('salloc');
    const job = jobDefinition('service', id);
    job.TaskGroups![0]!.Count = 2;
    await register(t, job);
    await settle(t, 3);
    const allocs = await waitFor(
      'two allocations run',
      () => allocsOf(t, id),
      (a) => a.filter((x) => x.ClientStatus === 'running').length === 2,
    );
    for (const a of allocs) {
      expectEqual(
        [a.JobID, a.TaskGroup, a.DesiredStatus],
        [id, 'cache', 'run'],
        'allocation belongs to the job group and should run',
      );
      expectEqual(a.TaskStates?.redis?.State, 'running', 'task state of the running allocation');
    }
  },
);

conformance(
  {
    id: 'jobs.summary.read',
    level: 'MUST',
    title: 'GET /v1/job/:job_id/summary counts the running allocations of each group',
  },
  async (t) => {
    const { id } = await registered(t, 'service', 'ssum');
    await settle(t, 3);
    const summary = await waitFor(
      'the summary counts one running allocation',
      async () => {
        const ex = await t.sched.get(`job/${enc(id)}/summary`);
        t.check(ex, ok, bodyAt('/JobID', id));
        return body(ex);
      },
      (s) => s.Summary?.cache?.Running === 1,
    );
    for (const k of ['Queued', 'Complete', 'Failed', 'Starting', 'Lost']) {
      expectThat(
        Number.isInteger(summary.Summary.cache[k]),
        'summary',
        summary.Summary.cache[k],
        'integer',
        `${k} is an integer counter`,
      );
    }
  },
);

conformance(
  {
    id: 'jobs.services.list',
    level: 'MUST',
    title: "GET /v1/job/:job_id/services lists the registrations of the job's services",
  },
  async (t) => {
    const { id } = await registered(t, 'service', 'ssvc');
    await settle(t, 3);
    const regs = await waitFor(
      'the service is registered',
      async () => {
        const ex = await t.sched.get(`job/${enc(id)}/services`);
        t.check(ex, ok);
        return body<Obj[]>(ex);
      },
      (r) => r.length > 0,
    );
    const reg = regs[0]!;
    expectEqual([reg.ServiceName, reg.JobID], ['redis-cache', id], 'the registration names the service and the job');
    expectThat(
      Number.isInteger(reg.Port) && reg.Port > 0,
      'port',
      reg.Port,
      'integer > 0',
      'Port is a positive integer',
    );
    const allocs = await allocsOf(t, id);
    expectThat(
      allocs.some((a) => a.ID === reg.AllocID),
      'alloc',
      reg.AllocID,
      allocs.map((a) => a.ID),
      'the registration names an allocation of the job',
    );
  },
);

conformance(
  {
    id: 'jobs.allocations.all',
    also: ['jobs.deployments.all', 'jobs.allocations.all-after-purge'],
    level: 'MUST',
    title:
      'GET /v1/job/:job_id/allocations and deployments with all=true include those of an earlier job with the same ID',
  },
  async (t) => {
    const id = t.unique('sall');
    await register(t, jobDefinition('service-with-update', id));
    await settle(t, 3);
    // Placement and the deployment are the scheduler's work after the answer: polled.
    const oldAllocs = (
      await waitFor(
        'the first job is placed',
        () => allocsOf(t, id),
        (a) => a.length > 0,
      )
    ).map((a) => a.ID as string);
    const oldDeps = (
      await waitFor(
        'the first job has a deployment',
        () => deploymentsOf(t, id),
        (d) => d.length > 0,
      )
    ).map((d) => d.ID as string);
    expectThat(
      oldAllocs.length > 0 && oldDeps.length > 0,
      'setup',
      { oldAllocs, oldDeps },
      '> 0',
      'the first job has allocations and a deployment',
    );
    t.check(await t.sched.delete(`job/${enc(id)}`, { query: { purge: true } }), ok);
    await register(t, jobDefinition('service-with-update', id));
    const current = (await allocsOf(t, id)).map((a) => a.ID as string);
    expectThat(
      !current.some((a) => oldAllocs.includes(a)),
      'all',
      current,
      'none of the earlier',
      "by default the earlier job's allocations are left out",
    );
    const allFalse = (await allocsOf(t, id, { all: false })).map((a) => a.ID as string);
    expectThat(
      !allFalse.some((a) => oldAllocs.includes(a)),
      'all',
      allFalse,
      'none of the earlier',
      "with all=false the earlier job's allocations are left out",
    );
    // The earlier job exists only through a purge: whether a purge keeps its allocations and
    // deployments is the assumption, and a target that collects them differs from it (the test
    // goes on to check the default listings, which the document does define).
    const all = (await allocsOf(t, id, { all: true })).map((a) => a.ID as string);
    t.assuming('jobs.allocations.all-after-purge', () =>
      expectThat(
        oldAllocs.every((a) => all.includes(a)),
        'all',
        all,
        oldAllocs,
        "all=true includes the earlier job's allocations",
      ),
    );
    const depsNow = (await deploymentsOf(t, id)).map((d) => d.ID as string);
    expectThat(
      !depsNow.some((d) => oldDeps.includes(d)),
      'all',
      depsNow,
      'none of the earlier',
      "by default the earlier job's deployments are left out",
    );
    const depsAll = (await deploymentsOf(t, id, { all: true })).map((d) => d.ID as string);
    t.assuming('jobs.allocations.all-after-purge', () =>
      expectThat(
        oldDeps.every((d) => depsAll.includes(d)),
        'all',
        depsAll,
        oldDeps,
        "all=true includes the earlier job's deployments",
      ),
    );
  },
);

/** The counters of group `group` in the job's summary, polled (moving the scheduler's time) until `done`. */
const countersOf = (t: T, id: string, group: string, what: string, done: (c: Obj) => boolean) =>
  waitAdvancing(
    t,
    what,
    async () => {
      const ex = await t.sched.get(`job/${enc(id)}/summary`);
      t.check(ex, ok, bodyAt('/JobID', id));
      return (body(ex).Summary?.[group] ?? {}) as Obj;
    },
    done,
  );

conformance(
  {
    id: 'jobs.summary.read',
    level: 'MUST',
    title:
      'GET /v1/job/:job_id/summary counts the allocations no node can place under Queued, and finished ones under Complete',
  },
  async (t) => {
    // Two allocations placed nowhere are queued; nothing runs, nothing finished.
    const queued = t.unique('squeue');
    const job = jobDefinition('batch', queued, { Datacenters: ['cf-nowhere'] });
    job.TaskGroups![0]!.Count = 2;
    await register(t, job);
    const q = await countersOf(
      t,
      queued,
      'work',
      'the summary counts the two queued allocations',
      (c) => c.Queued === 2,
    );
    expectEqual(
      [q.Queued, q.Running, q.Complete],
      [2, 0, 0],
      'Queued, Running and Complete of a group whose allocations no node can place',
    );
    // A batch task that exits at once: its allocation ends complete, and is counted there only.
    const { id } = await registered(t, 'batch', 'sdone');
    await settle(t, 3);
    const done = await countersOf(t, id, 'work', 'the summary counts the finished allocation', (c) => c.Complete === 1);
    expectEqual(
      [done.Complete, done.Running, done.Queued],
      [1, 0, 0],
      'Complete, Running and Queued of a group whose one allocation finished',
    );
  },
);
