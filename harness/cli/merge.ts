/** `merge`: one results.json, junit.xml and index.html from the results.json of a run's shards. */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { loadCatalogue } from '../spec/catalogue.js';
import { mergeResults, MergeError } from '../report/merge.js';
import type { Results } from '../report/model.js';
import { writeReports } from '../report/reporter.js';
import { summaryLines } from '../report/terminal.js';

export function mergeFiles(files: string[], reportDir: string): number {
  let merged: Results;
  try {
    const parts = files.map((file) => {
      let text: string;
      try {
        text = readFileSync(file, 'utf8');
      } catch (err) {
        throw new MergeError(`cannot read ${file}: ${(err as Error).message}`);
      }
      try {
        return { file, results: JSON.parse(text) as Results };
      } catch {
        throw new MergeError(`${file} is not a results.json (invalid JSON)`);
      }
    });
    merged = mergeResults(parts, loadCatalogue());
  } catch (err) {
    if (err instanceof MergeError) {
      console.error(`merge: ${err.message}`);
      return 2;
    }
    throw err;
  }
  const dir = resolve(reportDir);
  writeReports(dir, merged);
  const s = merged.summary;
  console.log(`merged ${files.length} shard(s)`);
  for (const line of summaryLines(merged)) console.log(line);
  console.log(`reports: ${join(dir, 'index.html')}, ${join(dir, 'results.json')}, ${join(dir, 'junit.xml')}`);
  return s.mustFailed > 0 || merged.errors.length > 0 ? 1 : 0;
}
