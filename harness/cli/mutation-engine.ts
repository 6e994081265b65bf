/**
 * The mutation run's engine: every fault and variant of a run in one process, instead of one
 * whole command-line run each (a start of the command line, of vitest, of its workers and of the
 * reference: ~2.5 s of CPU per fault, most of the old 38 minutes).
 *
 * A lane is a set of switches (one fault, one variant, every variant together, or none) and the
 * tests to run under it, file by file. Its files run in rounds: one vitest run of one worker per
 * round, in which each test file appears at most once (vitest runs a file once per run), each
 * against a reference of its own (its lane's switches, started for the round on the reference
 * host's thread: contract/reference-host.ts, a few milliseconds each). So no two files share a
 * reference and no domain lock is needed (the engine provides no lock service; a file that moves a
 * clock moves only its own). The worker set-up file (mutation-lane-setup.ts) points each file at
 * its reference. A lane selects tests by vitest's test ids, which the traced round records.
 *
 * `workers` vitest instances (runners) take rounds from one queue of (lane, file) items, heaviest
 * first, each round as heavy as a share of what is left (guided self-scheduling): large rounds
 * while much is left (one worker start each), small ones at the end, so that the runners end
 * together. One worker per runner: a round never waits for its longest file with a core idle.
 *
 * The traced round runs every file once on clean, traced references with one test of a file at
 * a time, so that each request names its test (reference/trace.ts): it is the clean run and the
 * measure of which switches each test reaches (mutation-plan.ts).
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SerializedError } from 'vitest';
import { createVitest, type TestModule, type TestProject, type Vitest } from 'vitest/node';
import type { LaneStartOptions, ReferenceHost } from '../../contract/reference-host.js';
import type { EmbeddedTarget } from '../../contract/target.js';
import type { TargetConfig } from '../config/types.js';
import { targetPlan } from '../config/target-plan.js';
import { serveTarget, type TargetHandoff } from '../config/target-handoff.js';
import type { RawOutcome } from '../report/build.js';
import { moduleOutcomes } from '../report/reporter.js';
import type { SpecObservation } from '../spec/findings.js';
import { PACKAGE_ROOT } from '../spec/paths.js';
import { embeddedStartOptions } from '../setup/early-start.js';
import { prepareTarget, type PreparedTarget } from '../setup/target.js';
import { compiledSetupFile, compiledTree } from './compiled-modules.js';
import { resultPath, type LanePlace, type RoundPlan } from './mutation-lane.js';
import { conformanceProject } from './projects.js';
import { type Item, items, split, takeRound } from './mutation-rounds.js';

/** Switches on, and the tests to run: project-relative file → test names (undefined: every test). */
export interface LaneSpec {
  key: string;
  faults: string[];
  variants: string[];
  referenceVersion?: string;
  files: Map<string, string[] | undefined>;
}

/** What a lane's tests did: the raw outcomes results.json is built from (harness/report/build.ts). */
export interface LaneOutcome {
  outcomes: RawOutcome[];
  fileSpec: { file: string; observations: SpecObservation[] }[];
  errors: string[];
}

/** A test as the traced round saw it. */
export interface TestRecord {
  file: string;
  name: string;
  id: string;
  /** Runs side by side with the file's other tests (false: alone, or the file runs in order). */
  concurrent: boolean;
  durationMs: number;
}

export interface TracedRound {
  clean: LaneOutcome;
  tests: TestRecord[];
  /** Per sender (`test:<file> > <title>`, `file:<file>`, '' for none), the switches reached. */
  reach: Record<string, string[]>;
}

export interface EngineOptions {
  cfg: TargetConfig;
  embedded: EmbeddedTarget;
  host: ReferenceHost;
  /** Files in flight at once (workers). */
  workers: number;
  /** Tests of a file in flight at once (outside the traced round). */
  testsInFlight: number;
  log?: (m: string) => void;
}

const LANE_SETUP = join(PACKAGE_ROOT, 'harness/cli/mutation-lane-setup.ts');
const GLOBAL_SETUP = 'harness/cli/mutation-global-setup.ts';

type Sink = (modules: ReadonlyArray<TestModule>, unhandled: ReadonlyArray<SerializedError>) => void;
const holder = globalThis as {
  __mutationEngineSetup?: (project: TestProject) => Promise<() => Promise<void>>;
};

interface Runner {
  vitest: Vitest;
  sink: { current?: Sink };
}

interface RoundRun {
  modules: ReadonlyArray<TestModule>;
  unhandled: ReadonlyArray<SerializedError>;
}

export class MutationEngine {
  private runners: Runner[] = [];
  /** The workers' RSA key tape (mutation-key-tape.ts), for the whole run. */
  private readonly keyDir = mkdtempSync(join(tmpdir(), 'svc-mutation-keys-'));
  /** How many rounds ran. */
  rounds = 0;

