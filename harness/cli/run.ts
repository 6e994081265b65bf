/** `run`: resolves the config, runs the selected suites under vitest, returns the exit code. */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { startVitest } from 'vitest/node';
import { compiledTree } from './compiled-modules.js';
import { ConfigError, loadConfig } from '../config/load.js';
import type { FlagValues } from '../config/settings.js';
import ConformanceReporter, { writeReports } from '../report/reporter.js';
import { buildResults } from '../report/build.js';
import { preflight, PreflightFailure } from '../setup/preflight.js';
import { reachesExternal, targetPlan } from '../config/target-plan.js';
import { handOverRunConfig } from '../setup/run-config.js';
import { rememberConfiguredSecrets } from '../redaction/redact.js';
import type { Results } from '../report/model.js';
import type { TargetConfig } from '../config/types.js';
import { checkExpectationIds, loadExpectations } from '../report/expectations.js';
import { keepPrevious } from '../report/compare.js';
import { loadCatalogue } from '../spec/catalogue.js';
import {
  conformanceProject,
  defaultConcurrency,
  defaultTestsInFlight,
  DomainLockSequencer,
  parseShard,
} from './projects.js';
import { measureLatency } from '../setup/latency.js';
import { PACKAGE_ROOT } from './process.js';
import { markStartup } from '../report/startup.js';
import { startDirectoryEarly, startEmbeddedEarly, stopUntakenEarlyStart } from '../setup/early-start.js';
import { type DirectoryProvisioner, provideDirectory } from '../setup/target.js';
import type { EmbeddedTarget } from '../../contract/target.js';

export interface RunOptions {
  /** The vitest globalSetup file that prepares the target (compose/global-setup.ts). */
  globalSetup: string;
  file?: string;
  /** What the flags of `run` that set settings gave (commander's values). */
  cli: FlagValues;
  quiet?: boolean;
  /** Files in flight at once in the one pool (default: defaultConcurrency in harness/cli/projects.ts). */
  concurrency?: number;
  /** Tests of one file in flight at once (default: by the target's latency; 1 with concurrency 1). */
  testsInFlight?: number;
  /** The embedded target, started before vitest when the run needs it (harness/setup/early-start.ts). */
  embedded?: EmbeddedTarget;
  /** Provisions the ldap suite's directory (compose/directory.ts: on a thread of its own); else on the calling thread. */
  directory?: DirectoryProvisioner;
}

export async function runConformance(opts: RunOptions): Promise<number> {
  markStartup('command');
  let cfg: TargetConfig;
  try {
    cfg = loadConfig({ file: opts.file, cli: opts.cli });
    checkExpectationIds(loadExpectations(cfg.run.expectationsFile), loadCatalogue());
    cfg.run.previousResults = keepPrevious(cfg.run.previousResults, cfg.run.reportDir);
    if (cfg.run.shard) parseShard(cfg.run.shard);
    if (
      opts.concurrency !== undefined &&
      !(Number.isInteger(opts.concurrency) && opts.concurrency >= 1 && opts.concurrency <= 64)
    ) {
      throw new ConfigError('--concurrency', `must be a whole number from 1 to 64, got ${opts.concurrency}`);
    }
    if (
      opts.testsInFlight !== undefined &&
      !(Number.isInteger(opts.testsInFlight) && opts.testsInFlight >= 1 && opts.testsInFlight <= 64)
    ) {
      throw new ConfigError('--tests-in-flight', `must be a whole number from 1 to 64, got ${opts.testsInFlight}`);
    }
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      return 2;
    }
    throw err;
  }
  const reportDir = resolve(cfg.run.reportDir);
  cfg.run.reportDir = reportDir;
  for (const f of ['results.json', 'junit.xml', 'index.html']) rmSync(join(reportDir, f), { force: true });
  const plan = targetPlan(cfg);
  if (reachesExternal(plan)) {
    // An external target is reached once before vitest starts: one message naming the setting
    // instead of one connection failure per test (the embedded reference is asked in the setup).
    const startedAt = new Date();
    const sched = plan.sched !== 'unused';
    try {
      await preflight(cfg, { sched });
      cfg.preflighted = [cfg.svc.addr, sched ? cfg.sched.addr : ''].filter(Boolean);
    } catch (err) {
      if (!(err instanceof PreflightFailure)) throw err;
      rememberConfiguredSecrets(cfg);
      console.error(err.message);
      writeReports(reportDir, stoppedBeforeSuites(cfg, err, startedAt));
      return 1;
    }
  }
  handOverRunConfig(cfg);
  // The embedded target and the directory start now, beside vitest's start-up; the global setup
  // takes them over.
  if (opts.embedded) startEmbeddedEarly(cfg, opts.embedded);
  startDirectoryEarly(cfg, (input) => provideDirectory(input, opts.directory));
  const pool = await poolFor(cfg, opts);
  try {
    await runVitest({ ...opts, ...pool }, cfg);
  } finally {
    await stopUntakenEarlyStart();
  }
  const resultsFile = join(reportDir, 'results.json');
  if (!existsSync(resultsFile)) {
    console.error('the run ended without results (see the errors above)');
    return 1;
  }
  const results = JSON.parse(readFileSync(resultsFile, 'utf8')) as Results;
  // The run's errors (a target that could not be prepared, a file that did not load) are printed already.
  if (results.preflight || (results.errors.length > 0 && results.summary.total === 0)) return 1;
  if (results.summary.total === 0) {
    console.error(`no conformance test ran for suites ${cfg.run.suites.join(',')}`);
    return 1;
  }
  if (results.summary.mustFailed > 0 || results.errors.length > 0) return 1;
  if (!results.complete && cfg.run.requireComplete) {
    console.error('exit 1: the run is incomplete and run.requireComplete (--require-complete) is set');
    return 1;
  }
  return 0;
}

