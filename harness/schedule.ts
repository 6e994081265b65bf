/**
 * How the conformance files share one target: most run concurrently (run-unique names keep them
 * apart); the files listed in suites/schedule.yaml move the clock or change settings every client
 * sees, so they run one at a time after the others. A file of the concurrent group that does what
 * only serial files may fails that test with a message naming the schedule file.
 */
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const SCHEDULE_FILE = join(ROOT, 'suites/schedule.yaml');

export type Group = 'concurrent' | 'serial';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Which group the worker's files belong to (set per vitest project). */
    conformanceGroup: Group;
  }
}

/** Serial files (paths relative to the project root) with the reason each runs alone. */
export function serialFiles(file = SCHEDULE_FILE): Map<string, string> {
  const doc = parse(readFileSync(file, 'utf8')) as { serial?: Record<string, string> } | null;
  const out = new Map<string, string>();
  for (const [path, reason] of Object.entries(doc?.serial ?? {})) {
    if (typeof reason !== 'string' || !reason.trim()) throw new Error(`${file}: serial file ${path} needs a reason`);
    out.set(path, reason);
  }
  return out;
}

/** A path relative to the project root, with forward slashes (how schedule.yaml names files). */
export function projectPath(file: string): string {
  return relative(ROOT, resolve(ROOT, file)).split('\\').join('/');
}

/**
 * Requests whose effect every client of the target sees: the reference's clock and settings.
 * Reads (GET) are harmless and the probe makes them.
 */
const GLOBAL_ENDPOINTS: { api: 'svc' | 'sched'; path: RegExp; what: string }[] = [
  { api: 'svc', path: /^\/sys\/reference\/clock\/?$/, what: 'moves the clock (sys/reference/clock)' },
  { api: 'svc', path: /^\/sys\/reference\/config\/?$/, what: 'changes the reference settings (sys/reference/config)' },
  { api: 'svc', path: /^\/sys\/audit(\/|$)/, what: 'changes audit devices (sys/audit)' },
  { api: 'svc', path: /^\/sys\/config\//, what: 'changes a global setting (sys/config)' },
  { api: 'sched', path: /^\/reference\/clock\/?$/, what: 'moves the scheduler clock (reference/clock)' },
];

/** What a request does to global state, or undefined when it stays within the test's own objects. */
export function globalEffect(api: 'svc' | 'sched', method: string, path: string): string | undefined {
  if (method === 'GET' || method === 'LIST') return undefined;
  return GLOBAL_ENDPOINTS.find((e) => e.api === api && e.path.test(path))?.what;
}

export class ScheduleError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ScheduleError';
  }
}

/** Throws when a file of the concurrent group does `what`, which only serial files may do. */
export function guardGlobal(group: Group | undefined, file: string | undefined, what: string): void {
  if (group !== 'concurrent') return;
  const name = file ? projectPath(file) : 'this file';
  throw new ScheduleError(
    `${name} ${what}, but it runs concurrently with other files against the same target: list it under "serial:" in suites/schedule.yaml with the reason`,
  );
}

/**
 * Default number of files in flight. The embedded reference shares the machine's cores with the
 * workers, so one worker per core (at least 2: a worker waits on the target half of the time);
 * an external target is waited on over the network, so more files overlap its latency.
 */
export function defaultConcurrency(embedded: boolean): number {
  const cores = availableParallelism();
  return embedded ? Math.min(4, Math.max(2, cores)) : Math.min(8, Math.max(4, 2 * cores));
}
