/**
 * Child processes of the bench, each in its own process group (`detached`), so that ending one
 * ends everything it started (npx, tsx, node, slapd watchdogs). Every group still running when
 * the bench exits, normally or on a signal, is ended.
 */
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { resolve } from 'node:path';

const TSX_CLI = resolve('node_modules/tsx/dist/cli.mjs');
const running = new Set<ChildProcess>();

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    /* the group is gone already */
  }
}

/** Runs a TypeScript entry point with tsx in a new process group. */
export function spawnTsx(entry: string, args: string[], opts: SpawnOptions = {}): ChildProcess {
  const child = spawn(process.execPath, [TSX_CLI, entry, ...args], { stdio: ['ignore', 'pipe', 'pipe'], ...opts, detached: true });
  running.add(child);
  child.on('exit', () => running.delete(child));
  return child;
}

/** Ends the child's whole group: SIGTERM, then SIGKILL after `graceMs`. Resolves once it exited. */
export async function endGroup(child: ChildProcess, graceMs = 5000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) {
    killGroup(child, 'SIGKILL'); // grandchildren left behind by a child that exited on its own
    return;
  }
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  killGroup(child, 'SIGTERM');
  const timer = setTimeout(() => killGroup(child, 'SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
  killGroup(child, 'SIGKILL');
}

function endAll(): void {
  for (const child of running) killGroup(child, 'SIGKILL');
}
process.on('exit', endAll);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    endAll();
    process.exit(130);
  });
}
