/**
 * `mutation`: measures both ways a suite can be wrong. A clean run first (it must pass); then
 * - one run per fault switch of the reference with the suites that claim to catch it: a fault is
 *   killed when at least one test fails, as a violation or as an assumption difference
 *   (sensitivity), and its blast radius is the requirements failed beyond the one it breaks, each
 *   failed test counting only the requirement its failure is charged to (a fault should fail its
 *   own rule, not twenty others; a test's other ids are not reached, not failed);
 * - one run per legal variant with the suites it names, and one with every selected variant on
 *   together: a variant passes with zero violations (any violation is a false failure of the
 *   suite). The assumptions a variant contradicts are not switched off: it produces assumption
 *   differences, and those it does not declare (`assumptions` of its declaration) are findings
 *   that fail it too (the declaration must say what the variant contradicts).
 * Both go to the terminal and to `<report-dir>/mutation.json` (sections faults, variants,
 * blastRadius).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { envOf } from '../config/settings.js';
import type { FaultSpec, SwitchCatalogue, VariantSpec } from '../../contract/switches.js';
import type { EmbeddedTarget } from '../../contract/target.js';
import type { Results } from '../report/model.js';
import { buildResults } from '../report/build.js';
import { loadCatalogue } from '../spec/catalogue.js';
import { loadStatements } from '../spec/statements.js';
import { loadConfig } from '../config/load.js';
import { TEST_ROBUSTNESS_SEED } from '../setup/run-config.js';
import { filesTesting } from './mutation-targets.js';
import { type LaneOutcome, type LaneSpec, MutationEngine } from './mutation-engine.js';
import { lane, reachIndex, type ReachIndex, type Selection, TestIndex } from './mutation-plan.js';
import {
  faultLine,
  faultOutcome,
  type Outcome,
  variantLine,
  type VariantOutcome,
  variantVerdict,
} from './mutation-verdicts.js';
import { defaultTestsInFlight, selectedFiles } from './projects.js';
import { type ChangedChoice, chooseChanged } from './mutation-changed.js';
import { buildProof, checkoutState, loadProof, PROOF_JSON, writeProof } from './mutation-proof.js';
import { loadavg } from 'node:os';

export { assumptionsDiffered, blastRadius, failedRequirements } from './mutation-verdicts.js';
export { changedVerdict, type MutationReport } from './mutation-report.js';
import { changedVerdict, type Measured, type MutationReport, summarize } from './mutation-report.js';

export interface MutationOptions {
  suites?: string[];
  /** Only these faults; given alone (without `variants`), no variant runs. */
  faults?: string[];
  /** Only these variants; given alone (without `faults`), no fault runs. */
  variants?: string[];
  /** Skip the fault side or the variant side. */
  noFaults?: boolean;
  noVariants?: boolean;
  /**
   * `files` (default): the tests of the files naming the broken requirement that the fault
   * reaches (the radius is a lower bound), then every test of its suites it reaches when none of
   * them fails; `suites`: every test of its suites it reaches (the radius of a whole-suite run).
   */
  radius?: 'suites' | 'files';
  /** Files in flight at once. */
  jobs: number;
  reportDir: string;
  /**
   * The incremental proof: the faults of the requirements changed since `since` (by default the
   * commit of the published proof) plus `sample` others drawn with `seed`, with every variant.
   */
  changed?: { since?: string; sample: number; seed: number };
}

