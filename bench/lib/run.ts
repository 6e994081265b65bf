/**
 * One `run` of the command line for the bench, as a user starts it (bin/svc-conformance.mjs), in
 * its own process group: its wall time from spawn to exit, its time to the first test, vitest's
 * import and test times, and its results.json.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cliArgs, spawnGroup } from '../../harness/cli/process.js';
import type { Results } from '../../harness/report/model.js';
import { endGroup } from './processes.js';

const RUN_TIMEOUT_MS = 20 * 60_000;

export interface RunFigures {
  wallSeconds: number;
  code: number;
  results?: Results;
  importSeconds?: number;
  testsSeconds?: number;
  firstTestSeconds?: number;
  /** The main process's start-up marks (results.json run.startup), ms since it started. */
  startup?: NonNullable<Results['run']['startup']>;
  summary: string;
}

export interface RunRequest {
  /** Where its reports go (kept when the bench has --report-dir). */
  reportDir: string;
  suites: string[];
  /** Environment on top of the bench's, target variables cleared first. */
  env?: Record<string, string>;
  /** Further arguments of `run` (--concurrency, --variants, ...). */
  args?: string[];
}

/** One `run` in its own process group; wall time from spawn to exit. */
export async function conformanceRun(req: RunRequest): Promise<RunFigures> {
  const cli = ['run', '--report-dir', req.reportDir, '--suite', req.suites.join(','), ...(req.args ?? [])];
  const started = Date.now();
  const child = spawnGroup(process.execPath, cliArgs(cli), {
    env: {
      ...process.env,
      SVC_ADDR: '',
      SVC_TOKEN: '',
      SCHED_ADDR: '',
      SCHED_TOKEN: '',
      CONFORMANCE_CONFIG: '',
      ...req.env,
    },
  });
  let out = '';
  child.stdout!.on('data', (d) => {
    out += d;
  });
  child.stderr!.on('data', (d) => {
    out += d;
  });
  const timer = setTimeout(() => void endGroup(child), RUN_TIMEOUT_MS);
  const code = await new Promise<number>((r) => child.on('exit', (c) => r(c ?? 1)));
  clearTimeout(timer);
  await endGroup(child);
  const wallSeconds = (Date.now() - started) / 1000;
  const plain = out.replace(/\u001b\[[0-9;]*m/g, '');
  const duration = /Duration\s+[\d.]+m?s\s+\(([^)]*)\)/.exec(plain)?.[1] ?? '';
  const seconds = (label: string) => {
    const m = new RegExp(`${label} ([\\d.]+)(m?s)`).exec(duration);
    return m ? Number(m[1]) / (m[2] === 'ms' ? 1000 : 1) : undefined;
  };
  let results: Results | undefined;
  try {
    results = JSON.parse(readFileSync(join(req.reportDir, 'results.json'), 'utf8')) as Results;
  } catch {
    /* reported below */
  }
  const firstTest = results?.run.firstTestAt ? (Date.parse(results.run.firstTestAt) - started) / 1000 : undefined;
  const summary =
    /conformance: [^\n]*/.exec(plain)?.[0] ??
    `no summary (exit ${code}): ${plain.split('\n').filter(Boolean).slice(-3).join(' | ')}`;
  return {
    wallSeconds,
    code,
    results,
    importSeconds: seconds('import'),
    testsSeconds: seconds('tests'),
    firstTestSeconds: firstTest,
    startup: results?.run.startup,
    summary,
  };
}

export const f1 = (n: number | undefined) => (n === undefined ? 'n/a' : n.toFixed(1));
export const f2 = (n: number | undefined) => (n === undefined ? 'n/a' : n.toFixed(2));

export function printRun(label: string, r: RunFigures): void {
  console.log(`${label}: ${f1(r.wallSeconds)} s wall, exit ${r.code}; ${r.summary}`);
  console.log(
    `  time to first test ${f2(r.firstTestSeconds)} s; vitest import ${f1(r.importSeconds)} s, tests ${f1(r.testsSeconds)} s (summed over workers)`,
  );
  if (r.startup) console.log(`  start-up (ms since the process started): ${startupLine(r.startup)}`);
}

export function printSuites(r: Results | undefined): void {
  if (!r) return;
  const by = new Map<string, { tests: number; ms: number; files: Set<string> }>();
  for (const t of r.tests) {
    if (t.kind === 'schema') continue;
    const suite = t.file.split('/')[1] ?? t.area;
    const e = by.get(suite) ?? { tests: 0, ms: 0, files: new Set<string>() };
    e.tests++;
    e.ms += t.durationMs;
    e.files.add(t.file);
    by.set(suite, e);
  }
  console.log(`  ${'suite'.padEnd(10)} ${'files'.padStart(5)} ${'tests'.padStart(6)} ${'test time s'.padStart(12)}`);
  for (const [suite, e] of [...by].sort((a, b) => b[1].ms - a[1].ms)) {
    console.log(
      `  ${suite.padEnd(10)} ${String(e.files.size).padStart(5)} ${String(e.tests).padStart(6)} ${(e.ms / 1000).toFixed(1).padStart(12)}`,
    );
  }
}

/** The start-up marks in order, each with the time since the one before. */
export function startupLine(marks: NonNullable<RunFigures['startup']>): string {
  const order = ['command', 'vitest', 'globalSetup', 'targetReady', 'firstTest'] as const;
  let before = 0;
  const parts: string[] = [];
  for (const mark of order) {
    const at = marks[mark];
    if (at === undefined) continue;
    parts.push(`${mark} ${at} (+${at - before})`);
    before = at;
  }
  return parts.join(', ');
}
