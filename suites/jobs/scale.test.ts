/**
 * Scale status and scaling (data-driven request rules), the active-deployment refusal, and what
 * the scheduler runs for a job: allocations, deployments, summary, services.
 */
import { suite, conformance, type T } from '../../harness/index.js';
import { statusIs, clientError, bodyAt, expectThat, expectEqual } from '../../harness/checks/index.js';
import { jobDefinition } from '../../fixtures/jobs/index.js';
import { runCases } from '../lib/cases.js';
import { HOLD_DEPLOYMENT_META } from '../../contract/scheduler-control.js';
import { body, enc, readJob, register, registered, runCase, scalable, waitFor, type Obj, ok } from './helpers.js';

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

runCases(new URL('./scale.cases.yaml', import.meta.url), {
  'jobs-fresh': {
    async run(t, c, file) {
      const ids: Record<string, string> = {};
      for (const [name, spec] of Object.entries(file.jobs ?? {})) {
        ids[name] = t.unique(`scl-${name}`);
        await register(t, jobDefinition(spec.definition, ids[name]!, spec.overrides));
        // A refusal must be the rule's, not an active deployment's: wait until the job can be scaled.
        await scalable(t, ids[name]!);
      }
      await runCase(t, c, ids);
    },
  },
});

conformance(
  {
    id: 'jobs.scale.status',
    level: 'MUST',
    title: 'GET /v1/job/:job_id/scale returns the desired count per task group',
  },
  async (t) => {
    const { id } = await registered(t, 'service', 'sstat');
    const ex = await t.sched.get(`job/${enc(id)}/scale`);
    t.check(
      ex,
      ok,
      bodyAt('/JobID', id),
      bodyAt('/Namespace', 'default'),
      bodyAt('/JobStopped', false),
      bodyAt('/TaskGroups/cache/Desired', 1),
      bodyAt('/JobModifyIndex', Number.isInteger, 'is an integer'),
    );
  },
);

conformance(
  { id: 'jobs.scale.sets-count', level: 'MUST', title: 'POST /v1/job/:job_id/scale with Count sets the group count' },
  async (t) => {
    const { id } = await registered(t, 'service', 'sset');
    await scalable(t, id);
    const ex = await t.sched.post(`job/${enc(id)}/scale`, {
      body: { Count: 3, Message: 'more', Target: { Group: 'cache' } },
    });
    t.check(ex, ok, bodyAt('/JobModifyIndex', Number.isInteger, 'is an integer'));
    t.check(await t.sched.get(`job/${enc(id)}/scale`), ok, bodyAt('/TaskGroups/cache/Desired', 3));
    expectEqual((await readJob(t, id)).TaskGroups[0].Count, 3, 'the job definition has the new count');
  },
);

conformance(
  {
    id: 'jobs.scale.event-recorded',
    level: 'MUST',
    title: 'POST /v1/job/:job_id/scale records a scaling event with its Message and Meta',
  },
  async (t) => {
    const { id } = await registered(t, 'service', 'sevt');
    await scalable(t, id);
    const message = t.unique('why');
    t.check(
      await t.sched.post(`job/${enc(id)}/scale`, {
        body: { Count: 2, Message: message, Meta: { source: 'suite' }, Target: { Group: 'cache' } },
      }),
      ok,
    );
    const status = await t.sched.get(`job/${enc(id)}/scale`);
    t.check(status, ok);
    const events = (body(status).TaskGroups?.cache?.Events ?? []) as Obj[];
    const ev = events.find((e) => e.Message === message);
    expectThat(!!ev, 'event', 'the scale status lists an event with the request message', message, events);
    expectEqual(ev!.Meta, { source: 'suite' }, 'the event keeps the request Meta');
  },
);

conformance(
  {
    id: 'jobs.scale.active-deployment-400',
    level: 'MUST',
    title: 'POST /v1/job/:job_id/scale while a deployment is active returns 400 and changes nothing',
  },
  async (t) => {
    if (!t.config.capabilities.schedControl) {
      t.skip(
        "holding a deployment active needs the reference scheduler's knob (job meta ref.hold-deployment)",
        'capabilities.schedControl',
      );
    }
    const id = t.unique('shold');
    const job = jobDefinition('service-with-update', id, { Meta: { [HOLD_DEPLOYMENT_META]: 'true' } });
    await register(t, job);
    const latest = await waitFor(
      'the deployment is created',
      async () => t.sched.get(`job/${enc(id)}/deployment`),
      (ex) => body(ex)?.Status === 'running',
    );
    t.check(latest, ok, bodyAt('/Status', 'running'), bodyAt('/JobID', id));
    const before = await readJob(t, id);
    const ex = await t.sched.post(`job/${enc(id)}/scale`, {
      body: { Count: 5, Message: 'during deployment', Target: { Group: 'web' } },
    });
    t.check(ex, statusIs(400));
    const after = await readJob(t, id);
    expectEqual(
      [after.TaskGroups[0].Count, after.Version, after.JobModifyIndex],
      [2, before.Version, before.JobModifyIndex],
      'the refused scale left the count, version and index',
    );
  },
);

