/** Run-to-run comparison: new failures, fixed tests, added and removed tests. */
import { copyFileSync, existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Comparison, Results, Status } from './model.js';

const FAILING: Status[] = ['failed'];

export function compareResults(previous: Results, current: Results, previousName: string): Comparison {
  const before = new Map(previous.tests.map((t) => [t.key, t.status]));
  const after = new Map(current.tests.map((t) => [t.key, t.status]));
  const newFailures: string[] = [];
  const fixed: string[] = [];
  for (const [key, status] of after) {
    const old = before.get(key);
    if (FAILING.includes(status) && (old === undefined || !FAILING.includes(old))) newFailures.push(key);
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
