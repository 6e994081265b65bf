/**
 * The run's config, loaded once by the entry point (the command line, harness/cli/run.ts, or
 * `npm test`, vitest.config.ts) from the file, the environment and the flags, and handed to the
 * global setup, which prepares the target it names. Everything the run needs travels in it, the
 * report directory (`run.reportDir`) included. The hand-over goes through the main process's
 * globalThis: the entry point and the global setup run in one process but may load this module
 * separately (vitest bundles its config file; its module runner loads the global setup).
 */
import type { TargetConfig } from '../config/types.js';

/**
 * The robustness suite's seed under `npm test` (vitest.config.ts): the project's own tests must give
 * the same verdict every time (conformance runs explore with a fresh seed each).
 */
export const TEST_ROBUSTNESS_SEED = 1698485883;

const holder = globalThis as { __conformanceRunConfig?: TargetConfig };

/** Hands the loaded config of this run to its global setup. */
export function handOverRunConfig(cfg: TargetConfig): void {
  holder.__conformanceRunConfig = cfg;
}

/** The config the entry point loaded for this run, if one did. */
export function handedRunConfig(): TargetConfig | undefined {
  return holder.__conformanceRunConfig;
}
