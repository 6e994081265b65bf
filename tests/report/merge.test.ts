/** `merge`: shards of one run combine into the results a single run gives; bad inputs are refused. */
import { describe, expect, it } from 'vitest';
import { buildResults, type RawOutcome } from '../../harness/report/build.js';
import { mergeResults, MergeError } from '../../harness/report/merge.js';
import type { Results } from '../../harness/report/model.js';
import { catalogue, outcome } from './synthetic.js';

const at = new Date('2026-01-01T00:00:00Z');
const run = (outcomes: RawOutcome[], shard?: string): Results => {
  const r = buildResults({
    outcomes,
    catalogue,
    expectations: new Map(),
    config: undefined,
    startedAt: at,
    finishedAt: new Date(at.getTime() + 1000),
    leftovers: [],
    errors: [],
  });
  if (shard) r.run.shard = shard;
  return r;
};

const a = outcome('reads the value', ['demo.read.ok'], 'passed');
const b = outcome('empty list is 404', ['demo.list.empty-404'], 'failed', { file: '/x/suites/demo/list.test.ts' });
const c = outcome('another read', ['demo.read.ok'], 'skipped', {
  file: '/x/suites/demo/other.test.ts',
  meta: { skip: { reason: 'no capability' } },
});

describe('mergeResults', () => {
  it('gives the summary, tests and requirement matrix of the single run', () => {
    const single = run([a, b, c]);
    const merged = mergeResults(
      [
        { file: 's1.json', results: run([a, c], '1/2') },
        { file: 's2.json', results: run([b], '2/2') },
      ],
      catalogue,
    );
    const verdicts = (r: Results) => Object.fromEntries(r.tests.map((t) => [t.key, t.status]));
    expect(verdicts(merged)).toEqual(verdicts(single));
    expect(merged.summary).toEqual(single.summary);
    const reqs = (r: Results) => Object.fromEntries(r.requirements.map((q) => [q.id, [q.status, [...q.tests].sort()]]));
    expect(reqs(merged)).toEqual(reqs(single));
    expect(merged.run.mergedFrom).toEqual(['s1.json (shard 1/2)', 's2.json (shard 2/2)']);
  });

  it('refuses a missing shard, a shard given twice and overlapping tests', () => {
    expect(() =>
      mergeResults(
        [
          { file: 's1.json', results: run([a], '1/3') },
          { file: 's2.json', results: run([b], '2/3') },
        ],
        catalogue,
      ),
    ).toThrow(/missing 3\/3/);
    expect(() =>
      mergeResults(
        [
          { file: 's1.json', results: run([a], '1/2') },
          { file: 'again.json', results: run([b], '1/2') },
        ],
        catalogue,
      ),
    ).toThrow(/missing 2\/2; given twice 1\/2/);
    expect(() =>
      mergeResults(
        [
          { file: 's1.json', results: run([a], '1/2') },
          { file: 'full.json', results: run([b]) },
        ],
        catalogue,
      ),
    ).toThrow(MergeError);
    expect(() =>
      mergeResults(
        [
          { file: 'x.json', results: run([a]) },
          { file: 'y.json', results: run([a]) },
        ],
        catalogue,
      ),
    ).toThrow(/more than one file/);
  });
});

describe('merging schema results of shards', () => {
  it('folds the same operation and status of two shards into one result, failed when either failed', async () => {
    const { mergeResults } = await import('../../harness/report/merge.js');
    const { results: make, catalogue: cat } = await import('./synthetic.js');
    const schema = (status: 'passed' | 'failed', shard: string) => ({
      key: 'schema > schema.kv2-read 200',
      title: 'GET /secret/data/{path} answers 200 as the spec describes',
      file: 'spec/kv/openapi.yaml',
      area: 'kv',
      ids: ['schema.kv2-read'],
      level: 'MUST' as const,
      status,
      durationMs: 0,
      kind: 'schema' as const,
      seenIn: [shard],
      ...(status === 'failed'
        ? {
            message: 'x',
            findings: [{ pointer: '/renewable', message: 'must be boolean', expected: {}, actual: 'false' }],
          }
        : {}),
    });
    const a = make();
    a.run.shard = '1/2';
    a.tests = [a.tests[0]!, schema('passed', 'a')];
    const b = make();
    b.run.shard = '2/2';
    b.tests = [b.tests[1]!, schema('failed', 'b')];
    const merged = mergeResults(
      [
        { file: 'a.json', results: a },
        { file: 'b.json', results: b },
      ],
      cat,
    );
    const folded = merged.tests.filter((t) => t.kind === 'schema');
    expect(folded.length).toBe(1);
    expect(folded[0]!.status).toBe('failed');
    expect(folded[0]!.findings?.[0]?.pointer).toBe('/renewable');
    expect(folded[0]!.seenIn).toEqual(['a', 'b']);
  });
});
