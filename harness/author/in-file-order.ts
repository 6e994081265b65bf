/**
 * How the tests of one file run among themselves: side by side (each test makes its own objects
 * under run-unique names, so they overlap their waits on the target), unless the file is listed
 * under `sequential:` in suites/domain-locks.yaml or the test gives a reason to run alone: it then
 * starts after the tests written before it and ends before those written after it start.
 * `sequential` is such a reason on every target; `movesClock` only where the harness can move the
 * clock of the test's suite (against a target whose clock it cannot move, the test moves nothing).
 * How many run at once: the project's maxConcurrency (harness/cli/projects.ts).
 */
import { TestRunner } from 'vitest';
import {
  type ClockMovable,
  type InFileOrder,
  projectPath,
  testsRunConcurrently,
  timeDomain,
} from '../domain-locks/declarations.js';
import { timeOwnerOf } from './time.js';

/** The order of a test being registered; a test whose file is unknown runs in order. */
export function inFileOrder(
  meta: { title: string; sequential?: string; movesClock?: string },
  area: string | undefined,
  movable: ClockMovable,
): InFileOrder {
  const file = TestRunner.getCurrentSuite().file?.filepath;
  const alone = !!meta.sequential || (!!meta.movesClock && movable(timeDomain(timeOwnerOf(area))));
  return {
    title: meta.title,
    concurrent: !alone && file !== undefined && testsRunConcurrently(projectPath(file), undefined, movable),
  };
}
