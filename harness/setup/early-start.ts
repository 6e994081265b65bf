/**
 * The embedded target and the ldap suite's directory started by the command line before vitest,
 * so that their start-up (loading and starting the reference: most of a second) runs beside
 * vitest's own instead of after it. The
 * global setup (target.ts) takes the started target over when its options are the ones it would
 * start it with; otherwise it starts its own and the early one is stopped. The hand-over goes
 * through the main process's globalThis: the command line and the global setup run in one process
 * but load this module separately (the global setup through vitest's module runner).
 */
import { randomBytes } from 'node:crypto';
import type { EmbeddedStartOptions, EmbeddedTarget, RunningEmbedded } from '../../contract/target.js';
import type { TargetConfig } from '../config/types.js';
import { startsEmbedded, targetPlan } from '../config/target-plan.js';
import type { DirectoryConfigInput, ProvisionedDirectory } from '../directory/provision.js';

interface EarlyStart {
  /** The options it was started with, root token left out, as JSON (what the global setup compares). */
  key: string;
  rootToken: string;
  running: Promise<RunningEmbedded>;
  taken: boolean;
}

/** A directory provisioned, or why it could not be (target.ts reports it). */
export type DirectoryProvision = ProvisionedDirectory | { error: Error };

interface EarlyDirectory {
  /** The ldap settings it was provisioned from, as JSON (what the global setup compares). */
  key: string;
  provided: Promise<DirectoryProvision>;
  taken: boolean;
}

const holder = globalThis as { __conformanceEarlyStart?: EarlyStart; __conformanceEarlyDirectory?: EarlyDirectory };

/** The options the embedded target of a run with this config is started with. */
export function embeddedStartOptions(cfg: TargetConfig, rootToken: string): EmbeddedStartOptions {
  return {
    rootToken,
    faults: cfg.reference.faults,
    variants: cfg.reference.variants,
    version: cfg.reference.version,
    maxRequestBytes: cfg.limits.maxRequestBytes,
    requireRequestHeader: false,
    quiet: !process.env.REF_VERBOSE,
    env: {},
  };
}

const keyOf = ({ rootToken: _token, ...rest }: EmbeddedStartOptions) => JSON.stringify(rest);

export const newRootToken = () => `root-${randomBytes(12).toString('hex')}`;

/** Starts the run's embedded target now, for the global setup to take over (command line only). */
export function startEmbeddedEarly(cfg: TargetConfig, embedded: EmbeddedTarget): void {
  if (!startsEmbedded(targetPlan(cfg)) || holder.__conformanceEarlyStart) return;
  const rootToken = newRootToken();
  const options = embeddedStartOptions(cfg, rootToken);
  const running = embedded.start(options);
  // A failure is reported by the global setup that takes it over (or ignored when none does).
  running.catch(() => undefined);
  holder.__conformanceEarlyStart = { key: keyOf(options), rootToken, running, taken: false };
}

/** The early-started target when it was started with `options` (whose root token it replaces). */
export function takeEarlyStart(
  options: EmbeddedStartOptions,
): { rootToken: string; running: Promise<RunningEmbedded> } | undefined {
  const early = holder.__conformanceEarlyStart;
  if (!early || early.taken || early.key !== keyOf(options)) return undefined;
  early.taken = true;
  return { rootToken: early.rootToken, running: early.running };
}

/**
 * Provisions the ldap suite's directory now (its TLS material, slapd and its seed: a few hundred
 * milliseconds, mostly off the main thread), for the global setup to take over.
 */
export function startDirectoryEarly(
  cfg: TargetConfig,
  provide: (input: DirectoryConfigInput) => Promise<DirectoryProvision>,
): void {
  if (!cfg.run.suites.includes('ldap') || holder.__conformanceEarlyDirectory) return;
  const input = cfg.ldap ?? {};
  holder.__conformanceEarlyDirectory = { key: JSON.stringify(input), provided: provide(input), taken: false };
}

/** The early-provisioned directory when it was provisioned from `input`. */
export function takeEarlyDirectory(input: DirectoryConfigInput): Promise<DirectoryProvision> | undefined {
  const early = holder.__conformanceEarlyDirectory;
  if (!early || early.taken || early.key !== JSON.stringify(input)) return undefined;
  early.taken = true;
  return early.provided;
}

/** Stops what was started early and nobody took over (the run ended before its global setup). */
export async function stopUntakenEarlyStart(): Promise<void> {
  const early = holder.__conformanceEarlyStart;
  const directory = holder.__conformanceEarlyDirectory;
  delete holder.__conformanceEarlyStart;
  delete holder.__conformanceEarlyDirectory;
  if (early && !early.taken) {
    const running = await early.running.catch(() => undefined);
    await running?.stop().catch(() => undefined);
  }
  if (directory && !directory.taken) {
    const provided = await directory.provided;
    if ('stop' in provided) await provided.stop().catch(() => undefined);
  }
}
