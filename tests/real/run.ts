/**
 * The project's own tests against real products: start the product (tools/real-targets/launch.ts),
 * run the suites it can serve through the command a vendor uses, with the product's config and
 * expectations file (fixtures/targets/<product>/), and hold the results to that file exactly.
 *
 * Without the installed binaries these tests skip naming the install command; under CI=true they
 * fail instead. SKIP_REAL_TARGETS=<why> skips them even under CI (.ci/run's second Node pass: the
 * first one already ran them); the reason is printed.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect } from 'vitest';
import {
  describeDifferences,
  entryCovers,
  matchExpectations,
  readExpectationsFile,
  type Expectation,
  type ExpectationDifference,
} from '../../harness/report/expectations.js';
import type { Results, TestResult } from '../../harness/report/model.js';
import { loadCatalogue } from '../../harness/spec/catalogue.js';
import { INSTALL_COMMAND } from '../../tools/real-targets/launch.js';
import { chromiumPart, launchChromium } from '../helpers/chromium.js';
import { prerequisite, type Prerequisite } from '../helpers/prerequisites.js';
import { runEnv } from '../helpers/run-env.js';

const optOut = process.env.SKIP_REAL_TARGETS;

/** The prerequisite of a real product's test: its binaries, unless the run opted out with a reason. */
export function realTarget(name: string, files: string[]): Prerequisite {
  if (optOut) {
    console.warn(`skipped: ${name} (SKIP_REAL_TARGETS=${optOut})`);
    return { skip: true, note: ` (skipped: SKIP_REAL_TARGETS=${optOut})`, assertPresent() {} };
  }
  return prerequisite({ name, present: files.every((f) => existsSync(f)), install: INSTALL_COMMAND });
}

export interface SuiteRun {
  exitCode: number;
  results: Results;
  reportDir: string;
  output: string;
}

/** One conformance run through `bin/svc-conformance.mjs run`, as `npm run conformance` does it. */
export function runSuites(opts: {
  name: string;
  suites: string[];
  config: string;
  expectations: string;
  env: Record<string, string>;
  timeoutMs: number;
}): Promise<SuiteRun> {
  const reportDir = join(mkdtempSync(join(tmpdir(), `real-${opts.name}-`)), 'report');
  const args = ['bin/svc-conformance.mjs', 'run', '--quiet', '--suite', opts.suites.join(',')];
  args.push('--config', opts.config, '--expectations', opts.expectations, '--report-dir', reportDir);
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      args,
      { env: runEnv(opts.env), timeout: opts.timeoutMs, killSignal: 'SIGTERM', maxBuffer: 64 << 20 },
      (err, stdout, stderr) => {
        const output = `${stdout}\n${stderr}`;
        const file = join(reportDir, 'results.json');
        if (!existsSync(file)) {
          reject(
            new Error(
              `${opts.name}: the run wrote no results.json (${err?.message ?? 'exit 0'}):\n${output.slice(-4000)}`,
            ),
          );
          return;
        }
        const exitCode = err ? (typeof err.code === 'number' ? err.code : 99) : 0;
        resolve({ exitCode, results: JSON.parse(readFileSync(file, 'utf8')) as Results, reportDir, output });
      },
    );
  });
}

export interface Figures {
  tests: number;
  passed: number;
  violations: number;
  assumptionDifferences: number;
  notApplicable: number;
  skipped: number;
}

export function figures(results: Results): Figures {
  const n = (f: (t: TestResult) => boolean) => results.tests.filter(f).length;
  return {
    tests: results.tests.length,
    passed: n((t) => t.status === 'passed' || t.status === 'known-issue'),
    violations: n((t) => (t.status === 'known-failure' || t.status === 'failed') && t.verdict === 'violation'),
    assumptionDifferences: n(
      (t) => (t.status === 'known-failure' || t.status === 'failed') && t.verdict === 'assumption',
    ),
    notApplicable: n((t) => t.status === 'not-applicable'),
    skipped: n((t) => t.status === 'skipped'),
  };
}

/**
 * The differences between a run and the product's expectations that fail the test. An entry none
 * of whose tests ran here is a difference too, unless `mayNotRun` excuses it (a mode of the product
 * that cannot reach those tests, such as a scheduler without ACLs).
 */
