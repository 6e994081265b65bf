/**
 * `npm run bench:mutation`: what the fault proof costs, and whether its verdicts are those of the
 * old way. Prints figures, asserts nothing.
 *
 * 1. `npm run mutation` (by default the full run: every fault and variant; it publishes
 *    generated/fault-proof.json as any full run does) as a user starts it, in its own process group:
 *    its wall time, the CPU time of its whole process tree (the kernel's account of the children
 *    the bench waited for), the machine's cores and load before and after (other work on the
 *    machine stretches the wall time, not the CPU time), and its figures (mutation.json).
 * 2. `--verify N`: N faults and N/4 variants of that run, drawn with `--verify-seed`, each run
 *    again the old way, one command-line `run` each with the switch on (a fault on the files
 *    naming its requirement, its whole suites when those fail nothing; a variant on its whole
 *    suites), and compared: killed or survived, by a test of its own requirement or not, its blast
 *    radius; a variant's verdict.
 *
 *   npm run bench:mutation -- [mutation options: --suite, --fault, --variant, --radius, --jobs ...]
 *                             [--verify N] [--verify-seed S] [--report-dir DIR]
 *   npm run bench:mutation -- --reuse DIR --verify N   (verify the run whose report dir is DIR)
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../harness/cli/process.js';
import { sample } from '../harness/cli/mutation-changed.js';
import type { MutationReport } from '../harness/cli/mutation.js';
import { filesTesting } from '../harness/cli/mutation-targets.js';
import { blastRadius, failedRequirements, variantVerdict } from '../harness/cli/mutation-verdicts.js';
import type { Results } from '../harness/report/model.js';
import { TEST_ROBUSTNESS_SEED } from '../harness/setup/run-config.js';
import { allFaults, allVariants } from '../reference/switch-registry.js';
import { conformanceRun } from './lib/run.js';

const args = process.argv.slice(2);
const take = (name: string): string | undefined => {
  const i = args.indexOf(`--${name}`);
  if (i < 0) return undefined;
  const [, value] = args.splice(i, 2);
  return value;
};
const verify = Number(take('verify') ?? 0);
const verifySeed = Number(take('verify-seed') ?? 1);
const reuse = take('reuse');
const keep = take('report-dir') ?? reuse;
const dir = keep ?? mkdtempSync(join(tmpdir(), 'svc-bench-mutation-'));

/** CPU seconds of the children this process waited for (Linux: /proc/self/stat cutime + cstime). */
function childrenCpuSeconds(): number | undefined {
  try {
    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
    // After "pid (comm) ": state is field 3, so cutime (16) and cstime (17) are at 13 and 14 here.
    return (Number(fields[13]) + Number(fields[14])) / 100;
  } catch {
    return undefined;
  }
}

const f1 = (n: number | undefined) => (n === undefined ? 'n/a' : n.toFixed(1));
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

async function main(): Promise<void> {
  if (reuse) {
    const report = JSON.parse(readFileSync(join(reuse, 'mutation.json'), 'utf8')) as MutationReport;
    return verifyOldWay(report);
  }
  const cpuBefore = childrenCpuSeconds();
  const loadBefore = load();
  const started = Date.now();
  console.log(`npm run mutation -- ${args.join(' ')} (${availableParallelism()} cores; load ${loadBefore})...`);
  const run = await runCli(['mutation', '--report-dir', dir, ...args], { env: process.env, timeoutMs: 3 * 3600_000 });
  const wall = (Date.now() - started) / 1000;
  const cpuAfter = childrenCpuSeconds();
  const cpu = cpuBefore !== undefined && cpuAfter !== undefined ? cpuAfter - cpuBefore : undefined;
  const tail = run.stdout.trim().split('\n').slice(-8).join('\n');
  console.log(`${tail}\n`);
  let report: MutationReport | undefined;
  try {
    report = JSON.parse(readFileSync(join(dir, 'mutation.json'), 'utf8')) as MutationReport;
  } catch {
    console.log(`no mutation.json (exit ${run.code}):\n${run.stderr.slice(-2000)}`);
  }
  console.log('figure                          value');
  const row = (k: string, v: string) => console.log(`${k.padEnd(32)}${v}`);
  row('exit', String(run.code));
  row('wall s', f1(wall));
  row('CPU s (process tree)', f1(cpu));
  row('CPU s / cores', f1(cpu !== undefined ? cpu / availableParallelism() : undefined));
  row('load before / after', `${loadBefore} / ${load()}`);
  if (report) {
    row('faults killed', `${report.faults.killed}/${report.faults.total}`);
    row('killed by own requirement', String(report.faults.outcomes.filter((o) => o.byTarget).length));
    row(
      'fail only their own',
      `${report.blastRadius.contained}/${report.blastRadius.measured} (${report.blastRadius.scope})`,
    );
    row('variants passed', `${report.variants.passed}/${report.variants.total}`);
    row('all variants together', report.variants.together?.verdict ?? 'not run');
    row('tests run / lanes / rounds', `${report.run.testsRun} / ${report.run.lanes} / ${report.run.rounds}`);
    row('clean run tests', String(report.run.cleanTests));
  }
  if (report && verify > 0) await verifyOldWay(report);
  if (!keep) rmSync(dir, { recursive: true, force: true });
}

