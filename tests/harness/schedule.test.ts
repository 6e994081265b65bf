/**
 * suites/schedule.yaml is complete and the guard and options behave: every file that moves the
 * clock is listed, every listed file exists, and global endpoints are told apart from the rest.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  defaultConcurrency,
  globalEffect,
  guardGlobal,
  ROOT,
  ScheduleError,
  serialFiles,
} from '../../harness/schedule.js';
import { conformanceProjects, parseShard, selectedFiles } from '../../harness/cli/projects.js';
import { ALL_SUITES } from '../../harness/config/load.js';

const timeouts = { testMs: 1000, hookMs: 1000 };

describe('suites/schedule.yaml', () => {
  const serial = serialFiles();
  it('lists existing files, each with a reason', () => {
    expect(serial.size).toBeGreaterThan(0);
    for (const [file, reason] of serial) {
      expect(existsSync(join(ROOT, file)), file).toBe(true);
      expect(reason.length, file).toBeGreaterThan(10);
    }
  });

  it('lists every suite file that moves the clock (t.advance or the lockout wait)', () => {
    // A static cross-check; the runtime guard catches what a scan would miss (calls through helpers).
    const moving = selectedFiles(ALL_SUITES).filter((f) =>
      /\bt\.advance\(|\bwaitLockout\(|reference\/clock/.test(readFileSync(join(ROOT, f), 'utf8')),
    );
    expect(moving.length).toBeGreaterThan(3);
    expect(moving.filter((f) => !serial.has(f))).toEqual([]);
  });
});

describe('globalEffect and guardGlobal', () => {
  it('names writes to the clock and global settings, not reads or run-unique objects', () => {
    expect(globalEffect('svc', 'POST', '/sys/reference/clock')).toMatch(/clock/);
    expect(globalEffect('svc', 'POST', '/sys/reference/config')).toMatch(/settings/);
    expect(globalEffect('sched', 'POST', '/reference/clock')).toMatch(/clock/);
    expect(globalEffect('svc', 'PUT', '/sys/audit/file')).toMatch(/audit/);
    expect(globalEffect('svc', 'GET', '/sys/reference/clock')).toBeUndefined();
    expect(globalEffect('svc', 'POST', '/sys/mounts/cf-ab12-kv-1')).toBeUndefined();
    expect(globalEffect('sched', 'POST', '/reference/acl/tokens')).toBeUndefined();
  });

  it('throws in the concurrent group only, naming the file and the schedule', () => {
    expect(() => guardGlobal('concurrent', join(ROOT, 'suites/kv/list.test.ts'), 'moves time (t.advance)')).toThrow(
      ScheduleError,
    );
    expect(() => guardGlobal('concurrent', join(ROOT, 'suites/kv/list.test.ts'), 'moves time (t.advance)')).toThrow(
      /suites\/kv\/list\.test\.ts moves time .*suites\/schedule\.yaml/,
    );
    expect(() => guardGlobal('serial', 'x', 'moves time')).not.toThrow();
    expect(() => guardGlobal(undefined, 'x', 'moves time')).not.toThrow();
  });
});

describe('projects, --shard and --concurrency', () => {
  it('puts listed files in the serial project, after the concurrent one', () => {
    const [together, alone] = conformanceProjects({
      globalSetup: 'compose/global-setup.ts',
      suites: ['kv'],
      embedded: true,
      concurrency: 3,
      timeouts,
    });
    expect(together!.test!.include).not.toContain('suites/kv/v2-lifecycle.test.ts');
    expect(together!.test!.include).toContain('suites/kv/list.test.ts');
    expect(together!.test!.maxWorkers).toBe(3);
    expect(alone!.test!.include).toEqual(['suites/kv/v2-lifecycle.test.ts']);
    expect(alone!.test!.sequence!.groupOrder).toBeGreaterThan(together!.test!.sequence!.groupOrder!);
    expect(alone!.test!.fileParallelism).toBe(false);
  });

  it('never selects the harness self-test folder by suite name', () => {
    expect(selectedFiles(ALL_SUITES).some((f) => f.includes('_selftest'))).toBe(false);
  });

  it('parses i/n and refuses the rest with the option name', () => {
    expect(parseShard('2/3')).toEqual({ index: 2, count: 3 });
    for (const bad of ['0/2', '3/2', 'a/b', '1', '1/0']) expect(() => parseShard(bad), bad).toThrow(/--shard/);
  });

  it('sizes the default pool at 2 or more', () => {
    expect(defaultConcurrency(true)).toBeGreaterThanOrEqual(2);
    expect(defaultConcurrency(false)).toBeGreaterThanOrEqual(defaultConcurrency(true));
  });
});
