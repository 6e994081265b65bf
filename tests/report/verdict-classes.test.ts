/**
 * Verdict classes through the report pipeline (buildResults, junit, compare, expectations): a
 * failure fails only the requirement it is charged to (the other ids not reached), its class
 * follows the catalogue, assumption differences are counted apart and fail the run only under
 * strict, junit reports them as skipped outside strict, compare tells new violations from new
 * assumption differences, and a known failure excuses only the requirement it names.
 */
import { describe, expect, it } from 'vitest';
import { toJUnit } from '../../harness/report/junit.js';
import { compareResults } from '../../harness/report/compare.js';
import type { RawOutcome } from '../../harness/report/build.js';
import { outcome, results, STATEMENT } from './synthetic.js';

const charged = (
  failedRequirement: string,
  notReached: string[],
  differences: { id: string; message: string }[] = [],
) => ({
  attribution: { failedRequirement, notReached, differences },
});

/** A violation charged to the second id, and an assumption difference charged to the assumption. */
function outcomes(): RawOutcome[] {
  return [
    outcome('reads and lists', ['demo.read.ok', 'demo.list.empty-404'], 'failed', {
      meta: charged('demo.list.empty-404', ['demo.read.ok']),
    }),
    outcome('help needs permission', ['demo.help.permission', 'demo.read.ok'], 'failed', {
      errors: ['CheckFailure: status: GET /demo/x?help=1 answered 200'],
      meta: charged('demo.help.permission', ['demo.read.ok']),
    }),
  ];
}

describe('verdict classes in results.json', () => {
  it('a failed test fails its charged requirement with its class; its other ids are not reached', () => {
    const r = results({ outcomes: outcomes() });
    const [violation, difference] = r.tests;
    expect(violation).toMatchObject({
      status: 'failed',
      failedRequirement: 'demo.list.empty-404',
      verdict: 'violation',
      notReached: ['demo.read.ok'],
    });
    expect(difference).toMatchObject({ failedRequirement: 'demo.help.permission', verdict: 'assumption' });
    const row = (id: string) => r.requirements.find((x) => x.id === id)!;
    expect(row('demo.list.empty-404')).toMatchObject({ status: 'failed', verdict: 'violation' });
    expect(row('demo.help.permission')).toMatchObject({
      status: 'failed',
      verdict: 'assumption',
      assumption: { setting: 'assumptions.demo.help.permission' },
    });
    expect(row('demo.read.ok').status, 'named by both failed tests, failed by neither').toBe('not-reached');
    expect(row('demo.read.ok').verdict).toBeUndefined();
    expect(row('demo.read.ok').statements, 'the quoted sentence').toEqual([STATEMENT]);
  });

  it('a passed test of the same id outranks not-reached only downward: failed > not-reached > passed', () => {
    const r = results({
      outcomes: [...outcomes(), outcome('reads', ['demo.read.ok'], 'passed')],
    });
    expect(r.requirements.find((x) => x.id === 'demo.read.ok')!.status).toBe('not-reached');
    const failedToo = results({
      outcomes: [...outcomes(), outcome('reads again', ['demo.read.ok'], 'failed')],
    });
    expect(failedToo.requirements.find((x) => x.id === 'demo.read.ok')!.status).toBe('failed');
  });

  it('counts violations by level and assumption differences apart; mustFailed counts differences only under strict', () => {
    const report = results({ outcomes: outcomes() });
    expect(report.summary).toMatchObject({
      failed: 2,
      violations: { MUST: 1, SHOULD: 0, MAY: 0 },
      assumptionDifferences: 1,
      mustFailed: 1,
    });
    expect(report.run.assumptions).toBe('report');
    const strict = results({ outcomes: outcomes(), mode: 'strict' });
    expect(strict.summary.mustFailed).toBe(2);
    expect(strict.run.assumptions).toBe('strict');
    const onlyDifference = results({ outcomes: outcomes().slice(1) });
    expect(onlyDifference.summary.mustFailed, 'an assumption difference alone does not fail the run').toBe(0);
  });

  it('a test whose only failure is an assumption a helper checked: that assumption fails, its ids passed', () => {
    const r = results({
      outcomes: [
        outcome('refused and unchanged', ['demo.read.ok'], 'failed', {
          meta: charged('demo.help.permission', [], [{ id: 'demo.help.permission', message: 'refused with a 4xx' }]),
        }),
      ],
    });
    expect(r.tests[0]).toMatchObject({ verdict: 'assumption', notReached: [] });
    expect(r.requirements.find((x) => x.id === 'demo.read.ok')!.status).toBe('passed');
  });

  it('a failure recorded without attribution (a failed file setup) is a violation of its first id', () => {
    const r = results({
      outcomes: [outcome('never ran', ['demo.help.permission', 'demo.read.ok'], 'pending', { moduleErrors: ['boom'] })],
    });
    expect(r.tests[0]).toMatchObject({
      status: 'failed',
      failedRequirement: 'demo.help.permission',
      verdict: 'violation',
      notReached: ['demo.read.ok'],
    });
  });
});