/** Faults and variants of the run again the old way (one command-line run each), compared. */
async function verifyOldWay(report: MutationReport): Promise<void> {
  const clean = JSON.parse(readFileSync(join(dir, 'mutation', 'clean', 'results.json'), 'utf8')) as Results;
  const faults = sample(
    report.faults.outcomes.map((o) => o.fault),
    verify,
    verifySeed,
  );
  const variants = sample(
    report.variants.outcomes.map((o) => o.variant),
    Math.ceil(verify / 4),
    verifySeed,
  );
  console.log(
    `\nverify (seed ${verifySeed}): ${faults.length} fault(s), ${variants.length} variant(s), the old way...`,
  );
  let same = 0;
  const runOld = async (name: string, suites: string[], extra: string[]) => {
    const out = join(dir, 'old', name);
    const r = await conformanceRun({
      reportDir: out,
      suites,
      args: ['--quiet', '--seed', String(TEST_ROBUSTNESS_SEED), ...extra],
    });
    return r.results;
  };
  for (const name of faults) {
    const f = allFaults.find((x) => x.name === name)!;
    const mine = report.faults.outcomes.find((o) => o.fault === name)!;
    const version = f.referenceVersion ? ['--reference-version', f.referenceVersion] : [];
    const files = report.blastRadius.scope === 'files' ? filesTesting(clean, f.suites, f.breaks) : [];
    let results = files.length
      ? await runOld(name, f.suites, ['--faults', name, '--files', files.join(','), ...version])
      : undefined;
    if (!results?.tests.some((t) => t.status === 'failed'))
      results = await runOld(name, f.suites, ['--faults', name, ...version]);
    const failed = results?.tests.filter((t) => t.status === 'failed') ?? [];
    const old = {
      verdict: failed.length ? 'killed' : 'survived',
      byTarget: failed.some((t) => failedRequirements(t).includes(f.breaks)),
      beyond: blastRadius(results, f.breaks),
    };
    const agree =
      old.verdict === mine.verdict && old.byTarget === mine.byTarget && old.beyond.join(',') === mine.beyond.join(',');
    if (agree) same++;
    console.log(
      `${agree ? 'SAME     ' : 'DIFFERENT'} ${name.padEnd(48)} engine: ${mine.verdict}${mine.byTarget ? ' by own' : ''} +${mine.beyond.length}; old: ${old.verdict}${old.byTarget ? ' by own' : ''} +${old.beyond.length}${agree ? '' : ` (engine ${mine.beyond.join(' ')} | old ${old.beyond.join(' ')})`}`,
    );
  }
  for (const name of variants) {
    const v = allVariants.find((x) => x.name === name)!;
    const mine = report.variants.outcomes.find((o) => o.variant === name)!;
    const old = variantVerdict(await runOld(name, v.suites, ['--variants', name]), v.assumptions ?? []);
    const agree = old.verdict === mine.verdict && old.undeclared.join(',') === mine.undeclared.join(',');
    if (agree) same++;
    console.log(
      `${agree ? 'SAME     ' : 'DIFFERENT'} ${name.padEnd(48)} engine: ${mine.verdict} (${mine.testsRun} tests run); old: ${old.verdict} (${old.passed} passed)`,
    );
  }
  console.log(`verdicts the same as the old way's: ${same}/${faults.length + variants.length}`);
}

await main();
