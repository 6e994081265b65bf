/**
 * Verdict classes: what kind of red a failed test is. A failure is charged to one requirement,
 * the one its failing assertion proves (harness/attribution.ts); its class follows from that
 * requirement's catalogue entry: `assumption` for `kind: assumption` (the documents are silent or
 * vague, the suite states a reading), otherwise `violation`. Assumption differences are counted
 * apart and fail the run only under `run.assumptions: strict`.
 */
import type { Requirement } from '../spec/catalogue.js';
import type { NotReached, Status, TestResult, Verdict } from './model.js';

export type AssumptionMode = 'report' | 'strict';

/** The class of a failure charged to `id`. */
export function verdictOf(id: string | undefined, catalogue: Map<string, Requirement>): Verdict {
  return id !== undefined && catalogue.get(id)?.kind === 'assumption' ? 'assumption' : 'violation';
}

/** The requirement a failed test's failure is charged to (its first id when nothing more is known). */
export function chargedTo(t: Pick<TestResult, 'failedRequirement' | 'ids'>): string | undefined {
  return t.failedRequirement ?? t.ids[0];
}

/** Failed (or known-failure) tests only: the class, a violation when the result predates classes. */
export function classOf(t: Pick<TestResult, 'verdict'>): Verdict {
  return t.verdict ?? 'violation';
}

/**
 * What one test says about one of its requirements: its own status, except that a failed test
 * fails only the requirement its failure is charged to; its other ids were not reached (or, when
 * the test ran to its end and only an assumption a helper checked differed, they passed).
 */
export function statusFor(t: TestResult, id: string): Status | NotReached {
  if (t.status !== 'failed' && t.status !== 'known-failure') return t.status;
  if (chargedTo(t) === id) return t.status;
  // An assumption a helper checked on the way and found different (`t.assuming`).
  if (t.assumptionDifferences?.some((d) => d.id === id)) return 'failed';
  if (t.notReached?.includes(id)) return 'not-reached';
  // A failure recorded before classes existed (no failedRequirement): every id failed, as it read then.
  if (t.failedRequirement === undefined) return t.status;
  return 'passed';
}

/** Level of the requirement a failure is charged to (the test's level when the catalogue lacks it). */
export function failedLevel(t: TestResult, catalogue?: Map<string, Requirement>): TestResult['level'] {
  const id = chargedTo(t);
  return (id && catalogue?.get(id)?.level) || t.level;
}

/** Whether a failed test makes the run exit 1: a MUST violation, or under strict a MUST assumption difference. */
export function failsRun(t: TestResult, mode: AssumptionMode, catalogue?: Map<string, Requirement>): boolean {
  if (t.status !== 'failed') return false;
  const level = failedLevel(t, catalogue);
  if (level !== 'MUST' && level !== 'NONE') return false;
  return classOf(t) === 'violation' || mode === 'strict';
}

export function assumptionMode(value: string | undefined): AssumptionMode {
  return value === 'strict' ? 'strict' : 'report';
}
