/**
 * `mutation`: measures both ways a suite can be wrong. A clean run first (it must pass); then
 * - one run per fault switch of the reference with the suites that claim to catch it: a fault is
 *   killed when at least one test fails, as a violation or as an assumption difference
 *   (sensitivity), and its blast radius is the requirements failed beyond the one it breaks, each
 *   failed test counting only the requirement its failure is charged to (a fault should fail its
 *   own rule, not twenty others; a test's other ids are not reached, not failed);
 * - one run per legal variant with the suites it names, and one with every selected variant on
 *   together: a variant passes with zero violations (any violation is a false failure of the
 *   suite). The assumptions a variant contradicts are not switched off: it produces assumption
 *   differences, and those it does not declare (`assumptions` of its declaration) are findings
 *   that fail it too (the declaration must say what the variant contradicts).
 * Both go to the terminal and to `<report-dir>/mutation.json` (sections faults, variants,
 * blastRadius).
 */
import { envOf } from '../config/settings.js';
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { FaultSpec, SwitchCatalogue, VariantSpec } from '../../contract/switches.js';
import type { Results, TestResult } from '../report/model.js';
import { chargedTo, classOf } from '../report/verdict.js';
import { runCli } from './process.js';
import { filesTesting } from './mutation-targets.js';
import { statementKillLines, statementKills } from './mutation-statements.js';
import { loadStatements } from '../spec/statements.js';

export interface MutationOptions {
  suites?: string[];
  /** Only these faults; given alone (without `variants`), no variant runs. */
  faults?: string[];
  /** Only these variants; given alone (without `faults`), no fault runs. */
  variants?: string[];
  /** Skip the fault side or the variant side. */
  noFaults?: boolean;
  noVariants?: boolean;
  /**
   * `suites` (default): a fault's whole suites run, so its blast radius is measured over every
   * test that could fail; `files`: only the files naming the broken requirement (faster; the
   * radius is then a lower bound), falling back to the whole suites when none of them fails.
   */
  radius?: 'suites' | 'files';
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
  /** Requirement ids that failed other than `breaks`, and over which tests they were measured. */
  beyond: string[];
  radiusScope: 'suites' | 'files';
  detail?: string;
}

interface VariantOutcome {
  variant: string;
  allows: string;
  suites: string[];
  verdict: 'passed' | 'failed' | 'error';
  passed: number;
  /** Violations: false failures of the suite. */
  failedTests: { key: string; ids: string[]; failedRequirement?: string; message?: string }[];
  /** Assumptions the run differed from, and which of them the variant does not declare (findings). */
  assumptionDifferences: string[];
  undeclared: string[];
  detail?: string;
}

/** The selection of faults and variants a mutation run measures, or a usage error. */
export function select(
  opts: MutationOptions,
  { faults: allFaults, variants: allVariants }: SwitchCatalogue,
): { faults: FaultSpec[]; variants: VariantSpec[] } | { error: string } {
  const unknownFaults = (opts.faults ?? []).filter((n) => !allFaults.some((f) => f.name === n));
  const unknownVariants = (opts.variants ?? []).filter((n) => !allVariants.some((v) => v.name === n));
  if (unknownFaults.length) return { error: `unknown fault(s): ${unknownFaults.join(', ')}` };
  if (unknownVariants.length) return { error: `unknown variant(s): ${unknownVariants.join(', ')}` };
  const inSuites = (suites: string[]) => !opts.suites?.length || suites.some((s) => opts.suites!.includes(s));
  const onlyVariants = !!opts.variants?.length && !opts.faults?.length;
  const onlyFaults = !!opts.faults?.length && !opts.variants?.length;
  const faults =
    opts.noFaults || onlyVariants
      ? []
      : allFaults.filter((f) => inSuites(f.suites) && (!opts.faults?.length || opts.faults.includes(f.name)));
  const variants =
    opts.noVariants || onlyFaults
      ? []
      : allVariants.filter((v) => inSuites(v.suites) && (!opts.variants?.length || opts.variants.includes(v.name)));
  if (faults.length === 0 && variants.length === 0)
    return { error: 'no fault switch or variant matches the selection' };
  return { faults, variants };
}

/**
 * The requirements a failed test fails: the one its failure is charged to, and the assumptions a
 * helper found different on the way (`t.assuming`). Never the test's other, unreached ids.
 */
