/**
 * `mutation`: proves the suites catch real deviations. A clean run first (it must pass), then one
 * run per fault switch of the reference with the suites that claim to catch it. A fault is
 * killed when at least one test fails; the report says whether a test of the requirement the
 * fault breaks was among them.
 */
import { mkdirSync, readFileSync, readdirSync, writeFileSync, existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { allFaults } from '../../reference/fault-registry.js';
import type { FaultSpec } from '../../reference/faults.js';
import type { Results } from '../report/model.js';
import { runCli } from '../process.js';

export interface MutationOptions {
  suites?: string[];
  faults?: string[];
  jobs: number;
  reportDir: string;
}

interface Outcome {
  fault: string;
  breaks: string;
  suites: string[];
  verdict: 'killed' | 'survived' | 'error';
  byTarget: boolean;
  failedTests: string[];
  detail?: string;
}

/** Test files of `suites` that name `id`: a fault is first run against these alone. */
export function filesNaming(suites: string[], id: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    if (!existsSync(dir)) return;
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.test.ts') && readFileSync(p, 'utf8').includes(`'${id}'`)) out.push(p);
    }
  };
  for (const s of suites) walk(join('suites', s));
  return out.sort();
}

async function runSuites(suites: string[], faults: string[], reportDir: string, referenceVersion?: string, files?: string[]): Promise<{ code: number; results?: Results; output: string }> {
  const args = ['run', '--quiet', '--suite', suites.join(','), '--report-dir', reportDir];
  if (files?.length) args.push('--files', files.join(','));
  if (faults.length) args.push('--faults', faults.join(','));
  if (referenceVersion) args.push('--reference-version', referenceVersion);
  const env: NodeJS.ProcessEnv = { ...process.env, REF_FAULTS: '' };
  delete env.SVC_ADDR;
  delete env.SCHED_ADDR;
  // node directly in its own process group (harness/process.ts): a timeout, an interrupted
  // mutation run or its end stops the run and everything it started, not only a wrapper.
  const run = await runCli(args, { env, timeoutMs: 15 * 60_000 });
  const file = join(reportDir, 'results.json');
  const results = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Results) : undefined;
  return { code: run.code ?? 1, results, output: `${run.stdout}${run.stderr}${run.timedOut ? '\n(timed out after 15 minutes)' : ''}` };
}

async function pool<T, R>(items: T[], size: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(Array.from({ length: Math.max(1, size) }, async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!);
    }
  }));
  return out;
}

export async function runMutation(opts: MutationOptions): Promise<number> {
  const base = resolve(opts.reportDir, 'mutation');
  mkdirSync(base, { recursive: true });
  let faults: FaultSpec[] = allFaults;
  if (opts.suites?.length) faults = faults.filter((f) => f.suites.some((s) => opts.suites!.includes(s)));
  if (opts.faults?.length) {
    const unknown = opts.faults.filter((n) => !allFaults.some((f) => f.name === n));
    if (unknown.length) {
      console.error(`unknown fault(s): ${unknown.join(', ')}`);
      return 2;
    }
    faults = faults.filter((f) => opts.faults!.includes(f.name));
  }
  if (faults.length === 0) {
    console.error('no fault switches match the selection');
    return 2;
  }
  const suites = [...new Set(faults.flatMap((f) => f.suites))];
  console.log(`clean run of ${suites.join(',')} (must pass before faults mean anything)...`);
  const clean = await runSuites(suites, [], join(base, 'clean'));
  if (!clean.results || clean.results.summary.failed > 0 || clean.code !== 0) {
    console.error(`the clean run did not pass (exit ${clean.code}); fix the suites or the reference first:\n${clean.output.split('\n').slice(-30).join('\n')}`);
    return 1;
  }
  console.log(`clean run passed: ${clean.results.summary.passed} tests\n`);
  const outcomes = await pool(faults, opts.jobs, async (fault): Promise<Outcome> => {
    const dir = join(base, fault.name);
    // The files naming the broken requirement first (fast); the whole suites when they miss it,
    // so a fault is only called survived after every test of its suites had the chance.
    const targeted = filesNaming(fault.suites, fault.breaks);
    let run = targeted.length ? await runSuites(fault.suites, [fault.name], dir, fault.referenceVersion, targeted) : undefined;
    if (!run?.results || run.results.tests.every((t) => t.status !== 'failed')) run = await runSuites(fault.suites, [fault.name], dir, fault.referenceVersion);
    const failed = run.results?.tests.filter((t) => t.status === 'failed') ?? [];
    const outcome: Outcome = {
      fault: fault.name,
      breaks: fault.breaks,
      suites: fault.suites,
      verdict: !run.results ? 'error' : failed.length > 0 ? 'killed' : 'survived',
      byTarget: failed.some((t) => t.ids.includes(fault.breaks)),
      failedTests: failed.map((t) => t.key),
      detail: !run.results ? run.output.split('\n').slice(-10).join('\n') : undefined,
    };
    const mark = outcome.verdict === 'killed' ? 'KILLED  ' : outcome.verdict === 'survived' ? 'SURVIVED' : 'ERROR   ';
    console.log(`${mark} ${fault.name.padEnd(48)} ${outcome.verdict === 'killed' ? `${failed.length} failing test(s)${outcome.byTarget ? `, incl. ${fault.breaks}` : `; none names ${fault.breaks}`}` : fault.description}`);
    return outcome;
  });
  const killed = outcomes.filter((o) => o.verdict === 'killed').length;
  const rate = (killed / outcomes.length) * 100;
  console.log(`\nkill rate: ${killed}/${outcomes.length} (${rate.toFixed(1)}%)`);
  const untargeted = outcomes.filter((o) => o.verdict === 'killed' && !o.byTarget);
  if (untargeted.length) console.log(`killed, but not by a test of the broken requirement: ${untargeted.map((o) => o.fault).join(', ')}`);
  writeFileSync(join(opts.reportDir, 'mutation.json'), JSON.stringify({ killed, total: outcomes.length, rate, outcomes }, null, 2));
  return killed === outcomes.length ? 0 : 1;
}
