/**
 * The robustness suite's bounded pool and lanes without a target: the bound holds, jobs wait for
 * what they must, outcomes are settled (never rejected), and rules run through the pool give the
 * same verdicts and shrunk counterexamples at concurrency 1 and 8, whatever order their answers
 * arrive in. Answers are delayed by a seeded number of event-loop turns, never by a timer.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../../harness/http/client.js';
import type { Exchange } from '../../harness/http/exchange.js';
import type { Operation } from '../../harness/spec/registry.js';
import { JobPool, type PoolJob } from '../../harness/robustness/pool.js';
import { compareOperations, laneJobs, setupKey, stageOf, type LaneItem } from '../../harness/robustness/lanes.js';
import { casesOf, planOperation, type Case } from '../../harness/robustness/plan.js';
import { invalidMutations } from '../../harness/robustness/invalid.js';
import { ruleSeed, runRule, send, type Finding, type Sender } from '../../harness/robustness/runner.js';
import { judgeInvalid } from '../../harness/robustness/judge.js';

/** Yields to the event loop `n` times: answers arrive in an order set by a seed, not by a clock. */
async function turns(n: number): Promise<void> {
  for (let i = 0; i < n; i++) await new Promise<void>((r) => setImmediate(r));
}

/** A deterministic sequence of small numbers for the delays of one run. */
function delays(seed: number): () => number {
  let x = seed || 1;
  return () => {
    x = (x * 1103515245 + 12345) & 0x7fffffff;
    return x % 7;
  };
}

describe('JobPool', () => {
  it('keeps at most `concurrency` jobs in flight and runs every job once', async () => {
    let inFlight = 0;
    let most = 0;
    const ran: string[] = [];
    const next = delays(3);
    const jobs: PoolJob<string>[] = Array.from({ length: 30 }, (_, i) => ({
      key: `j${i}`,
      after: [],
      run: async () => {
        inFlight++;
        most = Math.max(most, inFlight);
        await turns(next());
        inFlight--;
        ran.push(`j${i}`);
        return `v${i}`;
      },
    }));
    const pool = new JobPool(jobs, 4).start();
    await pool.drained();
    expect(most).toBe(4);
    expect(pool.peak).toBe(4);
    expect([...ran].sort()).toEqual(jobs.map((j) => j.key).sort());
    expect(await pool.outcome('j7')).toEqual({ ok: true, value: 'v7' });
  });

  it('at concurrency 1 runs the jobs in list order', async () => {
    const ran: string[] = [];
    const jobs = ['a', 'b', 'c', 'd'].map((key) => ({
      key,
      after: key === 'c' ? ['a'] : [],
      run: async () => {
        await turns(1);
        ran.push(key);
      },
    }));
    await new JobPool(jobs, 1).start().drained();
    expect(ran).toEqual(['a', 'b', 'c', 'd']);
  });

  it('starts a job only after the jobs it waits for have finished, even when they fail', async () => {
    const finished = new Set<string>();
    const startedBeforeItsPredecessor: string[] = [];
    const jobs: PoolJob<void>[] = [
      { key: 'a', after: [], run: () => turns(5).then(() => void finished.add('a')) },
      {
        key: 'b',
        after: [],
        run: async () => {
          await turns(2);
          finished.add('b');
          throw new Error('the target went away');
        },
      },
      {
        key: 'c',
        after: ['a', 'b'],
        run: async () => {
          if (!finished.has('a') || !finished.has('b')) startedBeforeItsPredecessor.push('c');
          finished.add('c');
        },
      },
    ];
    const pool = new JobPool(jobs, 8).start();
    await pool.drained();
    expect(startedBeforeItsPredecessor).toEqual([]);
    const b = await pool.outcome('b');
    expect(b.ok).toBe(false);
    expect(!b.ok && b.error.message).toBe('the target went away');
    expect((await pool.outcome('c')).ok).toBe(true);
  });

  it('refuses a job waiting for one listed after it, and a concurrency below 1', () => {
    const run = async () => undefined;
    expect(
      () =>
        new JobPool(
          [
            { key: 'a', after: ['b'], run },
            { key: 'b', after: [], run },
          ],
          2,
        ),
    ).toThrow(/a waits for b, which is not listed before it/);
    expect(() => new JobPool([{ key: 'a', after: [], run }], 0)).toThrow(/at least 1/);
  });

  it('is drained at once when never started or empty', async () => {
    await new JobPool([{ key: 'a', after: [], run: async () => 1 }], 1).drained();
    await new JobPool([], 3).start().drained();
  });
});

