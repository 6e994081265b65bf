/** `run`: resolves the config, runs the selected suites under vitest, returns the exit code. */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { startVitest } from 'vitest/node';
import { ConfigError, loadConfig, type CliOverrides } from '../config/load.js';
import ConformanceReporter from '../report/reporter.js';
import type { Results } from '../report/model.js';
import { checkExpectationIds, loadExpectations } from '../report/expectations.js';
import { keepPrevious } from '../report/compare.js';
import { loadCatalogue } from '../catalogue.js';

export interface RunOptions {
  file?: string;
  cli: CliOverrides;
  quiet?: boolean;
}

export async function runConformance(opts: RunOptions): Promise<number> {
  let cfg;
  try {
    cfg = loadConfig({ file: opts.file, cli: opts.cli });
    checkExpectationIds(loadExpectations(cfg.run.expectationsFile), loadCatalogue());
    cfg.run.previousResults = keepPrevious(cfg.run.previousResults, cfg.run.reportDir);
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
  process.env.CONFORMANCE_CONFIG_JSON = JSON.stringify(cfg);
  const include = cfg.run.files?.length ? cfg.run.files : cfg.run.suites.map((s) => `suites/${s}/**/*.test.ts`);
  const vitest = await startVitest(
    'test',
    [],
    {
      config: false,
      watch: false,
      run: true,
      include,
      globalSetup: ['harness/setup/global-setup.ts'],
      reporters: [opts.quiet ? 'dot' : 'default', new ConformanceReporter({ reportDir })],
      testTimeout: cfg.timeouts.testMs,
      hookTimeout: cfg.timeouts.hookMs,
      teardownTimeout: 30_000,
      passWithNoTests: true,
      // One file at a time: files share the target and the reference's clock, and a test that
      // moves time (lockout windows, lease expiry) must not expire another file's leases.
      fileParallelism: false,
    },
  );
  await vitest?.close();
  const resultsFile = join(reportDir, 'results.json');
  if (!existsSync(resultsFile)) {
    console.error('the run ended without results (see the errors above)');
    return 1;
  }
  const results = JSON.parse(readFileSync(resultsFile, 'utf8')) as Results;
  if (results.summary.total === 0) {
    console.error(`no conformance test ran for suites ${cfg.run.suites.join(',')}`);
    return 1;
  }
  return results.summary.mustFailed > 0 || results.errors.length > 0 ? 1 : 0;
}
