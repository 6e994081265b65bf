/**
 * The reference started on its own (`npm run reference`) and targeted through SVC_ADDR gives the
 * same verdicts as the embedded reference for the core and kv suites.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const tmp = mkdtempSync(join(tmpdir(), 'ext-'));
let child: ChildProcess;
let svcAddr = '';

beforeAll(async () => {
  child = spawn('npx', ['tsx', 'reference/main.ts', '--port', '0', '--sched-port', '0', '--cloud-port', '0', '--root-token', 'alone-root-7d1e'], { stdio: ['ignore', 'pipe', 'pipe'] });
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
afterAll(() => { child?.kill('SIGTERM'); });

function run(env: Record<string, string>, name: string): Promise<{ status: number; results: { tests: { key: string; status: string }[] } }> {
  const reportDir = join(tmp, name);
  return new Promise((resolve) => {
    execFile('npx', ['tsx', 'harness/cli/main.ts', 'run', '--quiet', '--suite', 'core,kv', '--report-dir', reportDir], {
      env: { ...process.env, SVC_ADDR: '', SVC_TOKEN: '', SCHED_ADDR: '', CONFORMANCE_CONFIG_JSON: '', ...env },
      timeout: 240_000,
    }, (err) => resolve({
      status: err ? (typeof err.code === 'number' ? err.code : 99) : 0,
      results: JSON.parse(readFileSync(join(reportDir, 'results.json'), 'utf8')),
    }));
  });
}

describe('the reference started alone', () => {
  it('gives the same verdicts as the embedded reference for core and kv', async () => {
    const [embedded, alone] = await Promise.all([run({}, 'embedded'), run({ SVC_ADDR: svcAddr, SVC_TOKEN: 'alone-root-7d1e' }, 'alone')]);
    expect(alone.status, 'exit code').toBe(embedded.status);
    const verdicts = (r: typeof embedded) => Object.fromEntries(r.results.tests.map((t) => [t.key, t.status]));
    expect(verdicts(alone), 'per-test verdicts').toEqual(verdicts(embedded));
    expect(Object.keys(verdicts(alone)).length, 'tests ran').toBeGreaterThan(10);
  }, 250_000);
});
