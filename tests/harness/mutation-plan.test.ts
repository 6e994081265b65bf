/**
 * The mutation run's selection (harness/cli/mutation-plan.ts, mutation-engine.ts): a switch runs on
 * the tests that reached it in the traced clean run, a file whose tests depend on their order
 * whole, and the lanes' files in rounds where each file appears once. Also the tracing itself
 * (reference/switches.ts): a rule a switch replaces is reported when called, a rewrite only where
 * it would have changed the answer.
 */
import { describe, expect, it } from 'vitest';
import type { TestRecord } from '../../harness/cli/mutation-engine.js';
import { items, MIN_ROUND_COST, takeRound } from '../../harness/cli/mutation-rounds.js';
import { lane, reachIndex, TestIndex } from '../../harness/cli/mutation-plan.js';
import { rewritesWith, rulesWith, traceSwitches } from '../../reference/switches.js';

const test = (file: string, name: string, concurrent = true, durationMs = 10): TestRecord => ({
  file,
  name,
  id: `${file}#${name}`,
  concurrent,
  durationMs,
});

describe('TestIndex.reached', () => {
  const index = new TestIndex([
    test('suites/kv/a.test.ts', 'one'),
    test('suites/kv/a.test.ts', 'two'),
    test('suites/kv/a.test.ts', 'three'),
    test('suites/kv/ordered.test.ts', 'first', false),
    test('suites/kv/ordered.test.ts', 'second', false),
    test('suites/core/c.test.ts', 'x'),
  ]);
  const reach = reachIndex({
    'test:suites/kv/a.test.ts > one': ['kv.fault-one'],
    'test:suites/kv/a.test.ts > two': ['kv.fault-one', 'kv.variant'],
    'test:suites/kv/ordered.test.ts > second': ['kv.fault-ordered'],
    'file:suites/core/c.test.ts': ['core.setup-fault'],
    '': ['core.at-start'],
  });

  it('takes the tests that reached the switch, by name', () => {
    expect(index.reached(reach, ['kv.fault-one'], index.filesOf(['kv']))).toEqual(
      new Map([['suites/kv/a.test.ts', ['one', 'two']]]),
    );
  });

  it('takes a file whose tests depend on their order whole', () => {
    expect(index.reached(reach, ['kv.fault-ordered'], index.filesOf(['kv']))).toEqual(
      new Map([['suites/kv/ordered.test.ts', undefined]]),
    );
  });

  it('takes a file whole when the switch is reached in its set-up, and every file of its suites when reached outside any test', () => {
    expect(index.reached(reach, ['core.setup-fault'], index.filesOf(['core', 'kv']))).toEqual(
      new Map([['suites/core/c.test.ts', undefined]]),
    );
    expect([...index.reached(reach, ['core.at-start'], index.filesOf(['core'])).keys()]).toEqual([
      'suites/core/c.test.ts',
    ]);
  });

  it('takes nothing for a switch no test reached, and the union for several', () => {
    expect(index.reached(reach, ['kv.nobody'], index.filesOf(['kv'])).size).toBe(0);
    expect(index.reached(reach, ['kv.variant', 'kv.fault-ordered'], index.filesOf(['kv']))).toEqual(
      new Map<string, string[] | undefined>([
        ['suites/kv/a.test.ts', ['two']],
        ['suites/kv/ordered.test.ts', undefined],
      ]),
    );
  });

  it("keeps to the given files (a fault's files radius)", () => {
    expect(index.reached(reach, ['kv.fault-one'], ['suites/kv/ordered.test.ts']).size).toBe(0);
  });
});

describe('takeRound', () => {
  const sel = (...files: string[]) => new Map<string, string[] | undefined>(files.map((f) => [f, undefined]));
  const lanes = [
    lane('fault:a', sel('x', 'y'), { faults: ['a'] }),
    lane('fault:b', sel('x'), { faults: ['b'] }),
    lane('fault:c', sel('x', 'z'), { faults: ['c'] }),
    lane('variant:v', sel('y'), { variants: ['v'] }),
  ];
  const cost = (file: string) => ({ x: 30, y: 20, z: 10 })[file]! * MIN_ROUND_COST;

  it("takes the heaviest item of each file, up to a runner's share of what is left", () => {
    const queue = items(lanes, () => [], cost);
    expect(queue.map((i) => `${i.lane.key}@${i.file}`)).toEqual([
      'fault:a@x',
      'fault:b@x',
      'fault:c@x',
      'fault:a@y',
      'variant:v@y',
      'fault:c@z',
    ]);
    // 140 left over 2 runners: a round of at most 70, one item per file.
    expect(takeRound(queue, 2).map((i) => `${i.lane.key}@${i.file}`)).toEqual(['fault:a@x', 'fault:a@y', 'fault:c@z']);
    const rounds = [];
    for (let r = takeRound(queue, 2); r.length; r = takeRound(queue, 2)) rounds.push(r);
    for (const round of rounds) expect(new Set(round.map((i) => i.file)).size).toBe(round.length);
    expect(rounds.flat().length).toBe(3);
    expect(queue).toEqual([]);
  });

  it('gives each item its test ids, or none for a whole file', () => {
    const [item] = items(
      [lane('fault:a', new Map([['x', ['one']]]), { faults: ['a'] })],
      (f, n) => [`${f}#${n}`],
      () => 1,
    );
    expect(item).toMatchObject({ file: 'x', testIds: ['x#one'] });
    expect(items(lanes.slice(0, 1), () => [], cost)[0]!.testIds).toBeUndefined();
  });
});

describe('tracing the switch tables', () => {
  type Rules = { pick(n: number): number; limit: number; untouched(): string };
  const documented: Rules = { pick: (n) => n, limit: 10, untouched: () => 'same' };
  const table = [
    { name: 'x.pick-wrong', replace: (d: Rules) => ({ pick: (n: number) => (n > 5 ? 0 : d.pick(n)) }) },
    { name: 'x.limit-wrong', replace: () => ({ limit: 11 }) },
  ];
  const answers = [
    { name: 'x.status-wrong', rewrite: (w: { status: number }) => (w.status === 204 ? { status: 200 } : w) },
  ];
  const off = { faults: { list: () => [] }, variants: { list: () => [] } };

  it('reports a replaced rule when called (a value when read), and a rewrite only where it changes the answer', () => {
    const seen: string[] = [];
    traceSwitches({ reached: (name) => seen.push(name) });
    try {
      const rules = rulesWith(documented, off, table);
      const rewrite = rewritesWith(off, answers);
      expect(seen).toEqual([]);
      rules.untouched();
      expect(rewrite({ status: 200 })).toEqual({ status: 200 });
      expect(seen).toEqual([]);
      expect(rules.pick(3)).toBe(3);
      expect(rules.limit).toBe(10);
      expect(rewrite({ status: 204 })).toEqual({ status: 204 });
      expect(seen).toEqual(['x.pick-wrong', 'x.limit-wrong', 'x.status-wrong']);
    } finally {
      traceSwitches(undefined);
    }
  });

  it('leaves untraced tables as they were', () => {
    const rules = rulesWith(documented, off, table);
    expect(rules).toBe(documented);
  });
});
