/**
 * `npm run bench`: where the time of a conformance run goes. Prints figures, asserts nothing.
 *
 * The behavioural suites and the robustness suite are measured apart (each group its own runs):
 * the robustness suite's thousands of concurrent requests would otherwise carry the figures of the
 * suites a vendor reads. For each group:
 * 1. embedded: `run` against the embedded reference, as a user runs it: wall time, time to the
 *    first test, vitest's import and test times, per-suite test time.
 * 2. recorded: the same suites against the reference started alone, through a recording proxy:
 *    wall time and every request in arrival order.
 * 3. raw replay: the recorded requests replayed one after another against a fresh reference with
 *    the harness's client library and nothing else, compared with a run of the same suites against
 *    the reference alone with no proxy either (direct): the ratio direct/replay is the harness's
 *    overhead over the target's own time. (The recording proxy's CPU is the bench's, not the
 *    harness's: the recorded run's own ratio is printed too.)
 * 4. latency: the same run through a proxy that delays every request (default 20 ms), against
 *    requests x delay, the wall time a run would take if nothing overlapped.
 * Before them, one short run (the core suite, not counted) warms the caches, as the goals ask.
 * And, with the jobs suite selected, 5. async (bench/lib/async-jobs.ts): the jobs suite against a
 * scheduler that works after it answers, against the delays on its critical path.
 *
 *   npm run bench -- [--suite core,kv] [--latency-ms 20] [--concurrency N] [--report-dir DIR]
 *                    [--only embedded,recorded,replay,latency,async] (keep each run's reports in DIR/<group>/<phase>)
 *
 * Every process it starts (reference, directory, conformance runs) is in its own process group
 * and ended before it returns. Tokens and passwords stay in memory and environment variables;
 * the temporary config files carry none and are removed.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { ALL_SUITES } from '../harness/config/load.js';
import { asyncJobsBench } from './lib/async-jobs.js';
import { MAX_DELAY_MS, startProxy, type Proxy as DelayingProxy, type Recorded } from './lib/proxy.js';
import { replay } from './lib/replay.js';
import { conformanceRun, f1, f2, printRun, printSuites, type RunFigures } from './lib/run.js';
import { pairs, startTarget, stopTarget, type Target, targetConfig } from './lib/targets.js';

const args = process.argv.slice(2);
const arg = (name: string): string | undefined => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
};
const selected = arg('suite')?.split(',').filter(Boolean) ?? ALL_SUITES;
const latencyMs = Math.min(MAX_DELAY_MS, Number(arg('latency-ms') ?? 20));
const concurrency = arg('concurrency');
const phases = new Set((arg('only') ?? 'embedded,recorded,replay,latency,async').split(','));

const tmp = mkdtempSync(join(tmpdir(), 'svc-bench-'));
/** Where each run's reports go (kept); by default inside the temporary folder, removed at the end. */
const reportsBase = arg('report-dir') ?? tmp;
const rootToken = `bench-${randomBytes(12).toString('hex')}`;

/** The goals of the behavioural suites (issue 26), printed beside the figures. */
const GOALS = { ratio: 1.3, latencyRatio: 0.4, firstTestSeconds: 1 };

interface Group {
  name: 'behavioural' | 'robustness';
  suites: string[];
}

interface GroupFigures {
  group: Group;
  embedded?: RunFigures;
  recorded?: RunFigures;
  /** The same suites against the reference alone with no proxy: what the raw replay is compared with. */
  direct?: RunFigures;
  requests?: { total: number; svc: number; sched: number };
  rawSeconds?: number;
  latency?: RunFigures;
}

const runArgs = () => (concurrency ? ['--concurrency', concurrency] : []);

/**
 * A run against the reference started alone: through proxies that delay (and record) every
 * request, or `direct`ly, with nothing in between.
 */
