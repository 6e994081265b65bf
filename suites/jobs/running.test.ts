/**
 * What the scheduler makes to run a job, read back with the fields the document lists: its
 * evaluations, allocations with their task states and events, the deployment of a service job
 * with an update strategy and the job once it runs, and the service registrations.
 */
import { suite, conformance, type T } from '../../harness/index.js';
import { bodyAt, expectThat, expectEqual, hasField } from '../../harness/checks/index.js';
import { body, enc, ok, readJob, register, registered, waitFor, type Obj } from './helpers.js';
import { DAY_NS, failingBatchJob } from './failing-batch.js';

suite('jobs');

const isInt = (v: unknown) => Number.isInteger(v);
const isIndex = (v: unknown) => Number.isInteger(v) && (v as number) >= 0;
const isString = (v: unknown) => typeof v === 'string';
const isBool = (v: unknown) => typeof v === 'boolean';
const isObjOrNull = (v: unknown) => v === null || (typeof v === 'object' && !Array.isArray(v));

const listOf = async (t: T, id: string, what: string) => {
  const ex = await t.sched.get(`job/${enc(id)}/${what}`);
  t.check(ex, ok);
  return body<Obj[]>(ex) ?? [];
};

/** Lets the scheduler's time pass (its clock, or real time) and polls until `ok` holds. */
async function eventually<R>(t: T, what: string, read: () => Promise<R>, done: (r: R) => boolean): Promise<R> {
  return waitFor(
    what,
    async () => {
      await t.advance(1);
      return read();
    },
    done,
  );
}

/**
 * A field that holds nothing in the situation read (the node of an evaluation no node triggered,
 * the previous allocation of a first one, an empty description, a false flag): absent, or of its
 * type. The document lists the fields of each resource, not that an empty one is sent, and the
 * real scheduler leaves empty values out.
 */
const orAbsent =
  (check: (v: unknown) => boolean) =>
  (v: unknown): boolean =>
    v === undefined || check(v);

/** A check of every named field of one element of a list answer (its position in the list). */
function fieldsAt(prefix: string, checks: Record<string, (v: unknown) => boolean>) {
  return Object.entries(checks).map(([f, ok]) => bodyAt(`${prefix}/${f}`, ok, `is of the documented type`));
}

conformance(
  {
    id: 'jobs.evaluations.list',
    level: 'MUST',
    title:
      'GET /v1/job/:job_id/evaluations returns the registration evaluation with its fields, complete once processed',
    movesClock: 'so allocations start, evaluations finish and deployments succeed',
  },
  async (t) => {
    const { id, ex } = await registered(t, 'service', 'evfields');
    const evalId = body(ex).EvalID as string;
    await eventually(
      t,
      "the registration's evaluation is processed",
      () => listOf(t, id, 'evaluations'),
      (l) => l.some((e) => e.ID === evalId && e.Status === 'complete'),
    );
    const read = await t.sched.get(`job/${enc(id)}/evaluations`);
    const at = (body<Obj[]>(read) ?? []).findIndex((e) => e.ID === evalId);
    t.check(
      read,
      ...fieldsAt(`/${at}`, {
        ID: (v) => v === evalId,
        Priority: isInt,
        Type: (v) => v === 'service',
        TriggeredBy: (v) => isString(v) && v !== '',
        JobID: (v) => v === id,
        JobModifyIndex: (v) => v === body(ex).JobModifyIndex,
        // A registration's evaluation: no node triggered it, it waited for nothing, no other
        // evaluation came before or after it, nothing failed to place and no plan was annotated.
        NodeID: orAbsent(isString),
        NodeModifyIndex: orAbsent(isIndex),
        Status: (v) => v === 'complete',
        StatusDescription: orAbsent(isString),
        Wait: orAbsent(isInt),
        NextEval: orAbsent(isString),
        PreviousEval: orAbsent(isString),
        BlockedEval: orAbsent(isString),
        FailedTGAllocs: orAbsent(isObjOrNull),
        ClassEligibility: orAbsent(isObjOrNull),
        EscapedComputedClass: orAbsent(isBool),
        AnnotatePlan: orAbsent(isBool),
        QueuedAllocations: (v) => isObjOrNull(v) && (v === null || Object.values(v as Obj).every(isInt)),
        SnapshotIndex: isIndex,
        CreateIndex: isIndex,
        ModifyIndex: isIndex,
      }),
    );
  },
);