export function differences(
  run: SuiteRun,
  expectationsFile: string,
  mayNotRun: (e: Expectation, tests: TestResult[]) => boolean = () => false,
): ExpectationDifference[] {
  const { entries, notRun } = readExpectationsFile(expectationsFile);
  const byId = new Map(entries.map((e) => [e.id, e]));
  const scope = scopeOf(run.results.run.suites);
  return matchExpectations(run.results.tests, entries, { listed: notRun, scope }).filter((d) => {
    const mine = (e: Pick<Expectation, 'id' | 'tests'>) =>
      run.results.tests.filter((t) => t.ids.includes(e.id) && entryCovers(e as Expectation, t.title));
    if (d.kind === 'not-exercised') return !mayNotRun(byId.get(d.id)!, mine(byId.get(d.id)!));
    // A mode that cannot reach a requirement (no ACLs) may leave it unrun, and may run what another mode cannot.
    if (d.kind === 'not-run' || d.kind === 'ran') return !mayNotRun({ id: d.id, reason: '' }, mine({ id: d.id }));
    return true;
  });
}

/** The catalogue's requirements of the suites a run ran (schema requirements by their operation's area). */
export function scopeOf(suites: string[]): string[] {
  return [...loadCatalogue().values()].filter((r) => suites.includes(r.area ?? '')).map((r) => r.id);
}

/** The assertion message: every difference with why it matters, and where the run's report is. */
export function explain(run: SuiteRun, diffs: ExpectationDifference[]): string {
  return `the run differs from its expectations file (report: ${run.reportDir}/index.html):\n${describeDifferences(diffs)}`;
}

/**
 * Opens a report page in headless Chromium (where it is installed: tests/helpers/chromium.ts) and
 * returns what a reader sees: the text of `selector`, and the page's script errors.
 */
export async function readInChromium(
  file: string,
  selector: string,
): Promise<{ text: string; errors: string[] } | undefined> {
  if (chromiumPart.skip) return undefined;
  chromiumPart.assertPresent();
  const profile = mkdtempSync(join(tmpdir(), 'real-chromium-'));
  const context = await launchChromium(profile);
  try {
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(pathToFileURL(file).href, { timeout: 30_000 });
    return { text: await page.locator(selector).innerText({ timeout: 30_000 }), errors };
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  }
}

/** The run's HTML report shows its figures: the known failures are the listed ones, none failed. */
export async function expectReportShows(run: SuiteRun): Promise<void> {
  const page = await readInChromium(join(run.reportDir, 'index.html'), '#summary');
  if (!page) return;
  expect(page.errors, 'script errors of index.html').toEqual([]);
  const known = run.results.tests.filter((t) => t.status === 'known-failure').length;
  // The totals are spans: their text runs together ("154 passed0 failed").
  expect(page.text, 'the summary of index.html').toMatch(new RegExp(`(^|\\D)${known} known failures`));
  expect(page.text, 'the summary of index.html').toMatch(/(^|\D)0 failed/);
}

/** `svc-conformance matrix` of the runs side by side; its page opens and names every column. */
export async function expectMatrixShows(runs: { name: string; run: SuiteRun }[]): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'real-matrix-'));
  const args = [
    'bin/svc-conformance.mjs',
    'matrix',
    ...runs.map((r) => `${r.name}=${join(r.run.reportDir, 'results.json')}`),
  ];
  await new Promise<void>((resolve, reject) =>
    execFile(process.execPath, [...args, '--report-dir', dir], { timeout: 120_000 }, (err, out, errOut) =>
      err ? reject(new Error(`matrix: ${err.message}\n${out}${errOut}`)) : resolve(),
    ),
  );
  expect(existsSync(join(dir, 'matrix.html')), 'matrix.html written').toBe(true);
  const page = await readInChromium(join(dir, 'matrix.html'), 'body');
  if (!page) return;
  expect(page.errors, 'script errors of matrix.html').toEqual([]);
  for (const r of runs) expect(page.text, `matrix.html names the column ${r.name}`).toContain(r.name);
}
