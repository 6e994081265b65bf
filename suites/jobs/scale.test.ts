/**
 * Scale status and scaling (data-driven request rules, EnforceIndex, PolicyOverride), the
 * active-deployment refusal and the deployments of a service job (allocations, summary and
 * services: allocations.test.ts).
 */
import { isDeepStrictEqual } from 'node:util';
import { suite, conformance, schedTokenWith, type T } from '../../harness/index.js';
import { statusIs, clientError, bodyAt, expectThat, expectEqual } from '../../harness/checks/index.js';
import { jobDefinition } from '../../fixtures/jobs/index.js';
import { runCases } from '../lib/cases.js';
import { HOLD_DEPLOYMENT_META } from '../../contract/scheduler-control.js';
import {
  body,
  enc,
  readJob,
  refusedUnchanged,
  register,
  registered,
  runCase,
  scalable,
  update,
  waitFor,
  type Obj,
  ok,
  currentVersion,
} from './helpers.js';
import { writeAnswer } from './answers.js';

suite('jobs');

/** Lets simulated (or real) time pass so allocations start and deployments settle. */
async function settle(t: T, seconds: number): Promise<void> {
  await t.advance(seconds);
}

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
    const job = await readJob(t, id);
    const ex = await t.sched.get(`job/${enc(id)}/scale`);
    t.check(
      ex,
      ok,
      bodyAt('/JobID', id),
      bodyAt('/Namespace', 'default'),
      bodyAt('/JobStopped', (v: unknown) => v === undefined || v === false, 'is false (or absent) for a running job'),
      bodyAt('/TaskGroups/cache/Desired', 1),
      bodyAt('/JobModifyIndex', Number.isInteger, 'is an integer'),
      bodyAt('/JobCreateIndex', job.CreateIndex, "is the job's CreateIndex"),
    );
    for (const k of ['Healthy', 'Placed', 'Running', 'Unhealthy'])
      t.check(ex, bodyAt(`/TaskGroups/cache/${k}`, Number.isInteger, 'is an integer count'));
    // Once the group's one allocation runs, it is counted placed and running.
    await settle(t, 3);
    const running = await waitFor(
      'the scale status counts the running allocation',
      async () => body(await t.sched.get(`job/${enc(id)}/scale`)).TaskGroups?.cache as Obj,
      (g) => g?.Running === 1,
    );
    expectEqual(
      [running.Placed, running.Running],
      [1, 1],
      'Placed and Running of the group with one running allocation',
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
    // A write response; the scaled service job is evaluated.
    t.check(ex, ok, ...writeAnswer({ evaluation: true }));
    t.check(await t.sched.get(`job/${enc(id)}/scale`), ok, bodyAt('/TaskGroups/cache/Desired', 3));
    const scaled = await readJob(t, id);
    expectEqual(scaled.TaskGroups[0].Count, 3, 'the job definition has the new count');
    t.check(ex, bodyAt('/JobModifyIndex', scaled.JobModifyIndex, "is the scaled job's JobModifyIndex"));
  },
);

