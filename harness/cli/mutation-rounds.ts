/**
 * How the mutation engine (mutation-engine.ts) cuts its work into rounds: one item per file of a
 * lane, heaviest first; a round takes at most one item of each file (vitest runs a file once per
 * run), as wide as the queue allows, until the runners' last rounds split what is left.
 */
import { availableParallelism } from 'node:os';
import type { LaneSpec } from './mutation-engine.js';

/** One file of a lane, with its vitest test ids (undefined: the whole file) and its estimated cost. */
export interface Item {
  lane: LaneSpec;
  file: string;
  testIds?: string[];
  cost: number;
}

/** Every lane's files as items, heaviest first. */
export function items(
  lanes: LaneSpec[],
  ids: (file: string, name: string) => string[],
  cost: (file: string, names: string[] | undefined) => number,
): Item[] {
  const out: Item[] = [];
  for (const lane of lanes)
    for (const [file, names] of lane.files) {
      const testIds = names?.flatMap((n) => ids(file, n));
      out.push({ lane, file, ...(testIds ? { testIds } : {}), cost: Math.max(1, cost(file, names)) });
    }
  return out.sort((a, b) => b.cost - a.cost || a.file.localeCompare(b.file));
}

/** The least a round weighs (traced milliseconds) before it is split: a worker's start is ~0.5 s. */
export const MIN_ROUND_COST = 8000;

/**
 * The next round of a runner: the heaviest item of each file still queued (a round runs a file
 * once), as wide as the queue allows, so that few rounds (each a worker's start) carry the run;
 * but no heavier than a runner's share of what is left (at least MIN_ROUND_COST), so that the last
 * rounds split between the runners. Taken items leave the queue.
 */
export function takeRound(queue: Item[], runners: number): Item[] {
  const remaining = queue.reduce((n, i) => n + i.cost, 0);
  const share = Math.max(MIN_ROUND_COST, remaining / Math.max(1, runners));
  const round: Item[] = [];
  const files = new Set<string>();
  let cost = 0;
  for (let i = 0; i < queue.length; ) {
    const item = queue[i]!;
    if (files.has(item.file) || (round.length > 0 && cost + item.cost > share)) {
      i++;
      continue;
    }
    files.add(item.file);
    round.push(item);
    cost += item.cost;
    queue.splice(i, 1);
  }
  return round;
}

/** Items split into `n` shares of about equal cost (each item to the lightest share). */
export function split(queue: Item[], n: number): Item[][] {
  const shares: { items: Item[]; cost: number }[] = Array.from({ length: n }, () => ({ items: [], cost: 0 }));
  for (const item of [...queue].sort((a, b) => b.cost - a.cost)) {
    const lightest = shares.reduce((a, b) => (b.cost < a.cost ? b : a));
    lightest.items.push(item);
    lightest.cost += item.cost;
  }
  return shares.map((s) => s.items);
}

/**
 * Runners (rounds in flight) by default: 3 per core. A round lasts as long as its slowest file, and
 * under a fault that is often a test waiting out a bound (an answer that never comes, a state never
 * reached: the test's own deadline, not work). The full proof on two runners left the two cores
 * idle most of its wall time (1148 s for 1083 s of CPU); more runners than cores fill those waits.
 */
export function defaultMutationJobs(cores = availableParallelism()): number {
  return 3 * Math.max(1, cores);
}
