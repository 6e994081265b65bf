/**
 * Whether a run exercised what was selected. A suite that did not run (its prerequisite was
 * missing: no directory for ldap) or ran with a share of its tests skipped for a missing
 * prerequisite (cloud fixtures) makes the run incomplete: the reports say so next to the verdict,
 * and `--require-complete` (run.requireComplete) turns it into exit 1.
 */
import type { TargetConfig } from '../config/types.js';
import type { IncompleteSuite, Results, TestResult } from './model.js';

/** The suite folder of a conformance test (`suites/<suite>/...`); undefined for other tests. */
const suiteOf = (t: TestResult): string | undefined => /^suites\/([^/]+)\//.exec(t.file)?.[1];

export function completeness(
  tests: TestResult[],
  cfg: TargetConfig | undefined,
): { complete: boolean; incomplete: IncompleteSuite[] } {
  if (!cfg) return { complete: true, incomplete: [] };
  // With --files only those files' suites were asked for (mutation runs target single files).
  const selected = cfg.run.files?.length ? [...new Set(cfg.run.files.map((f) => f.split('/')[1]!))] : cfg.run.suites;
  const incomplete: IncompleteSuite[] = [];
  for (const suite of selected) {
    const own = tests.filter((t) => suiteOf(t) === suite);
    const prereq = own.filter((t) => t.status === 'skipped' && t.skip?.prerequisite);
    const missing = cfg.unavailable?.[suite];
    if (missing || (own.length > 0 && prereq.length === own.length)) {
      incomplete.push({
        suite,
        kind: 'not-run',
        reason: missing?.reason ?? prereq[0]!.skip!.reason,
        setting: missing?.setting ?? prereq[0]!.skip!.setting,
      });
    } else if (own.length === 0 && !cfg.run.shard) {
      // (A shard runs a share of the files: whether each suite ran is decided when shards merge.)
      incomplete.push({ suite, kind: 'not-run', reason: 'no test of this suite ran (see the run errors)' });
    } else if (prereq.length > 0) {
      const reasons = [...new Set(prereq.map((t) => t.skip!.reason))];
      const settings = [...new Set(prereq.map((t) => t.skip!.setting).filter(Boolean))];
      incomplete.push({
        suite,
        kind: 'partial',
        reason: reasons.join('; '),
        setting: settings.join(', ') || undefined,
        skipped: prereq.length,
        total: own.length,
      });
    }
  }
  return { complete: incomplete.length === 0, incomplete };
}

/** "incomplete: ldap not run (no directory: ...); cloud: 3 of 40 tests skipped for a missing prerequisite (...)" */
export function incompleteLine(results: Pick<Results, 'complete' | 'incomplete'>): string | undefined {
  if (results.complete !== false) return undefined;
  const parts = (results.incomplete ?? []).map((i) =>
    i.kind === 'not-run'
      ? `${i.suite} not run (${i.reason})`
      : `${i.suite}: ${i.skipped} of ${i.total} tests skipped for a missing prerequisite (${i.reason})`,
  );
  return `incomplete: ${parts.join('; ')}`;
}

/** Completeness of merged shards: their findings combined, and every selected suite that no shard ran. */
export function mergeCompleteness(
  parts: Pick<Results, 'complete' | 'incomplete'>[],
  tests: TestResult[],
  suites: string[],
): { complete: boolean; incomplete: IncompleteSuite[] } {
  const bySuite = new Map<string, IncompleteSuite>();
  for (const i of parts.flatMap((p) => p.incomplete ?? [])) {
    const seen = bySuite.get(i.suite);
    if (!seen) bySuite.set(i.suite, { ...i });
    else if (seen.kind === 'partial' && i.kind === 'partial') {
      seen.skipped = (seen.skipped ?? 0) + (i.skipped ?? 0);
      seen.total = (seen.total ?? 0) + (i.total ?? 0);
    } else if (i.kind === 'not-run') bySuite.set(i.suite, { ...i });
  }
  for (const suite of suites) {
    if (!bySuite.has(suite) && !tests.some((t) => suiteOf(t) === suite))
      bySuite.set(suite, { suite, kind: 'not-run', reason: 'no test of this suite ran in any shard' });
  }
  const incomplete = [...bySuite.values()];
  return { complete: incomplete.length === 0, incomplete };
}
