/**
 * Both sides of every release gate, end to end through the CLI: the release suite against the
 * embedded reference started at affected versions (1.13.9: three known issues; 1.13.0: the STS
 * one) and at a version where every carried issue is fixed (1.13.14: none); then a fixed version carrying a regressed
 * fix, which fails the run and shows up as a new failure against the previous run, while a
 * baseline entry for a test that passes is reported fixed. The default version (1.13.10, where
 * only the many-mounts deadlock is still affected) is the conformance project's own run of the
 * release suite; tests/report covers the baseline's other statuses.
 */
import { runCli } from '../../harness/cli/process.js';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Results } from '../../harness/report/model.js';

const root = resolve(import.meta.dirname, '../..');
const base = mkdtempSync(join(tmpdir(), 'release-gate-'));
const KNOWN = [
  'release.known.expiration-metrics-crash',
  'release.known.many-mounts-deadlock',
  'release.known.login-missing-group-policy',
];
const METRICS = 'release.known.expiration-metrics-crash';

interface Run {
  code: number;
  results: Results;
  output: string;
  dir: string;
}

async function runRelease(name: string, args: string[]): Promise<Run> {
  const dir = join(base, name);
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const k of [
    'SVC_ADDR',
    'SCHED_ADDR',
    'REF_FAULTS',
    'CONFORMANCE_CONFIG',
    'SVC_VERSION',
    'VITEST',
    'VITEST_POOL_ID',
    'VITEST_WORKER_ID',
  ])
    delete env[k];
  const r = await runCli(['run', '--suite', 'release', '--quiet', '--report-dir', dir, ...args], {
    cwd: root,
    env,
    timeoutMs: 240_000,
  });
  const output = r.stdout + r.stderr;
  const file = join(dir, 'results.json');
  if (!existsSync(file))
    throw new Error(
      `run ${name} wrote no results (exit ${r.code}${r.timedOut ? ', timed out' : ''}):\n${output.slice(-2000)}`,
    );
  return { code: r.code ?? -1, results: JSON.parse(readFileSync(file, 'utf8')) as Results, output, dir };
}

const statusOf = (r: Results, id: string) => r.tests.find((t) => t.ids[0] === id)?.status;
const withStatus = (r: Results, status: string) =>
  r.tests
    .filter((t) => t.status === status)
    .map((t) => t.ids[0])
    .sort();

describe('release gate, end to end', () => {
  let affected: Run;
  let fixed: Run;

  beforeAll(async () => {
    [affected, fixed] = await Promise.all([
      runRelease('1.13.9', ['--reference-version', '1.13.9']),
      runRelease('1.13.14', ['--reference-version', '1.13.14']),
    ]);
  }, 300_000);

  it('at 1.13.9 every carried known issue is reported as a known issue and the run passes', () => {
    expect(withStatus(affected.results, 'known-issue'), 'known issues observed at 1.13.9').toEqual([...KNOWN].sort());
    expect(withStatus(affected.results, 'failed'), `failures at 1.13.9\n${affected.output.slice(-1500)}`).toEqual([]);
    expect(affected.code, 'exit code').toBe(0);
  });

  it('at 1.13.14 no known issue is observed and every test passes', () => {
    expect(withStatus(fixed.results, 'known-issue'), 'known issues observed at 1.13.14').toEqual([]);
    expect(fixed.results.summary.failed, `failures at 1.13.14\n${fixed.output.slice(-1500)}`).toBe(0);
    expect(fixed.code, 'exit code').toBe(0);
  });

  it('reports every release-notes row in the requirement matrix with its classification', () => {
    // The release notes' rows; the generated schema requirements of the release spec are not rows of the notes.
    const rows = affected.results.requirements.filter((r) => r.area === 'release' && r.kind !== 'schema');
    expect(rows.filter((r) => r.kind === 'change').length, 'change rows').toBe(7);
    expect(rows.filter((r) => r.kind === 'known-issue').length, 'known-issue rows').toBe(18);
    expect(
      rows.filter((r) => !r.testability && r.kind !== 'assumption').map((r) => r.id),
      'rows without a classification',
    ).toEqual([]);
    expect(
      rows.filter((r) => r.testability === 'not-observable').every((r) => r.status === 'not-observable' && !!r.note),
      'not-observable rows carry their reason',
    ).toBe(true);
  });

  describe('a regressed fix on a fixed version, and the first 1.13 release', () => {
    let regressed: Run;
    let first: Run;
    const LOGIN = 'release.known.login-missing-group-policy';

    beforeAll(async () => {
      const baseline = join(base, 'expectations.yaml');
      writeFileSync(
        baseline,
        `known-failures:\n  - id: ${LOGIN}\n    reason: failed on an earlier build\n    ticket: REL-1\n    expires: 2999-12-31\n`,
      );
      [regressed, first] = await Promise.all([
        runRelease('regressed', [
          '--reference-version',
          '1.13.14',
          '--faults',
          'release.metrics-crash-when-fixed',
          '--previous',
          join(fixed.dir, 'results.json'),
          '--expectations',
          baseline,
        ]),
        runRelease('1.13.0', ['--reference-version', '1.13.0']),
      ]);
    }, 300_000);

    it('fails the run', () => {
      expect(statusOf(regressed.results, METRICS), 'metrics crash outside the affected versions').toBe('failed');
      expect(regressed.code, 'exit code').toBe(1);
    });

    it('shows up as a new failure against the previous run, in results.json and index.html', () => {
      const key = regressed.results.tests.find((t) => t.ids[0] === METRICS)!.key;
      expect(regressed.results.comparison?.newFailures, 'new failures').toEqual([key]);
      expect(readFileSync(join(regressed.dir, 'index.html'), 'utf8'), 'comparison in the HTML report').toContain(
        '<h3>New failures (1)</h3>',
      );
    });

    it('at 1.13.0 only the STS lease_duration issue is a known issue and the run passes', () => {
      expect(withStatus(first.results, 'known-issue'), 'known issues observed at 1.13.0').toEqual([
        'release.known.sts-lease-duration-zero',
      ]);
      expect(first.results.summary.failed, `failures at 1.13.0\n${first.output.slice(-1500)}`).toBe(0);
      expect(first.code, 'exit code').toBe(0);
    });

    it('reports a baseline entry whose test passes as fixed', () => {
      expect(statusOf(regressed.results, LOGIN), 'status of the listed, passing test').toBe('fixed');
    });
  });
});
