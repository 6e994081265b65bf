/**
 * Verdicts a vendor can act on, through the real pipeline (CLI, vitest, reporter) on the
 * reference (issue 23):
 * - a legal variant that contradicts a catalogue assumption gives an assumption difference, with
 *   the assumption's setting: exit 0 by default, exit 1 under `--assumptions strict`; the user's
 *   `assumptions.<id>: false` still skips its tests;
 * - a fault fails only the requirement its failing assertion proves: the transit key read without
 *   `imported` fails transit.key.read-fields and transit.import.imported-flag, not keys-map, byok or
 *   material-format; an action stream that never ends fails jobs.action.ws-frames-order, not the
 *   ACL rule jobs.acl.alloc-exec;
 * - every failure carries a curl reproduction of the exchange its failing check looked at.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../harness/cli/process.js';
import type { Results } from '../../harness/report/model.js';
import { runEnv } from '../helpers/run-env.js';

const tmp = mkdtempSync(join(tmpdir(), 'verdict-classes-'));
const offFile = join(tmp, 'off.yaml');
writeFileSync(offFile, 'assumptions:\n  core.help.requires-permission: false\n');

interface Run {
  code: number | null;
  output: string;
  results: Results;
  junit: string;
  html: string;
}

async function run(name: string, args: string[]): Promise<Run> {
  const reportDir = join(tmp, name);
  const r = await runCli(['run', '--quiet', '--report-dir', reportDir, ...args], {
    env: runEnv(),
    timeoutMs: 240_000,
  });
  const read = (f: string) => readFileSync(join(reportDir, f), 'utf8');
  return {
    code: r.code,
    output: `${r.stdout}${r.stderr}`,
    results: JSON.parse(read('results.json')) as Results,
    junit: read('junit.xml'),
    html: read('index.html'),
  };
}

const HELP = ['--files', 'suites/core/conventions.test.ts', '--variants', 'core.help-without-permission-check'];
const runs: Record<string, Run> = {};

beforeAll(async () => {
  const [report, strict, off, transit, jobs] = await Promise.all([
    run('report', HELP),
    run('strict', [...HELP, '--assumptions', 'strict']),
    run('off', [...HELP, '--config', offFile]),
    run('transit', [
      '--files',
      'suites/transit/keys.test.ts,suites/transit/import.test.ts',
      '--faults',
      'transit.read-drops-imported',
    ]),
    run('jobs', ['--files', 'suites/jobs/acl.test.ts', '--faults', 'jobs.action-stream-left-open']),
  ]);
  Object.assign(runs, { report, strict, off, transit, jobs });
}, 250_000);

const test = (r: Run, title: string) => {
  const found = r.results.tests.find((t) => t.title.includes(title));
  if (!found) throw new Error(`no test "${title}" in ${r.results.tests.map((t) => t.title).join(' | ')}`);
  return found;
};
const row = (r: Run, id: string) => r.results.requirements.find((x) => x.id === id)!;

describe('assumption differences', () => {
  it('a variant contradicting an assumption: exit 0, reported apart with its setting', () => {
    const r = runs.report!;
    expect(r.code, r.output.slice(-1200)).toBe(0);
    const help = r.results.tests.find((t) => t.failedRequirement === 'core.help.requires-permission')!;
    expect(help, 'the help test ran and differs').toMatchObject({ status: 'failed', verdict: 'assumption' });
    expect(r.results.summary).toMatchObject({ assumptionDifferences: 1, mustFailed: 0 });
    expect(r.results.summary.violations).toEqual({ MUST: 0, SHOULD: 0, MAY: 0 });
    expect(row(r, 'core.help.requires-permission')).toMatchObject({
      status: 'failed',
      verdict: 'assumption',
      assumption: { setting: 'assumptions.core.help.requires-permission' },
    });
    expect(r.output).toMatch(/assumption differences: 1 \(not failing the run/);
    expect(r.output).toMatch(
      /assumption difference core\.help\.requires-permission \(setting assumptions\.core\.help\.requires-permission\)/,
    );
    expect(r.junit).toMatch(
      /<skipped message="assumption difference: core\.help\.requires-permission \(setting assumptions\.core\.help\.requires-permission\)/,
    );
    expect(r.junit).not.toMatch(/<failure/);
    expect(r.html).toMatch(/<h2>Assumption differences \(1\)<\/h2>/);
    expect(help.reproduction?.curl, 'the help request as curl').toMatch(
      /^curl -sS -H 'X-Svc-Token: '"\$SVC_TOKEN" .*help=1'$/,
    );
  });

  it('under --assumptions strict the same run exits 1 and junit has a typed failure', () => {
    const r = runs.strict!;
    expect(r.code, r.output.slice(-800)).toBe(1);
    expect(r.results.run.assumptions).toBe('strict');
    expect(r.results.summary.mustFailed).toBe(1);
    expect(r.junit).toMatch(/<failure type="assumption"/);
  });

  it('assumptions.<id>: false still switches the assumption off: its test is skipped naming the setting', () => {
    const r = runs.off!;
    expect(r.code, r.output.slice(-800)).toBe(0);
    const skipped = r.results.tests.filter((t) => t.skip?.setting === 'assumptions.core.help.requires-permission');
    expect(skipped.length).toBeGreaterThan(0);
    expect(r.results.summary.assumptionDifferences).toBe(0);
  });
});

describe('one requirement per assertion, proved with faults', () => {
  it('the key read without `imported` fails read-fields and imported-flag only; keys-map, byok and material-format are not reached', () => {
    const r = runs.transit!;
    expect(r.code).toBe(1);
    const read = test(r, 'returns every documented field');
    expect(read).toMatchObject({
      status: 'failed',
      failedRequirement: 'transit.key.read-fields',
      verdict: 'violation',
      notReached: ['transit.key.keys-map'],
    });
    const byok = test(r, 'import of suite-wrapped AES-256 material');
    expect(byok).toMatchObject({
      status: 'failed',
      failedRequirement: 'transit.import.imported-flag',
      notReached: ['transit.import.byok', 'transit.import.material-format', 'transit.format.aead-layout'],
    });
    expect(byok.reproduction?.curl, 'the key read the failing check looked at').toMatch(
      /^curl -sS -H 'X-Svc-Token: '"\$SVC_TOKEN" .* 'http:\/\/127\.0\.0\.1:\d+\/v1\/[^']*\/keys\/[^'/]+'$/,
    );
    expect(byok.reproduction?.exchange.method).toBe('GET');
    const failedIds = new Set(r.results.requirements.filter((x) => x.status === 'failed').map((x) => x.id));
    for (const id of ['transit.key.keys-map', 'transit.import.byok', 'transit.import.material-format'])
      expect(failedIds.has(id), `${id} is not failed`).toBe(false);
    expect(row(r, 'transit.key.keys-map').status).toBe('not-reached');
    expect([...failedIds].sort()).toEqual(
      ['schema.transit-read-key', 'transit.import.imported-flag', 'transit.key.read-fields'].sort(),
    );
  });

  it('an action stream that never ends fails the stream rule, not the ACL rule', () => {
    const r = runs.jobs!;
    expect(r.code).toBe(1);
    const acl = test(r, 'needs namespace:alloc-exec');
    expect(acl).toMatchObject({
      status: 'failed',
      failedRequirement: 'jobs.action.ws-frames-order',
      verdict: 'violation',
      notReached: ['jobs.acl.alloc-exec'],
    });
    expect(acl.message).toMatch(/did not close/);
    expect(row(r, 'jobs.acl.alloc-exec').status).toBe('not-reached');
    expect(row(r, 'jobs.action.ws-frames-order').status).toBe('failed');
    expect(acl.reproduction?.curl).toContain('"$SCHED_TOKEN"');
  });
});