export function failedRequirements(t: TestResult): string[] {
  if (t.status !== 'failed') return [];
  const charged = chargedTo(t);
  return [...(charged ? [charged] : []), ...(t.assumptionDifferences ?? []).map((d) => d.id)];
}

/** Requirements failed in a run, other than the one the fault breaks. */
export function blastRadius(results: Results | undefined, breaks: string): string[] {
  const ids = new Set<string>();
  for (const t of results?.tests ?? []) for (const id of failedRequirements(t)) if (id !== breaks) ids.add(id);
  return [...ids].sort();
}

/**
 * The assumptions a run differed from (failures of class assumption, and differences recorded on
 * the way), and those of them `declared` does not cover. A difference is covered when its id is
 * declared or when its test also names a declared assumption (a generated robustness rule and the
 * group assumption it belongs to: `robustness.sched.invalid-4xx`).
 */
export function assumptionsDiffered(
  results: Results | undefined,
  declared: readonly string[] = [],
): { differences: string[]; undeclared: string[] } {
  const all = new Set<string>();
  const undeclared = new Set<string>();
  for (const t of results?.tests ?? []) {
    const ids = [
      ...(t.status === 'failed' && classOf(t) === 'assumption' ? [chargedTo(t)!] : []),
      ...(t.assumptionDifferences ?? []).map((d) => d.id),
    ];
    for (const id of ids) {
      all.add(id);
      if (!declared.includes(id) && !t.ids.some((x) => x !== id && declared.includes(x))) undeclared.add(id);
    }
  }
  return { differences: [...all].sort(), undeclared: [...undeclared].sort() };
}

async function runSuites(
  suites: string[],
  faults: string[],
  reportDir: string,
  referenceVersion?: string,
  files?: string[],
  variants: string[] = [],
): Promise<{ code: number; results?: Results; output: string }> {
  const args = ['run', '--quiet', '--suite', suites.join(','), '--report-dir', reportDir];
  if (files?.length) args.push('--files', files.join(','));
  if (faults.length) args.push('--faults', faults.join(','));
  if (variants.length) args.push('--variants', variants.join(','));
  if (referenceVersion) args.push('--reference-version', referenceVersion);
  // The run is the embedded reference with exactly these switches: what the caller's environment
  // sets for the target or the switches does not reach it.
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const path of ['reference.faults', 'reference.variants']) env[envOf(path)] = '';
  for (const path of ['svc.addr', 'sched.addr']) delete env[envOf(path)];
  // node directly in its own process group (harness/cli/process.ts): a timeout, an interrupted
  // mutation run or its end stops the run and everything it started, not only a wrapper.
  const run = await runCli(args, { env, timeoutMs: 15 * 60_000 });
  const file = join(reportDir, 'results.json');
  const results = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Results) : undefined;
  return {
    code: run.code ?? 1,
    results,
    output: `${run.stdout}${run.stderr}${run.timedOut ? '\n(timed out after 15 minutes)' : ''}`,
  };
}

async function pool<T, R>(items: T[], size: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.max(1, size) }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await fn(items[i]!);
      }
    }),
  );
  return out;
}