describe('junit.xml', () => {
  it('a violation is a <failure>; an assumption difference a <skipped> naming its setting, a typed <failure> under strict', () => {
    const xml = toJUnit(results({ outcomes: outcomes() }));
    expect(xml).toMatch(/<failure message="CheckFailure: GET \/demo\/x answered 500">/);
    expect(xml).toContain(
      '<skipped message="assumption difference: demo.help.permission (setting assumptions.demo.help.permission): CheckFailure: status: GET /demo/x?help=1 answered 200"/>',
    );
    expect(xml).toMatch(/<testsuites name="conformance" tests="2" failures="1" skipped="1"/);
    expect(xml).toContain('<property name="verdict" value="assumption"/>');
    expect(xml).toContain('<property name="not-reached" value="demo.read.ok"/>');
    const strict = toJUnit(results({ outcomes: outcomes(), mode: 'strict' }));
    expect(strict).toMatch(
      /<failure type="assumption" message="CheckFailure: status: GET \/demo\/x\?help=1 answered 200">/,
    );
    expect(strict).toMatch(/failures="2" skipped="0"/);
  });

  it('a pre-flight stop is one error naming the setting', () => {
    const r = results({ outcomes: [] });
    const xml = toJUnit({
      ...r,
      preflight: { setting: 'SVC_ADDR', message: 'pre-flight: could not be reached (setting SVC_ADDR)' },
    });
    expect(xml).toMatch(/<testsuite name="pre-flight" tests="1" failures="0" errors="1"/);
    expect(xml).toContain('<property name="setting" value="SVC_ADDR"/>');
    expect(xml).toContain('<error message="pre-flight: could not be reached (setting SVC_ADDR)">');
  });

  it('each of the run’s own errors is an error: a run without a failed test is not green with them', () => {
    const r = results({ outcomes: [] });
    const xml = toJUnit({
      ...r,
      errors: ['the target could not be prepared: unknown fault switch(es) x', 'suites/a.test.ts: <load>\nstack'],
    });
    expect(xml).toMatch(/<testsuites name="conformance" tests="2" failures="0" errors="2"/);
    expect(xml).toMatch(/<testsuite name="run" tests="2" failures="0" errors="2"/);
    expect(xml).toContain('<error message="the target could not be prepared: unknown fault switch(es) x">');
    expect(xml).toContain(
      '<error message="suites/a.test.ts: &lt;load&gt;">suites/a.test.ts: &lt;load&gt;\nstack</error>',
    );
    expect(toJUnit(r)).not.toMatch(/errors=/);
  });
});

describe('compare', () => {
  it('reports new violations and new assumption differences apart; a class change is new in its class', () => {
    const before = results({
      outcomes: [outcome('reads and lists', ['demo.read.ok', 'demo.list.empty-404'], 'passed')],
    });
    const after = results({ outcomes: outcomes() });
    const c = compareResults(before, after, 'old.json');
    expect(c.newFailures).toEqual(['suites/demo/demo.test.ts > reads and lists']);
    expect(c.newAssumptionDifferences).toEqual(['suites/demo/demo.test.ts > help needs permission']);
    // The same test failing as an assumption difference before and as a violation now: a new violation.
    const wasDifference = results({
      outcomes: [
        outcome('reads and lists', ['demo.read.ok', 'demo.help.permission'], 'failed', {
          meta: charged('demo.help.permission', ['demo.read.ok']),
        }),
      ],
    });
    const nowViolation = results({
      outcomes: [
        outcome('reads and lists', ['demo.read.ok', 'demo.help.permission'], 'failed', {
          meta: charged('demo.read.ok', ['demo.help.permission']),
        }),
      ],
    });
    expect(compareResults(wasDifference, nowViolation, 'old').newFailures).toEqual([
      'suites/demo/demo.test.ts > reads and lists',
    ]);
    expect(compareResults(wasDifference, wasDifference, 'old').newAssumptionDifferences).toEqual([]);
  });
});

describe('expectations', () => {
  it('a known failure excuses a failure only of the requirement it names; the test keeps its class', () => {
    const excused = results({
      outcomes: outcomes(),
      expectations: [{ id: 'demo.list.empty-404', reason: 'our proxy' }],
    });
    expect(excused.tests[0]).toMatchObject({ status: 'known-failure', verdict: 'violation' });
    expect(excused.summary.mustFailed).toBe(0);
    const other = results({ outcomes: outcomes(), expectations: [{ id: 'demo.read.ok', reason: 'not this one' }] });
    expect(other.tests[0]!.status, 'the failure is charged to another id').toBe('failed');
    const assumption = results({
      outcomes: outcomes(),
      expectations: [{ id: 'demo.help.permission', reason: 'our product answers help to everyone' }],
      mode: 'strict',
    });
    expect(assumption.tests[1]).toMatchObject({ status: 'known-failure', verdict: 'assumption' });
    expect(assumption.summary.mustFailed).toBe(1);
  });
});
