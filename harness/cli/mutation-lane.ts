/**
 * What the mutation engine (mutation-engine.ts) tells its workers' set-up file
 * (mutation-lane-setup.ts) about a round: where each test file runs. No vitest import: the
 * engine's process loads it too.
 */
import type { CloudConfig } from '../../contract/cloud.js';

/** Where one file of a round runs: its lane's reference. */
export interface LanePlace {
  svcAddr: string;
  schedAddr?: string;
  cloud?: CloudConfig;
  /** The version the lane's reference reports (a fault's referenceVersion), else the run's. */
  version?: string;
}

export interface RoundPlan {
  /** Project-relative test file → its lane's reference. */
  files: Record<string, LanePlace>;
  /** The traced round: requests name their test (reference/trace.ts). */
  trace?: boolean;
  /** Where the workers keep the run's RSA key tape (mutation-key-tape.ts). */
  keyDir?: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** The current round of the mutation run (harness/cli/mutation-engine.ts). */
    mutationPlan?: RoundPlan;
  }
}

export { TRACE_HEADER } from '../../contract/reference-host.js';

/** A test file's path as results name it (harness/report/build.ts). */
export const resultPath = (file: string) => file.replace(/^.*?\/(suites|tests|reference|harness)\//, '$1/');
