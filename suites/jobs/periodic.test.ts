/**
 * POST /v1/job/:job_id/periodic/force: an instance per force, even while one runs with
 * prohibit_overlap; the forces are 2 s apart on the scheduler's clock (moved, or waited in real time
 * where it cannot be moved), so instances named after their launch time are told apart. Instances are counted in the parent's summary (Children).
 */
import { suite, conformance, type T } from '../../harness/index.js';
import { bodyAt, expectThat } from '../../harness/checks/index.js';
import { body, elapse, enc, refusedUnchanged, registered, type Obj, ok } from './helpers.js';

suite('jobs');

/** How many instances the periodic job's summary counts (Children: Pending, Running, Dead). */
async function instances(t: T, id: string): Promise<number> {
  const ex = await t.sched.get(`job/${enc(id)}/summary`);
  t.check(ex, ok);
  const c = (body(ex).Children ?? {}) as Obj;
  return Number(c.Pending ?? 0) + Number(c.Running ?? 0) + Number(c.Dead ?? 0);
}

/** Purges the instances of a periodic job (its children, found by ParentID). */
async function purgeInstances(t: T, id: string): Promise<void> {
  for (const c of body<Obj[]>(await t.sched.get('jobs', { validate: false })) ?? [])
    if (c.ParentID === id)
      await t.sched.delete(`job/${enc(String(c.ID))}`, { query: { purge: true }, validate: false });
}

conformance(
  {
    id: 'jobs.periodic.force',
    also: ['jobs.periodic.force-ignores-overlap'],
    level: 'MUST',
    title:
      'POST /v1/job/:job_id/periodic/force launches an instance each time, even while one runs with prohibit_overlap',
    movesClock: 'so the first forced instance runs when the second is forced',
  },
  async (t) => {
    const { id } = await registered(t, 'periodic', 'pforce');
    t.track(`instances of ${id}`, () => purgeInstances(t, id));
    const first = await t.sched.post(`job/${enc(id)}/periodic/force`);
    t.check(
      first,
      ok,
      bodyAt('/EvalID', (v: unknown) => typeof v === 'string' && v.length > 0, 'names an evaluation'),
      bodyAt('/EvalCreateIndex', Number.isInteger, 'is an integer'),
    );
    expectThat(
      (await instances(t, id)) === 1,
      'instances',
      await instances(t, id),
      1,
      'one instance after the first force',
    );
    // The first instance runs (sleep 3600) and overlap is prohibited; the next force comes 2 s later
    // on the scheduler's clock (moved where the harness can, else waited: a real scheduler may name
    // an instance after the second it was launched in).
    await elapse(t, 2);
    const second = await t.sched.post(`job/${enc(id)}/periodic/force`);
    t.proving('jobs.periodic.force-ignores-overlap', () =>
      t.check(
        second,
        ok,
        bodyAt(
          '/EvalID',
          (v: unknown) => typeof v === 'string' && v.length > 0 && v !== body(first).EvalID,
          'names a new evaluation',
        ),
      ),
    );
    const count = await instances(t, id);
    t.proving('jobs.periodic.force-ignores-overlap', () =>
      expectThat(
        count === 2,
        'instances',
        count,
        2,
        'a second instance although the first still runs and overlap is prohibited',
      ),
    );
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
