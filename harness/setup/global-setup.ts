/**
 * The global setup of the conformance project: takes the run's config (run-config.ts), starts preparing
 * the target (embedded target, directory), starts the run's lock service
 * (harness/domain-locks/service.ts) and provides to every test file the lock service's address and
 * where to receive the target config once the target is ready (harness/config/target-handoff.ts).
 * It does not wait for the target: vitest starts its workers meanwhile. Should the target fail to
 * start, the run is cancelled and the reporter records why (stash.ts). The vitest
 * globalSetup file is compose/global-setup.ts, which hands in the embedded target (the reference).
 *
 * The prepared target and the lock service are kept on the main process's globalThis and stopped
 * when the last project using them tears down: should a run ever have several conformance
 * projects again, they would share one target, so they must share its locks too.
 */
import type { CancelReason } from 'vitest';
import type { TestProject } from 'vitest/node';
import { loadConfig } from '../config/load.js';
import type { TargetConfig } from '../config/types.js';
import { stashConfig, stashOrderCapabilities, stashPreparationFailure } from './stash.js';
import { serveTarget, type TargetHandoff } from '../config/target-handoff.js';
import { clockCapabilitiesBeforeProbe, prepareTarget, type PreparedTarget } from './target.js';
import { startLockService, type LockService } from '../domain-locks/service.js';
import { redactor, rememberConfiguredSecrets } from '../redaction/redact.js';
import type { EmbeddedTarget } from '../../contract/target.js';
import { markStartup } from '../report/startup.js';
import { handedRunConfig } from './run-config.js';

interface Shared {
  prepared: Promise<PreparedTarget>;
  locks: Promise<LockService>;
  handoff: Promise<TargetHandoff>;
  users: number;
}

const holder = globalThis as { __conformanceShared?: Shared };

/** vitest's globalSetup function for runs whose embedded target is `embedded`. */
export function conformanceSetup(embedded: EmbeddedTarget): (project: TestProject) => Promise<() => Promise<void>> {
  return (project) => setup(project, embedded);
}

async function setup(project: TestProject, embedded: EmbeddedTarget): Promise<() => Promise<void>> {
  markStartup('globalSetup');
  if (!holder.__conformanceShared) {
    // Loaded by the entry point (run-config.ts); loaded here only under another vitest config.
    const base: TargetConfig = handedRunConfig() ?? loadConfig();
    stashPreparationFailure(undefined);
    const prepared = prepareTarget(base, embedded);
    const ready = prepared.then((p) => {
      markStartup('targetReady');
      // In the main process: the warning about a short configured secret is printed here (once).
      rememberConfiguredSecrets(p.config);
      stashConfig(p.config);
      return p.config;
    });
    // What the workers are handed: the config, or why there is none, its secrets masked.
    const forWorkers = ready.catch((err: Error & { setting?: string }) => {
      rememberConfiguredSecrets(base);
      const failure = { name: err.name, message: redactor.text(err.message), setting: err.setting };
      console.error(`[conformance] the target could not be prepared: ${failure.message}`);
      stashPreparationFailure(failure);
      // No file can run without its target: those not started yet are cancelled, and those
      // waiting for it are told why (target-handoff.ts).
      void project.vitest.cancelCurrentRun('the target could not be prepared' as CancelReason);
      throw Object.assign(new Error(failure.message), failure);
    });
    // The dispatch order depends on the clocks the harness can move (DomainLockSequencer): known
    // at once on the embedded reference or where the user set them; otherwise after the probes.
    const known = clockCapabilitiesBeforeProbe(base);
    stashOrderCapabilities(
      known
        ? Promise.resolve(known)
        : ready.then(
            (c) => c.capabilities,
            () => undefined,
          ),
    );
    holder.__conformanceShared = {
      prepared,
      locks: startLockService(),
      handoff: serveTarget(forWorkers, base.timeouts.lockWaitMs),
      users: 0,
    };
  }
  const shared = holder.__conformanceShared;
  shared.users++;
  const [locks, handoff] = await Promise.all([shared.locks, shared.handoff]);
  project.provide('conformanceLocks', locks.address);
  project.provide('targetHandoff', handoff.address);
  return async () => {
    if (--shared.users > 0) return;
    if (holder.__conformanceShared === shared) delete holder.__conformanceShared;
    await handoff.close();
    await locks.close();
    // A target that failed to start has stopped what it had started (prepareTarget).
    const prepared = await shared.prepared.catch(() => undefined);
    await prepared?.stop();
  };
}