conformance(
  {
    id: 'jobs.scale.sets-count',
    level: 'MUST',
    title:
      'POST /v1/job/:job_id/scale without Count (it is optional) is accepted; the group count stays as it was (assumption)',
  },
  async (t) => {
    const { id } = await registered(t, 'service', 'snocount');
    await scalable(t, id);
    const before = (await readJob(t, id)).TaskGroups[0].Count;
    // With a Message: the form of the Error field is message-xor-error's, not this rule's.
    t.check(
      await t.sched.post(`job/${enc(id)}/scale`, {
        body: { Message: 'the autoscaler left the count', Target: { Group: 'cache' } },
      }),
      ok,
    );
    // What a scale without Count does to the count is not said: the open point only.
    const read = await readJob(t, id);
    const status = await t.sched.get(`job/${enc(id)}/scale`);
    t.check(status, ok);
    t.assuming('jobs.scale.count-omitted-unchanged', () => {
      expectEqual(read.TaskGroups[0].Count, before, 'the group count after a scale without Count');
      t.check(status, bodyAt('/TaskGroups/cache/Desired', before));
    });
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
    // The event is found by its Meta, the one field the document says it stores.
    const meta = { source: 'suite', request: t.unique('why') };
    t.check(
      await t.sched.post(`job/${enc(id)}/scale`, {
        body: { Count: 2, Message: 'scaled by the suite', Meta: meta, Target: { Group: 'cache' } },
      }),
      ok,
    );
    const status = await t.sched.get(`job/${enc(id)}/scale`);
    t.check(status, ok);
    const events = (body(status).TaskGroups?.cache?.Events ?? []) as Obj[];
    expectThat(
      // Compared as values: a scheduler may store the members in another order.
      events.some((e) => isDeepStrictEqual(e.Meta, meta)),
      'event',
      events,
      meta,
      'the scale status lists an event holding the request Meta',
    );
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
    // The list of the job's deployments shows it running too.
    t.check(await t.sched.get(`job/${enc(id)}/deployments`), ok, bodyAt('/0/Status', 'running'));
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
    expectEqual(
      [deps[0]!.JobID, deps[0]!.JobVersion],
      [id, await currentVersion(t, id)],
      'the deployment belongs to the first version of the job',
    );
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
    id: 'jobs.deployment.latest',
    level: 'MUST',
    title: 'GET /v1/job/:job_id/deployment reads the deployment of the newest version once a second one exists',
  },
  async (t) => {
    const { id, job } = await registered(t, 'service-with-update', 'sdep2');
    await waitFor(
      'the first deployment is created',
      () => deploymentsOf(t, id),
      (d) => d.length > 0,
    );
    const changed = structuredClone(job);
    changed.TaskGroups![0]!.Tasks![0]!.Env = { MODE: 'secondary' };
    t.precondition(await update(t, changed), ok);
    const version = (await readJob(t, id)).Version;
    const deps = await waitFor(
      'a deployment of the new version is created',
      () => deploymentsOf(t, id),
      (d) => d.some((x) => x.JobVersion === version),
    );
    expectThat(deps.length >= 2, 'deployments', deps.length, '>= 2', 'the job has two deployments');
    const newest = deps.find((x) => x.JobVersion === version)!;
    t.check(await t.sched.get(`job/${enc(id)}/deployment`), ok, bodyAt('/ID', newest.ID));
  },
);

conformance(
  {
    id: 'jobs.scale.enforce-index',
    level: 'MUST',
    title: 'POST /v1/job/:job_id/scale with EnforceIndex applies only with the current JobModifyIndex',
  },
  async (t) => {
    const { id } = await registered(t, 'service', 'senf');
    await scalable(t, id);
    const current = (await readJob(t, id)).JobModifyIndex as number;
    const scale = (extra: Obj) =>
      t.sched.post(`job/${enc(id)}/scale`, {
        body: { Count: 2, Message: 'enforced', Target: { Group: 'cache' }, EnforceIndex: true, ...extra },
      });
    // Only a stale index is refused: what an omitted one (0) means for a scale is not said (the
    // register's "index 0 means only if the job is new" speaks of registering; a scaled job exists).
    await refusedUnchanged(t, id, 'a scale request with EnforceIndex and a stale JobModifyIndex', () =>
      scale({ JobModifyIndex: current + 1000 }),
    );
    t.check(await scale({ JobModifyIndex: current }), ok);
    expectEqual((await readJob(t, id)).TaskGroups[0].Count, 2, 'the request with the current index scaled the group');
  },
);

conformance(
  {
    id: 'jobs.acl.policy-override',
    level: 'MUST',
    requires: ['schedAcl'],
    title: 'POST /v1/job/:job_id/scale with PolicyOverride needs namespace:policy-override; without it scale-job does',
  },
  async (t) => {
    const { id } = await registered(t, 'service', 'spo');
    await scalable(t, id);
    const send = async (caps: string[], override?: boolean) =>
      t.sched.post(`job/${enc(id)}/scale`, {
        token: await schedTokenWith(t, caps),
        body: { Message: 'acl', Target: { Group: 'cache' }, PolicyOverride: override },
      });
    t.check(await send(['scale-job']), ok);
    const denied = await send(['scale-job'], true);
    expectThat(
      denied.response.status >= 400,
      'acl',
      denied.response.status,
      'a refusal',
      'PolicyOverride without policy-override is denied',
    );
    t.check(await send(['scale-job', 'policy-override'], true), ok);
  },
);

conformance(
  { id: 'jobs.read.unknown-404', level: 'MUST', title: 'GET /v1/job/:job_id/scale of an unknown job answers 4xx' },
  async (t) => {
    t.check(await t.sched.get(`job/${enc(t.unique('nojob'))}/scale`), clientError);
  },
);