/** `switches`: the embedded target's catalogue (contract/target.ts), handed in by compose/cli.ts. */
export async function runMutation(opts: MutationOptions, switches: SwitchCatalogue): Promise<number> {
  const base = resolve(opts.reportDir, 'mutation');
  mkdirSync(base, { recursive: true });
  const selection = select(opts, switches);
  if ('error' in selection) {
    console.error(selection.error);
    return 2;
  }
  const { faults, variants } = selection;
  const radius = opts.radius ?? 'suites';
  const suites = [...new Set([...faults.flatMap((f) => f.suites), ...variants.flatMap((v) => v.suites)])];
  console.log(`clean run of ${suites.join(',')} (must pass before faults and variants mean anything)...`);
  const clean = await runSuites(suites, [], join(base, 'clean'));
  if (!clean.results || clean.results.summary.failed > 0 || clean.code !== 0) {
    console.error(
      `the clean run did not pass (exit ${clean.code}); fix the suites or the reference first:\n${clean.output.split('\n').slice(-30).join('\n')}`,
    );
    return 1;
  }
  console.log(`clean run passed: ${clean.results.summary.passed} tests\n`);
  const cleanResults = clean.results;

  if (faults.length)
    console.log(`faults (${faults.length}): must be killed, ideally failing only their own requirement`);
  const outcomes = await pool(faults, opts.jobs, async (fault): Promise<Outcome> => {
    const dir = join(base, fault.name);
    // With radius "files" the files whose clean results test the broken requirement run first (fast); the whole
    // suites run when they miss it, so a fault is only called survived after every test of its
    // suites had the chance.
    const targeted = radius === 'files' ? filesTesting(cleanResults, fault.suites, fault.breaks) : [];
    let run = targeted.length
      ? await runSuites(fault.suites, [fault.name], dir, fault.referenceVersion, targeted)
      : undefined;
    let scope: 'suites' | 'files' = 'files';
    if (!run?.results || run.results.tests.every((t) => t.status !== 'failed')) {
      run = await runSuites(fault.suites, [fault.name], dir, fault.referenceVersion);
      scope = 'suites';
    }
    const failed = run.results?.tests.filter((t) => t.status === 'failed') ?? [];
    const outcome: Outcome = {
      fault: fault.name,
      breaks: fault.breaks,
      suites: fault.suites,
      verdict: !run.results ? 'error' : failed.length > 0 ? 'killed' : 'survived',
      byTarget: failed.some((t) => failedRequirements(t).includes(fault.breaks)),
      failedTests: failed.map((t) => t.key),
      beyond: blastRadius(run.results, fault.breaks),
      radiusScope: scope,
      detail: !run.results ? run.output.split('\n').slice(-10).join('\n') : undefined,
    };
    const mark = outcome.verdict === 'killed' ? 'KILLED  ' : outcome.verdict === 'survived' ? 'SURVIVED' : 'ERROR   ';
    const radiusNote = outcome.beyond.length
      ? `; blast radius ${outcome.beyond.length}: ${outcome.beyond.slice(0, 4).join(', ')}${outcome.beyond.length > 4 ? ', ...' : ''}`
      : '';
    console.log(
      `${mark} ${fault.name.padEnd(48)} ${outcome.verdict === 'killed' ? `${failed.length} failing test(s)${outcome.byTarget ? `, incl. ${fault.breaks}` : `; no failure is charged to ${fault.breaks}`}${radiusNote}` : fault.description}`,
    );
    return outcome;
  });

  if (variants.length) console.log(`\nvariants (${variants.length}): legal behaviours, must pass with zero failures`);
  const runVariants = async (names: string[], suitesOf: string[], dir: string, declared: string[]) => {
    const run = await runSuites(suitesOf, [], dir, undefined, undefined, names);
    const violations = run.results?.tests.filter((t) => t.status === 'failed' && classOf(t) === 'violation') ?? [];
    const { differences, undeclared } = assumptionsDiffered(run.results, declared);
    const verdict: VariantOutcome['verdict'] = !run.results
      ? 'error'
      : violations.length === 0 && undeclared.length === 0 && run.results.errors.length === 0
        ? 'passed'
        : 'failed';
    return {
      verdict,
      passed: run.results?.summary.passed ?? 0,
      failedTests: violations.map((t) => ({
        key: t.key,
        ids: t.ids,
        failedRequirement: t.failedRequirement,
        message: t.message?.slice(0, 300),
      })),
      assumptionDifferences: differences,
      undeclared,
      detail:
        verdict === 'passed'
          ? undefined
          : run.results?.errors.join('\n') || run.output.split('\n').slice(-10).join('\n'),
    };
  };
  const describe = (r: Awaited<ReturnType<typeof runVariants>>) =>
    r.verdict === 'passed'
      ? `${r.passed} tests passed${r.assumptionDifferences.length ? `; assumption differences as declared: ${r.assumptionDifferences.join(', ')}` : ''}`
      : [
          r.failedTests.length
            ? `${r.failedTests.length} false failure(s): ${r.failedTests
                .slice(0, 3)
                .map((t) => t.failedRequirement ?? t.ids.join('+'))
                .join(', ')}`
            : '',
          r.undeclared.length ? `undeclared assumption difference(s): ${r.undeclared.join(', ')}` : '',
          r.verdict === 'error' || (!r.failedTests.length && !r.undeclared.length) ? (r.detail ?? 'no results') : '',
        ]
          .filter(Boolean)
          .join('; ');
  const variantOutcomes = await pool(variants, opts.jobs, async (variant): Promise<VariantOutcome> => {
    const r = await runVariants(
      [variant.name],
      variant.suites,
      join(base, `variant-${variant.name}`),
      variant.assumptions ?? [],
    );
    const outcome: VariantOutcome = { variant: variant.name, allows: variant.allows, suites: variant.suites, ...r };
    const mark = r.verdict === 'passed' ? 'PASSED  ' : r.verdict === 'failed' ? 'FAILED  ' : 'ERROR   ';
    console.log(`${mark} ${variant.name.padEnd(48)} ${describe(r)}`);
    return outcome;
  });
  let together: (Awaited<ReturnType<typeof runVariants>> & { variants: string[]; suites: string[] }) | undefined;
  if (variants.length > 1) {
    const allSuites = [...new Set(variants.flatMap((v) => v.suites))];
    together = {
      variants: variants.map((v) => v.name),
      suites: allSuites,
      ...(await runVariants(
        variants.map((v) => v.name),
        allSuites,
        join(base, 'variants-together'),
        variants.flatMap((v) => v.assumptions ?? []),
      )),
    };
    console.log(
      `${together.verdict === 'passed' ? 'PASSED  ' : 'FAILED  '} ${'all variants together'.padEnd(48)} ${describe(together)}`,
    );
  }

  const killed = outcomes.filter((o) => o.verdict === 'killed').length;
  const rate = outcomes.length ? (killed / outcomes.length) * 100 : 100;
  const variantsPassed = variantOutcomes.filter((o) => o.verdict === 'passed').length;
  const falseFailures =
    variantOutcomes.reduce((n, o) => n + o.failedTests.length, 0) + (together?.failedTests.length ?? 0);
  const undeclared = [...new Set([...variantOutcomes.flatMap((o) => o.undeclared), ...(together?.undeclared ?? [])])];
  const radii = outcomes
    .filter((o) => o.verdict === 'killed')
    .map((o) => ({ fault: o.fault, breaks: o.breaks, beyond: o.beyond, count: o.beyond.length, scope: o.radiusScope }));
  const contained = radii.filter((r) => r.count === 0).length;
  console.log('');
  if (outcomes.length) {
    console.log(`faults killed: ${killed}/${outcomes.length} (${rate.toFixed(1)}%)`);
    const untargeted = outcomes.filter((o) => o.verdict === 'killed' && !o.byTarget);
    if (untargeted.length)
      console.log(`killed, but not by a test of the broken requirement: ${untargeted.map((o) => o.fault).join(', ')}`);
    const wide = [...radii].sort((a, b) => b.count - a.count).filter((r) => r.count > 0);
    console.log(
      `blast radius: ${contained}/${radii.length} fault(s) fail only their own requirement${
        wide.length
          ? `; widest: ${wide
              .slice(0, 5)
              .map((r) => `${r.fault} (+${r.count})`)
              .join(', ')}`
          : ''
      }`,
    );
  }
  // Sensitivity against the documents: kills per statement (faults declare the statements they break).
  const perStatement = statementKills(loadStatements(), switches.faults, outcomes);
  if (outcomes.length) for (const line of statementKillLines(perStatement)) console.log(line);
  if (variantOutcomes.length) {
    console.log(
      `variants passed: ${variantsPassed}/${variantOutcomes.length} alone${together ? `, all together ${together.verdict}` : ''}; false failures: ${falseFailures}; undeclared assumption differences: ${undeclared.length ? undeclared.join(', ') : 0}`,
    );
  }
  const report = {
    faults: { killed, total: outcomes.length, rate, outcomes },
    variants: {
      passed: variantsPassed,
      total: variantOutcomes.length,
      falseFailures,
      undeclaredAssumptionDifferences: undeclared,
      outcomes: variantOutcomes,
      together: together ?? null,
    },
    blastRadius: { scope: radius, contained, measured: radii.length, faults: radii },
    statements: perStatement,
  };
  writeFileSync(join(opts.reportDir, 'mutation.json'), JSON.stringify(report, null, 2));
  const variantsOk = variantsPassed === variantOutcomes.length && (!together || together.verdict === 'passed');
  return killed === outcomes.length && variantsOk ? 0 : 1;
}
