/**
 * suites/domain-locks.yaml is complete and the guard, the project and the file order behave: every
 * suite names its domains, every file that moves a clock is exclusive on that clock's domain,
 * every listed file exists, global endpoints are told apart from the rest, and exclusive files
 * are dispatched first (or last, when they hold every domain of the run).
 */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  DOMAINS,
  type Domain,
  globalEffect,
  guardGlobal,
  DomainLockError,
  type LockDeclarations,
  loadLockDeclarations,
  lockDeclarations,
  lockWants,
  testsRunConcurrently,
  clockMovable,
  timeDomain,
} from '../../harness/domain-locks/declarations.js';
import {
  conformanceProject,
  defaultConcurrency,
  defaultTestsInFlight,
  FILE_LEASE_SETUP,
  parseShard,
  selectedFiles,
} from '../../harness/cli/projects.js';
import type { TestSpecification } from 'vitest/node';
import { dispatchOrder, transformAhead } from '../../harness/domain-locks/sequencer.js';
import { PACKAGE_ROOT as ROOT } from '../../harness/spec/paths.js';
import { lockWaitLimits } from '../../harness/domain-locks/client.js';
import { ALL_SUITES, loadConfig } from '../../harness/config/load.js';
import { clockCapabilitiesBeforeProbe } from '../../harness/setup/target.js';
import { timeOwnerOf } from '../../harness/author/time.js';

const timeouts = { testMs: 1000, hookMs: 1000 };

