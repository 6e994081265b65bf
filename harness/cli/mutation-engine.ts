/**
 * The mutation run's engine: every fault and variant of a run in one process and one vitest
 * instance, instead of one whole command-line run each (a start of the command line, of vitest,
 * of its workers and of the reference: ~2.5 s of CPU per fault, most of the old 38 minutes).
 *
 * A lane is a set of switches (one fault, one variant, every variant together, or none) and the
 * tests to run under it, file by file. The lanes' files run in rounds: one vitest run per round,
 * in which each test file appears at most once, against a reference of its own (its lane's
 * switches, started for the round on the reference host's thread: contract/reference-host.ts, a
 * few milliseconds each), so files of many lanes run side by side, and no two files share a
 * reference: no domain lock is needed (the engine provides no lock service; a file that moves a
 * clock moves only its own). The worker set-up file (mutation-lane-setup.ts) points each file at
 * its reference. A lane selects tests by vitest's test ids, which the traced round records.
 *
 * The traced round runs every file once on clean, traced references with one test of a file at
 * a time, so that each request names its test (reference/trace.ts): it is the clean run and the
 * measure of which switches each test reaches (mutation-plan.ts).
 */
import { join } from 'node:path';
import type { SerializedError } from 'vitest';
import { createVitest, type TestModule, type TestProject, type TestSpecification, type Vitest } from 'vitest/node';
import type { LaneStartOptions, ReferenceHost } from '../../contract/reference-host.js';
import type { EmbeddedTarget } from '../../contract/target.js';
import type { TargetConfig } from '../config/types.js';
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
  __mutationEngineWeights?: Map<string, number>;
};

/** Longest files first, so the last round's files end together. */
class WeightSequencer {
  async shard(files: TestSpecification[]): Promise<TestSpecification[]> {
    return files;
  }
  async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const w = holder.__mutationEngineWeights ?? new Map();
    const weight = (s: TestSpecification) => w.get(resultPath(s.moduleId)) ?? 0;
    return [...files].sort((a, b) => weight(b) - weight(a));
  }
}

export class MutationEngine {
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

  private async vitest(testsInFlight: number, sink: { current?: Sink }): Promise<Vitest> {
    const cfg = this.prepared.config;
    const compiled = compiledTree();
    const project = conformanceProject({
      globalSetup: GLOBAL_SETUP,
      suites: cfg.run.suites,
      embedded: true,
      concurrency: this.opts.workers,
      testsInFlight,
      timeouts: cfg.timeouts,
      compiled,
    });
    project.test!.setupFiles = [...(project.test!.setupFiles as string[]), compiledSetupFile(compiled, LANE_SETUP)];
    return createVitest('test', {
      config: false,
      root: PACKAGE_ROOT,
      watch: false,
      projects: [project],
      sequence: { sequencer: WeightSequencer },
      reporters: [{ onTestRunEnd: (modules, unhandled) => sink.current?.(modules, unhandled) }],
      teardownTimeout: 30_000,
      passWithNoTests: true,
    });
  }

  /**
   * One vitest run: `files` (project-relative) each against its place, the tests of `ids` only
   * where given. Resolves with the run's modules and unhandled errors.
   */
  private async round(
    vitest: Vitest,
    sink: { current?: Sink },
    plan: RoundPlan,
    ids: Map<string, string[] | undefined>,
  ): Promise<{ modules: ReadonlyArray<TestModule>; unhandled: ReadonlyArray<SerializedError> }> {
    const project = vitest.projects[0]!;
    project.provide('mutationPlan', plan);
    const specs = [...ids].map(([file, testIds]) =>
      project.createSpecification(join(PACKAGE_ROOT, file), testIds ? { testIds } : undefined),
    );
    let seen: { modules: ReadonlyArray<TestModule>; unhandled: ReadonlyArray<SerializedError> } | undefined;
    sink.current = (modules, unhandled) => {
      seen = { modules, unhandled };
    };
    await vitest.runTestSpecifications(specs, false);
    sink.current = undefined;
    return seen ?? { modules: [], unhandled: [] };
  }

