/**
 * The fault-detection machinery itself: a clean run passes, a fault switch turns a test red, and
 * the mutation command reports it killed. (The full run over every fault is `npm run mutation`.)
 */
import { describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

function mutation(args: string[], reportDir: string): Promise<{ status: number; stdout: string }> {
  return new Promise((resolve) => {
    execFile('npx', ['tsx', 'harness/cli/main.ts', 'mutation', '--report-dir', reportDir, ...args], {
      env: { ...process.env, SVC_ADDR: '', SVC_TOKEN: '', SCHED_ADDR: '', CONFORMANCE_CONFIG_JSON: '', REF_FAULTS: '' },
      timeout: 300_000,
    }, (err, stdout) => resolve({ status: err ? (typeof err.code === 'number' ? err.code : 99) : 0, stdout }));
  });
}

describe('npm run mutation', () => {
  it('reports each selected fault killed, with the test of the broken requirement', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mutation-'));
    const r = await mutation(['--fault', 'core.empty-list-200,kv.cas-ignored'], dir);
    expect(r.status, r.stdout.slice(-800)).toBe(0);
    const report = JSON.parse(readFileSync(join(dir, 'mutation.json'), 'utf8')) as { killed: number; total: number; outcomes: { fault: string; verdict: string; byTarget: boolean }[] };
    expect(report.total).toBe(2);
    for (const o of report.outcomes) {
      expect(o.verdict, `${o.fault} killed`).toBe('killed');
      expect(o.byTarget, `${o.fault} killed by a test of the requirement it breaks`).toBe(true);
    }
  }, 320_000);

  it('an unknown fault name is a usage error', async () => {
    const r = await mutation(['--fault', 'no.such-fault'], mkdtempSync(join(tmpdir(), 'mutation-')));
    expect(r.status).toBe(2);
  }, 60_000);
});
