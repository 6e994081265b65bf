/**
 * The pre-flight check (harness/setup/preflight.ts): a target that cannot be used ends the run at
 * once, exit 1, with one message naming the setting, and the reports say the same with no
 * per-test failure. Closed port (SVC_ADDR), a token the target refuses (SVC_TOKEN), a scheduler
 * that is down (SCHED_ADDR). The embedded reference passes it in every other run of `npm test`.
 * An embedded reference that cannot start ends the run the same way (harness/setup/global-setup.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../harness/cli/process.js';
import type { Results } from '../../harness/report/model.js';
import { runEnv } from '../helpers/run-env.js';

const tmp = mkdtempSync(join(tmpdir(), 'preflight-'));
const TOKEN = 'preflight-token-9d3e7b1c';

/** A loopback port nothing listens on (bound, read, released). */
async function closedPort(): Promise<number> {
  const s = createNetServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}

let refusing: Server;
let refusingAddr = '';
beforeAll(async () => {
  // Answers every request 403, as a secrets service does to an unknown token.
  refusing = createServer((_req, res) => {
    res.writeHead(403, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify({ errors: ['permission denied'] }));
  });
  await new Promise<void>((resolve) => refusing.listen(0, '127.0.0.1', resolve));
  refusingAddr = `http://127.0.0.1:${(refusing.address() as AddressInfo).port}`;
});
afterAll(() => refusing?.close());

async function run(name: string, suite: string, env: Record<string, string>) {
  const reportDir = join(tmp, name);
  const started = Date.now();
  const r = await runCli(['run', '--quiet', '--suite', suite, '--report-dir', reportDir], {
    env: runEnv(env),
    timeoutMs: 60_000,
  });
  const seconds = (Date.now() - started) / 1000;
  for (const f of ['results.json', 'junit.xml', 'index.html'])
    expect(existsSync(join(reportDir, f)), `${f} written`).toBe(true);
  const read = (f: string) => readFileSync(join(reportDir, f), 'utf8');
  const all = ['results.json', 'junit.xml', 'index.html'].map(read).join('\n');
  expect(all.includes(TOKEN), 'the token appears in no report').toBe(false);
  return {
    code: r.code,
    seconds,
    output: `${r.stdout}${r.stderr}`,
    results: JSON.parse(read('results.json')) as Results,
    junit: read('junit.xml'),
    html: read('index.html'),
  };
}

describe('pre-flight', () => {
  it('a closed port: exit 1 within a few seconds, one message naming SVC_ADDR, reports with no test', async () => {
    const port = await closedPort();
    const r = await run('closed', 'kv', { SVC_ADDR: `http://127.0.0.1:${port}`, SVC_TOKEN: TOKEN });
    expect(r.code, r.output.slice(-800)).toBe(1);
    expect(r.seconds, 'ends at once, not one connection failure per test').toBeLessThan(15);
    const lines = r.output.split('\n').filter((l) => l.includes('pre-flight'));
    expect(lines, r.output).toHaveLength(1);
    expect(lines[0]).toMatch(
      new RegExp(
        `the secrets service at http://127\\.0\\.0\\.1:${port} could not be reached \\(setting SVC_ADDR\\).*ECONNREFUSED`,
      ),
    );
    expect(r.results.preflight).toMatchObject({ setting: 'SVC_ADDR' });
    expect(r.results.tests, 'no per-test failures').toEqual([]);
    expect(r.results.errors.join('\n')).toMatch(/SVC_ADDR/);
    expect(r.junit).toMatch(/<error message="pre-flight: [^"]*setting SVC_ADDR/);
    expect(r.html).toMatch(/not started: pre-flight: [^<]*SVC_ADDR/);
  }, 70_000);

  it('a token the target refuses (403 on the token self-lookup): one message naming SVC_TOKEN', async () => {
    const r = await run('token', 'kv', { SVC_ADDR: refusingAddr, SVC_TOKEN: TOKEN });
    expect(r.code, r.output.slice(-800)).toBe(1);
    expect(r.results.preflight?.setting).toBe('SVC_TOKEN');
    expect(r.results.preflight?.message).toMatch(
      /refused the configured token: GET \/v1\/auth\/token\/lookup-self answered 403: permission denied \(setting SVC_TOKEN\)/,
    );
    expect(r.results.tests).toEqual([]);
  }, 70_000);

  it('a scheduler that is down: SCHED_ADDR (the secrets service is the embedded reference)', async () => {
    const port = await closedPort();
    const r = await run('sched', 'jobs', { SCHED_ADDR: `http://127.0.0.1:${port}`, SCHED_TOKEN: TOKEN });
    expect(r.code, r.output.slice(-800)).toBe(1);
    expect(r.results.preflight?.setting).toBe('SCHED_ADDR');
    expect(r.results.preflight?.message).toMatch(/the scheduler at .* could not be reached \(setting SCHED_ADDR\)/);
  }, 70_000);

  it('an embedded reference that cannot start: exit 1, the reason once, and the run’s error in every report', async () => {
    const r = await run('unstartable', 'kv', { REF_FAULTS: 'no.such-fault' });
    expect(r.code, r.output.slice(-800)).toBe(1);
    const lines = r.output.split('\n').filter((l) => l.includes('could not be prepared'));
    expect(lines, r.output).toHaveLength(1);
    expect(lines[0]).toMatch(/unknown fault switch\(es\) no\.such-fault \(setting reference\.faults \/ REF_FAULTS\)/);
    expect(r.output, 'not mistaken for an empty selection').not.toMatch(/no conformance test ran/);
    expect(r.results.errors).toEqual([
      expect.stringMatching(/^the target could not be prepared: unknown fault switch/),
    ]);
    expect(r.results.tests).toEqual([]);
    expect(r.junit).toMatch(/could not be prepared/);
    expect(r.html).toMatch(/could not be prepared/);
  }, 70_000);
});