conformance(
  {
    id: 'jobs.allocations.list',
    level: 'MUST',
    title:
      'GET /v1/job/:job_id/allocations returns allocations with their fields, task states and task events of an evaluation of the job',
    movesClock: 'so allocations start, evaluations finish and deployments succeed',
  },
  async (t) => {
    const { id } = await registered(t, 'service', 'alfields');
    const allocs = await eventually(
      t,
      'an allocation runs',
      () => listOf(t, id, 'allocations'),
      (a) => a.some((x) => x.ClientStatus === 'running'),
    );
    const at = allocs.findIndex((x) => x.ClientStatus === 'running');
    const alloc = allocs[at]!;
    const read = await t.sched.get(`job/${enc(id)}/allocations`);
    const index = (body<Obj[]>(read) ?? []).findIndex((x) => x.ID === alloc.ID);
    const evals = (await listOf(t, id, 'evaluations')).map((e) => e.ID as string);
    t.check(
      read,
      ...fieldsAt(`/${index}`, {
        ID: (v) => v === alloc.ID,
        EvalID: (v) => isString(v) && evals.includes(v),
        Name: (v) => isString(v) && v !== '',
        NodeID: (v) => isString(v) && v !== '',
        // The first allocation of the group, never rescheduled: no previous or next allocation.
        PreviousAllocation: orAbsent(isString),
        NextAllocation: orAbsent(isString),
        RescheduleTracker: orAbsent(isObjOrNull),
        JobID: (v) => v === id,
        TaskGroup: (v) => v === 'cache',
        DesiredStatus: (v) => v === 'run',
        DesiredDescription: orAbsent(isString),
        ClientStatus: (v) => v === 'running',
        ClientDescription: orAbsent(isString),
        CreateIndex: isIndex,
        ModifyIndex: isIndex,
        CreateTime: isInt,
        ModifyTime: isInt,
      }),
      hasField(`/${index}/TaskStates/redis`),
    );
    const state = (body<Obj[]>(read)[index]!.TaskStates as Obj).redis as Obj;
    expectEqual(
      [state.State, typeof state.Failed, typeof state.StartedAt, 'FinishedAt' in state],
      ['running', 'boolean', 'string', true],
      'the task state: State running, Failed, StartedAt and FinishedAt',
    );
    const events = (state.Events ?? []) as Obj[];
    expectThat(events.length > 0, 'events', events.length, '>= 1', 'the task of a running allocation has events');
    const fields = ['Type', 'Time', 'FailsTask', 'RestartReason', 'SetupError', 'DriverError', 'ExitCode', 'Signal'];
    fields.push('Message', 'KillTimeout', 'KillError', 'KillReason', 'StartDelay', 'DownloadError', 'ValidationError');
    fields.push('DiskLimit', 'FailedSibling', 'SecretsError', 'TaskSignalReason', 'TaskSignal', 'DriverMessage');
    for (const [i, e] of events.entries()) {
      const missing = fields.filter((f) => !(f in e));
      expectEqual(missing, [], `task event ${i} (${String(e.Type)}) has every documented field`);
      expectThat(
        isString(e.Type) && e.Type !== '' && isInt(e.Time),
        'events',
        { Type: e.Type, Time: e.Time },
        'a type and integer nanoseconds',
        `task event ${i}: Type and Time`,
      );
    }
    const seen = ['Received', 'Task Setup', 'Driver', 'Started'];
    expectThat(
      events.some((e) => seen.includes(e.Type)),
      'events',
      events.map((e) => e.Type),
      seen,
      `the events of a task that started include a type the document shows (${seen.join(', ')})`,
    );
  },
);

