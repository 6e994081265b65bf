/**
 * `npm test`: the project's own tests (unit tests of harness and reference, the reference's in
 * tests/reference/; spec and catalogue validation, payload acceptance) and the conformance suites
 * against the target the settings name (the embedded reference unless they name another).
 * `npm run conformance` runs only the conformance projects through the CLI.
 *
 * The run's config is loaded here once, as the command line loads it (file, environment, flags),
 * and handed to the global setup (harness/setup/run-config.ts); the target follows from it
 * (harness/config/target-plan.ts). reports/ belongs to the user's conformance runs: `npm test`
 * writes the conformance project's report to a temporary directory (CONFORMANCE_TEST_REPORT_DIR to
 * choose one), its `run.reportDir`, and never lists the unit project's tests in it.
 */
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';
import ConformanceReporter from './harness/report/reporter.js';
import { conformanceProject, DomainLockSequencer } from './harness/cli/projects.js';
import { loadConfig } from './harness/config/load.js';
import { targetPlan } from './harness/config/target-plan.js';
import { handOverRunConfig, TEST_ROBUSTNESS_SEED } from './harness/setup/run-config.js';

const run = loadConfig({
  cli: {
    reportDir: process.env.CONFORMANCE_TEST_REPORT_DIR || join(tmpdir(), `svc-conformance-npm-test-${process.pid}`),
    seed: TEST_ROBUSTNESS_SEED,
  },
});
handOverRunConfig(run);

export default defineConfig({
  test: {
    reporters: ['default', new ConformanceReporter({ reportDir: run.run.reportDir, project: 'conformance' })],
    // Orders the conformance project's files (exclusive files early); other projects keep vitest's order.
    sequence: { sequencer: DomainLockSequencer },
    projects: [
      {
        test: {
          name: 'unit',
          include: ['tests/**/*.test.ts', 'harness/**/*.test.ts'],
          exclude: ['tests/real/**'],
          testTimeout: 30_000,
          // After the conformance project (group 0): vitest runs groups in order, and projects of
          // one group must share maxWorkers.
          sequence: { groupOrder: 1 },
        },
      },
      // The suites against real products (tests/real/run.ts): last, so the products' own waits
      // (a scheduler's deployments) do not share the two cores with the rest of the tests.
      {
        test: {
          name: 'real',
          include: ['tests/real/**/*.test.ts'],
          testTimeout: 600_000,
          hookTimeout: 120_000,
          sequence: { groupOrder: 2 },
        },
      },
      // Every suite file in one pool against one target, holding the domain locks of
      // suites/domain-locks.yaml (see harness/cli/projects.ts).
      conformanceProject({
        globalSetup: 'compose/global-setup.ts',
        suites: run.run.suites,
        files: run.run.files,
        target: targetPlan(run),
        timeouts: { testMs: 60_000, hookMs: 120_000 },
      }),
    ],
  },
});
