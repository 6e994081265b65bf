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

export function compareFiles(oldFile: string, newFile: string): number {
  const a = read(oldFile);
  const b = read(newFile);
  if (!a || !b) return 2;
  const c = compareResults(a, b, oldFile);
  console.log(formatComparison(c));
  return c.newFailures.length > 0 ? 1 : 0;
}
