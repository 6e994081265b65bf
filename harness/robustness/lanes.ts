/**
 * What the robustness suite may run at the same time. Each spec document is a family with its own
 * run-unique fixtures (a mount, a key, a job), so documents are independent of each other. Within
 * a document the order is fixed, whatever the concurrency:
 *
 * 1. its fixtures (`setup:<document>`);
 * 2. its writes (every method but GET and DELETE), one after another: a write's accepted boundary
 *    cases change what another write's `unchanged` rule reads before and after its refused request,
 *    so no two of them overlap;
 * 3. its reads (GET), all at once: they change nothing, and they all see the state the last write
 *    left, whichever ran first;
 * 4. its deletions, one after another, after everything else of the document.
 *
 * The list order is the order of the tests too, so a test that waits for its own rule's outcome
 * waits at most for the work already in flight (harness/robustness/pool.ts).
 */
import type { PoolJob } from './pool.js';

export type Stage = 'write' | 'read' | 'delete';
const STAGE_RANK: Record<Stage, number> = { write: 0, read: 1, delete: 2 };

export function stageOf(method: string): Stage {
  return method === 'GET' ? 'read' : method === 'DELETE' ? 'delete' : 'write';
}

/** Operations in the order of the stages above: by document, stage, then operation id. */
export function compareOperations(
  a: { file: string; method: string; operationId?: string },
  b: { file: string; method: string; operationId?: string },
): number {
  return (
    a.file.localeCompare(b.file) ||
    STAGE_RANK[stageOf(a.method)] - STAGE_RANK[stageOf(b.method)] ||
    (a.operationId ?? '').localeCompare(b.operationId ?? '')
  );
}

/** One rule of one operation, in test order. */
export interface LaneItem {
  key: string;
  document: string;
  method: string;
}

export const setupKey = (document: string) => `setup:${document}`;

/**
 * The items as pool jobs (each document's fixtures listed just before its first item), with what
 * each waits for. Items must come grouped by document and in stage order (compareOperations).
 */
export function laneJobs<T>(
  items: readonly LaneItem[],
  run: { setup: (document: string) => () => Promise<T>; item: (key: string) => () => Promise<T> },
): PoolJob<T>[] {
  const jobs: PoolJob<T>[] = [];
  const seen = new Set<string>();
  let doc: string | undefined;
  let lastWrite: string | undefined;
  let reads: string[] = [];
  let lastDelete: string | undefined;
  for (const item of items) {
    if (item.document !== doc) {
      if (seen.has(item.document)) throw new Error(`the items of ${item.document} are not listed together`);
      doc = item.document;
      seen.add(doc);
      jobs.push({ key: setupKey(doc), after: [], run: run.setup(doc) });
      lastWrite = setupKey(doc);
      reads = [];
      lastDelete = undefined;
    }
    const stage = stageOf(item.method);
    let after: string[];
    if (stage === 'write') {
      if (reads.length || lastDelete) throw new Error(`${item.key}: a write listed after a read or deletion`);
      after = [lastWrite!];
      lastWrite = item.key;
    } else if (stage === 'read') {
      if (lastDelete) throw new Error(`${item.key}: a read listed after a deletion`);
      after = [lastWrite!];
      reads.push(item.key);
    } else {
      after = lastDelete ? [lastDelete] : [lastWrite!, ...reads];
      lastDelete = item.key;
    }
    jobs.push({ key: item.key, after, run: run.item(item.key) });
  }
  return jobs;
}
