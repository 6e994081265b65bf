/**
 * What the global setup leaves in the main process for the run's sequencer and reporter: the
 * target's config once it is ready, the capabilities the dispatch order depends on, and why the
 * target could not be prepared. Kept on globalThis: the global setup may be loaded a second time
 * by vitest's module runner (compose/global-setup.ts), the reporter and the sequencer natively.
 */
import type { Capabilities, TargetConfig } from '../config/types.js';

/** Why the target could not be prepared (its setting for a pre-flight failure). */
export interface PreparationFailure {
  name: string;
  message: string;
  setting?: string;
}

const holder = globalThis as {
  __conformanceTarget?: TargetConfig;
  __conformanceOrderCapabilities?: Promise<Capabilities | undefined>;
  __conformancePreparationFailure?: PreparationFailure;
};

/** The resolved target config, once the target is ready. */
export function stashedConfig(): TargetConfig | undefined {
  return holder.__conformanceTarget;
}

export function stashConfig(config: TargetConfig): void {
  holder.__conformanceTarget = config;
}

/** The capabilities the dispatch order depends on, once known (DomainLockSequencer). */
export function orderCapabilities(): Promise<Capabilities | undefined> {
  return holder.__conformanceOrderCapabilities ?? Promise.resolve(holder.__conformanceTarget?.capabilities);
}

export function stashOrderCapabilities(capabilities: Promise<Capabilities | undefined>): void {
  holder.__conformanceOrderCapabilities = capabilities;
}

/** Why the target of this run could not be prepared, once that is known. */
export function stashedPreparationFailure(): PreparationFailure | undefined {
  return holder.__conformancePreparationFailure;
}

export function stashPreparationFailure(failure: PreparationFailure | undefined): void {
  if (failure) holder.__conformancePreparationFailure = failure;
  else delete holder.__conformancePreparationFailure;
}
