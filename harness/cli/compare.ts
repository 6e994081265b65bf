/** `compare OLD NEW`: the CI gate between two runs. */
import { existsSync, readFileSync } from 'node:fs';
import { compareResults, formatComparison } from '../report/compare.js';
import type { Results } from '../report/model.js';

function read(path: string): Results | undefined {
  if (!existsSync(path)) {
    console.error(`compare: file not found: ${path}`);
    return undefined;
  }
  try {
    const r = JSON.parse(readFileSync(path, 'utf8')) as Results;
    if (!Array.isArray(r.tests)) throw new Error('no tests array');
    return r;
  } catch (err) {
    console.error(`compare: ${path} is not a results.json: ${(err as Error).message}`);
    return undefined;
  }
}

/**
 * Exit 1 on a new violation; on a new assumption difference only under strict (`mode`, else the
 * mode the newer run recorded).
 */
export function compareFiles(oldFile: string, newFile: string, mode?: string): number {
  const a = read(oldFile);
  const b = read(newFile);
  if (!a || !b) return 2;
  if (mode !== undefined && mode !== 'report' && mode !== 'strict') {
    console.error(`compare: --assumptions must be report or strict, not ${mode}`);
    return 2;
  }
  const c = compareResults(a, b, oldFile);
  console.log(formatComparison(c));
  const strict = (mode ?? b.run.assumptions) === 'strict';
  const differences = c.newAssumptionDifferences?.length ?? 0;
  if (differences && !strict)
    console.log(
      `(${differences} new assumption difference(s) do not fail the gate; --assumptions strict makes them fail)`,
    );
  return c.newFailures.length > 0 || (strict && differences > 0) ? 1 : 0;
}