/** The selection of faults and variants a mutation run measures, or a usage error. */
export function select(
  opts: MutationOptions,
  { faults: allFaults, variants: allVariants }: SwitchCatalogue,
): { faults: FaultSpec[]; variants: VariantSpec[] } | { error: string } {
  const unknownFaults = (opts.faults ?? []).filter((n) => !allFaults.some((f) => f.name === n));
  const unknownVariants = (opts.variants ?? []).filter((n) => !allVariants.some((v) => v.name === n));
  if (unknownFaults.length) return { error: `unknown fault(s): ${unknownFaults.join(', ')}` };
  if (unknownVariants.length) return { error: `unknown variant(s): ${unknownVariants.join(', ')}` };
  const inSuites = (suites: string[]) => !opts.suites?.length || suites.some((s) => opts.suites!.includes(s));
  const onlyVariants = !!opts.variants?.length && !opts.faults?.length;
  const onlyFaults = !!opts.faults?.length && !opts.variants?.length;
  const faults =
    opts.noFaults || onlyVariants
      ? []
      : allFaults.filter((f) => inSuites(f.suites) && (!opts.faults?.length || opts.faults.includes(f.name)));
  const variants =
    opts.noVariants || onlyFaults
      ? []
      : allVariants.filter((v) => inSuites(v.suites) && (!opts.variants?.length || opts.variants.includes(v.name)));
  if (faults.length === 0 && variants.length === 0)
    return { error: 'no fault switch or variant matches the selection' };
  return { faults, variants };
}

/**
 * CPU seconds of this process (every thread: the reference host's too) and of its children it
 * waited for (the vitest workers of ended rounds; Linux only, else left out).
 */
export function cpuSeconds(): number {
  const own = process.cpuUsage();
  let children = 0;
  try {
    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
    children = (Number(fields[13]) + Number(fields[14])) / 100;
  } catch {
    /* not Linux: this process only */
  }
  return (own.user + own.system) / 1e6 + children;
}

/** A lane's outcomes as results.json gives them (no expectations: every failure counts). */
function laneResults(out: LaneOutcome, cfg: MutationEngine['config'], startedAt: Date): Results {
  return buildResults({
    outcomes: out.outcomes,
    catalogue: loadCatalogue(),
    expectations: new Map(),
    config: cfg,
    startedAt,
    finishedAt: new Date(),
    leftovers: [],
    errors: out.errors,
    fileSpec: out.fileSpec,
  });
}

/**
 * Runs the selection on the embedded target's reference host (compose/reference-host.ts): a traced
 * clean run, then every fault and variant on the tests it reaches (mutation-engine.ts). Returns
 * the exit code; `onReport` receives what was measured.
 */
