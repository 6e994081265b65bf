/**
 * What a mutation lane's results say (harness/cli/mutation.ts): a fault killed or survived, by a
 * test of the requirement it breaks or not, and its blast radius; a variant passed or failed; and
 * the terminal lines of both.
 */
import type { FaultSpec } from '../../contract/switches.js';
import type { Results, TestResult } from '../report/model.js';
import { chargedTo, classOf } from '../report/verdict.js';

export interface Outcome {
  fault: string;
  breaks: string;
  suites: string[];
  verdict: 'killed' | 'survived' | 'error';
  byTarget: boolean;
  failedTests: string[];
  /** The requirements the failing tests' failures are charged to (and assumptions found different). */
  charged: string[];
  /** Requirement ids that failed other than `breaks`, and over which tests they were measured. */
  beyond: string[];
  /**
   * Over which tests the radius was measured: `files`, the tests of the files naming the broken
   * requirement that the fault reaches; `suites`, every test of its suites it reaches.
   */
  radiusScope: 'suites' | 'files';
  /** Tests run under the fault (those it reaches: harness/cli/mutation-plan.ts). */
  testsRun: number;
  detail?: string;
}

export interface VariantOutcome {
  variant: string;
  allows: string;
  suites: string[];
  verdict: 'passed' | 'failed' | 'error';
  passed: number;
  /** Tests run with the variant on (those it reaches); the others pass as in the clean run. */
  testsRun: number;
  /** Violations: false failures of the suite. */
  failedTests: { key: string; ids: string[]; failedRequirement?: string; message?: string }[];
  /** Assumptions the run differed from, and which of them the variant does not declare (findings). */
  assumptionDifferences: string[];
  undeclared: string[];
  detail?: string;
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

/** A fault's outcome from the results of the tests it reached (`results` undefined: none). */
export function faultOutcome(
  fault: FaultSpec,
  results: Results | undefined,
  scope: Outcome['radiusScope'],
  detail?: string,
): Outcome {
  const failed = results?.tests.filter((t) => t.status === 'failed') ?? [];
  const ran = results?.tests.filter((t) => t.kind !== 'schema').length ?? 0;
  const error = !!results && ran === 0 && results.errors.length > 0;
  return {
    fault: fault.name,
    breaks: fault.breaks,
    suites: fault.suites,
    verdict: error ? 'error' : failed.length > 0 ? 'killed' : 'survived',
    byTarget: failed.some((t) => failedRequirements(t).includes(fault.breaks)),
    failedTests: failed.map((t) => t.key),
    charged: [...new Set(failed.flatMap(failedRequirements))].sort(),
    beyond: blastRadius(results, fault.breaks),
    radiusScope: scope,
    testsRun: ran,
    ...(error ? { detail: results!.errors.slice(0, 3).join('\n') } : detail ? { detail } : {}),
  };
}

/** A variant's (or every variant's together) verdict from the results of the tests it reached. */
export function variantVerdict(
  results: Results | undefined,
  declared: readonly string[],
): Omit<VariantOutcome, 'variant' | 'allows' | 'suites'> {
  const violations = results?.tests.filter((t) => t.status === 'failed' && classOf(t) === 'violation') ?? [];
  const { differences, undeclared } = assumptionsDiffered(results, declared);
  const errors = results?.errors ?? [];
  const verdict: VariantOutcome['verdict'] =
    violations.length === 0 && undeclared.length === 0 && errors.length === 0 ? 'passed' : 'failed';
  return {
    verdict,
    passed: results?.summary.passed ?? 0,
    testsRun: results?.tests.filter((t) => t.kind !== 'schema').length ?? 0,
    failedTests: violations.map((t) => ({
      key: t.key,
      ids: t.ids,
      failedRequirement: t.failedRequirement,
      message: t.message?.slice(0, 300),
    })),
    assumptionDifferences: differences,
    undeclared,
    ...(verdict === 'passed' || !errors.length ? {} : { detail: errors.slice(0, 3).join('\n') }),
  };
}

/** The terminal line of a fault. */
export function faultLine(o: Outcome, description: string): string {
  const mark = o.verdict === 'killed' ? 'KILLED  ' : o.verdict === 'survived' ? 'SURVIVED' : 'ERROR   ';
  const radius = o.beyond.length
    ? `; blast radius ${o.beyond.length}: ${o.beyond.slice(0, 4).join(', ')}${o.beyond.length > 4 ? ', ...' : ''}`
    : '';
  const said =
    o.verdict === 'killed'
      ? `${o.failedTests.length} failing test(s)${o.byTarget ? `, incl. ${o.breaks}` : `; no failure is charged to ${o.breaks}`}${radius}`
      : `${description}${o.detail ? ` (${o.detail.split('\n')[0]})` : ''}`;
  return `${mark} ${o.fault.padEnd(48)} ${said}`;
}

/** What a variant's run says, for its terminal line. */
export function describeVariant(r: Omit<VariantOutcome, 'variant' | 'allows' | 'suites'>): string {
  if (r.verdict === 'passed' && r.testsRun === 0)
    return 'no test reaches it: every test passes as it passed clean (a behaviour the suites never exercise)';
  if (r.verdict === 'passed')
    return `${r.passed} tests passed${r.assumptionDifferences.length ? `; assumption differences as declared: ${r.assumptionDifferences.join(', ')}` : ''}`;
  return [
    r.failedTests.length
      ? `${r.failedTests.length} false failure(s): ${r.failedTests
          .slice(0, 3)
          .map((t) => t.failedRequirement ?? t.ids.join('+'))
          .join(', ')}`
      : '',
    r.undeclared.length ? `undeclared assumption difference(s): ${r.undeclared.join(', ')}` : '',
    !r.failedTests.length && !r.undeclared.length ? (r.detail ?? 'no results') : '',
  ]
    .filter(Boolean)
    .join('; ');
}

export function variantLine(name: string, r: Omit<VariantOutcome, 'variant' | 'allows' | 'suites'>): string {
  const mark = r.verdict === 'passed' ? 'PASSED  ' : r.verdict === 'failed' ? 'FAILED  ' : 'ERROR   ';
  return `${mark} ${name.padEnd(48)} ${describeVariant(r)}`;
}