conformance(
  {
    id: 'jobs.deployments.list',
    also: ['jobs.read.returns-job', 'jobs.deployment.created-for-service-update'],
    level: 'MUST',
    title:
      'GET /v1/job/:job_id/deployments returns a finished deployment with its fields and group counts; the job then runs',
    movesClock: 'so allocations start, evaluations finish and deployments succeed',
  },
  async (t) => {
    const { id } = await registered(t, 'service-with-update', 'depfields');
    const job = await readJob(t, id);
    // Which jobs get a deployment, and that it ends successful, is the catalogue's reading; it is
    // read from the latest deployment, so that what the list answers is judged on its own.
    const latest = await t.proving('jobs.deployment.created-for-service-update', () =>
      eventually(
        t,
        'the deployment of the job becomes successful',
        async () => (body<Obj>(await t.sched.get(`job/${enc(id)}/deployment`)) ?? {}) as Obj,
        (d) => d.Status === 'successful',
      ),
    );
    const read = await t.sched.get(`job/${enc(id)}/deployments`);
    const index = (body<Obj[]>(read) ?? []).findIndex((x) => x.ID === latest.ID);
    t.check(
      read,
      ...fieldsAt(`/${index}`, {
        ID: (v) => isString(v) && v !== '',
        JobID: (v) => v === id,
        JobVersion: (v) => v === job.Version,
        JobModifyIndex: (v) => v === job.JobModifyIndex,
        JobCreateIndex: (v) => v === job.CreateIndex,
        Status: (v) => v === 'successful',
        StatusDescription: isString,
        CreateIndex: isIndex,
        ModifyIndex: isIndex,
      }),
    );
    const web = ((body<Obj[]>(read)[index]!.TaskGroups ?? {}) as Obj).web as Obj | undefined;
    expectThat(!!web, 'task-groups', body<Obj[]>(read)[index]!.TaskGroups, 'web', 'TaskGroups is keyed by group: web');
    expectEqual(
      {
        AutoRevert: web!.AutoRevert,
        Promoted: web!.Promoted,
        DesiredCanaries: web!.DesiredCanaries,
        DesiredTotal: web!.DesiredTotal,
        PlacedAllocs: web!.PlacedAllocs,
        HealthyAllocs: web!.HealthyAllocs,
        UnhealthyAllocs: web!.UnhealthyAllocs,
      },
      {
        AutoRevert: false,
        Promoted: false,
        DesiredCanaries: 0,
        DesiredTotal: 2,
        PlacedAllocs: 2,
        HealthyAllocs: 2,
        UnhealthyAllocs: 0,
      },
      'the group of the finished deployment: two allocations placed and healthy, no canary',
    );
    expectThat(
      web!.PlacedCanaries === null || (Array.isArray(web!.PlacedCanaries) && web!.PlacedCanaries.length === 0),
      'task-groups',
      web!.PlacedCanaries,
      'null or []',
      'no canary was placed',
    );
    const running = await t.sched.get(`job/${enc(id)}`);
    t.as('jobs.read.returns-job').check(
      running,
      ok,
      bodyAt('/Status', 'running', 'is running once the allocations run'),
      bodyAt('/Stable', orAbsent(isBool), 'is a boolean (or absent: a false flag holds nothing)'),
    );
  },
);

