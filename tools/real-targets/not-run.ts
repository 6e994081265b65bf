/**
 * Writes the `not-run` block of a product's expectations file from the results of its runs: every
 * requirement of the suites run that no test ran in any of them, with the reason its tests gave.
 *   node --import tsx tools/real-targets/not-run.ts run-a/results.json [run-b/results.json ...]
 * (Several runs: the modes of one product; a requirement run in any mode is not listed.)
 */
import { readFileSync } from 'node:fs';
import { stringify } from 'yaml';
import type { Results, TestResult } from '../../harness/report/model.js';
import { ranRequirements } from '../../harness/report/expectations.js';
import { loadCatalogue } from '../../harness/spec/catalogue.js';

const files = process.argv.slice(2);
if (!files.length) {
  console.error('usage: not-run.ts results.json [results.json ...]');
  process.exit(2);
}
const runs = files.map((f) => JSON.parse(readFileSync(f, 'utf8')) as Results);
const ran = ranRequirements(runs.flatMap((r) => r.tests));
const suites = new Set(runs.flatMap((r) => r.run.suites));
const why = new Map<string, string>();
const reasonOf = (t: TestResult) =>
  (t.notApplicable?.reason ?? t.skip?.reason ?? t.status)
    // Run-unique names make a reason differ from run to run: keep it readable and stable.
    .replace(/\b[a-z]{2}-[0-9a-z]{6}-[\w.-]+/g, '…')
    .slice(0, 200);
for (const r of runs) for (const t of r.tests) for (const id of t.ids) if (!why.has(id)) why.set(id, reasonOf(t));
const list = [...loadCatalogue().values()]
  .filter((r) => suites.has(r.area ?? '') && !ran.has(r.id))
  .map((r) => [r.id, why.get(r.id) ?? 'no test of the run checks it'] as const)
  .sort(([a], [b]) => a.localeCompare(b));
process.stdout.write(stringify({ 'not-run': list.map(([id, reason]) => ({ id, reason })) }, { lineWidth: 110 }));