export async function runMutation(
  opts: MutationOptions,
  embedded: EmbeddedTarget,
  onReport?: (report: MutationReport) => void,
): Promise<number> {
  const startedAt = new Date();
  const switches = await embedded.switches();
  const selection = select(opts, switches);
  if ('error' in selection) {
    console.error(selection.error);
    return 2;
  }
  if (!embedded.host) {
    console.error('the embedded target cannot run several references side by side (contract/reference-host.ts)');
    return 2;
  }
  const { variants } = selection;
  let { faults } = selection;
  const radius = opts.radius ?? 'files';
  const loadAtStart = loadavg();
  // The commit measured is the one the run started on.
  const checkout = checkoutState();
  // The full proof (every fault and variant, nothing left out) is published (mutation-proof.ts).
  const full =
    !opts.changed && faults.length === switches.faults.length && variants.length === switches.variants.length;
  const published = loadProof();
  const since = opts.changed ? (opts.changed.since ?? published?.commit) : undefined;
  if (opts.changed && !since) {
    console.error(`--changed needs --since <ref>: there is no published proof (${PROOF_JSON}) to start from`);
    return 2;
  }
  const suites = [...new Set([...faults.flatMap((f) => f.suites), ...variants.flatMap((v) => v.suites)])];
  const base = resolve(opts.reportDir, 'mutation');
  mkdirSync(join(base, 'clean'), { recursive: true });
  // The embedded reference, whatever the caller's environment names; the robustness suite with
  // the project's fixed seed, so that every run of a test sends what the traced one sent.
  const env = { ...process.env };
  for (const path of ['svc.addr', 'sched.addr', 'reference.faults', 'reference.variants']) delete env[envOf(path)];
  const cfg = loadConfig({ env, cli: { suite: suites, reportDir: join(base, 'clean'), seed: TEST_ROBUSTNESS_SEED } });
  const host = await embedded.host();
  let engine: MutationEngine | undefined;
  try {
    engine = await MutationEngine.start({
      cfg,
      embedded,
      host,
      workers: opts.jobs,
      testsInFlight: defaultTestsInFlight(true),
      log: () => {},
    });
    console.log(`clean run of ${suites.join(',')}, traced (which switches each test reaches)...`);
    const traced = await engine.trace(selectedFiles(suites));
    const clean = laneResults(traced.clean, engine.config, startedAt);
    writeFileSync(join(base, 'clean', 'results.json'), JSON.stringify(clean));
    // What each test reached: the selection's evidence (mutation-plan.ts).
    writeFileSync(join(base, 'trace.json'), JSON.stringify({ tests: traced.tests, reach: traced.reach }));
    if (clean.summary.total === 0 || clean.summary.failed > 0 || clean.errors.length > 0) {
      const failed = clean.tests
        .filter((t) => t.status === 'failed')
        .map((t) => `  ${t.key}: ${t.message?.split('\n')[0]}`);
      console.error(
        `the clean run did not pass (${clean.summary.failed} failed, ${clean.errors.length} error(s)); fix the suites or the reference first:\n${[...failed, ...clean.errors].slice(0, 30).join('\n')}`,
      );
      return 1;
    }
    console.log(
      `clean run passed: ${clean.summary.passed} tests (${((Date.now() - startedAt.getTime()) / 1000).toFixed(0)} s, ${cpuSeconds().toFixed(0)} s of CPU)\n`,
    );
    let choice: ChangedChoice | undefined;
    if (opts.changed) {
      choice = chooseChanged(
        { since: since!, sample: opts.changed.sample, seed: opts.changed.seed },
        faults,
        clean.tests,
        loadCatalogue().values(),
        published && new Set(Object.keys(published.faults.byName)),
      );
      faults = choice.faults;
      console.log(
        `changed since ${since!.slice(0, 12)}: ${choice.changed.length} file(s); faults touched: ${choice.touched.size}; sampled: ${choice.sampled.length} of the rest (seed ${opts.changed.seed}); variants: ${variants.length}`,
      );
      for (const [name, why] of choice.touched) console.log(`  touched ${name}: ${why}`);
      console.log('');
    }
    const index = new TestIndex(traced.tests);
    const reach = reachIndex(traced.reach);
    const measured = await measure({ faults, variants, radius, clean, index, reach, engine, startedAt });
    const report = summarize(measured, switches, radius, {
      wallMs: Date.now() - startedAt.getTime(),
      cpuSeconds: Math.round(cpuSeconds()),
      cleanTests: clean.tests.filter((t) => t.kind !== 'schema').length,
      workers: opts.jobs,
    });
    writeFileSync(join(opts.reportDir, 'mutation.json'), JSON.stringify(report, null, 2));
    onReport?.(report);
    if (full) {
      writeProof(buildProof(report, switches, loadStatements(), { ...checkout, measuredAt: startedAt, loadAtStart }));
      console.log(`published: ${PROOF_JSON} and its summary generated/fault-proof.md`);
    }
    const variantsOk =
      report.variants.passed === report.variants.total &&
      (!report.variants.together || report.variants.together.verdict === 'passed');
    if (choice) return changedVerdict(choice, report, published) && variantsOk ? 0 : 1;
    return report.faults.killed === report.faults.total && variantsOk ? 0 : 1;
  } finally {
    await engine?.close();
    await host.close();
  }
}