async function runAgainstReferenceAlone(
  group: Group,
  name: string,
  via: { delayMs: number; record?: Recorded[] } | 'direct',
): Promise<{ run: RunFigures; target: Target }> {
  const target = await startTarget(rootToken, group.suites.includes('ldap'));
  const proxies: DelayingProxy[] = [];
  try {
    let svcAddr = target.svcAddr;
    let schedAddr = target.schedAddr;
    if (via !== 'direct') {
      const svc = await startProxy({ api: 'svc', target: target.svcAddr, ...via });
      proxies.push(svc);
      svcAddr = svc.addr;
      if (target.schedAddr) {
        const sched = await startProxy({ api: 'sched', target: target.schedAddr, ...via });
        proxies.push(sched);
        schedAddr = sched.addr;
      }
    }
    const { env } = targetConfig(tmp, `${group.name}-${name}`, rootToken, target, svcAddr, schedAddr);
    const run = await conformanceRun({
      reportDir: join(reportsBase, group.name, name),
      suites: group.suites,
      env,
      args: runArgs(),
    });
    return { run, target };
  } finally {
    for (const p of proxies) await p.close();
    await stopTarget(target);
  }
}

async function rawReplay(group: Group, records: Recorded[], recordedTarget: Target): Promise<number> {
  const fresh = await startTarget(rootToken, group.suites.includes('ldap'));
  try {
    const initial = new Map<string, string>();
    const setup = (t: Target) => ({
      cloud: t.cloud,
      ldap: t.directory && { url: t.directory.url, bindPass: t.directory.bindPass },
    });
    pairs(setup(recordedTarget), setup(fresh), initial);
    const raw = await replay(records, { svc: fresh.svcAddr, sched: fresh.schedAddr }, initial);
    console.log(
      `raw replay (same requests in order, pactum, no checks, no reports): ${f1(raw.requestSeconds)} s in requests (${f1(raw.seconds)} s with the replay's own bookkeeping); ${raw.statusDiffers} of ${raw.requests} answers differ in status from the recording`,
    );
    return raw.requestSeconds;
  } finally {
    await stopTarget(fresh);
  }
}

async function benchGroup(group: Group): Promise<GroupFigures> {
  console.log(`=== ${group.name}: ${group.suites.join(',')}\n`);
  const figures: GroupFigures = { group };
  if (phases.has('embedded')) {
    figures.embedded = await conformanceRun({
      reportDir: join(reportsBase, group.name, 'embedded'),
      suites: group.suites,
      args: runArgs(),
    });
    printRun('embedded run', figures.embedded);
    printSuites(figures.embedded.results);
    console.log('');
  }
  if (phases.has('recorded') || phases.has('replay')) {
    const records: Recorded[] = [];
    const { run, target } = await runAgainstReferenceAlone(group, 'recorded', { delayMs: 0, record: records });
    records.sort((a, b) => a.seq - b.seq);
    figures.recorded = run;
    const svc = records.filter((x) => x.api === 'svc').length;
    figures.requests = { total: records.length, svc, sched: records.length - svc };
    printRun('recorded run (reference alone, through a recording proxy)', run);
    console.log(`  requests: ${records.length} (${svc} secrets service, ${records.length - svc} scheduler)\n`);
    if (phases.has('replay')) {
      // The replay talks to the reference directly: so does the run it is compared with. The
      // recording proxy is the bench's instrument, not the harness's work (on two cores its CPU
      // alone made the recorded run ~2 s slower than the embedded one).
      figures.direct = (await runAgainstReferenceAlone(group, 'direct', 'direct')).run;
      printRun('direct run (reference alone, nothing in between)', figures.direct);
      figures.rawSeconds = await rawReplay(group, records, target);
      const ratio = (r: RunFigures) => (r.wallSeconds / figures.rawSeconds!).toFixed(2);
      console.log(`  harness/raw: ${ratio(figures.direct)}x (direct run wall, start-up included / raw request time)`);
      if (figures.direct.firstTestSeconds !== undefined)
        console.log(
          `  without start-up (wall - time to first test): ${((figures.direct.wallSeconds - figures.direct.firstTestSeconds) / figures.rawSeconds).toFixed(2)}x`,
        );
      console.log(`  the recorded run (through the proxy) / raw: ${ratio(run)}x\n`);
    }
  }
  if (phases.has('latency')) {
    const { run } = await runAgainstReferenceAlone(group, 'latency', { delayMs: latencyMs });
    figures.latency = run;
    printRun(`with ${latencyMs} ms added per request`, run);
    const n = figures.requests?.total;
    if (n)
      console.log(
        `  requests x latency = ${n} x ${latencyMs} ms = ${f1((n * latencyMs) / 1000)} s; wall / (requests x latency) = ${((run.wallSeconds * 1000) / (n * latencyMs)).toFixed(2)}\n`,
      );
    else console.log('  (run the recorded phase too for the request count)\n');
  }
  return figures;
}