conformance(
  {
    id: 'jobs.services.list',
    level: 'MUST',
    title:
      'GET /v1/job/:job_id/services returns registrations with every documented field, on the node of their allocation',
    movesClock: 'so allocations start, evaluations finish and deployments succeed',
  },
  async (t) => {
    const { id } = await registered(t, 'service', 'svcfields');
    const regs = await eventually(
      t,
      'the service is registered',
      () => listOf(t, id, 'services'),
      (r) => r.length > 0,
    );
    const allocs = await listOf(t, id, 'allocations');
    const read = await t.sched.get(`job/${enc(id)}/services`);
    const reg = regs[0]!;
    const index = (body<Obj[]>(read) ?? []).findIndex((r) => r.ID === reg.ID);
    const alloc = allocs.find((a) => a.ID === reg.AllocID);
    t.check(
      read,
      ...fieldsAt(`/${index}`, {
        Address: (v) => isString(v) && v !== '',
        AllocID: (v) => !!alloc && v === alloc.ID,
        CreateIndex: isIndex,
        Datacenter: (v) => isString(v) && v !== '',
        ID: (v) => isString(v) && v !== '',
        JobID: (v) => v === id,
        ModifyIndex: isIndex,
        Namespace: (v) => v === 'default',
        NodeID: (v) => !!alloc && v === alloc.NodeID,
        Port: (v) => isInt(v) && (v as number) > 0,
        ServiceName: (v) => v === 'redis-cache',
        Tags: (v) => Array.isArray(v) && [...v].sort().join(',') === 'cache,db',
      }),
    );
  },
);

/**
 * A failed allocation and its replacement: a batch task that fails at once, with one reschedule
 * attempt a day after the failure, replaced by a forced evaluation (EvalOptions.ForceReschedule, the
 * trigger every scheduler carries out). Both as the allocations list shows them.
 */
async function rescheduled(t: T, base: string): Promise<{ failed: Obj; next: Obj; before: Obj }> {
  const id = t.unique(base);
  await register(t, failingBatchJob(t, id, DAY_NS));
  const failed = (
    await eventually(
      t,
      'the allocation fails',
      () => listOf(t, id, 'allocations'),
      (a) => a.some((x) => x.ClientStatus === 'failed'),
    )
  ).find((x) => x.ClientStatus === 'failed')!;
  const forced = await t.sched.post(`job/${enc(id)}/evaluate`, {
    body: { JobID: id, EvalOptions: { ForceReschedule: true } },
  });
  t.precondition(forced, ok);
  const allocs = await eventually(
    t,
    `a replacement of the failed allocation ${failed.ID} is placed`,
    () => listOf(t, id, 'allocations'),
    (a) => a.some((x) => x.ID !== failed.ID),
  );
  return {
    failed,
    next: allocs.find((x) => x.ID !== failed.ID)!,
    before: allocs.find((x) => x.ID === failed.ID)!,
  };
}

conformance(
  {
    id: 'jobs.allocations.list',
    level: 'MUST',
    title:
      'GET /v1/job/:job_id/allocations links a rescheduled allocation: NextAllocation and the RescheduleTracker events of its replacement',
    movesClock: 'so the allocation fails and its replacement is placed',
  },
  async (t) => {
    const { failed, next, before } = await rescheduled(t, 'alnext');
    expectEqual(before.NextAllocation, next.ID, 'the failed allocation names its replacement as NextAllocation');
    const event = ((next.RescheduleTracker?.Events ?? []) as Obj[]).find((e) => e.PrevAllocID === failed.ID);
    expectThat(
      !!event &&
        event.PrevNodeID === failed.NodeID &&
        isInt(event.RescheduleTime) &&
        (event.RescheduleTime as number) > 0 &&
        isInt(event.Delay),
      'reschedule',
      next.RescheduleTracker,
      { PrevAllocID: failed.ID, PrevNodeID: failed.NodeID, RescheduleTime: 'nanoseconds', Delay: 'integer' },
      'the RescheduleTracker of the replacement has an event of the failed allocation: PrevAllocID, PrevNodeID, RescheduleTime, Delay',
    );
  },
);

conformance(
  {
    id: 'jobs.allocations.list',
    level: 'MUST',
    title: 'GET /v1/job/:job_id/allocations names the allocation a replacement replaced as its PreviousAllocation',
    movesClock: 'so the allocation fails and its replacement is placed',
  },
  async (t) => {
    const { failed, next } = await rescheduled(t, 'alprev');
    expectEqual(
      next.PreviousAllocation,
      failed.ID,
      'the replacement names the failed allocation as PreviousAllocation',
    );
  },
);
