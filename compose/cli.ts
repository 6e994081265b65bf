/**
 * The command line's entry point (`npm run conformance`, `svc-conformance`): the composition root
 * that hands the embedded reference, and the threads that run it and the ldap suite's directory, to
 * the harness. The harness and the reference never import
 * each other (README "Layout").
 */
import { runProgram } from '../harness/cli/program.js';
import { embeddedReference } from './reference.js';
import { provisionDirectoryOnThread } from './directory.js';

if (process.argv[2] === 'run') {
  // The run's global setup, loaded here natively rather than by vitest's module runner (see
  // compose/global-setup.ts): one load of the harness's modules instead of a second, slower one.
  const { conformanceSetup } = await import('../harness/setup/global-setup.js');
  (globalThis as { __conformanceGlobalSetup?: unknown }).__conformanceGlobalSetup = conformanceSetup(embeddedReference);
}
await runProgram(process.argv, {
  embedded: embeddedReference,
  globalSetup: 'compose/global-setup.ts',
  directory: provisionDirectoryOnThread,
});
