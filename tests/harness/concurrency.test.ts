/**
 * Files running concurrently against one target do not interfere: the same suites at concurrency 1
 * and 3 give the same verdict for every test, with the files that move the secrets clock and
 * those that move the scheduler clock holding their domains exclusively beside each other (and,
 * at concurrency 1, one worker running every file, each under its own lease, one test at a time).
 * Neither do the tests of one file running side by side: 16 of them in flight give the same
 * verdicts, and so do the files declared exclusive or sequential only for moving the scheduler's
 * clock (`when: clock`) when the run may not move it, their tests side by side, its time real.
 * Shards 1/2 and 2/2, merged, give the single run's verdicts too. A file that moves the clock
 * without holding its domain exclusively (suites/domain-locks.yaml) fails loudly.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Results } from '../../harness/report/model.js';
import { runCli } from '../../harness/cli/process.js';
import { runEnv } from '../helpers/run-env.js';

const tmp = mkdtempSync(join(tmpdir(), 'conc-'));
// Exclusive files of both domains (auth/lockout, kv/v2-lifecycle: secrets; jobs/*: scheduler)
// among shared ones.
const SUITES = 'core,kv,auth,jobs';
// Exclusive and sequential only for moving the scheduler's clock (suites/domain-locks.yaml `when: clock`).
const CLOCK_FILES = ['suites/jobs/scale.test.ts', 'suites/jobs/actions.test.ts', 'suites/jobs/stop.test.ts'];

async function cli(args: string[]): Promise<{ code: number; output: string }> {
  const env = runEnv();
  const r = await runCli(args, { env, timeoutMs: 300_000 });
  return { code: r.timedOut ? 99 : (r.code ?? 99), output: `${r.stdout}${r.stderr}` };
}

const results = (dir: string): Results => JSON.parse(readFileSync(join(tmp, dir, 'results.json'), 'utf8')) as Results;
const verdicts = (r: Results) => Object.fromEntries(r.tests.map((t) => [t.key, t.status]));
const runs: Record<string, { code: number; output: string }> = {};

beforeAll(async () => {
  const run = (name: string, extra: string[]) =>
    cli(['run', '--quiet', '--suite', SUITES, '--report-dir', join(tmp, name), ...extra]).then((r) => {
      runs[name] = r;
    });
  // Two at a time: the machine has two cores.
  await Promise.all([run('one', ['--concurrency', '1']), run('three', ['--concurrency', '3'])]);
  // The scheduler's clock left alone (as on a real scheduler): the files that move it otherwise.
  const fixedClock = join(tmp, 'fixed-clock.json');
  writeFileSync(fixedClock, JSON.stringify({ capabilities: { schedControl: false } }));
  const clockFiles = ['--files', CLOCK_FILES.join(','), '--suite', 'jobs', '--config', fixedClock];
  await Promise.all([
    run('wide', ['--concurrency', '2', '--tests-in-flight', '16']),
    cli(['run', '--quiet', ...clockFiles, '--concurrency', '1', '--report-dir', join(tmp, 'fixed-one')]).then((r) => {
      runs['fixed-one'] = r;
    }),
  ]);
  runs['fixed-wide'] = await cli(['run', '--quiet', ...clockFiles, '--report-dir', join(tmp, 'fixed-wide')]);
  await Promise.all([run('shard1', ['--shard', '1/2']), run('shard2', ['--shard', '2/2'])]);
  runs.merged = await cli([
    'merge',
    '--report-dir',
    join(tmp, 'merged'),
    join(tmp, 'shard1', 'results.json'),
    join(tmp, 'shard2', 'results.json'),
  ]);
}, 900_000);

describe('concurrency against one target', () => {
  it('gives the same verdict for every test at concurrency 1 and 3', () => {
    const one = results('one');
    const three = results('three');
    expect(Object.keys(verdicts(one)).length, 'tests ran').toBeGreaterThan(100);
    expect(verdicts(three)).toEqual(verdicts(one));
    expect(runs.three!.code, runs.three!.output.slice(-2000)).toBe(runs.one!.code);
  });
});

describe('the tests of a file side by side', () => {
  it('give the same verdict for every test with 16 in flight as one at a time', () => {
    expect(verdicts(results('wide'))).toEqual(verdicts(results('one')));
    expect(runs.wide!.code, runs.wide!.output.slice(-2000)).toBe(runs.one!.code);
  });

  it('give the same verdicts where the scheduler clock cannot move, its clock-moving files running side by side', () => {
    const one = results('fixed-one');
    const wide = results('fixed-wide');
    const ran = Object.values(verdicts(one)).filter((s) => s === 'passed').length;
    expect(ran, 'tests that passed without moving the clock').toBeGreaterThan(15);
    expect(verdicts(wide)).toEqual(verdicts(one));
    expect(runs['fixed-wide']!.code, runs['fixed-wide']!.output.slice(-2000)).toBe(runs['fixed-one']!.code);
  });
});

describe('shards', () => {
  it('split the selection without overlap, and merged give the single run verdict for verdict', () => {
    // Behavioural tests split between the shards; the schema results of an operation are recorded
    // by every shard that saw it and folded into one by merge.
    const behavioural = (r: Results) => Object.keys(verdicts(r)).filter((k) => !k.startsWith('schema > '));
    const s1 = behavioural(results('shard1'));
    const s2 = behavioural(results('shard2'));
    expect(s1.length).toBeGreaterThan(0);
    expect(s2.length).toBeGreaterThan(0);
    expect(s1.filter((k) => s2.includes(k))).toEqual([]);
    const merged = results('merged');
    expect(runs.merged!.code, runs.merged!.output).toBe(runs.one!.code);
    expect(verdicts(merged)).toEqual(verdicts(results('one')));
    expect(merged.summary.total).toBe(results('one').summary.total);
    const junit = readFileSync(join(tmp, 'merged', 'junit.xml'), 'utf8');
    expect((junit.match(/<testcase /g) ?? []).length).toBe(merged.summary.total);
    expect(readFileSync(join(tmp, 'merged', 'index.html'), 'utf8')).toContain('<html');
  });

  it('refuses an incomplete set of shards with exit 2', async () => {
    const r = await cli(['merge', '--report-dir', join(tmp, 'partial'), join(tmp, 'shard1', 'results.json')]);
    expect(r.code).toBe(2);
    expect(r.output).toMatch(/missing 2\/2/);
  }, 120_000);
});

describe('a file that moves the clock but does not hold its domain exclusively', () => {
  it('fails each such test with the message naming suites/domain-locks.yaml', async () => {
    const r = await cli([
      'run',
      '--quiet',
      '--files',
      'tests/harness/fixtures/misplaced-advance.suite.ts',
      '--suite',
      'core',
      '--report-dir',
      join(tmp, 'misuse'),
    ]);
    expect(r.code).toBe(1);
    const tests = results('misuse').tests;
    expect(tests).toHaveLength(2);
    for (const t of tests) {
      expect(t.status, t.title).toBe('failed');
      expect(t.message).toMatch(
        /tests\/harness\/fixtures\/misplaced-advance\.suite\.ts (moves time|moves the secrets clock).*the secrets domain only shared.*suites\/domain-locks\.yaml/,
      );
    }
  }, 300_000);
});