describe('robustness lanes', () => {
  const op = (file: string, method: string, operationId: string) => ({ file, method, operationId });

  it('orders operations by document, then writes, reads, deletions', () => {
    const ops = [
      op('b.yaml', 'GET', 'readB'),
      op('a.yaml', 'DELETE', 'deleteA'),
      op('a.yaml', 'GET', 'aRead'),
      op('a.yaml', 'PUT', 'zWrite'),
      op('a.yaml', 'POST', 'bWrite'),
    ].sort(compareOperations);
    expect(ops.map((o) => o.operationId)).toEqual(['bWrite', 'zWrite', 'aRead', 'deleteA', 'readB']);
    expect(['GET', 'POST', 'PUT', 'DELETE'].map(stageOf)).toEqual(['read', 'write', 'write', 'delete']);
  });

  const items: LaneItem[] = [
    { key: 'w1', document: 'a', method: 'POST' },
    { key: 'w2', document: 'a', method: 'PUT' },
    { key: 'r1', document: 'a', method: 'GET' },
    { key: 'r2', document: 'a', method: 'GET' },
    { key: 'd1', document: 'a', method: 'DELETE' },
    { key: 'd2', document: 'a', method: 'DELETE' },
    { key: 'x1', document: 'b', method: 'GET' },
  ];

  it('chains the writes and deletions of a document, lets its reads run together, documents apart', () => {
    const jobs = laneJobs(items, { setup: () => async () => undefined, item: () => async () => undefined });
    expect(Object.fromEntries(jobs.map((j) => [j.key, j.after]))).toEqual({
      [setupKey('a')]: [],
      w1: [setupKey('a')],
      w2: ['w1'],
      r1: ['w2'],
      r2: ['w2'],
      d1: ['w2', 'r1', 'r2'],
      d2: ['d1'],
      [setupKey('b')]: [],
      x1: [setupKey('b')],
    });
  });

  it('refuses items out of stage order or a document listed twice', () => {
    const noop = { setup: () => async () => undefined, item: () => async () => undefined };
    expect(() => laneJobs([items[2]!, items[0]!], noop)).toThrow(/write listed after a read/);
    expect(() => laneJobs([items[0]!, items[6]!, items[1]!], noop)).toThrow(/not listed together/);
  });

  it('through the pool, no write overlaps another rule of its document and deletions come last', async () => {
    for (const concurrency of [1, 3, 8]) {
      const active = new Map<string, Set<string>>();
      const violations: string[] = [];
      const done = new Set<string>();
      const next = delays(concurrency);
      const byKey = new Map(items.map((i) => [i.key, i]));
      const jobs = laneJobs(items, {
        setup: (doc) => async () => {
          await turns(next());
          done.add(setupKey(doc));
        },
        item: (key) => async () => {
          const { document, method } = byKey.get(key)!;
          const mine = active.get(document) ?? new Set<string>();
          active.set(document, mine);
          const others = [...mine];
          if (stageOf(method) !== 'read' && others.length) violations.push(`${key} beside ${others.join(',')}`);
          if (others.some((o) => stageOf(byKey.get(o)!.method) !== 'read'))
            violations.push(`${key} beside a write or deletion`);
          if (!done.has(setupKey(document))) violations.push(`${key} before its fixtures`);
          if (stageOf(method) === 'delete' && !['w1', 'w2', 'r1', 'r2'].every((k) => done.has(k)))
            violations.push(`${key} before the other rules`);
          mine.add(key);
          await turns(next());
          mine.delete(key);
          done.add(key);
        },
      });
      await new JobPool(jobs, concurrency).start().drained();
      expect(violations, `concurrency ${concurrency}`).toEqual([]);
      expect(done.size).toBe(jobs.length);
    }
  });
});

