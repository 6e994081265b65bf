/**
 * How the tests of one file run among themselves: side by side (each test makes its own objects
 * under run-unique names, so they overlap their waits on the target), unless the file is listed
 * under `sequential:` in suites/domain-locks.yaml or the test gives a reason to run alone
 * (`sequential` in its metadata: it then starts after the tests written before it and ends before
 * those written after it start). How many run at once: the project's maxConcurrency
 * (harness/cli/projects.ts).
 */
import { getCurrentSuite } from 'vitest/suite';
import { type InFileOrder, projectPath, testsRunConcurrently } from '../domain-locks/declarations.js';

/** The order of a test being registered; a test whose file is unknown runs in order. */
export function inFileOrder(meta: { title: string; sequential?: string }): InFileOrder {
  const file = getCurrentSuite().file?.filepath;
  return {
    title: meta.title,
    concurrent: !meta.sequential && file !== undefined && testsRunConcurrently(projectPath(file)),
  };
}
