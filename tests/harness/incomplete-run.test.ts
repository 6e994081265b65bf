/**
 * A run on a machine without slapd (hidden with SLAPD_BIN, and no container engine) is honest
 * (issue 12): it exits 0 but says "incomplete: ldap not run (no directory: ...)" on the terminal
 * and in results.json; with --require-complete it exits 1.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../harness/cli/process.js';
import type { Results } from '../../harness/report/model.js';

const tmp = mkdtempSync(join(tmpdir(), 'incomplete-'));

function runWithoutSlapd(name: string, extra: string[]) {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    SLAPD_BIN: join(tmp, 'no-slapd'),
    DOCKER_HOST: `unix://${join(tmp, 'no-docker.sock')}`,
  };
  for (const k of [
    'SVC_ADDR',
    'SCHED_ADDR',
    'LDAP_URL',
    'REF_FAULTS',
    'CONFORMANCE_CONFIG',
    'VITEST',
    'VITEST_POOL_ID',
    'VITEST_WORKER_ID',
  ])
    delete env[k];
  const reportDir = join(tmp, name);
  // One ldap file and one small core file: enough for one suite that ran and one that did not.
  const args = [
    'run',
    '--suite',
    'ldap,core',
    '--files',
    'suites/ldap/config.test.ts,suites/core/listener.test.ts',
    '--report-dir',
    reportDir,
    ...extra,
  ];
  return runCli(args, { env, timeoutMs: 150_000 }).then((r) => ({
    ...r,
    results: JSON.parse(readFileSync(join(reportDir, 'results.json'), 'utf8')) as Results,
  }));
}

describe('a run without slapd', () => {
  it('exits 0 and says incomplete; with --require-complete exits 1', async () => {
    const [plain, strict] = await Promise.all([
      runWithoutSlapd('plain', []),
      runWithoutSlapd('strict', ['--require-complete']),
    ]);
    expect(plain.code, plain.stderr.slice(-800)).toBe(0);
    expect(plain.stdout).toMatch(/^incomplete: ldap not run \(no directory: slapd was not found/m);
    expect(plain.results.complete).toBe(false);
    expect(plain.results.incomplete.map((i) => [i.suite, i.kind])).toEqual([['ldap', 'not-run']]);
    expect(
      plain.results.tests.some((t) => t.file.startsWith('suites/core/') && t.status === 'passed'),
      'core ran',
    ).toBe(true);
    expect(strict.code, 'exit code with --require-complete').toBe(1);
    expect(strict.stderr).toContain('the run is incomplete');
  }, 160_000);
});
