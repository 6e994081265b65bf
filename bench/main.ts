/**
 * `npm run bench`: where the time of a conformance run goes. Prints figures, asserts nothing.
 *
 * 1. embedded: `run` against the embedded reference, as a user runs it: wall time, time to the
 *    first test, vitest's import and test times, per-suite test time.
 * 2. recorded: the same suites against the reference started alone, through a recording proxy:
 *    wall time and every request in arrival order.
 * 3. raw replay: the recorded requests replayed one after another against a fresh reference with
 *    the harness's client library and nothing else; the ratio recorded/replay is the harness's
 *    overhead over the target's own time.
 * 4. latency: the same run through a proxy that delays every request (default 20 ms), against
 *    requests x delay, the wall time a run would take if nothing overlapped.
 *
 *   npm run bench -- [--suite core,kv] [--latency-ms 20] [--concurrency N] [--only embedded,recorded,replay,latency]
 *                    [--report-dir DIR] (keep each run's reports in DIR/<phase>)
 *
 * Every process it starts (reference, directory, conformance runs) is in its own process group
 * and ended before it returns. Tokens and passwords stay in memory and environment variables;
 * the temporary config files carry none and are removed.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { provisionDirectory, type ProvisionedDirectory } from '../harness/directory/provision.js';
import type { Results } from '../harness/report/model.js';
import { cliArgs, spawnGroup } from '../harness/cli/process.js';
import { endGroup, spawnTsx } from './lib/processes.js';
import { MAX_DELAY_MS, startProxy, type Proxy as DelayingProxy, type Recorded } from './lib/proxy.js';
import { replay } from './lib/replay.js';

const args = process.argv.slice(2);
const arg = (name: string): string | undefined => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
};
const suites = arg('suite');
const latencyMs = Math.min(MAX_DELAY_MS, Number(arg('latency-ms') ?? 20));
const concurrency = arg('concurrency');
const phases = new Set((arg('only') ?? 'embedded,recorded,replay,latency').split(','));
const RUN_TIMEOUT_MS = 20 * 60_000;

const tmp = mkdtempSync(join(tmpdir(), 'svc-bench-'));
/** Where each run's reports go (kept); by default inside the temporary folder, removed at the end. */
const reportsBase = arg('report-dir') ?? tmp;
const rootToken = `bench-${randomBytes(12).toString('hex')}`;

interface RunFigures {
  wallSeconds: number;
  code: number;
  results?: Results;
  importSeconds?: number;
  testsSeconds?: number;
  firstTestSeconds?: number;
  summary: string;
}

/** One `run` in its own process group; wall time from spawn to exit. */
async function conformanceRun(name: string, env: Record<string, string>, extra: string[] = []): Promise<RunFigures> {
  const reportDir = join(reportsBase, name);
  const cli = [
    'run',
    '--report-dir',
    reportDir,
    ...(suites ? ['--suite', suites] : []),
    ...(concurrency ? ['--concurrency', concurrency] : []),
    ...extra,
  ];
  const started = Date.now();
  // As `npm run conformance` starts it (bin/svc-conformance.mjs).
  const child = spawnGroup(process.execPath, cliArgs(cli), {
    env: {
      ...process.env,
      SVC_ADDR: '',
      SVC_TOKEN: '',
      SCHED_ADDR: '',
      SCHED_TOKEN: '',
      CONFORMANCE_CONFIG: '',
      CONFORMANCE_CONFIG_JSON: '',
      ...env,
    },
  });
  let out = '';
  child.stdout!.on('data', (d) => {
    out += d;
  });
  child.stderr!.on('data', (d) => {
    out += d;
  });
  const timer = setTimeout(() => void endGroup(child), RUN_TIMEOUT_MS);
  const code = await new Promise<number>((r) => child.on('exit', (c) => r(c ?? 1)));
  clearTimeout(timer);
  await endGroup(child);
  const wallSeconds = (Date.now() - started) / 1000;
  const plain = out.replace(/\u001b\[[0-9;]*m/g, '');
  const duration = /Duration\s+[\d.]+m?s\s+\(([^)]*)\)/.exec(plain)?.[1] ?? '';
  const seconds = (label: string) => {
    const m = new RegExp(`${label} ([\\d.]+)(m?s)`).exec(duration);
    return m ? Number(m[1]) / (m[2] === 'ms' ? 1000 : 1) : undefined;
  };
  let results: Results | undefined;
  try {
    results = JSON.parse(readFileSync(join(reportDir, 'results.json'), 'utf8')) as Results;
  } catch {
    /* reported below */
  }
  const firstTest = results?.run.firstTestAt ? (Date.parse(results.run.firstTestAt) - started) / 1000 : undefined;
  const summary =
    /conformance: [^\n]*/.exec(plain)?.[0] ??
    `no summary (exit ${code}): ${plain.split('\n').filter(Boolean).slice(-3).join(' | ')}`;
  return {
    wallSeconds,
    code,
    results,
    importSeconds: seconds('import'),
    testsSeconds: seconds('tests'),
    firstTestSeconds: firstTest,
    summary,
  };
}