/**
 * Files and tests of a file in flight against an external target, by its round trip (the defaults
 * for the embedded reference need no measuring). Concurrency 1 is the baseline with nothing side
 * by side: one test at a time too (the caller's rule). What the options set is kept.
 */
async function poolFor(cfg: TargetConfig, opts: RunOptions): Promise<{ concurrency?: number; testsInFlight?: number }> {
  if (opts.concurrency === 1) return { concurrency: 1, testsInFlight: opts.testsInFlight ?? 1 };
  if (targetPlan(cfg).svc === 'embedded' || (opts.concurrency !== undefined && opts.testsInFlight !== undefined)) {
    return { concurrency: opts.concurrency, testsInFlight: opts.testsInFlight };
  }
  const latency = await measureLatency(cfg);
  const concurrency = opts.concurrency ?? defaultConcurrency(false, latency);
  const testsInFlight = opts.testsInFlight ?? defaultTestsInFlight(false, latency);
  console.error(
    `[conformance] ${latency === undefined ? 'target round trip not measured' : `target round trip ${latency.toFixed(1)} ms`}: ${concurrency} files in flight (--concurrency), ${testsInFlight} tests of a file in flight (--tests-in-flight)`,
  );
  return { concurrency, testsInFlight };
}

/** The run itself: one vitest project of the selected files against the prepared target. */
async function runVitest(opts: RunOptions, cfg: TargetConfig): Promise<void> {
  markStartup('vitest');
  const vitest = await startVitest('test', [], {
    config: false,
    // Suites and setup are found in this package, wherever it is installed and whatever the
    // caller's directory (which still anchors --report-dir, --config and the other paths).
    root: PACKAGE_ROOT,
    watch: false,
    run: true,
    // One pool; files that move a clock or change global settings hold their domains
    // exclusively (suites/domain-locks.yaml), and start early: see harness/cli/projects.ts.
    projects: [
      conformanceProject({
        globalSetup: opts.globalSetup,
        suites: cfg.run.suites,
        files: cfg.run.files,
        target: targetPlan(cfg),
        concurrency: opts.concurrency,
        testsInFlight: opts.testsInFlight,
        timeouts: cfg.timeouts,
        compiled: compiledTree(),
      }),
    ],
    sequence: { sequencer: DomainLockSequencer },
    ...(cfg.run.shard ? { shard: cfg.run.shard } : {}),
    reporters: [opts.quiet ? 'dot' : 'default', new ConformanceReporter({ reportDir: cfg.run.reportDir })],
    teardownTimeout: 30_000,
    passWithNoTests: true,
  });
  await vitest?.close();
}

/** The reports of a run the pre-flight check stopped: its message as the run's error, no test. */
function stoppedBeforeSuites(cfg: TargetConfig, err: PreflightFailure, startedAt: Date): Results {
  const results = buildResults({
    outcomes: [],
    catalogue: loadCatalogue(),
    expectations: new Map(),
    config: cfg,
    startedAt,
    finishedAt: new Date(),
    leftovers: [],
    errors: [err.message],
  });
  return { ...results, preflight: { setting: err.setting, message: err.message } };
}
