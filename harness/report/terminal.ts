/**
 * The closing lines a run prints: counts CI systems read, the verdict classes apart (violations of
 * the documents by level, assumption differences with how they count), and where the reports are.
 */
import type { Results } from './model.js';
import { incompleteLine } from './completeness.js';

export function summaryLines(results: Results): string[] {
  const s = results.summary;
  if (results.preflight)
    return [`\nconformance: not started: ${results.preflight.message}`, 'no suite ran; the reports say the same'];
  const strict = results.run.assumptions === 'strict';
  const v = s.violations ?? { MUST: s.mustFailed, SHOULD: 0, MAY: 0 };
  const differences = s.assumptionDifferences ?? 0;
  const lines = [
    // The first line is the plain closing line CI systems read ("N passed, N failed, N skipped").
    `\nconformance: ${s.passed + s.knownIssues} passed, ${s.failed} failed, ${s.skipped} skipped`,
    `violations: ${v.MUST} MUST, ${v.SHOULD} SHOULD, ${v.MAY} MAY; assumption differences: ${differences}${
      differences
        ? strict
          ? ' (failing the run: run.assumptions is strict)'
          : ' (not failing the run; run.assumptions: strict or --assumptions strict makes them fail)'
        : ''
    }`,
  ];
  const incomplete = incompleteLine(results);
  if (incomplete) lines.push(incomplete);
  if (s.notApplicable)
    lines.push(
      `not applicable: ${s.notApplicable} (a precondition the target refused, or an unknown version; see the report)`,
    );
  lines.push(
    `known failures: ${s.knownFailures}, fixed: ${s.fixed}, known issues observed: ${s.knownIssues}, MUST failures: ${s.mustFailed}`,
  );
  const shown = 10;
  const differing = results.tests.filter((x) => x.status === 'failed' && x.verdict === 'assumption');
  for (const t of differing.slice(0, shown)) {
    const row = results.requirements.find((r) => r.id === t.failedRequirement);
    lines.push(
      `  assumption difference ${t.failedRequirement}${row?.assumption?.setting ? ` (setting ${row.assumption.setting})` : ''}: ${t.title}`,
    );
  }
  if (differing.length > shown)
    lines.push(`  ... and ${differing.length - shown} more assumption difference(s): see the report's own section`);
  return lines;
}
