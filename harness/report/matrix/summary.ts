/**
 * The summary of each implementation: per level and per area, how many requirements passed of
 * those with a verdict (applicable: passed, violation, assumption difference, known failure), and
 * an overall conformance figure that counts only violations: an assumption difference is a
 * behaviour the documents allow, and a known failure is declared, so neither lowers it.
 */
import { APPLICABLE, type ColumnSummary, type LevelCounts, type MatrixColumn, type MatrixRow } from './model.js';

export const emptyLevelCounts = (): LevelCounts => ({
  passed: 0,
  applicable: 0,
  violation: 0,
  assumption: 0,
  'known-failure': 0,
  'not-applicable': 0,
  skipped: 0,
  'not-run': 0,
});

function add(counts: LevelCounts, cls: MatrixRow['cells'][number]['class']): void {
  counts[cls]++;
  if ((APPLICABLE as string[]).includes(cls)) counts.applicable++;
}

export function summarize(columns: MatrixColumn[], rows: MatrixRow[]): ColumnSummary[] {
  return columns.map((col, i) => {
    const byLevel: Record<string, LevelCounts> = {};
    const byArea: Record<string, Record<string, LevelCounts>> = {};
    let applicable = 0;
    let violations = 0;
    for (const row of rows) {
      const cls = row.cells[i]!.class;
      add((byLevel[row.level] ??= emptyLevelCounts()), cls);
      add(((byArea[row.area] ??= {})[row.level] ??= emptyLevelCounts()), cls);
      if ((APPLICABLE as string[]).includes(cls)) applicable++;
      if (cls === 'violation') violations++;
    }
    return {
      name: col.name,
      byLevel,
      byArea,
      overall: { applicable, violations, conformance: applicable ? (applicable - violations) / applicable : null },
    };
  });
}
