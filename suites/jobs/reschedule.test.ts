/**
 * The forced reschedule of POST /v1/job/:job_id/evaluate (EvalOptions.ForceReschedule): a failed
 * allocation replaced before its reschedule delay and past its reschedule limit, and the default
 * (false) on every request.
 */
import { suite, conformance, type T } from '../../harness/index.js';
import { expectThat, expectEqual } from '../../harness/checks/index.js';
import { body, enc, register, waitAdvancing, type Obj, ok } from './helpers.js';
import { DAY_NS, failingBatchJob } from './failing-batch.js';

suite('jobs');

const allocsOf = async (t: T, id: string) => {
  const ex = await t.sched.get(`job/${enc(id)}/allocations`);
  t.check(ex, ok);
  return body<Obj[]>(ex);
};

/** The job's evaluation `evalId` once the scheduler has processed it. */
const processed = (t: T, id: string, evalId: string) =>
  waitAdvancing(
    t,
    `evaluation ${evalId} is processed`,
    async () => body<Obj[]>(await t.sched.get(`job/${enc(id)}/evaluations`)).find((e) => e.ID === evalId),
    (ev) => ev?.Status === 'complete',
  );

conformance(
  {
    id: 'jobs.evaluate.force-reschedule',
    level: 'MUST',
    title:
      'POST /v1/job/:job_id/evaluate with EvalOptions.ForceReschedule true replaces a failed allocation before its reschedule delay; without it the allocation stays failed',
  },
  async (t) => {
    const id = t.unique('sforce');
    // One reschedule attempt a day after the failure: the failed allocation is within its
    // reschedule delay ("even past reschedule limits or delays").
    await register(t, failingBatchJob(t, id, DAY_NS));
    const failed = (
      await waitAdvancing(
        t,
        'the allocation fails',
        () => allocsOf(t, id),
        (a) => a.some((x) => x.ClientStatus === 'failed'),
      )
    ).find((x) => x.ClientStatus === 'failed')!;
    // Without EvalOptions the default applies (false); with it, ForceReschedule true.
    const evaluate = async (force?: boolean) => {
      const ex = await t.sched.post(`job/${enc(id)}/evaluate`, {
        body: force === undefined ? { JobID: id } : { JobID: id, EvalOptions: { ForceReschedule: force } },
      });
      t.precondition(ex, ok);
      await processed(t, id, body(ex).EvalID);
    };

    // A replacement is any allocation placed after the failure (a real scheduler also names the
    // failed one in its PreviousAllocation; the sentence asks only that it be rescheduled).
    const before = new Set((await allocsOf(t, id)).map((a) => a.ID as string));
    const placedSince = (allocs: Obj[]) => allocs.filter((a) => !before.has(a.ID));

    await evaluate();
    const unforced = placedSince(await allocsOf(t, id));
    expectThat(
      unforced.length === 0,
      'reschedule',
      unforced.map((a) => ({ ID: a.ID, ClientStatus: a.ClientStatus, PreviousAllocation: a.PreviousAllocation })),
      'no new allocation',
      'without ForceReschedule (default false) the failed allocation within its delay is not replaced',
    );
    await evaluate(false);
    const unforcedFalse = placedSince(await allocsOf(t, id));
    expectThat(
      unforcedFalse.length === 0,
      'reschedule',
      unforcedFalse.map((a) => ({ ID: a.ID, ClientStatus: a.ClientStatus, PreviousAllocation: a.PreviousAllocation })),
      'no new allocation',
      'with ForceReschedule false the failed allocation within its delay is not replaced',
    );

    await evaluate(true);
    const forced = await waitAdvancing(
      t,
      `with ForceReschedule a replacement of the failed allocation ${failed.ID} is placed`,
      () => allocsOf(t, id),
      (a) => placedSince(a).length > 0,
    );
    // ForceReschedule defaults to false on every request: a forced one does not carry over.
    const placed = new Set(forced.map((a) => a.ID as string));
    const done = (a: Obj[]) => a.length === placed.size && a.every((x) => x.ClientStatus === 'failed');
    await waitAdvancing(t, 'the forced replacement fails too', () => allocsOf(t, id), done);
    await evaluate();
    const after = (await allocsOf(t, id)).filter((a) => !placed.has(a.ID)).map((a) => a.ID);
    expectEqual(after, [], 'an evaluation without ForceReschedule after a forced one places nothing');
  },
);

conformance(
  {
    id: 'jobs.evaluate.force-reschedule',
    level: 'MUST',
    title:
      'POST /v1/job/:job_id/evaluate with EvalOptions.ForceReschedule true replaces a failed allocation past its reschedule limit; evaluations without it after it do not',
  },
  async (t) => {
    const id = t.unique('slimit');
    // One reschedule attempt 5 s after a failure, within two days: the first replacement uses it up.
    await register(t, failingBatchJob(t, id, 5_000_000_000));
    const evaluate = async (force?: boolean) => {
      const ex = await t.sched.post(`job/${enc(id)}/evaluate`, {
        body: force === undefined ? { JobID: id } : { JobID: id, EvalOptions: { ForceReschedule: force } },
      });
      t.precondition(ex, ok);
      await processed(t, id, body(ex).EvalID);
    };
    const allFailed = (n: number) => (a: Obj[]) => a.length === n && a.every((x) => x.ClientStatus === 'failed');
    // The first allocation fails and its one attempt replaces it once the delay passed (on an
    // evaluation, or the scheduler's own); the replacement fails too.
    await waitAdvancing(
      t,
      'the first allocation fails and is replaced once (its one reschedule attempt)',
      async () => {
        const a = await allocsOf(t, id);
        if (allFailed(1)(a)) await evaluate();
        return allocsOf(t, id);
      },
      (a) => a.length >= 2,
    );
    await waitAdvancing(t, 'the replacement fails too', () => allocsOf(t, id), allFailed(2));
    // Its limit used up, an evaluation without ForceReschedule leaves it: the trigger of the rule.
    await evaluate();
    if ((await allocsOf(t, id)).length !== 2)
      t.notApplicable(
        'an evaluation without ForceReschedule replaced the allocation: its reschedule limit did not hold',
      );
    await evaluate(true);
    await waitAdvancing(
      t,
      'with ForceReschedule the allocation past its reschedule limit is replaced',
      () => allocsOf(t, id),
      (a) => a.length === 3,
    );
    // ForceReschedule defaults to false on every request: the one before does not carry over.
    await waitAdvancing(t, 'the forced replacement fails too', () => allocsOf(t, id), allFailed(3));
    await evaluate();
    const after = await allocsOf(t, id);
    expectThat(
      after.length === 3,
      'reschedule',
      after.map((a) => ({ ID: a.ID, ClientStatus: a.ClientStatus, PreviousAllocation: a.PreviousAllocation })),
      3,
      'an evaluation without ForceReschedule after a forced one replaces nothing (the default is false)',
    );
  },
);
