/**
 * `matrix NAME=results.json ...`: several runs side by side (matrix.html, matrix.json). A view,
 * not a gate: it exits 0 once written, 2 on a usage error (a bad argument, a missing or invalid
 * file, a name given twice), naming the argument.
 */
import { buildMatrix } from '../report/matrix/build.js';
import { loadRuns, MatrixUsageError } from '../report/matrix/load.js';
import type { ColumnSummary, Matrix } from '../report/matrix/model.js';
import { writeMatrix } from '../report/matrix/write.js';

const LEVELS = ['MUST', 'SHOULD', 'MAY'];

function line(m: Matrix, s: ColumnSummary, i: number): string {
  const c = m.columns[i]!;
  const levels = LEVELS.filter((l) => s.byLevel[l])
    .map((l) => `${l} ${s.byLevel[l]!.passed}/${s.byLevel[l]!.applicable}`)
    .join(', ');
  const total = (k: 'assumption' | 'not-run') => Object.values(s.byLevel).reduce((n, x) => n + x[k], 0);
  const figure =
    s.overall.conformance === null ? '–' : `${(Math.floor(s.overall.conformance * 1000) / 10).toFixed(1)}%`;
  return `  ${c.name} (${c.version || 'version unknown'}): ${levels}; ${s.overall.violations} violation(s), ${total('assumption')} assumption difference(s), ${total('not-run')} not run; conformance ${figure}`;
}

export function matrixFiles(args: string[], reportDir: string): number {
  let matrix: Matrix;
  try {
    matrix = buildMatrix(loadRuns(args));
  } catch (err) {
    if (err instanceof MatrixUsageError) {
      console.error(`matrix: ${err.message}`);
      return 2;
    }
    throw err;
  }
  for (const c of matrix.columns) {
    if (c.shard)
      console.error(
        `matrix: warning: ${c.name} is shard ${c.shard} of a run; its other shards' requirements read as not run (combine the shards with merge first)`,
      );
    if (c.complete === false)
      console.error(`matrix: warning: ${c.name} is an incomplete run: ${c.incomplete.join('; ')}`);
  }
  const { json, html } = writeMatrix(reportDir, matrix);
  console.log(
    `matrix: ${matrix.counts.rows} requirements × ${matrix.columns.length} implementations; ${matrix.counts.disagree} where they disagree, ${matrix.counts.allFail} where every implementation fails`,
  );
  for (const [i, s] of matrix.summary.entries()) console.log(line(matrix, s, i));
  console.log(`reports: ${html}, ${json}`);
  return 0;
}