interface Target {
  child: ChildProcess;
  svcAddr: string;
  schedAddr?: string;
  cloud: Record<string, unknown> | null;
  directory?: ProvisionedDirectory;
}

/** The reference alone in a child process, plus a fresh directory for the ldap suite. */
async function startTarget(): Promise<Target> {
  const child = spawnTsx('bench/lib/target.ts', [], {
    stdio: ['pipe', 'pipe', 'pipe'],
    env: { ...process.env, BENCH_ROOT_TOKEN: rootToken },
  });
  const info = await new Promise<{ svcAddr: string; schedAddr?: string; cloud: Record<string, unknown> | null }>(
    (resolve, reject) => {
      let out = '';
      const timer = setTimeout(
        () => reject(new Error(`the reference did not start within 60 s: ${out.slice(-500)}`)),
        60_000,
      );
      const onData = (d: Buffer) => {
        out += d;
        const m = /BENCH_TARGET (.*)\n/.exec(out);
        if (m) {
          clearTimeout(timer);
          resolve(JSON.parse(m[1]!));
        }
      };
      child.stdout!.on('data', onData);
      child.stderr!.on('data', (d) => {
        out += d;
      });
      child.on('exit', (c) => reject(new Error(`the reference exited (${c}): ${out.slice(-500)}`)));
    },
  );
  const wantsLdap = !suites || suites.split(',').includes('ldap');
  let directory: ProvisionedDirectory | undefined;
  if (wantsLdap) {
    try {
      directory = await provisionDirectory({});
    } catch (err) {
      console.log(`  (no directory: ${(err as Error).message.split('\n')[0]}; the ldap suite skips)`);
    }
  }
  return { child, ...info, directory };
}

async function stopTarget(t: Target): Promise<void> {
  await t.directory?.stop().catch(() => undefined);
  t.child.stdin?.end();
  await endGroup(t.child);
}

/** Config file and environment for a run against `svc`/`sched` (the proxies) of target `t`. */
function targetConfig(
  name: string,
  t: Target,
  svc: string,
  sched?: string,
): { file: string; env: Record<string, string> } {
  const file = join(tmp, `${name}.json`);
  const {
    stop: _stop,
    started: _started,
    bindPass: _pass,
    ...ldap
  } = t.directory ?? ({} as Partial<ProvisionedDirectory>);
  const { rootClientSecret: _secret, ...cloud } = (t.cloud ?? {}) as Record<string, unknown>;
  // The same capabilities the embedded run has, so the same tests run.
  const config = {
    capabilities: {
      namespaces: true,
      enterprise: true,
      cmac: true,
      clock: true,
      mounts: true,
      referenceControl: true,
      sealRandom: true,
      schedAcl: true,
      schedControl: true,
    },
    ...(t.cloud ? { cloud } : {}),
  };
  writeFileSync(file, JSON.stringify(config), { mode: 0o600 });
  const env: Record<string, string> = {
    CONFORMANCE_CONFIG: file,
    SVC_ADDR: svc,
    SVC_TOKEN: rootToken,
    SCHED_ADDR: sched ?? '',
    SCHED_TOKEN: sched ? rootToken : '',
  };
  if (t.directory)
    Object.assign(env, {
      LDAP_URL: ldap.url,
      LDAP_BIND_DN: ldap.bindDn,
      LDAP_BIND_PASS: t.directory.bindPass,
      LDAP_BASE_DN: ldap.baseDn,
      LDAP_USER_DN: ldap.userDn,
      LDAP_SERVICE_ACCOUNTS: (ldap.serviceAccounts ?? []).join(','),
      LDAP_USERS: (ldap.users ?? []).join(','),
    });
  if (typeof _secret === 'string') env.CLOUD_ROOT_CLIENT_SECRET = _secret;
  return { file, env };
}

async function proxiedRun(
  name: string,
  delayMs: number,
  record?: Recorded[],
): Promise<{ run: RunFigures; target: Target }> {
  const target = await startTarget();
  const proxies: DelayingProxy[] = [];
  try {
    const svc = await startProxy({ api: 'svc', target: target.svcAddr, delayMs, record });
    proxies.push(svc);
    const sched = target.schedAddr
      ? await startProxy({ api: 'sched', target: target.schedAddr, delayMs, record })
      : undefined;
    if (sched) proxies.push(sched);
    const { env } = targetConfig(name, target, svc.addr, sched?.addr);
    const run = await conformanceRun(name, env);
    return { run, target };
  } finally {
    for (const p of proxies) await p.close();
    await stopTarget(target);
  }
}

/** String leaves of two objects at the same positions: what differs between two targets' set-ups. */
function pairs(a: unknown, b: unknown, out: Map<string, string>): void {
  if (typeof a === 'string' && typeof b === 'string') {
    if (a !== b && a.length >= 4) out.set(a, b);
  } else if (a && b && typeof a === 'object' && typeof b === 'object') {
    for (const k of Object.keys(a)) pairs((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], out);
  }
}

