/**
 * vitest globalSetup of the conformance projects (harness/cli/projects.ts names this file): the
 * harness's setup with the embedded reference handed in.
 *
 * vitest loads this file through its module runner, which transforms every module it imports, in
 * the main process, before the first test can start. The command line has loaded the harness's
 * setup already, natively (compose/cli.ts), and left it on globalThis: then this file is all vitest
 * loads. Under `npm test` (vitest's own command line) the setup is loaded here.
 */
import type { TestProject } from 'vitest/node';

type Setup = (project: TestProject) => Promise<() => Promise<void>>;

export default async function globalSetup(project: TestProject): Promise<() => Promise<void>> {
  const preloaded = (globalThis as { __conformanceGlobalSetup?: Setup }).__conformanceGlobalSetup;
  if (preloaded) return preloaded(project);
  const [{ conformanceSetup }, { embeddedReference }] = await Promise.all([
    import('../harness/setup/global-setup.js'),
    import('./reference.js'),
  ]);
  return conformanceSetup(embeddedReference)(project);
}
