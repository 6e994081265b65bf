/**
 * The conformance files of a selection as one vitest project against one target: every file in
 * one bounded pool of workers (no second group, so no second worker start), each holding the
 * domain locks suites/domain-locks.yaml gives it for its whole run (harness/domain-locks/: shared,
 * or exclusive for the files that move a clock or change global settings). The run's sequencer
 * (DomainLockSequencer) starts the exclusive files early. Per-file module isolation is off: the spec
 * registry, its compiled schemas and the catalogue are built once per worker instead of once per
 * file.
 */
import { existsSync, readdirSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import type { TestProjectInlineConfiguration } from 'vitest/config';
import { ConfigError } from '../config/load.js';
import { settingName } from '../config/settings.js';
import type { TargetPlan } from '../config/target-plan.js';
import type { TargetConfig } from '../config/types.js';
import { type CompiledTree, compiledModulesPlugin, compiledSetupFile } from './compiled-modules.js';
import { LOCKED_PROJECT } from '../domain-locks/sequencer.js';
import { projectPath } from '../domain-locks/declarations.js';
import { PACKAGE_ROOT } from '../spec/paths.js';

export { DomainLockSequencer } from '../domain-locks/sequencer.js';

/** The setup file through which every conformance file takes its locks. */
export const FILE_LEASE_SETUP = join(PACKAGE_ROOT, 'harness/domain-locks/file-lease.ts');

/**
 * Default number of files in flight. The embedded reference shares the machine's cores with the
 * workers, so one worker per core (at least 2: a worker waits on the target half of the time).
 * Another target is waited on over the network: one more worker for every 5 ms of round trip
 * (harness/setup/latency.ts), up to 8, so that more files overlap its latency. At a round trip
 * under 5 ms (a target on this machine or next to it) the run is bound by the cores like the
 * embedded one, and more workers only add their start-up and contention. Unmeasured: 2 per core.
 */
export function defaultConcurrency(embedded: boolean, latencyMs?: number): number {
  const cores = availableParallelism();
  const perCore = Math.min(4, Math.max(2, cores));
  if (embedded) return perCore;
  if (latencyMs === undefined) return Math.min(8, Math.max(4, 2 * cores));
  return Math.min(8, perCore + Math.floor(Math.max(0, latencyMs) / 5));
}

/**
 * Default number of one file's tests in flight at once in a worker. Against the embedded reference
 * the machine's cores are the limit, and a few overlap the waits (key generation, polling). An
 * external target is waited on, for its own work (a real scheduler's deployments take seconds)
 * and over the network, while the harness idles: at least 12, and one more for every 4 ms of
 * round trip (harness/setup/latency.ts), up to 20.
 */
export function defaultTestsInFlight(embedded: boolean, latencyMs?: number): number {
  if (embedded) return 4;
  return Math.min(20, 12 + Math.ceil(Math.max(0, latencyMs ?? 0) / 4));
}

export interface ProjectOptions {
  /** The vitest globalSetup file (package-relative) that prepares the target: compose/global-setup.ts. */
  globalSetup: string;
  suites: string[];
  /** Explicit files instead of whole suites. */
  files?: string[];
  /** Which target each API is (harness/config/target-plan.ts): an embedded secrets service sizes the default pool. */
  target: TargetPlan;
  concurrency?: number;
  /** Tests of one file in flight at once (default: defaultTestsInFlight). */
  testsInFlight?: number;
  timeouts: Pick<TargetConfig['timeouts'], 'testMs' | 'hookMs'>;
  /** The harness compiled once, loaded natively by the workers (harness/cli/compiled-modules.ts). */
  compiled?: CompiledTree;
}

/** The test files of the selection, project-relative, sorted. */
export function selectedFiles(suites: string[], files?: string[]): string[] {
  if (files?.length) return [...new Set(files.map(projectPath))].sort();
  const out: string[] = [];
  for (const suite of suites) {
    const dir = join(PACKAGE_ROOT, 'suites', suite);
    if (!existsSync(dir)) continue;
    for (const f of readdirSync(dir, { recursive: true }) as string[]) {
      if (f.endsWith('.test.ts')) out.push(projectPath(join('suites', suite, f)));
    }
  }
  return out.sort();
}

/** `i/n` with 1 <= i <= n. */
export function parseShard(value: string): { index: number; count: number } {
  const m = /^(\d+)\/(\d+)$/.exec(value.trim());
  const index = m ? Number(m[1]) : NaN;
  const count = m ? Number(m[2]) : NaN;
  if (!m || count < 1 || index < 1 || index > count) {
    throw new ConfigError(settingName('run.shard'), `expected i/n with 1 <= i <= n (for example 1/2), got "${value}"`);
  }
  return { index, count };
}

export function conformanceProject(opts: ProjectOptions): TestProjectInlineConfiguration {
  const files = selectedFiles(opts.suites, opts.files);
  const embedded = opts.target.svc === 'embedded';
  const workers = opts.concurrency ?? defaultConcurrency(embedded);
  return {
    ...(opts.compiled ? { plugins: [compiledModulesPlugin(opts.compiled)] } : {}),
    test: {
      name: LOCKED_PROJECT,
      ...(opts.compiled ? { server: { deps: { external: [opts.compiled.dir] } } } : {}),
      include: files.length ? files : ['suites/__none__.test.ts'],
      globalSetup: [opts.globalSetup],
      setupFiles: [compiledSetupFile(opts.compiled, FILE_LEASE_SETUP)],
      testTimeout: opts.timeouts.testMs,
      hookTimeout: opts.timeouts.hookMs,
      isolate: false,
      fileParallelism: workers > 1,
      maxWorkers: workers,
      // Tests of one file in flight at once (harness/author/in-file-order.ts).
      maxConcurrency: opts.testsInFlight ?? defaultTestsInFlight(embedded),
      // Before the unit tests of `npm test` (vitest.config.ts).
      sequence: { groupOrder: 0 },
    },
  };
}