/** One line per figure and group, the goals beside the behavioural suites'. */
function printSummary(all: GroupFigures[]): void {
  const cell = (g: GroupFigures, f: (g: GroupFigures) => string | undefined) => (f(g) ?? 'n/a').padStart(14);
  const rows: [string, (g: GroupFigures) => string | undefined, string][] = [
    ['requests', (g) => g.requests && String(g.requests.total), ''],
    ['embedded wall s', (g) => g.embedded && f1(g.embedded.wallSeconds), ''],
    ['first test s (embedded)', (g) => g.embedded && f2(g.embedded.firstTestSeconds), `<= ${GOALS.firstTestSeconds}`],
    ['first test s (recorded)', (g) => g.recorded && f2(g.recorded.firstTestSeconds), ''],
    ['recorded wall s (via proxy)', (g) => g.recorded && f1(g.recorded.wallSeconds), ''],
    ['direct wall s', (g) => g.direct && f1(g.direct.wallSeconds), ''],
    ['raw replay s', (g) => (g.rawSeconds !== undefined ? f1(g.rawSeconds) : undefined), ''],
    [
      'harness / raw (direct run)',
      (g) => (g.direct && g.rawSeconds ? `${(g.direct.wallSeconds / g.rawSeconds).toFixed(2)}x` : undefined),
      `<= ${GOALS.ratio}x`,
    ],
    [`wall +${latencyMs} ms/request s`, (g) => g.latency && f1(g.latency.wallSeconds), ''],
    [
      'wall / (requests x latency)',
      (g) =>
        g.latency && g.requests
          ? ((g.latency.wallSeconds * 1000) / (g.requests.total * latencyMs)).toFixed(2)
          : undefined,
      `<= ${GOALS.latencyRatio}`,
    ],
  ];
  console.log(`${'figure'.padEnd(30)}${all.map((g) => g.group.name.padStart(14)).join('')}  goal (behavioural suites)`);
  for (const [label, f, goal] of rows)
    console.log(`${label.padEnd(30)}${all.map((g) => cell(g, f)).join('')}  ${goal}`);
}

async function main(): Promise<void> {
  console.log(
    `bench: suites ${selected.join(',')}, concurrency ${concurrency ?? 'default'}, latency ${latencyMs} ms; node ${process.version}, ${availableParallelism()} cores; ${new Date().toISOString()}`,
  );
  console.log('(timings on a shared machine are noisy: compare runs made back to back)\n');
  const groups: Group[] = [
    { name: 'behavioural' as const, suites: selected.filter((s) => s !== 'robustness') },
    { name: 'robustness' as const, suites: selected.filter((s) => s === 'robustness') },
  ].filter((g) => g.suites.length);
  // The goals are for a warm cache: one short run first compiles what changed since the last run
  // (compose/compiled.mjs) and fills node's compile cache and the disk caches; it is not counted.
  const warm = await conformanceRun({ reportDir: join(tmp, 'warm-up'), suites: ['core'], args: runArgs() });
  console.log(`warm-up run (core, not counted): ${f1(warm.wallSeconds)} s wall, exit ${warm.code}\n`);
  const all: GroupFigures[] = [];
  for (const g of groups) all.push(await benchGroup(g));
  if (all.some((g) => g.embedded || g.recorded || g.latency)) printSummary(all);
  if (phases.has('async') && selected.includes('jobs'))
    await asyncJobsBench({ tmp, reportDir: join(reportsBase, 'async'), rootToken, args: runArgs() });
}

try {
  await main();
} catch (err) {
  console.error(`bench failed: ${(err as Error).message}`);
  process.exitCode = 1;
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
