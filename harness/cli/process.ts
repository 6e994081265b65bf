/**
 * Child processes that end as a whole. Every process the project starts (the CLI from tests, the
 * mutation runner and the bench; the reference started alone) runs node directly (no npx/tsx
 * wrapper whose signal never reaches the grandchild) in its own process group, so one signal to
 * the group ends it and everything it started. Groups still alive are ended when this process
 * exits, and on SIGINT/SIGTERM/SIGHUP, which are then re-raised so the exit status stays honest.
 */
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { PACKAGE_ROOT } from '../spec/paths.js';

export { PACKAGE_ROOT };
/**
 * The CLI entry point: bin/svc-conformance.mjs registers tsx itself and runs the composition root
 * (compose/cli.ts), loading vitest before tsx's loader (see there).
 */
export const CLI_ENTRY = join(PACKAGE_ROOT, 'bin/svc-conformance.mjs');

/** tsx's loader as an absolute URL: `--import tsx` alone resolves from the cwd, which may lack it. */
const TSX_LOADER = pathToFileURL(createRequire(join(PACKAGE_ROOT, 'package.json')).resolve('tsx')).href;

/** Arguments for `process.execPath` that run a TypeScript file of this package. */
export function nodeTsArgs(script: string, args: string[] = []): string[] {
  return ['--import', TSX_LOADER, resolve(PACKAGE_ROOT, script), ...args];
}

const live = new Set<ChildProcess>();
let hooked = false;

function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // The group is gone already (ESRCH): nothing left to end.
  }
}

function hookExit(): void {
  if (hooked) return;
  hooked = true;
  process.once('exit', () => {
    for (const child of live) signalGroup(child, 'SIGKILL');
  });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    const onSignal = () => {
      for (const child of live) signalGroup(child, 'SIGTERM');
      // Without another listener this process would now ignore the signal: re-raise it so the
      // default action (or the owner's own handler) ends the process as it would have.
      process.removeListener(signal, onSignal);
      if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
    };
    process.on(signal, onSignal);
  }
}

/** Spawns `command` as the leader of a new process group; the group is ended with this process. */
export function spawnGroup(command: string, args: string[], options: SpawnOptions = {}): ChildProcess {
  hookExit();
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], ...options, detached: true });
  live.add(child);
  child.once('exit', () => {
    // The leader is gone; others in its group may not be: end them too.
    signalGroup(child, 'SIGKILL');
    live.delete(child);
  });
  child.once('error', () => live.delete(child));
  return child;
}

/** Ends the child's whole group: `signal`, then SIGKILL after `graceMs`; resolves once the leader exited. */
export async function stopGroup(
  child: ChildProcess,
  opts: { signal?: NodeJS.Signals; graceMs?: number } = {},
): Promise<void> {
  if (child.pid === undefined) return;
  const exited =
    child.exitCode !== null || child.signalCode !== null
      ? Promise.resolve()
      : new Promise<void>((r) => child.once('exit', () => r()));
  signalGroup(child, opts.signal ?? 'SIGTERM');
  const timer = setTimeout(() => signalGroup(child, 'SIGKILL'), opts.graceMs ?? 5000);
  await exited;
  clearTimeout(timer);
  // Processes of the group that outlived their leader.
  signalGroup(child, 'SIGKILL');
  live.delete(child);
}

export interface GroupRun {
  /** Exit code; null when ended by a signal. */
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
}

/** Runs a command in its own group to the end, collecting its output; the group is ended on timeout. */
export function runGroup(
  command: string,
  args: string[],
  opts: { env?: NodeJS.ProcessEnv; cwd?: string; timeoutMs: number },
): Promise<GroupRun> {
  return new Promise((done) => {
    const child = spawnGroup(command, args, { env: opts.env, cwd: opts.cwd });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    child.stdout?.on('data', (d) => {
      stdout += d;
    });
    child.stderr?.on('data', (d) => {
      stderr += d;
    });
    const timer = setTimeout(() => {
      timedOut = true;
      void stopGroup(child, { graceMs: 3000 });
    }, opts.timeoutMs);
    child.once('error', (err) => {
      clearTimeout(timer);
      done({ code: null, signal: null, stdout, stderr: `${stderr}${err.message}`, timedOut });
    });
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      signalGroup(child, 'SIGKILL');
      done({ code, signal, stdout, stderr, timedOut });
    });
  });
}

/** Arguments for `process.execPath` that run the CLI. */
export function cliArgs(args: string[]): string[] {
  return [CLI_ENTRY, ...args];
}

/** Runs the CLI with node directly, in its own group. */
export function runCli(
  args: string[],
  opts: { env?: NodeJS.ProcessEnv; cwd?: string; timeoutMs: number },
): Promise<GroupRun> {
  return runGroup(process.execPath, cliArgs(args), opts);
}
