/**
 * The conformance files of a selection as two vitest projects sharing one target:
 * - `conformance`: files that keep to their own run-unique objects, several in flight at once
 *   (a bounded pool of workers), run first;
 * - `conformance-serial`: files listed in suites/schedule.yaml (they move the clock or change
 *   global settings), one at a time, after the first group has finished (vitest `groupOrder`).
 * Both skip per-file module isolation: the spec registry, its compiled schemas and the catalogue
 * are built once per worker instead of once per file.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { TestProjectInlineConfiguration } from 'vitest/config';
import { ConfigError } from '../config/load.js';
import { defaultConcurrency, projectPath, ROOT, serialFiles } from '../schedule.js';

export interface ProjectOptions {
  /** The vitest globalSetup file (package-relative) that prepares the target: compose/global-setup.ts. */
  globalSetup: string;
  suites: string[];
  /** Explicit files instead of whole suites. */
  files?: string[];
  /** The secrets service is the embedded reference (sizes the default pool). */
  embedded: boolean;
  concurrency?: number;
  timeouts: { testMs: number; hookMs: number };
}

/** The test files of the selection, project-relative, sorted. */
export function selectedFiles(suites: string[], files?: string[]): string[] {
  if (files?.length) return [...new Set(files.map(projectPath))].sort();
  const out: string[] = [];
  for (const suite of suites) {
    const dir = join(ROOT, 'suites', suite);
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
    throw new ConfigError('--shard', `expected i/n with 1 <= i <= n (for example 1/2), got "${value}"`);
  }
  return { index, count };
}

export function conformanceProjects(opts: ProjectOptions): TestProjectInlineConfiguration[] {
  const serial = serialFiles();
  const files = selectedFiles(opts.suites, opts.files);
  const alone = files.filter((f) => serial.has(f));
  const together = files.filter((f) => !serial.has(f));
  const workers = opts.concurrency ?? defaultConcurrency(opts.embedded);
  const common = {
    globalSetup: [opts.globalSetup],
    testTimeout: opts.timeouts.testMs,
    hookTimeout: opts.timeouts.hookMs,
    isolate: false,
  };
  const projects: TestProjectInlineConfiguration[] = [];
  if (together.length || !alone.length) {
    projects.push({
      test: {
        ...common,
        name: 'conformance',
        include: together.length ? together : ['suites/__none__.test.ts'],
        provide: { conformanceGroup: 'concurrent' },
        fileParallelism: workers > 1,
        maxWorkers: workers,
        sequence: { groupOrder: 0 },
      },
    });
  }
  if (alone.length) {
    projects.push({
      test: {
        ...common,
        name: 'conformance-serial',
        include: alone,
        provide: { conformanceGroup: 'serial' },
        // One file at a time, after the concurrent group: these move the shared clock.
        fileParallelism: false,
        maxWorkers: 1,
        sequence: { groupOrder: 1 },
      },
    });
  }
  return projects;
}