  private constructor(
    private readonly opts: EngineOptions,
    private readonly prepared: PreparedTarget,
    private readonly handoff: TargetHandoff,
  ) {}

  /** Prepares the target once (its probes, the ldap suite's directory) for every round. */
  static async start(opts: EngineOptions): Promise<MutationEngine> {
    const { host } = opts;
    const embedded: EmbeddedTarget = {
      switches: () => opts.embedded.switches(),
      async start(options) {
        const [lane] = await host.start([options]);
        return { ...lane!, stop: () => host.stop([lane!.id]) };
      },
    };
    const prepared = await prepareTarget(opts.cfg, embedded, opts.log);
    const handoff = await serveTarget(Promise.resolve(prepared.config), opts.cfg.timeouts.lockWaitMs);
    holder.__mutationEngineSetup = async (project) => {
      project.provide('targetHandoff', handoff.address);
      return async () => {};
    };
    return new MutationEngine(opts, prepared, handoff);
  }

  get config(): TargetConfig {
    return this.prepared.config;
  }

  /** The start options of a lane's reference: the run's, with the lane's switches. */
  private startOptions(
    lane: Pick<LaneSpec, 'faults' | 'variants' | 'referenceVersion'>,
    trace = false,
  ): LaneStartOptions {
    const cfg = this.prepared.config;
    const base = embeddedStartOptions(cfg, cfg.svc.token);
    return {
      ...base,
      // As the probes left the run's reference (harness/setup/probe.ts turns the listener rule on).
      requireRequestHeader: cfg.capabilities.requireRequestHeader === true,
      faults: lane.faults,
      variants: lane.variants,
      ...(lane.referenceVersion ? { version: lane.referenceVersion } : {}),
      ...(trace ? { trace: true } : {}),
    };
  }

  /** The runners, each a vitest instance of one worker, with `testsInFlight` tests of a file at once. */
  private async ready(testsInFlight: number): Promise<Runner[]> {
    const cfg = this.prepared.config;
    const compiled = compiledTree();
    while (this.runners.length < Math.max(1, this.opts.workers)) {
      const project = conformanceProject({
        globalSetup: GLOBAL_SETUP,
        suites: cfg.run.suites,
        target: targetPlan(cfg),
        concurrency: 1,
        testsInFlight,
        timeouts: cfg.timeouts,
        compiled,
      });
      project.test!.setupFiles = [...(project.test!.setupFiles as string[]), compiledSetupFile(compiled, LANE_SETUP)];
      const sink: Runner['sink'] = {};
      const vitest = await createVitest('test', {
        config: false,
        root: PACKAGE_ROOT,
        watch: false,
        projects: [project],
        reporters: [{ onTestRunEnd: (modules, unhandled) => sink.current?.(modules, unhandled) }],
        teardownTimeout: 30_000,
        passWithNoTests: true,
      });
      this.runners.push({ vitest, sink });
    }
    // Read by the workers of each run (vitest serializes the project's config per run).
    for (const r of this.runners) r.vitest.projects[0]!.config.maxConcurrency = testsInFlight;
    return this.runners;
  }

  /** One vitest run of `items` (distinct files), each file against a reference of its lane's. */
  private async round(runner: Runner, items: Item[], trace: boolean): Promise<RoundRun> {
    this.rounds++;
    const started = await this.opts.host.start(items.map((i) => this.startOptions(i.lane, trace)));
    try {
      const plan: RoundPlan = { files: {}, keyDir: this.keyDir, ...(trace ? { trace } : {}) };
      items.forEach((item, i) => {
        plan.files[item.file] = place(started[i]!, item.lane.referenceVersion);
      });
      const project = runner.vitest.projects[0]!;
      project.provide('mutationPlan', plan);
      const specs = items.map((i) =>
        project.createSpecification(join(PACKAGE_ROOT, i.file), i.testIds ? { testIds: i.testIds } : undefined),
      );
      let seen: RoundRun | undefined;
      runner.sink.current = (modules, unhandled) => {
        seen = { modules, unhandled };
      };
      await runner.vitest.runTestSpecifications(specs, false);
      runner.sink.current = undefined;
      return seen ?? { modules: [], unhandled: [] };
    } finally {
      await this.opts.host.stop(started.map((s) => s.id));
    }
  }