  /**
   * The traced round: every file of `files` once, on clean traced references, one test of a file
   * at a time. Its outcomes are the clean run's.
   */
  async trace(files: string[]): Promise<TracedRound> {
    const sink: { current?: Sink } = {};
    const vitest = await this.vitest(1, sink);
    try {
      const started = await this.opts.host.start(
        files.map(() => this.startOptions({ faults: [], variants: [] }, true)),
      );
      const plan: RoundPlan = { trace: true, files: {} };
      files.forEach((file, i) => {
        plan.files[file] = this.place(started[i]!, undefined);
      });
      let run: Awaited<ReturnType<MutationEngine['round']>>;
      try {
        run = await this.round(vitest, sink, plan, new Map(files.map((f) => [f, undefined])));
      } finally {
        await this.opts.host.stop(started.map((s) => s.id));
      }
      const reach = await this.opts.host.takeReach();
      const clean = emptyOutcome();
      const tests: TestRecord[] = [];
      for (const mod of run.modules) {
        collect(clean, mod);
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
      clean.errors.push(...run.unhandled.map(errorText));
      return { clean, tests, reach };
    } finally {
      await vitest.close();
    }
  }

  private place(
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

  /**
   * Runs every lane, in rounds of files that each appear once. `ids` maps a file and a test name
   * to its vitest id (from the traced round); `weights` orders a round's files. `done` hears of
   * each lane as soon as its last file has run.
   */
  async run(
    lanes: LaneSpec[],
    ids: (file: string, name: string) => string[],
    weights: Map<string, number>,
    done?: (lane: LaneSpec, outcome: LaneOutcome) => void,
  ): Promise<Map<string, LaneOutcome>> {
    holder.__mutationEngineWeights = weights;
    const rounds = planRounds(lanes, weights);
    const results = new Map<string, LaneOutcome>(lanes.map((l) => [l.key, emptyOutcome()]));
    const left = new Map(lanes.map((l) => [l.key, l.files.size]));
    const sink: { current?: Sink } = {};
    const vitest = await this.vitest(this.opts.testsInFlight, sink);
    try {
      for (const round of rounds) {
        const started = await this.opts.host.start(round.map(({ lane }) => this.startOptions(lane)));
        const plan: RoundPlan = { files: {} };
        const specIds = new Map<string, string[] | undefined>();
        const laneOf = new Map<string, { lane: LaneSpec; keep?: Set<string> }>();
        round.forEach(({ lane, file }, i) => {
          plan.files[file] = this.place(started[i]!, lane.referenceVersion);
          const names = lane.files.get(file);
          const testIds = names?.flatMap((n) => ids(file, n));
          specIds.set(file, testIds);
          laneOf.set(file, { lane, keep: testIds && new Set(testIds) });
        });
        let run: Awaited<ReturnType<MutationEngine['round']>>;
        try {
          run = await this.round(vitest, sink, plan, specIds);
        } finally {
          await this.opts.host.stop(started.map((s) => s.id));
        }
        for (const mod of run.modules) {
          const entry = laneOf.get(resultPath(mod.moduleId));
          if (entry) collect(results.get(entry.lane.key)!, mod, entry.keep);
        }
        // An error outside any test of a file is charged to the lane of the file it names, else
        // to every lane of the round.
        for (const e of run.unhandled) {
          const path = (e as { VITEST_TEST_PATH?: string }).VITEST_TEST_PATH;
          const entry = path ? laneOf.get(resultPath(path)) : undefined;
          const owners = entry ? [entry.lane] : round.map((r) => r.lane);
          for (const lane of new Set(owners)) results.get(lane.key)!.errors.push(errorText(e));
        }
        for (const { lane } of round) {
          const n = left.get(lane.key)! - 1;
          left.set(lane.key, n);
          if (n === 0) done?.(lane, results.get(lane.key)!);
        }
      }
    } finally {
      await vitest.close();
    }
    return results;
  }

  async close(): Promise<void> {
    await this.handoff.close();
    await this.prepared.stop();
    delete holder.__mutationEngineSetup;
  }
}

/**
 * The rounds of a run: each lane's files, so that a file appears at most once per round. The
 * files with the most lanes set the number of rounds; each round takes the next lane of every
 * file that has one (the heaviest lanes of a file first, so the last rounds are light).
 */
export function planRounds(lanes: LaneSpec[], weights: Map<string, number>): { lane: LaneSpec; file: string }[][] {
  const queues = new Map<string, LaneSpec[]>();
  for (const lane of lanes) for (const file of lane.files.keys()) queues.set(file, [...(queues.get(file) ?? []), lane]);
  const cost = (lane: LaneSpec, file: string) => (lane.files.get(file)?.length ?? 1e6) * (weights.get(file) ?? 1);
  for (const [file, q] of queues) q.sort((a, b) => cost(b, file) - cost(a, file) || a.key.localeCompare(b.key));
  const rounds: { lane: LaneSpec; file: string }[][] = [];
  for (let i = 0; ; i++) {
    const round = [...queues].flatMap(([file, q]) => (i < q.length ? [{ lane: q[i]!, file }] : []));
    if (!round.length) return rounds;
    rounds.push(round);
  }
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
