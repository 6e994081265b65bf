/** TLS to the target: a CA file verifies it, skip-verify bypasses it, neither fails with the reason. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../harness/cli/process.js';
import { startReference, type RunningReference } from '../../reference/start.js';
import { selfSignedCertificate } from '../../reference/tls.js';

const tmp = mkdtempSync(join(tmpdir(), 'tls-'));
const caFile = join(tmp, 'ca.pem');
const TOKEN = 'tls-root-token-a81c';
let ref: RunningReference;

beforeAll(async () => {
  const tls = await selfSignedCertificate();
  writeFileSync(caFile, tls.cert);
  ref = await startReference({ rootToken: TOKEN, tls, quiet: true, requireRequestHeader: true });
}, 30_000);
afterAll(() => ref?.stop());

async function run(env: Record<string, string>, name: string): Promise<{ status: number; reportDir: string }> {
  const reportDir = join(tmp, name);
  const r = await runCli(['run', '--quiet', '--suite', 'kv', '--report-dir', reportDir], {
    env: {
      ...process.env,
      SVC_ADDR: ref.svcAddr,
      SVC_TOKEN: TOKEN,
      SCHED_ADDR: '',
      ...env,
    },
    timeoutMs: 120_000,
  });
  return { status: r.code ?? 99, reportDir };
}

describe('TLS to the secrets service', () => {
  it('SVC_CACERT verifies the target certificate', async () => {
    expect(ref.svcAddr.startsWith('https://')).toBe(true);
    const r = await run({ SVC_CACERT: caFile }, 'ca');
    expect(r.status, 'the kv suite passes over verified TLS').toBe(0);
  }, 130_000);

  it('without a CA the run fails and says why', async () => {
    const r = await run({}, 'noca');
    expect(r.status).toBe(1);
    const results = readFileSync(join(r.reportDir, 'results.json'), 'utf8');
    expect(results).toMatch(/self.signed|certificate/i);
    // The pre-flight check stops the run at once, naming the setting that fixes it.
    expect((JSON.parse(results) as { preflight?: { setting: string } }).preflight?.setting).toBe('SVC_CACERT');
  }, 130_000);

  it('SVC_SKIP_VERIFY=true skips verification', async () => {
    const r = await run({ SVC_SKIP_VERIFY: 'true' }, 'skip');
    expect(r.status).toBe(0);
  }, 130_000);
});
