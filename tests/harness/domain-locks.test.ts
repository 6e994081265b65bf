/**
 * The reader-writer locks over domains (harness/domain-locks/locks.ts): shared and exclusive,
 * FIFO fairness (a waiting writer is not overtaken by later readers), all domains of a request at
 * once, withdrawal, and who blocks whom.
 */
import { describe, expect, it } from 'vitest';
import { DomainLocks, compatible, describeWants } from '../../harness/domain-locks/locks.js';

/** Whether a promise has settled by the end of the current microtask queue. */
async function settled(p: Promise<unknown>): Promise<boolean> {
  let done = false;
  void p.then(() => {
    done = true;
  });
  await new Promise((r) => setImmediate(r));
  return done;
}

describe('DomainLocks', () => {
  it('lets shared holders of a domain in together and keeps an exclusive one out until they leave', async () => {
    const locks = new DomainLocks();
    const a = locks.request('a', { secrets: 'shared' });
    const b = locks.request('b', { secrets: 'shared' });
    expect(await settled(a.granted)).toBe(true);
    expect(await settled(b.granted)).toBe(true);
    const w = locks.request('w', { secrets: 'exclusive' });
    expect(await settled(w.granted)).toBe(false);
    a.release();
    expect(await settled(w.granted), 'one shared holder left').toBe(false);
    b.release();
    expect(await settled(w.granted)).toBe(true);
  });

  it('keeps everyone else out of a domain an exclusive holder has, and lets other domains through', async () => {
    const locks = new DomainLocks();
    const w = locks.request('w', { scheduler: 'exclusive' });
    const r = locks.request('r', { scheduler: 'shared' });
    const w2 = locks.request('w2', { scheduler: 'exclusive' });
    const other = locks.request('other', { secrets: 'exclusive' });
    expect(await settled(w.granted)).toBe(true);
    expect(await settled(r.granted)).toBe(false);
    expect(await settled(w2.granted)).toBe(false);
    expect(await settled(other.granted), 'another domain is not held back').toBe(true);
    w.release();
    expect(await settled(r.granted)).toBe(true);
    expect(await settled(w2.granted)).toBe(false);
    r.release();
    expect(await settled(w2.granted)).toBe(true);
  });

  it('is FIFO-fair: readers arriving after a waiting writer wait behind it (no writer starvation)', async () => {
    const locks = new DomainLocks();
    const r1 = locks.request('r1', { secrets: 'shared' });
    const w = locks.request('w', { secrets: 'exclusive' });
    const r2 = locks.request('r2', { secrets: 'shared' });
    expect(await settled(r1.granted)).toBe(true);
    expect(await settled(w.granted)).toBe(false);
    expect(await settled(r2.granted), 'a later reader does not overtake the waiting writer').toBe(false);
    const order: string[] = [];
    void w.granted.then(() => order.push('w'));
    void r2.granted.then(() => order.push('r2'));
    r1.release();
    await settled(w.granted);
    expect(order).toEqual(['w']);
    w.release();
    await settled(r2.granted);
    expect(order).toEqual(['w', 'r2']);
  });

  it('lets a later request pass an earlier waiter it does not conflict with', async () => {
    const locks = new DomainLocks();
    const holder = locks.request('holder', { secrets: 'exclusive' });
    const waiting = locks.request('waiting', { secrets: 'shared', scheduler: 'shared' });
    const sched = locks.request('sched', { scheduler: 'shared' });
    const schedWriter = locks.request('schedWriter', { scheduler: 'exclusive' });
    expect(await settled(holder.granted)).toBe(true);
    expect(await settled(waiting.granted)).toBe(false);
    expect(await settled(sched.granted), 'shared behind shared on the scheduler passes').toBe(true);
    expect(await settled(schedWriter.granted), 'a writer behind the waiting reader of its domain waits').toBe(false);
  });

  it('grants all domains of a request at once or none, so holders never wait for a second lock', async () => {
    const locks = new DomainLocks();
    const s = locks.request('s', { secrets: 'exclusive' });
    const both = locks.request('both', { secrets: 'shared', scheduler: 'shared' });
    const sched = locks.request('sched', { scheduler: 'exclusive' });
    expect(await settled(s.granted)).toBe(true);
    expect(await settled(both.granted)).toBe(false);
    // "both" holds nothing while it waits: the scheduler domain is not half-taken by it.
    expect(locks.state().held.map((e) => e.label)).toEqual(['s']);
    expect(await settled(sched.granted), 'the scheduler writer waits behind "both" (FIFO)').toBe(false);
    s.release();
    expect(await settled(both.granted)).toBe(true);
    expect(locks.state().held.map((e) => e.label)).toEqual(['both']);
    both.release();
    expect(await settled(sched.granted)).toBe(true);
  });

  it('withdraws a waiting request, letting the ones it held back through', async () => {
    const locks = new DomainLocks();
    const r = locks.request('r', { secrets: 'shared' });
    const w = locks.request('w', { secrets: 'exclusive' });
    const r2 = locks.request('r2', { secrets: 'shared' });
    expect(await settled(r2.granted)).toBe(false);
    w.release();
    expect(await settled(r2.granted)).toBe(true);
    expect(await settled(w.granted), 'withdrawn: never granted').toBe(false);
    r.release();
    expect(await settled(w.granted)).toBe(false);
    expect(locks.state().waiting).toEqual([]);
  });

  it('names the holders and earlier waiters that block a request', () => {
    let t = 1000;
    const locks = new DomainLocks(() => t);
    locks.request('suites/jobs/list.test.ts', { scheduler: 'shared' });
    locks.request('suites/kv/list.test.ts', { secrets: 'shared' });
    t = 2000;
    locks.request('suites/jobs/acl.test.ts', { scheduler: 'exclusive' });
    const last = locks.request('suites/jobs/stop.test.ts', { scheduler: 'exclusive' });
    const blockers = locks.blockers(last.id);
    expect(blockers.map((b) => [b.label, b.grantedAt])).toEqual([
      ['suites/jobs/list.test.ts', 1000],
      ['suites/jobs/acl.test.ts', undefined],
    ]);
  });

  it('tells modes apart and describes requests', () => {
    expect(compatible({ a: 'shared' }, { a: 'shared' })).toBe(true);
    expect(compatible({ a: 'shared' }, { a: 'exclusive' })).toBe(false);
    expect(compatible({ a: 'exclusive' }, { b: 'exclusive' })).toBe(true);
    expect(compatible({}, { a: 'exclusive' })).toBe(true);
    expect(describeWants({ secrets: 'shared', scheduler: 'exclusive' })).toBe('exclusive: scheduler; shared: secrets');
    expect(describeWants({})).toBe('no domain');
  });
});
