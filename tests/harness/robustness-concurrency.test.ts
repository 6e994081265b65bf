/**
 * The robustness suite's verdicts do not depend on how many of its rules run at once: with the
 * project's fixed seed and the two faults that break robustness rules, runs at
 * robustness.concurrency 1 and 8 fail the same requirement ids, pass the rest, and report the same
 * shrunk counterexamples. The time cap is set out of reach: it is the one thing allowed to change
 * what a run sends.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Results } from '../../harness/report/model.js';
import { runCli } from '../../harness/cli/process.js';
import { TEST_ROBUSTNESS_SEED } from '../../harness/setup/run-config.js';
import { runEnv } from '../helpers/run-env.js';

const tmp = mkdtempSync(join(tmpdir(), 'rb-conc-'));
const PREFIX = 'rbconc';
const FAULTS = ['kv.v2-metadata-half-applied', 'transit.create-wrong-type-500'];
const FILE = 'suites/robustness/robustness.test.ts';

interface Run {
  code: number;
  output: string;
  results: Results;
  robustness: { concurrency: number; findings: { operationId: string; findings: Record<string, unknown>[] }[] };
}
const runs: Record<number, Run> = {};

async function run(concurrency: number): Promise<void> {
  const dir = join(tmp, `c${concurrency}`);
  const config = join(tmp, `c${concurrency}.yaml`);
  writeFileSync(config, `prefix: ${PREFIX}\nrobustness:\n  concurrency: ${concurrency}\n  timeCapSeconds: 900\n`);
  const env = runEnv();
  const r = await runCli(
    [
      'run',
      '--quiet',
      '--suite',
      'robustness',
      '--seed',
      String(TEST_ROBUSTNESS_SEED),
      '--faults',
      FAULTS.join(','),
      '--config',
      config,
      '--report-dir',
      dir,
    ],
    { env, timeoutMs: 400_000 },
  );
  runs[concurrency] = {
    code: r.timedOut ? 99 : (r.code ?? 99),
    output: `${r.stdout}${r.stderr}`,
    results: JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as Results,
    robustness: JSON.parse(readFileSync(join(dir, 'robustness.json'), 'utf8')),
  };
}

/** Verdict per requirement id of the suite's tests. */
const verdicts = (r: Run) =>
  Object.fromEntries(r.results.tests.filter((t) => t.file === FILE).map((t) => [t.ids.join('+'), t.status]));

/** The findings with the run-unique names (their process id and counter differ per run) masked. */
const findings = (r: Run) =>
  JSON.parse(JSON.stringify(r.robustness.findings).replace(new RegExp(`${PREFIX}-[a-z0-9_-]+`, 'g'), '<name>'));

beforeAll(async () => {
  // Side by side: the machine has two cores, and each run has its own embedded reference.
  await Promise.all([run(1), run(8)]);
}, 420_000);

describe('robustness at concurrency 1 and 8', () => {
  it('fails the same requirement ids and passes the rest', () => {
    const one = verdicts(runs[1]!);
    expect(runs[1]!.robustness.concurrency).toBe(1);
    expect(runs[8]!.robustness.concurrency).toBe(8);
    expect(Object.keys(one).length, 'tests ran').toBeGreaterThan(300);
    const failed = Object.entries(one)
      .filter(([, s]) => s === 'failed')
      .map(([id]) => id)
      .sort();
    expect(failed, runs[1]!.output.slice(-1500)).toEqual([
      'robustness.kv2writemetadata.unchanged+robustness.refused-write-unchanged',
      'robustness.transitcreatekey.invalid-4xx',
    ]);
    expect(verdicts(runs[8]!)).toEqual(one);
    expect(runs[8]!.code).toBe(runs[1]!.code);
  });

  it('reports the same shrunk counterexamples', () => {
    const one = findings(runs[1]!);
    expect(one.length).toBe(2);
    expect(findings(runs[8]!)).toEqual(one);
  });
});