/** Every fault and variant on the tests it reaches, in as few rounds as the files allow. */
async function measure(p: {
  faults: FaultSpec[];
  variants: VariantSpec[];
  radius: 'suites' | 'files';
  clean: Results;
  index: TestIndex;
  reach: ReachIndex;
  engine: MutationEngine;
  startedAt: Date;
}): Promise<Measured> {
  const { index, reach, engine } = p;
  const results = (out: LaneOutcome) => laneResults(out, engine.config, p.startedAt);
  // A fault that needs another version of the reference changes what the clean run reached:
  // its files run whole.
  const tests = (names: string[], files: string[], version?: string): Selection =>
    version ? new Map(files.map((f) => [f, undefined])) : index.reached(reach, names, files);
  const outcomes = new Map<string, Outcome>();
  const faultOf = new Map(p.faults.map((f) => [`fault:${f.name}`, f]));
  const firstLanes: LaneSpec[] = [];
  const later: FaultSpec[] = [];
  for (const f of p.faults) {
    const files = p.radius === 'files' ? filesTesting(p.clean, f.suites, f.breaks) : index.filesOf(f.suites);
    const sel = tests([f.name], files, f.referenceVersion);
    if (sel.size)
      firstLanes.push(lane(`fault:${f.name}`, sel, { faults: [f.name], referenceVersion: f.referenceVersion }));
    else if (p.radius === 'files') later.push(f);
    else outcomes.set(f.name, faultOutcome(f, undefined, 'suites', 'no test of its suites reaches it'));
  }
  const variantOutcomes = new Map<string, VariantOutcome>();
  const variantOf = new Map(p.variants.map((v) => [`variant:${v.name}`, v]));
  for (const v of p.variants)
    firstLanes.push(lane(`variant:${v.name}`, tests([v.name], index.filesOf(v.suites)), { variants: [v.name] }));
  const allSuites = [...new Set(p.variants.flatMap((v) => v.suites))];
  if (p.variants.length > 1) {
    const names = p.variants.map((v) => v.name);
    firstLanes.push(lane('variants:together', tests(names, index.filesOf(allSuites)), { variants: names }));
  }
  let together: Measured['together'] = null;
  console.log(
    `faults (${p.faults.length}) must be killed, ideally failing only their own requirement; variants (${p.variants.length}) must pass`,
  );
  let testsRun = 0;
  const onVariant = (l: LaneSpec, out: LaneOutcome | undefined) => {
    const r = out && (out.outcomes.length > 0 || out.errors.length > 0) ? results(out) : undefined;
    if (l.key === 'variants:together') {
      together = {
        variants: l.variants,
        suites: allSuites,
        ...variantVerdict(
          r,
          p.variants.flatMap((v) => v.assumptions ?? []),
        ),
      };
      console.log(variantLine('all variants together', together));
      return;
    }
    const v = variantOf.get(l.key)!;
    const verdict = variantVerdict(r, v.assumptions ?? []);
    variantOutcomes.set(v.name, { variant: v.name, allows: v.allows, suites: v.suites, ...verdict });
    console.log(variantLine(v.name, verdict));
  };
  const onFault = (l: LaneSpec, out: LaneOutcome, scope: Outcome['radiusScope']) => {
    const f = faultOf.get(l.key)!;
    const o = faultOutcome(f, results(out), scope);
    if (o.verdict !== 'killed' && scope === 'files') {
      later.push(f);
      return;
    }
    outcomes.set(f.name, o);
    console.log(faultLine(o, f.description));
  };
  const run = async (lanes: LaneSpec[], scope: Outcome['radiusScope']) => {
    const ran = lanes.filter((l) => l.files.size);
    for (const l of lanes) if (!l.files.size) onVariant(l, undefined);
    const byKey = await engine.run(
      ran,
      (file, name) => index.ids(file, name),
      (file, names) => index.cost(file, names),
      (l, out) => (l.key.startsWith('fault:') ? onFault(l, out, scope) : onVariant(l, out)),
    );
    for (const out of byKey.values()) testsRun += out.outcomes.length;
  };
  await run(firstLanes, p.radius);
  // Faults no test of their files killed: every test of their suites they reach (the old
  // whole-suite run), so that a fault is called survived only after each test had its chance.
  const second: LaneSpec[] = [];
  for (const f of later) {
    const sel = tests([f.name], index.filesOf(f.suites), f.referenceVersion);
    if (sel.size) second.push(lane(`fault:${f.name}`, sel, { faults: [f.name], referenceVersion: f.referenceVersion }));
    else {
      const o = faultOutcome(f, undefined, 'suites', 'no test of its suites reaches it');
      outcomes.set(f.name, o);
      console.log(faultLine(o, f.description));
    }
  }
  if (second.length) await run(second, 'suites');
  return {
    outcomes: p.faults.map((f) => outcomes.get(f.name)!),
    variantOutcomes: p.variants.map((v) => variantOutcomes.get(v.name)!),
    together,
    rounds: engine.rounds,
    lanes: firstLanes.length + second.length,
    testsRun,
  };
}
