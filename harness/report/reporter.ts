/**
 * The vitest reporter that writes junit.xml, results.json and index.html (to the run's report
 * directory, reports/ by default) at the end of every run, whatever happened (failed setup,
 * unreachable target, crashes). `project` limits it to the vitest project of that name and its
 * `<name>-*` siblings: `npm test` reports only its conformance projects, to a temporary directory (vitest.config.ts), never to reports/.
 */
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Reporter, TestModule, TestCase } from 'vitest/node';
import type { SerializedError } from 'vitest';
import { loadCatalogue } from '../spec/catalogue.js';
import { sweepLeftovers } from '../setup/sweep.js';
import { stashedConfig, stashedPreparationFailure } from '../setup/stash.js';
import { rememberConfiguredSecrets } from '../redaction/redact.js';
import type { SpecObservation } from '../spec/findings.js';
import { buildResults, type RawOutcome } from './build.js';
import { loadExpectations } from './expectations.js';
import { compareResults, formatComparison } from './compare.js';
import { toJUnit } from './junit.js';
import { toHtml } from './html.js';
import type { Results } from './model.js';
import { safeResults } from './safe.js';
import { summaryLines } from './terminal.js';
import { markStartup, startupMarks } from './startup.js';

const ANSI = /\u001b\[[0-9;]*m/g;

function errorText(e: { message?: string; stack?: string; diff?: string }): string {
  return [e.message ?? '', e.diff ? `\n${e.diff}` : ''].join('').replace(ANSI, '');
}

export default class ConformanceReporter implements Reporter {
  private startedAt = new Date();
  private firstTestAt: Date | undefined;
  constructor(private readonly opts: { reportDir?: string; project?: string } = {}) {}

  onTestRunStart(): void {
    this.startedAt = new Date();
  }

  onTestCaseReady(testCase: TestCase): void {
    // When the test started in its worker: the worker reports its tests' progress at most every
    // 100 ms (vitest's throttle), so the main process hears of a start up to that much later.
    const started = (testCase as unknown as { task?: { result?: { startTime?: number } } }).task?.result?.startTime;
    const at = started ?? Date.now();
    if (!this.firstTestAt || at < this.firstTestAt.getTime()) this.firstTestAt = new Date(at);
    markStartup('firstTest', at);
  }

  async onTestRunEnd(allModules: ReadonlyArray<TestModule>, unhandled: ReadonlyArray<SerializedError>): Promise<void> {
    const project = this.opts.project;
    const modules =
      project === undefined
        ? allModules
        : allModules.filter((m) => m.project.name === project || m.project.name.startsWith(`${project}-`));
    // A run of other projects only (npx vitest run tests/...): no conformance report to write.
    if (project !== undefined && modules.length === 0) return;
    const cfg = stashedConfig();
    if (cfg) rememberConfiguredSecrets(cfg);
    const outcomes: RawOutcome[] = [];
    const leftovers: Results['leftovers'] = [];
    const errors: string[] = unhandled.map((e) => errorText(e));
    // The target could not be prepared (harness/setup/global-setup.ts): the run's error, said once,
    // not again by every file that was waiting for the target.
    const unprepared = stashedPreparationFailure();
    if (unprepared) errors.unshift(`the target could not be prepared: ${unprepared.message}`);
    const fileSpec: { file: string; observations: SpecObservation[] }[] = [];
    for (const mod of modules) {
      const read = moduleOutcomes(mod, (e) => !(unprepared && e.name === 'TargetNotPrepared'));
      outcomes.push(...read.outcomes);
      leftovers.push(...read.leftovers);
      if (read.spec) fileSpec.push(read.spec);
      if (read.moduleErrors.length)
        errors.push(`${mod.moduleId}${read.outcomes.length ? '' : ' (no test ran)'}: ${read.moduleErrors.join('\n')}`);
    }
    if (cfg) {
      // The target is still up here (the global setup's teardown runs after the reporters).
      for (const l of await sweepLeftovers(cfg)) leftovers.push({ file: '(after the run)', ...l });
    }
    const reportDir = resolve(this.opts.reportDir ?? cfg?.run.reportDir ?? 'reports');
    let expectations = new Map();
    try {
      expectations = loadExpectations(cfg?.run.expectationsFile);
    } catch (err) {
      errors.push((err as Error).message);
    }
    const results = buildResults({
      outcomes,
      catalogue: loadCatalogue(),
      expectations,
      config: cfg,
      startedAt: this.startedAt,
      finishedAt: new Date(),
      leftovers,
      errors,
      fileSpec,
    });
    // The pre-flight check stopped the run in the global setup (harness/setup/preflight.ts).
    const stopped =
      (unhandled.find((e) => e.name === 'PreflightFailure') as (SerializedError & { setting?: string }) | undefined) ??
      (unprepared?.name === 'PreflightFailure' ? unprepared : undefined);
    if (stopped) results.preflight = { setting: stopped.setting ?? '', message: stopped.message ?? '' };
    if (this.firstTestAt) results.run.firstTestAt = this.firstTestAt.toISOString();
    const startup = startupMarks();
    if (Object.keys(startup).length) results.run.startup = startup;
    const previous = cfg?.run.previousResults;
    if (previous) {
      if (existsSync(previous)) {
        results.comparison = compareResults(JSON.parse(readFileSync(previous, 'utf8')) as Results, results, previous);
        console.log(formatComparison(results.comparison));
      } else results.errors.push(`previous results not found: ${previous}`);
    }
    writeReports(reportDir, results);
    for (const line of summaryLines(results)) console.log(line);
    console.log(`target version: ${results.run.target.version || '(none)'} from ${results.run.target.versionSource}`);
    console.log(
      `reports: ${join(reportDir, 'index.html')}, ${join(reportDir, 'results.json')}, ${join(reportDir, 'junit.xml')}`,
    );
  }
}

/**
 * The outcomes of one test module as results.json is built from them (build.ts), its leftovers,
 * its set-up's spec observations and its errors (those `keep` keeps); `tests` limits them to the
 * tests of those ids (the mutation run's selection: harness/cli/mutation-engine.ts).
 */
export function moduleOutcomes(
  mod: TestModule,
  keep: (e: { name?: string }) => boolean = () => true,
  tests?: ReadonlySet<string>,
): {
  outcomes: RawOutcome[];
  leftovers: Results['leftovers'];
  spec?: { file: string; observations: SpecObservation[] };
  moduleErrors: string[];
} {
  const moduleErrors = mod
    .errors()
    .filter(keep)
    .map((e) => errorText(e));
  const fileMeta = mod.meta() as {
    leftovers?: { label: string; error: string }[];
    spec?: SpecObservation[];
    /** The exchange a failed file set-up failed on (harness/index.ts suite()). */
    reproduction?: unknown;
  };
  const leftovers: Results['leftovers'] = [];
  const outcomes: RawOutcome[] = [];
  for (const l of fileMeta.leftovers ?? []) leftovers.push({ file: mod.moduleId, ...l });
  for (const test of mod.children.allTests() as Iterable<TestCase>) {
    if (tests && !tests.has(test.id)) continue;
    const result = test.result();
    const own = test.meta() as Record<string, unknown>;
    const meta = fileMeta.reproduction && !own.reproduction ? { ...own, reproduction: fileMeta.reproduction } : own;
    for (const l of (meta.leftovers as { label: string; error: string }[] | undefined) ?? [])
      leftovers.push({ file: mod.moduleId, ...l });
    outcomes.push({
      title: test.name,
      file: mod.moduleId,
      state: result.state,
      durationMs: test.diagnostic()?.duration ?? 0,
      errors: result.state === 'failed' ? result.errors.map((e) => errorText(e)) : [],
      meta,
      moduleErrors,
    });
  }
  return {
    outcomes,
    leftovers,
    ...(fileMeta.spec?.length ? { spec: { file: mod.moduleId, observations: fileMeta.spec } } : {}),
    moduleErrors,
  };
}

export function writeReports(dir: string, results: Results): void {
  mkdirSync(dir, { recursive: true });
  // A final pass masks any secret value that slipped into what the target said (never ids or titles).
  const safe = safeResults(results);
  writeFileSync(join(dir, 'results.json'), JSON.stringify(safe, null, 2));
  writeFileSync(join(dir, 'junit.xml'), toJUnit(safe));
  // Requirement ids link to their test files, relative to the report's folder.
  const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
  writeFileSync(
    join(dir, 'index.html'),
    toHtml(safe, { sourceRoot: relative(resolve(dir), root).split(sep).join('/') || '.' }),
  );
}
