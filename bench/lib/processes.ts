/**
 * Child processes of the bench: the project's one process-group helper (harness/cli/process.ts), so
 * that ending one ends everything it started, and every group still running when the bench exits,
 * normally or on a signal, is ended.
 */
import type { ChildProcess, SpawnOptions } from 'node:child_process';
import { nodeTsArgs, spawnGroup, stopGroup } from '../../harness/cli/process.js';

/** Runs a TypeScript entry point of this package with node and tsx's loader, in a new process group. */
export function spawnTsx(entry: string, args: string[], opts: SpawnOptions = {}): ChildProcess {
  return spawnGroup(process.execPath, nodeTsArgs(entry, args), opts);
}

/** Ends the child's whole group: SIGTERM, then SIGKILL after `graceMs`. Resolves once it exited. */
export function endGroup(child: ChildProcess, graceMs = 5000): Promise<void> {
  return stopGroup(child, { graceMs });
}
