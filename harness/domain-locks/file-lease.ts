/**
 * vitest setupFiles entry of the conformance project (harness/cli/projects.ts): every test file
 * holds the domain locks suites/domain-locks.yaml gives it from before its first hook to after its
 * last one. vitest evaluates setup files afresh for every test file, isolation off included, so
 * the aroundAll below wraps each file's whole run: setup, tests and cleanup (which still needs the
 * state it was promised), whatever their order and however they end.
 */
import { aroundAll, inject } from 'vitest';
import { receiveTargetConfig, targetConfig } from '../config/target-config.js';
import { clockMovable, lockDeclarations, lockWants, projectPath } from './declarations.js';
import { acquireLease, lockWaitLimits } from './client.js';
import { setCurrentLease } from './current.js';

// The target may still be starting when this worker starts (harness/config/target-handoff.ts):
// the author API's modules, which every test file imports, load meanwhile. A module that fails to
// load fails the test file's own import, which reports it.
const harnessLoaded = Promise.all([import('../author/suite.js'), import('../author/conformance.js')]).catch(
  () => undefined,
);
await receiveTargetConfig();
await harnessLoaded;

// The hook's timeout covers the wait for the locks and their release, not the file's run.
const limits = lockWaitLimits(targetConfig().timeouts.lockWaitMs);

// biome-ignore lint/correctness/noEmptyPattern: vitest requires a destructuring second parameter
aroundAll(async (runSuite, {}, file) => {
  const address = inject('conformanceLocks');
  if (!address) return runSuite();
  const label = projectPath(file.file.filepath);
  // A file declared exclusive for moving a clock holds it shared where the harness cannot move it.
  const wants = lockWants(label, lockDeclarations(), clockMovable(targetConfig().capabilities));
  const lease = await acquireLease(address, label, wants, limits.waitMs);
  setCurrentLease(lease);
  try {
    await runSuite();
  } finally {
    setCurrentLease(undefined);
    await lease.release();
  }
}, limits.hookMs);