const f1 = (n: number | undefined) => (n === undefined ? 'n/a' : n.toFixed(1));

function printRun(label: string, r: RunFigures): void {
  console.log(`${label}: ${f1(r.wallSeconds)} s wall, exit ${r.code}; ${r.summary}`);
  console.log(
    `  time to first test ${f1(r.firstTestSeconds)} s; vitest import ${f1(r.importSeconds)} s, tests ${f1(r.testsSeconds)} s (summed over workers)`,
  );
}

function printSuites(r: Results | undefined): void {
  if (!r) return;
  const by = new Map<string, { tests: number; ms: number; files: Set<string> }>();
  for (const t of r.tests) {
    const suite = t.file.split('/')[1] ?? t.area;
    const e = by.get(suite) ?? { tests: 0, ms: 0, files: new Set<string>() };
    e.tests++;
    e.ms += t.durationMs;
    e.files.add(t.file);
    by.set(suite, e);
  }
  console.log(`  ${'suite'.padEnd(10)} ${'files'.padStart(5)} ${'tests'.padStart(6)} ${'test time s'.padStart(12)}`);
  for (const [suite, e] of [...by].sort((a, b) => b[1].ms - a[1].ms)) {
    console.log(
      `  ${suite.padEnd(10)} ${String(e.files.size).padStart(5)} ${String(e.tests).padStart(6)} ${(e.ms / 1000).toFixed(1).padStart(12)}`,
    );
  }
}

async function main(): Promise<void> {
  console.log(
    `bench: suites ${suites ?? 'all'}, concurrency ${concurrency ?? 'default'}, latency ${latencyMs} ms; ${new Date().toISOString()}`,
  );
  console.log('(timings on a shared machine are noisy: compare runs made back to back)\n');

  if (phases.has('embedded')) {
    const embedded = await conformanceRun('embedded', {});
    printRun('embedded run', embedded);
    printSuites(embedded.results);
    console.log('');
  }

  let records: Recorded[] = [];
  let recordedTarget: Target | undefined;
  let recorded: RunFigures | undefined;
  if (phases.has('recorded') || phases.has('replay')) {
    records = [];
    const r = await proxiedRun('recorded', 0, records);
    recorded = r.run;
    recordedTarget = r.target;
    records.sort((a, b) => a.seq - b.seq);
    printRun('recorded run (reference alone, through a recording proxy)', recorded);
    console.log(
      `  requests: ${records.length} (${records.filter((x) => x.api === 'svc').length} secrets service, ${records.filter((x) => x.api === 'sched').length} scheduler)\n`,
    );
  }

  if (phases.has('replay') && recorded && recordedTarget) {
    const fresh = await startTarget();
    try {
      const initial = new Map<string, string>();
      pairs(
        {
          cloud: recordedTarget.cloud,
          ldap: recordedTarget.directory && {
            url: recordedTarget.directory.url,
            bindPass: recordedTarget.directory.bindPass,
          },
        },
        {
          cloud: fresh.cloud,
          ldap: fresh.directory && { url: fresh.directory.url, bindPass: fresh.directory.bindPass },
        },
        initial,
      );
      const raw = await replay(records, { svc: fresh.svcAddr, sched: fresh.schedAddr }, initial);
      console.log(
        `raw replay (same requests in order, pactum, no checks, no reports): ${f1(raw.requestSeconds)} s in requests (${f1(raw.seconds)} s with the replay's own bookkeeping); ${raw.statusDiffers} of ${raw.requests} answers differ in status from the recording`,
      );
      console.log(
        `  harness/raw: ${(recorded.wallSeconds / raw.requestSeconds).toFixed(2)}x (recorded run wall / raw request time); goal <= 1.5x`,
      );
      if (recorded.firstTestSeconds !== undefined) {
        console.log(
          `  without start-up (wall - time to first test): ${((recorded.wallSeconds - recorded.firstTestSeconds) / raw.requestSeconds).toFixed(2)}x\n`,
        );
      }
    } finally {
      await stopTarget(fresh);
    }
  }

  if (phases.has('latency')) {
    const { run } = await proxiedRun('latency', latencyMs);
    printRun(`with ${latencyMs} ms added per request`, run);
    const n = records.length;
    if (n) {
      const serialSeconds = (n * latencyMs) / 1000;
      console.log(
        `  requests x latency = ${n} x ${latencyMs} ms = ${f1(serialSeconds)} s; added wall over the recorded run ${f1(run.wallSeconds - (recorded?.wallSeconds ?? 0))} s; wall / (requests x latency) = ${(run.wallSeconds / serialSeconds).toFixed(2)} (goal <= 0.5)`,
      );
    } else console.log('  (run the recorded phase too for the request count)');
  }
}

try {
  await main();
} catch (err) {
  console.error(`bench failed: ${(err as Error).message}`);
  process.exitCode = 1;
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
