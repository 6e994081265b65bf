/**
 * The global setup of the conformance project: resolves the target config once, prepares the
 * target (embedded target, directory), starts the run's lock service (harness/domain-locks/service.ts)
 * and provides the config and the lock service's address to every test file. The vitest
 * globalSetup file is compose/global-setup.ts, which hands in the embedded target (the reference).
 *
 * The prepared target and the lock service are kept on the main process's globalThis and stopped
 * when the last project using them tears down: should a run ever have several conformance
 * projects again, they would share one target, so they must share its locks too.
 */
import type { TestProject } from 'vitest/node';
import { loadConfig } from '../config/load.js';
import type { TargetConfig } from '../config/types.js';
import { prepareTarget, type PreparedTarget } from './target.js';
import { startLockService, type LockService } from '../domain-locks/service.js';
import { rememberConfiguredSecrets } from '../redaction/redact.js';
import type { EmbeddedTarget } from '../../contract/target.js';
import { markStartup } from '../report/startup.js';

interface Shared {
  prepared: Promise<PreparedTarget>;
  locks: Promise<LockService>;
  users: number;
}

const holder = globalThis as { __conformanceShared?: Shared; __conformanceTarget?: TargetConfig };

/**
 * Under `npm test` (vitest.config.ts) the run's files go to its temporary report directory, and the
 * robustness suite uses a fixed seed: the project's own tests must give the same verdict every time
 * (conformance runs explore with a fresh seed each).
 */
export const TEST_ROBUSTNESS_SEED = 1698485883;

function testRun(): Parameters<typeof loadConfig>[0] {
  const reportDir = process.env.CONFORMANCE_TEST_REPORT_DIR;
  return reportDir ? { cli: { reportDir, seed: TEST_ROBUSTNESS_SEED } } : {};
}

/** vitest's globalSetup function for runs whose embedded target is `embedded`. */
export function conformanceSetup(embedded: EmbeddedTarget): (project: TestProject) => Promise<() => Promise<void>> {
  return (project) => setup(project, embedded);
}

async function setup(project: TestProject, embedded: EmbeddedTarget): Promise<() => Promise<void>> {
  markStartup('globalSetup');
  if (!holder.__conformanceShared) {
    const base: TargetConfig = process.env.CONFORMANCE_CONFIG_JSON
      ? (JSON.parse(process.env.CONFORMANCE_CONFIG_JSON) as TargetConfig)
      : loadConfig(testRun());
    holder.__conformanceShared = { prepared: prepareTarget(base, embedded), locks: startLockService(), users: 0 };
  }
  const shared = holder.__conformanceShared;
  shared.users++;
  // Both awaited at once: a target that fails to start is reported as it was before.
  const [locks, prepared] = await Promise.all([shared.locks, shared.prepared]);
  markStartup('targetReady');
  // In the main process: the warning about a short configured secret is printed here (once).
  rememberConfiguredSecrets(prepared.config);
  holder.__conformanceTarget = prepared.config;
  project.provide('target', prepared.config);
  project.provide('conformanceLocks', locks.address);
  return async () => {
    if (--shared.users > 0) return;
    if (holder.__conformanceShared === shared) delete holder.__conformanceShared;
    await locks.close();
    await prepared.stop();
  };
}
