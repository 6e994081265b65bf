/**
 * The order in which vitest hands the conformance files to its workers (`sequence.sequencer`).
 * vitest dispatches a project's files in this order, one to each free worker, and a file that
 * waits for a lock keeps its worker idle, so the order decides how long workers idle:
 *
 * 1. exclusive files that leave some domain of the run free first, taking their domains in turn
 *    (secrets, scheduler, secrets, ...): the secrets and the scheduler files that move a clock run
 *    side by side, each waiting at most for the few files dispatched just before it;
 * 2. then the shared files, longest first as vitest orders them (the durations of the last run,
 *    else the larger file): a shared file no longer waits for anything but those first files, and
 *    the long ones start early;
 * 3. last the exclusive files that hold every domain of the run: nothing can run beside them, and
 *    at the end of the queue no file is dispatched only to wait for them.
 *
 * Other projects (the unit tests of `npm test`) keep vitest's order, and sharding stays vitest's
 * (a hash of the path), so the shards of a run do not depend on this order.
 */
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { orderCapabilities } from '../setup/stash.js';
import {
  type ClockMovable,
  clockMovable,
  type LockDeclarations,
  lockDeclarations,
  lockWants,
  projectPath,
} from './declarations.js';
import type { Wants } from './locks.js';

/** The vitest project whose files hold domain locks (harness/cli/projects.ts). */
export const LOCKED_PROJECT = 'conformance';

/** Orders files (project-relative paths, in vitest's order) as the comment above says. */
export function dispatchOrder(
  files: string[],
  s: LockDeclarations = lockDeclarations(),
  movable?: ClockMovable,
): string[] {
  const wants = new Map<string, Wants>(files.map((f) => [f, lockWants(f, s, movable)]));
  const used = new Set(files.flatMap((f) => Object.keys(wants.get(f)!)));
  const exclusiveOf = (f: string) =>
    Object.entries(wants.get(f)!)
      .filter(([, m]) => m === 'exclusive')
      .map(([d]) => d)
      .sort();
  const early = new Map<string, string[]>();
  const shared: string[] = [];
  const late: string[] = [];
  for (const f of files) {
    const mine = exclusiveOf(f);
    if (!mine.length) shared.push(f);
    else if ([...used].every((d) => mine.includes(d))) late.push(f);
    else {
      const key = mine.join('+');
      early.set(key, [...(early.get(key) ?? []), f]);
    }
  }
  // Round-robin over the exclusive domain sets, so that workers start on different domains.
  const first: string[] = [];
  const queues = [...early.values()];
  for (let i = 0; queues.some((q) => i < q.length); i++) for (const q of queues) if (i < q.length) first.push(q[i]!);
  return [...first, ...shared, ...late];
}

export class DomainLockSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const locked = sorted.filter((spec) => spec.project.name === LOCKED_PROJECT);
    if (locked.length < 2) return sorted;
    const byPath = new Map(locked.map((spec) => [projectPath(spec.moduleId), spec]));
    // vitest sorts after the global setup ran, which knows which clocks the harness can move (at
    // once on the embedded reference or where the user set it, else after the target's probes):
    // a file exclusive only for a clock the harness cannot move on this target is shared here too.
    const capabilities = await orderCapabilities();
    const movable = capabilities && clockMovable(capabilities);
    const ordered = dispatchOrder([...byPath.keys()], lockDeclarations(), movable).map((p) => byPath.get(p)!);
    transformAhead(ordered);
    // The locked project's files keep their place among the other projects' (vitest sorts by
    // group and project first); only their order among themselves changes.
    let i = 0;
    return sorted.map((spec) => (spec.project.name === LOCKED_PROJECT ? ordered[i++]! : spec));
  }
}

/**
 * Starts transforming the files each worker runs first, in the main process, while the workers
 * start: it sits idle then, and a worker's first file would otherwise wait for its transform after
 * the worker has started (~50-80 ms on two cores). vite keeps the result; the worker's request for
 * the file takes it, or joins the transform still in flight. A file that does not transform is
 * left to the worker's own request, which reports why.
 */
export function transformAhead(ordered: TestSpecification[]): void {
  const workers = Number(ordered[0]?.project.config.maxWorkers) || 1;
  for (const spec of ordered.slice(0, 2 * workers)) {
    spec.project.vite?.environments?.ssr?.transformRequest(spec.moduleId).catch(() => undefined);
  }
}
