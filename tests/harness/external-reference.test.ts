/**
 * The reference started on its own (`npm run reference`) and targeted through SVC_ADDR gives the
 * same verdicts as the embedded reference for the core and kv suites.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { nodeTsArgs, runCli, spawnGroup, stopGroup } from '../../harness/cli/process.js';
import { runEnv } from '../helpers/run-env.js';

const tmp = mkdtempSync(join(tmpdir(), 'ext-'));
let child: ChildProcess;
let svcAddr = '';
const cloudConfig = join(tmp, 'cloud-config.json');

beforeAll(async () => {
  // node directly, in its own process group: stopping the group ends the reference itself.
  child = spawnGroup(
    process.execPath,
    nodeTsArgs('reference/main.ts', [
      '--port',
      '0',
      '--sched-port',
      '0',
      '--cloud-port',
      '0',
      '--root-token',
      'alone-root-7d1e',
      // The core tests that borrow a cloud engine need its settings, as a run against the embedded reference has them.
      '--cloud-config-out',
      cloudConfig,
    ]),
  );
  svcAddr = await new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`reference did not start: ${out}`)), 30_000);
    child.stdout!.on('data', (d) => {
      out += d;
      const m = /secrets service: (\S+)/.exec(out);
      if (m && out.includes('ready')) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
  });
}, 40_000);
afterAll(async () => {
  if (child) await stopGroup(child);
});

async function run(
  env: Record<string, string>,
  name: string,
): Promise<{ status: number; results: { tests: { key: string; status: string }[] } }> {
  const reportDir = join(tmp, name);
  const r = await runCli(['run', '--quiet', '--suite', 'core,kv', '--report-dir', reportDir], {
    env: runEnv(env),
    timeoutMs: 240_000,
  });
  return { status: r.code ?? 99, results: JSON.parse(readFileSync(join(reportDir, 'results.json'), 'utf8')) };
}

describe('the reference started alone', () => {
  // Cheap on purpose: tests/harness/leftover-processes.test.ts runs this file with only this test,
  // so the beforeAll/afterAll above (start and stop of the process group) run without the suites.
  it('answers on the address it printed', async () => {
    const res = await fetch(`${svcAddr}/v1/sys/health`, { signal: AbortSignal.timeout(10_000) });
    expect(res.status, 'sys/health of the reference started alone').toBe(200);
  });

  it('gives the same verdicts as the embedded reference for core and kv', async () => {
    const [embedded, alone] = await Promise.all([
      run({}, 'embedded'),
      run({ SVC_ADDR: svcAddr, SVC_TOKEN: 'alone-root-7d1e', CONFORMANCE_CONFIG: cloudConfig }, 'alone'),
    ]);
    expect(alone.status, 'exit code').toBe(embedded.status);
    const verdicts = (r: typeof embedded) => Object.fromEntries(r.results.tests.map((t) => [t.key, t.status]));
    expect(verdicts(alone), 'per-test verdicts').toEqual(verdicts(embedded));
    expect(Object.keys(verdicts(alone)).length, 'tests ran').toBeGreaterThan(10);
  }, 250_000);
});
