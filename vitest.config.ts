/**
 * `npm test`: the project's own tests (unit tests of harness and reference, spec and catalogue
 * validation, payload acceptance) and the conformance suites against the embedded reference.
 * `npm run conformance` runs only the conformance project through the CLI.
 */
import { defineConfig } from 'vitest/config';
import ConformanceReporter from './harness/report/reporter.js';

export default defineConfig({
  test: {
    reporters: ['default', new ConformanceReporter()],
    projects: [
      {
        test: {
          name: 'unit',
          include: ['tests/**/*.test.ts', 'reference/**/*.test.ts', 'harness/**/*.test.ts'],
          testTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'conformance',
          include: ['suites/**/*.test.ts'],
          globalSetup: ['harness/setup/global-setup.ts'],
          // Files share the target and its clock: see harness/cli/run.ts.
          fileParallelism: false,
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