describe('suites/domain-locks.yaml', () => {
  const s = lockDeclarations();
  it('names the domains of every suite', () => {
    expect([...s.suites.keys()].sort()).toEqual([...ALL_SUITES].sort());
    expect(s.suites.get('jobs')).toEqual(['scheduler']);
    expect(s.suites.get('robustness')?.sort()).toEqual(['scheduler', 'secrets']);
    expect(s.suites.get('kv')).toEqual(['secrets']);
  });

  it('lists existing files, each with its domains and a reason', () => {
    expect(s.exclusive.size).toBeGreaterThan(0);
    for (const [file, { domains, reason }] of s.exclusive) {
      expect(existsSync(join(ROOT, file)), file).toBe(true);
      expect(domains.length, file).toBeGreaterThan(0);
      expect(reason.length, file).toBeGreaterThan(10);
    }
  });

  it('lists every suite file that moves a clock (t.advance or the lockout wait), exclusive on that clock', () => {
    // A static cross-check; the runtime guard catches what a scan would miss (calls through helpers).
    const moving = selectedFiles(ALL_SUITES).filter((f) =>
      /\bt\.advance\(|\bwaitLockout\(|reference\/clock/.test(readFileSync(join(ROOT, f), 'utf8')),
    );
    expect(moving.length).toBeGreaterThan(3);
    const misdeclared = moving.filter((f) => {
      const area = /^suites\/([^/]+)\//.exec(f)![1];
      return lockWants(f)[timeDomain(timeOwnerOf(area))] !== 'exclusive';
    });
    expect(misdeclared).toEqual([]);
  });

  it('lists existing files whose tests run in order, each with a reason', () => {
    expect(s.sequential.size).toBeGreaterThan(0);
    for (const [file, { reason }] of s.sequential) {
      expect(existsSync(join(ROOT, file)), file).toBe(true);
      expect(reason.length, file).toBeGreaterThan(10);
    }
    expect(testsRunConcurrently('suites/kv/list.test.ts')).toBe(true);
    expect(testsRunConcurrently('suites/robustness/robustness.test.ts')).toBe(false);
  });

  it('drops what a file declares for moving a clock where the harness cannot move that clock', () => {
    const fixedScheduler = clockMovable({ clock: true, schedControl: false });
    // Exclusive and sequential only for the scheduler's clock: shared and side by side.
    expect(lockWants('suites/jobs/acl.test.ts', s, fixedScheduler)).toEqual({ scheduler: 'shared' });
    expect(testsRunConcurrently('suites/jobs/scale.test.ts', s, fixedScheduler)).toBe(true);
    // Exclusive for a garbage collection, which every file sees whatever the clock: still exclusive.
    expect(lockWants('suites/jobs/register.test.ts', s, fixedScheduler)).toEqual({ scheduler: 'exclusive' });
    // Sequential for shared fixtures: still in order.
    expect(testsRunConcurrently('suites/jobs/dispatch.test.ts', s, fixedScheduler)).toBe(false);
    // The secrets clock still moves: its files keep their declarations.
    expect(lockWants('suites/auth/lockout.test.ts', s, fixedScheduler)).toEqual({ secrets: 'exclusive' });
    expect(testsRunConcurrently('suites/transit/auto-rotate.test.ts', s, fixedScheduler)).toBe(false);
    expect(lockWants('suites/jobs/acl.test.ts', s)).toEqual({ scheduler: 'exclusive' });
  });

  it('refuses an unknown domain and an exclusive file without a reason, naming the file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'domain-locks-'));
    const bad = join(dir, 'a.yaml');
    writeFileSync(bad, 'suites:\n  kv: [clocks]\n');
    expect(() => loadLockDeclarations(bad)).toThrow(/suite kv needs a list of domains .*not a domain: clocks/);
    writeFileSync(bad, 'exclusive:\n  suites/kv/x.test.ts:\n    domains: [secrets]\n');
    expect(() => loadLockDeclarations(bad)).toThrow(/exclusive file suites\/kv\/x\.test\.ts needs a reason/);
    writeFileSync(bad, 'sequential:\n  suites/kv/x.test.ts:\n');
    expect(() => loadLockDeclarations(bad)).toThrow(/sequential file suites\/kv\/x\.test\.ts needs a reason/);
    writeFileSync(bad, 'sequential:\n  suites/kv/x.test.ts:\n    when: clock\n    reason: moves the clock a lot\n');
    expect(() => loadLockDeclarations(bad)).toThrow(/sequential file suites\/kv\/x\.test\.ts needs a list of domains/);
    writeFileSync(bad, 'sequential:\n  suites/kv/x.test.ts:\n    when: always\n    reason: moves the clock a lot\n');
    expect(() => loadLockDeclarations(bad)).toThrow(/"when" can only be "clock", not "always"/);
  });
});

describe('lockWants', () => {
  it("holds the suite's domains shared and the declared ones exclusive", () => {
    expect(lockWants('suites/kv/list.test.ts')).toEqual({ secrets: 'shared' });
    expect(lockWants('suites/kv/v2-lifecycle.test.ts')).toEqual({ secrets: 'exclusive' });
    expect(lockWants('suites/jobs/list.test.ts')).toEqual({ scheduler: 'shared' });
    expect(lockWants('suites/jobs/acl.test.ts')).toEqual({ scheduler: 'exclusive' });
  });

  it('holds every domain shared for a file of an unlisted suite', () => {
    expect(lockWants('tests/harness/fixtures/misplaced-advance.suite.ts')).toEqual({
      secrets: 'shared',
      scheduler: 'shared',
    });
    expect(Object.keys(lockWants('elsewhere.test.ts')).sort()).toEqual([...DOMAINS].sort());
  });
});

describe('globalEffect and guardGlobal', () => {
  it('names writes to the clocks and global settings with their domain, not reads or run-unique objects', () => {
    expect(globalEffect('svc', 'POST', '/sys/reference/clock')).toEqual({
      domain: 'secrets',
      what: expect.stringMatching(/moves the secrets clock/),
    });
    expect(globalEffect('svc', 'POST', '/sys/reference/config')).toMatchObject({ domain: 'secrets' });
    expect(globalEffect('sched', 'POST', '/reference/clock')).toEqual({
      domain: 'scheduler',
      what: expect.stringMatching(/moves the scheduler clock/),
    });
    expect(globalEffect('svc', 'PUT', '/sys/audit/file')).toMatchObject({ domain: 'secrets', what: /audit/ });
    expect(globalEffect('svc', 'GET', '/sys/reference/clock')).toBeUndefined();
    expect(globalEffect('svc', 'POST', '/sys/mounts/cf-ab12-kv-1')).toBeUndefined();
    expect(globalEffect('sched', 'POST', '/reference/acl/tokens')).toBeUndefined();
  });

  it('throws unless the file holds the domain exclusively, naming the file, the domain and the declarations file', () => {
    const shared = { label: 'suites/kv/list.test.ts', wants: { secrets: 'shared' as const } };
    expect(() => guardGlobal(shared, 'secrets', 'moves time (t.advance)')).toThrow(DomainLockError);
    expect(() => guardGlobal(shared, 'secrets', 'moves time (t.advance)')).toThrow(
      /^suites\/kv\/list\.test\.ts moves time .*the secrets domain only shared.*suites\/domain-locks\.yaml with domains \[secrets\]/,
    );
    // Exclusive on the scheduler does not allow moving the secrets clock.
    const sched = { label: 'suites/jobs/acl.test.ts', wants: { scheduler: 'exclusive' as const } };
    expect(() => guardGlobal(sched, 'scheduler', 'moves the scheduler clock')).not.toThrow();
    expect(() => guardGlobal(sched, 'secrets', 'moves the secrets clock')).toThrow(/secrets domain/);
    // No lease: a run outside the harness's project, which takes none.
    expect(() => guardGlobal(undefined, 'secrets', 'moves time')).not.toThrow();
  });

  it('throws for a test running side by side with the other tests of its file, naming the test and the way out', () => {
    const sched = { label: 'suites/jobs/acl.test.ts', wants: { scheduler: 'exclusive' as const } };
    const title = 'an allocation runs';
    expect(() => guardGlobal(sched, 'scheduler', 'moves time (t.advance)', { title, concurrent: false })).not.toThrow();
    expect(() => guardGlobal(sched, 'scheduler', 'moves time (t.advance)', { title, concurrent: true })).toThrow(
      /^suites\/jobs\/acl\.test\.ts: the test "an allocation runs" moves time .*side by side .*movesClock: '<why>'.*sequential: '<why>'.*suites\/domain-locks\.yaml/,
    );
    // The file's declaration comes first: a shared file is told to become exclusive.
    const shared = { label: 'suites/kv/list.test.ts', wants: { secrets: 'shared' as const } };
    expect(() => guardGlobal(shared, 'secrets', 'moves time', { title, concurrent: true })).toThrow(/only shared/);
  });
});

describe('the project, --shard and --concurrency', () => {
  it('runs every selected file in one pool, each through the lock setup file', () => {
    const project = conformanceProject({
      globalSetup: 'compose/global-setup.ts',
      suites: ['kv', 'jobs'],
      target: { svc: 'embedded', sched: 'embedded' },
      concurrency: 3,
      timeouts,
    });
    expect(project.test!.name).toBe('conformance');
    expect(project.test!.include).toContain('suites/kv/v2-lifecycle.test.ts');
    expect(project.test!.include).toContain('suites/kv/list.test.ts');
    expect(project.test!.include).toContain('suites/jobs/acl.test.ts');
    expect(project.test!.maxWorkers).toBe(3);
    expect(project.test!.maxConcurrency).toBe(defaultTestsInFlight(true));
    expect(project.test!.fileParallelism).toBe(true);
    expect(project.test!.setupFiles).toEqual([FILE_LEASE_SETUP]);
    expect(existsSync(FILE_LEASE_SETUP)).toBe(true);
  });

  it('selects only suite files (the harness fixtures live under tests/)', () => {
    expect(selectedFiles(ALL_SUITES).every((f) => /^suites\/[a-z]+\/.+\.test\.ts$/.test(f))).toBe(true);
  });

  it('parses i/n and refuses the rest with the option name', () => {
    expect(parseShard('2/3')).toEqual({ index: 2, count: 3 });
    for (const bad of ['0/2', '3/2', 'a/b', '1', '1/0']) expect(() => parseShard(bad), bad).toThrow(/--shard/);
  });

  it('sizes the default pool at 2 or more, growing with a target’s round trip up to 8', () => {
    const embedded = defaultConcurrency(true);
    expect(embedded).toBeGreaterThanOrEqual(2);
    expect(defaultConcurrency(false), 'unmeasured').toBeGreaterThanOrEqual(embedded);
    expect(defaultConcurrency(false, 0.3), 'a target next door: bound by the cores').toBe(embedded);
    expect(defaultConcurrency(false, 20)).toBe(Math.min(8, embedded + 4));
    expect(defaultConcurrency(false, 200)).toBe(8);
  });

  it('waits for locks a little less than its hook timeout, so its own message comes first', () => {
    expect(lockWaitLimits(900_000)).toEqual({ waitMs: 900_000, hookMs: 905_000 });
    expect(lockWaitLimits(10_000)).toEqual({ waitMs: 10_000, hookMs: 11_000 });
    expect(lockWaitLimits(500)).toEqual({ waitMs: 500, hookMs: 550 });
  });
});

describe('the order of dispatch (DomainLockSequencer)', () => {
  // Declarations of its own, so that the order is tested whatever suites/domain-locks.yaml lists.
  const sched: LockDeclarations = {
    suites: new Map<string, Domain[]>([
      ['kv', ['secrets']],
      ['auth', ['secrets']],
      ['core', ['secrets']],
      ['jobs', ['scheduler']],
      ['robustness', ['secrets', 'scheduler']],
    ]),
    exclusive: new Map([
      ['suites/kv/v2-lifecycle.test.ts', { domains: ['secrets' as Domain], reason: 'clock', whenClock: true }],
      ['suites/auth/lockout.test.ts', { domains: ['secrets' as Domain], reason: 'clock', whenClock: true }],
      ['suites/jobs/acl.test.ts', { domains: ['scheduler' as Domain], reason: 'clock', whenClock: true }],
      ['suites/jobs/stop.test.ts', { domains: ['scheduler' as Domain], reason: 'clock', whenClock: true }],
    ]),
    sequential: new Map(),
  };
  const files = [
    'suites/jobs/list.test.ts',
    'suites/robustness/robustness.test.ts',
    'suites/kv/list.test.ts',
    'suites/kv/v2-lifecycle.test.ts',
    'suites/jobs/acl.test.ts',
    'suites/auth/lockout.test.ts',
    'suites/jobs/stop.test.ts',
  ];

  it('starts the exclusive files first, taking the domains in turn, then the shared ones in vitest order', () => {
    expect(dispatchOrder(files, sched)).toEqual([
      'suites/kv/v2-lifecycle.test.ts',
      'suites/jobs/acl.test.ts',
      'suites/auth/lockout.test.ts',
      'suites/jobs/stop.test.ts',
      'suites/jobs/list.test.ts',
      'suites/robustness/robustness.test.ts',
      'suites/kv/list.test.ts',
    ]);
  });

  it('ends with the exclusive files that hold every domain the run uses', () => {
    const both: LockDeclarations = {
      ...sched,
      exclusive: new Map([
        ...sched.exclusive,
        [
          'suites/robustness/robustness.test.ts',
          { domains: ['secrets', 'scheduler'] as Domain[], reason: 'listings', whenClock: false },
        ],
      ]),
    };
    expect(dispatchOrder(files, both).slice(4)).toEqual([
      'suites/jobs/list.test.ts',
      'suites/kv/list.test.ts',
      'suites/robustness/robustness.test.ts',
    ]);
    // A secrets-only run: lockout holds every domain in use, like a serial file of old.
    expect(
      dispatchOrder(['suites/auth/lockout.test.ts', 'suites/kv/list.test.ts', 'suites/core/errors.test.ts'], sched),
    ).toEqual(['suites/kv/list.test.ts', 'suites/core/errors.test.ts', 'suites/auth/lockout.test.ts']);
  });
});

describe('the files transformed ahead while the workers start', () => {
  /** Specifications as the sequencer gets them, their project's transforms recorded. */
  function specs(names: string[], maxWorkers: number, fails = new Set<string>()) {
    const requested: string[] = [];
    const project = {
      config: { maxWorkers },
      vite: {
        environments: {
          ssr: {
            transformRequest: (id: string) => {
              requested.push(id);
              return fails.has(id) ? Promise.reject(new Error('does not transform')) : Promise.resolve({ code: '' });
            },
          },
        },
      },
    };
    const list = names.map((n) => ({ project, moduleId: `/pkg/${n}` }) as unknown as TestSpecification);
    return { list, requested };
  }

  it('are the first two files of each worker, in dispatch order', () => {
    const { list, requested } = specs(['a', 'b', 'c', 'd', 'e', 'f'], 2);
    transformAhead(list);
    expect(requested).toEqual(['/pkg/a', '/pkg/b', '/pkg/c', '/pkg/d']);
    const one = specs(['a', 'b', 'c'], 1);
    transformAhead(one.list);
    expect(one.requested).toEqual(['/pkg/a', '/pkg/b']);
  });

  it('leaves a file that does not transform to the worker, which reports why', async () => {
    const { list, requested } = specs(['a', 'b'], 2, new Set(['/pkg/a']));
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      expect(() => transformAhead(list)).not.toThrow();
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
    expect(requested).toEqual(['/pkg/a', '/pkg/b']);
    expect(unhandled).toEqual([]);
  });
});

describe('the capabilities the order starts from', () => {
  const config = (env: Record<string, string>, suites = ['kv', 'jobs'], file?: string) =>
    loadConfig({ env, file, cli: { suite: suites } });
  const configFile = (yaml: string) => {
    const file = join(mkdtempSync(join(tmpdir(), 'order-caps-')), 'target.yaml');
    writeFileSync(file, yaml);
    return file;
  };
  const svc = { SVC_ADDR: 'http://127.0.0.1:1', SVC_TOKEN: 't' };
  const sched = { SCHED_ADDR: 'http://127.0.0.1:1', SCHED_TOKEN: 't' };

  it('are known at once on the embedded reference: its clocks move, unless the user said otherwise', () => {
    expect(clockCapabilitiesBeforeProbe(config({}))).toMatchObject({ clock: true, schedControl: true });
    const noClock = config({}, ['kv', 'jobs'], configFile('capabilities:\n  clock: false\n'));
    expect(clockCapabilitiesBeforeProbe(noClock)).toMatchObject({ clock: false, schedControl: true });
    expect(clockCapabilitiesBeforeProbe(config({}, ['kv']))?.schedControl, 'no scheduler in the run').toBeFalsy();
  });

  it('wait for the probes on another target, unless the user set them', () => {
    expect(clockCapabilitiesBeforeProbe(config(svc))).toBeUndefined();
    expect(clockCapabilitiesBeforeProbe(config(sched))).toBeUndefined();
    expect(clockCapabilitiesBeforeProbe(config(sched, ['kv'])), 'the scheduler unused').toBeDefined();
    const set = configFile('capabilities:\n  schedControl: false\n');
    expect(clockCapabilitiesBeforeProbe(config(sched, ['kv', 'jobs'], set))).toMatchObject({ schedControl: false });
  });
});