  /**
   * The traced round: every file of `files` once, on clean traced references, one test of a file
   * at a time (so each request names its test). Its outcomes are the clean run's.
   */
  async trace(files: string[], weights?: Map<string, number>): Promise<TracedRound> {
    const runners = await this.ready(1);
    const clean: LaneSpec = {
      key: 'clean',
      faults: [],
      variants: [],
      files: new Map(files.map((f) => [f, undefined])),
    };
    // Without weights, the files' sizes stand for them.
    const weight = (f: string) => weights?.get(f) ?? statSync(join(PACKAGE_ROOT, f)).size;
    const queue = files.map((file) => ({ lane: clean, file, cost: weight(file) }));
    const runs: RoundRun[] = [];
    // One round per runner: the files split as evenly as their weights allow.
    const shares = split(queue, runners.length);
    await Promise.all(
      runners.map(async (r, i) => shares[i]!.length && runs.push(await this.round(r, shares[i]!, true))),
    );
    const reach = await this.opts.host.takeReach();
    const outcome = emptyOutcome();
    const tests: TestRecord[] = [];
    for (const run of runs) {
      for (const mod of run.modules) {
        collect(outcome, mod);
        for (const test of mod.children.allTests()) {
          tests.push({
            file: resultPath(mod.moduleId),
            name: test.name,
            id: test.id,
            concurrent: test.options.concurrent === true,
            durationMs: test.diagnostic()?.duration ?? 0,
          });
        }
      }
      outcome.errors.push(...run.unhandled.map(errorText));
    }
    return { clean: outcome, tests, reach };
  }

  /**
   * Runs every lane. `ids` maps a file and a test name to its vitest ids (from the traced round);
   * `cost` estimates a file's run (whole, or some of its tests). `done` hears of each lane as
   * soon as its last file has run.
   */
  async run(
    lanes: LaneSpec[],
    ids: (file: string, name: string) => string[],
    cost: (file: string, names: string[] | undefined) => number,
    done?: (lane: LaneSpec, outcome: LaneOutcome) => void,
  ): Promise<Map<string, LaneOutcome>> {
    const results = new Map<string, LaneOutcome>(lanes.map((l) => [l.key, emptyOutcome()]));
    const left = new Map(lanes.map((l) => [l.key, l.files.size]));
    const queue = items(lanes, ids, cost);
    const runners = await this.ready(this.opts.testsInFlight);
    await Promise.all(
      runners.map(async (runner) => {
        for (;;) {
          const round = takeRound(queue, runners.length);
          if (!round.length) return;
          const run = await this.round(runner, round, false);
          const byFile = new Map(round.map((i) => [i.file, i]));
          for (const mod of run.modules) {
            const item = byFile.get(resultPath(mod.moduleId));
            if (item) collect(results.get(item.lane.key)!, mod, item.testIds && new Set(item.testIds));
          }
          // An error outside any test of a file is charged to the lane of the file it names, else
          // to every lane of the round.
          for (const e of run.unhandled) {
            const path = (e as { VITEST_TEST_PATH?: string }).VITEST_TEST_PATH;
            const item = path ? byFile.get(resultPath(path)) : undefined;
            const owners = new Set((item ? [item] : round).map((i) => i.lane.key));
            for (const key of owners) results.get(key)!.errors.push(errorText(e));
          }
          for (const { lane } of round) {
            const n = left.get(lane.key)! - 1;
            left.set(lane.key, n);
            if (n === 0) done?.(lane, results.get(lane.key)!);
          }
        }
      }),
    );
    return results;
  }

  async close(): Promise<void> {
    for (const r of this.runners) await r.vitest.close().catch(() => undefined);
    this.runners = [];
    await this.handoff.close();
    await this.prepared.stop();
    rmSync(this.keyDir, { recursive: true, force: true });
    delete holder.__mutationEngineSetup;
  }
}

function place(
  target: { svcAddr: string; schedAddr?: string; cloud?: LanePlace['cloud'] },
  version?: string,
): LanePlace {
  return {
    svcAddr: target.svcAddr,
    ...(target.schedAddr ? { schedAddr: target.schedAddr } : {}),
    ...(target.cloud ? { cloud: target.cloud } : {}),
    ...(version ? { version } : {}),
  };
}

function emptyOutcome(): LaneOutcome {
  return { outcomes: [], fileSpec: [], errors: [] };
}

function collect(into: LaneOutcome, mod: TestModule, keep?: ReadonlySet<string>): void {
  const read = moduleOutcomes(mod, undefined, keep);
  into.outcomes.push(...read.outcomes);
  if (read.spec) into.fileSpec.push(read.spec);
  if (read.moduleErrors.length) into.errors.push(`${resultPath(mod.moduleId)}: ${read.moduleErrors.join('\n')}`);
}

const ANSI = /\u001b\[[0-9;]*m/g;
function errorText(e: { message?: string; stack?: string }): string {
  return (e.message ?? String(e)).replace(ANSI, '');
}