describe('rules through the pool', () => {
  // A made-up write whose service refuses most broken bodies but answers 500 to a size above 10,
  // and 200 to a name that is not a string: two failures to find and shrink.
  const schema = {
    type: 'object',
    required: ['name'],
    properties: {
      name: { type: 'string', maxLength: 8 },
      size: { type: 'integer', minimum: 1, maximum: 10 },
      mode: { type: 'string', enum: ['a', 'b'] },
    },
  };
  const operation = (operationId: string) =>
    ({
      api: 'svc',
      file: 'x.yaml',
      method: 'POST',
      template: `/things/${operationId}`,
      operationId,
      regex: /x/,
      weight: 1,
      op: { operationId, requestBody: { content: { 'application/json': { schema } } }, responses: {} },
    }) as unknown as Operation;

  function answer(body: unknown): { status: number; body: unknown } {
    const b = (body ?? {}) as Record<string, unknown>;
    if (typeof b.size === 'number' && b.size > 10) return { status: 500, body: { errors: ['overflow'] } };
    if (b.name !== undefined && typeof b.name !== 'string') return { status: 200, body: {} };
    return { status: 400, body: { errors: ['bad'] } };
  }

  /** A client that answers after a seeded number of event-loop turns. */
  function fakeClient(next: () => number): ApiClient {
    return {
      api: 'svc',
      async request(method: string, path: string, opts: { body?: unknown; rawBody?: string }) {
        await turns(next());
        const body = opts.rawBody !== undefined ? safeParse(opts.rawBody) : opts.body;
        const a = answer(body);
        return {
          api: 'svc',
          request: { method, url: path, path, headers: {} },
          response: { status: a.status, headers: {}, body: a.body, text: JSON.stringify(a.body) },
          durationMs: 0,
        } as Exchange;
      },
    } as unknown as ApiClient;
  }
  const safeParse = (s: string): unknown => {
    try {
      return JSON.parse(s);
    } catch {
      return undefined;
    }
  };

  async function findings(concurrency: number): Promise<Record<string, Finding | string>> {
    const next = delays(concurrency * 7919);
    const client = fakeClient(next);
    const ids = Array.from({ length: 12 }, (_, i) => `writeThing${i}`);
    const out: Record<string, Finding | string> = {};
    const jobs: PoolJob<void>[] = ids.map((id) => ({
      key: id,
      after: [],
      run: async () => {
        const plan = planOperation(operation(id));
        const counter = { requests: 0 };
        const sender: Sender = {
          client,
          counter,
          request: (c: Case) => ({ method: 'POST', path: `/things/${id}`, query: c.query, body: c.body, raw: c.raw }),
        };
        const result = await runRule({
          operationId: id,
          rule: 'invalid-4xx',
          kinds: casesOf(invalidMutations(plan, { name: 'n', size: 3 }, {})),
          sender,
          judge: async (c) => judgeInvalid('svc', await send(sender, c)),
          seed: 1698485883,
          numRuns: 8,
          deadline: Date.now() + 600_000,
          counter,
        });
        out[id] = result.finding ? { ...result.finding } : `passed after ${result.runs} run(s)`;
      },
    }));
    await new JobPool(jobs, concurrency).start().drained();
    return out;
  }

  it('give the same verdicts and shrunk counterexamples at concurrency 1 and 8', async () => {
    const one = await findings(1);
    const eight = await findings(8);
    expect(
      Object.values(one).some((f) => typeof f !== 'string'),
      'some rule fails',
    ).toBe(true);
    expect(eight).toEqual(one);
  });

  it('derive each rule seed from the run seed, the operation and the rule alone', () => {
    expect(ruleSeed(1698485883, 'writeThing1', 'invalid-4xx')).toBe(ruleSeed(1698485883, 'writeThing1', 'invalid-4xx'));
    expect(ruleSeed(1698485883, 'writeThing1', 'invalid-4xx')).not.toBe(
      ruleSeed(1698485883, 'writeThing2', 'invalid-4xx'),
    );
    const arb = fc.integer();
    expect(fc.sample(arb, { seed: ruleSeed(5, 'a', 'unchanged'), numRuns: 3 })).toEqual(
      fc.sample(arb, { seed: ruleSeed(5, 'a', 'unchanged'), numRuns: 3 }),
    );
  });
});