conformance(
  {
    id: 'jobs.deployment.created-for-service-update',
    also: ['jobs.deployment.latest', 'jobs.deployments.list'],
    level: 'MUST',
    title:
      'POST /v1/jobs of a service job with an update block creates a deployment that turns successful; scaling is then allowed',
  },
  async (t) => {
    const { id } = await registered(t, 'service-with-update', 'sdep');
    // Deployments are the scheduler's work after the registration answered: polled.
    const deps = await waitFor(
      'a deployment is created',
      () => deploymentsOf(t, id),
      (d) => d.length > 0,
    );
    expectEqual(deps.length, 1, 'one deployment for the first version');
    expectEqual([deps[0]!.JobID, deps[0]!.JobVersion], [id, 0], 'the deployment belongs to version 0 of the job');
    t.check(await t.sched.get(`job/${enc(id)}/deployment`), ok, bodyAt('/ID', deps[0]!.ID));
    await settle(t, 6);
    await waitFor(
      'the deployment becomes successful',
      async () => {
        await settle(t, 1);
        return body(await t.sched.get(`job/${enc(id)}/deployment`));
      },
      (d) => d?.Status === 'successful',
    );
    t.check(
      await t.sched.post(`job/${enc(id)}/scale`, {
        body: { Count: 3, Message: 'after deployment', Target: { Group: 'web' } },
      }),
      ok,
    );
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
        `${k} is an integer counter`,
        'integer',
        summary.Summary.cache[k],
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
      'Port is a positive integer',
      'integer > 0',
      reg.Port,
    );
    const allocs = await allocsOf(t, id);
    expectThat(
      allocs.some((a) => a.ID === reg.AllocID),
      'alloc',
      'the registration names an allocation of the job',
      allocs.map((a) => a.ID),
      reg.AllocID,
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
      'the first job has allocations and a deployment',
      '> 0',
      { oldAllocs, oldDeps },
    );
    t.check(await t.sched.delete(`job/${enc(id)}`, { query: { purge: true } }), ok);
    await register(t, jobDefinition('service-with-update', id));
    const current = (await allocsOf(t, id)).map((a) => a.ID as string);
    expectThat(
      !current.some((a) => oldAllocs.includes(a)),
      'all',
      "by default the earlier job's allocations are left out",
      'none of the earlier',
      current,
    );
    // The earlier job exists only through a purge: whether a purge keeps its allocations and
    // deployments is the assumption, and a target that collects them differs from it (the test
    // goes on to check the default listings, which the document does define).
    const all = (await allocsOf(t, id, { all: true })).map((a) => a.ID as string);
    t.assuming('jobs.allocations.all-after-purge', () =>
      expectThat(
        oldAllocs.every((a) => all.includes(a)),
        'all',
        "all=true includes the earlier job's allocations",
        oldAllocs,
        all,
      ),
    );
    const depsNow = (await deploymentsOf(t, id)).map((d) => d.ID as string);
    expectThat(
      !depsNow.some((d) => oldDeps.includes(d)),
      'all',
      "by default the earlier job's deployments are left out",
      'none of the earlier',
      depsNow,
    );
    const depsAll = (await deploymentsOf(t, id, { all: true })).map((d) => d.ID as string);
    t.assuming('jobs.allocations.all-after-purge', () =>
      expectThat(
        oldDeps.every((d) => depsAll.includes(d)),
        'all',
        "all=true includes the earlier job's deployments",
        oldDeps,
        depsAll,
      ),
    );
  },
);

conformance(
  { id: 'jobs.read.unknown-404', level: 'MUST', title: 'GET /v1/job/:job_id/scale of an unknown job answers 4xx' },
  async (t) => {
    t.check(await t.sched.get(`job/${enc(t.unique('nojob'))}/scale`), clientError);
  },
);
