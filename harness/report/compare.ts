/**
 * Run-to-run comparison: new violations and new assumption differences apart, fixed tests, added
 * and removed tests. A test that fails now in a class it did not fail in before is new in that
 * class (a violation that was an assumption difference is a new violation).
 */
import { copyFileSync, existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Comparison, Results, Status, TestResult, Verdict } from './model.js';
import { classOf } from './verdict.js';

const FAILING: Status[] = ['failed'];

/** `failed:violation`, `failed:assumption`, or the status. */
function state(t: TestResult): string {
  return t.status === 'failed' ? `failed:${classOf(t)}` : t.status;
}

export function compareResults(previous: Results, current: Results, previousName: string): Comparison {
  const before = new Map(previous.tests.map((t) => [t.key, t.status]));
  const beforeState = new Map(previous.tests.map((t) => [t.key, state(t)]));
  const after = new Map(current.tests.map((t) => [t.key, t.status]));
  const newFailures: string[] = [];
  const newAssumptionDifferences: string[] = [];
  const fixed: string[] = [];
  const newIn = (key: string, verdict: Verdict) => beforeState.get(key) !== `failed:${verdict}`;
  for (const t of current.tests) {
    const key = t.key;
    const status = t.status;
    const old = before.get(key);
    if (status === 'failed' && classOf(t) === 'violation' && newIn(key, 'violation')) newFailures.push(key);
    if (status === 'failed' && classOf(t) === 'assumption' && newIn(key, 'assumption'))
      newAssumptionDifferences.push(key);
    if (
      old !== undefined &&
      (FAILING.includes(old) || old === 'known-failure') &&
      (status === 'passed' || status === 'fixed')
    )
      fixed.push(key);
  }
  return {
    previous: previousName,
    newFailures: newFailures.sort(),
    newAssumptionDifferences: newAssumptionDifferences.sort(),
    fixed: fixed.sort(),
    added: [...after.keys()].filter((k) => !before.has(k)).sort(),
    removed: [...before.keys()].filter((k) => !after.has(k)).sort(),
  };
}

export function formatComparison(c: Comparison): string {
  const section = (title: string, keys: string[]) =>
    `${title} (${keys.length})${keys.length ? `\n${keys.map((k) => `  ${k}`).join('\n')}` : ''}`;
  return [
    `compared with ${c.previous}`,
    section('new failures', c.newFailures),
    section('new assumption differences', c.newAssumptionDifferences ?? []),
    section('fixed', c.fixed),
    section('new tests', c.added),
    section('removed tests', c.removed),
  ].join('\n');
}

/**
 * A run clears its report directory first; `--previous reports/results.json` (the last run in the
 * same directory) is copied aside so the comparison still has it. Returns the path to read.
 */
export function keepPrevious(previous: string | undefined, reportDir: string): string | undefined {
  if (!previous || resolve(previous) !== resolve(reportDir, 'results.json') || !existsSync(previous)) return previous;
  const kept = join(resolve(reportDir), 'previous-results.json');
  copyFileSync(previous, kept);
  return kept;
}
