/**
 * The jobs suite against an external scheduler, as a vendor runs it: the reference started alone
 * with every scheduler variant on, once with ACLs and once without, tokens and namespaces listed in
 * a config file (sched.provisioner: config) the way a user lists those of their own product. Every
 * ACL, namespace and action test must run (none skipped for a missing reference control or
 * provisioning), with 0 failures.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SCHED_SUITE_GRANTS } from '../../harness/provision/scheduler.js';
import { allVariants } from '../../reference/switch-registry.js';

/** The reference scheduler's legal variants. */
const schedVariants = allVariants.filter((v) => v.name.startsWith('jobs.'));

const ROOT = 'alone-sched-3b9f';
const tmp = mkdtempSync(join(tmpdir(), 'ext-sched-'));
const children: ChildProcess[] = [];
// Each reference runs in its own process group (npx -> tsx -> node): the whole group is stopped.
afterAll(() => {
  for (const c of children) {
    try {
      if (c.pid) process.kill(-c.pid, 'SIGTERM');
    } catch {
      /* already gone */
    }
  }
});

async function startAlone(acl: boolean): Promise<string> {
  const args = [
    'tsx',
    'reference/main.ts',
    '--port',
    '0',
    '--sched-port',
    '0',
    '--cloud-port',
    '0',
    '--root-token',
    ROOT,
    '--variants',
    schedVariants.map((v) => v.name).join(','),
  ];
  if (!acl) args.push('--sched-no-acl');
  const child = spawn('npx', args, { stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  children.push(child);
  return new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`reference did not start: ${out}`)), 30_000);
    child.stdout!.on('data', (d) => {
      out += d;
      const m = /scheduler: +(\S+)/.exec(out);
      if (m && out.includes('ready')) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
  });
}

/** What a user does with their product's own tools: create the tokens, then list them. */
async function userTokens(addr: string): Promise<{ secret: string; namespace: string; capabilities: string[] }[]> {
  const out = [];
  for (const g of SCHED_SUITE_GRANTS) {
    const res = await fetch(`${addr}/v1/reference/acl/tokens`, {
      method: 'POST',
      headers: { 'X-Sched-Token': ROOT },
      body: JSON.stringify({
        Name: 'listed',
        Type: 'client',
        Namespaces: { [g.namespace]: { Capabilities: g.capabilities } },
      }),
      signal: AbortSignal.timeout(5000),
    });
    expect(res.status).toBe(200);
    out.push({ secret: ((await res.json()) as { SecretID: string }).SecretID, ...g });
  }
  return out;
}

interface Result {
  key: string;
  ids: string[];
  status: string;
  skip?: { reason: string; setting?: string };
}

function run(name: string, schedAddr: string, config: object): Promise<{ status: number; tests: Result[] }> {
  const reportDir = join(tmp, name);
  const file = join(tmp, `${name}.json`);
  writeFileSync(file, JSON.stringify(config));
  return new Promise((resolve) => {
    execFile(
      'npx',
      ['tsx', 'compose/cli.ts', 'run', '--quiet', '--suite', 'jobs', '--config', file, '--report-dir', reportDir],
      {
        env: {
          ...process.env,
          SVC_ADDR: '',
          SVC_TOKEN: '',
          SCHED_ADDR: schedAddr,
          SCHED_TOKEN: ROOT,
          REF_VARIANTS: '',
          REF_FAULTS: '',
          CONFORMANCE_CONFIG: '',
        },
        timeout: 420_000,
      },
      (err) =>
        resolve({
          status: err ? (typeof err.code === 'number' ? err.code : 99) : 0,
          tests: (JSON.parse(readFileSync(join(reportDir, 'results.json'), 'utf8')) as { tests: Result[] }).tests,
        }),
    );
  });
}

/** Assumptions a scheduler with these variants does not meet: a user switches them off likewise. */
const assumptions = Object.fromEntries(schedVariants.flatMap((v) => v.assumptions ?? []).map((id) => [id, false]));
const provisioned = (r: Result) =>
  r.ids.some((id) => /^jobs\.(acl|action|actions|namespace)\./.test(id) || id === 'jobs.list.namespace-wildcard');

describe('the jobs suite against the reference scheduler started alone, variants on, provisioner config', () => {
  it('with ACLs: every ACL, namespace and action test runs, 0 failures', async () => {
    const addr = await startAlone(true);
    const r = await run('acl', addr, {
      sched: { provisioner: 'config', tokens: await userTokens(addr), namespaces: ['listed-ns-a'] },
      assumptions,
    });
    const failed = r.tests.filter((x) => x.status === 'failed').map((x) => x.key);
    expect(failed, 'failures').toEqual([]);
    const skipped = r.tests
      .filter((x) => provisioned(x) && x.status !== 'passed')
      .map((x) => `${x.key}: ${x.skip?.reason}`);
    expect(skipped, 'ACL, namespace and action tests that did not run').toEqual([]);
    expect(r.tests.filter(provisioned).length).toBeGreaterThan(15);
    expect(r.status, 'exit code').toBe(0);
  }, 450_000);

  it('without ACLs: namespace and action tests run, ACL tests skip only for capabilities.schedAcl, 0 failures', async () => {
    const addr = await startAlone(false);
    const r = await run('noacl', addr, { sched: { provisioner: 'config', namespaces: ['listed-ns-b'] }, assumptions });
    expect(
      r.tests.filter((x) => x.status === 'failed').map((x) => x.key),
      'failures',
    ).toEqual([]);
    for (const x of r.tests.filter(provisioned)) {
      if (x.status === 'skipped')
        expect(x.skip?.setting, `${x.key} skipped: ${x.skip?.reason}`).toBe('capabilities.schedAcl');
      else expect(x.status, x.key).toBe('passed');
    }
    expect(r.tests.filter((x) => provisioned(x) && x.status === 'passed').length).toBeGreaterThan(5);
    expect(r.status, 'exit code').toBe(0);
  }, 450_000);
});
