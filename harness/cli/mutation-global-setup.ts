/**
 * vitest globalSetup of the mutation run's project (harness/cli/mutation-engine.ts): the engine,
 * loaded natively by the command line, left its set-up on globalThis (vitest loads this file
 * through its module runner, a second instance of every module it would import).
 */
import type { TestProject } from 'vitest/node';

type Setup = (project: TestProject) => Promise<() => Promise<void>>;

export default async function globalSetup(project: TestProject): Promise<() => Promise<void>> {
  const setup = (globalThis as { __mutationEngineSetup?: Setup }).__mutationEngineSetup;
  if (!setup) throw new Error('the mutation run did not start its engine (harness/cli/mutation-engine.ts)');
  return setup(project);
}
