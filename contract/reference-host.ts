/**
 * Many embedded targets side by side in one process, each with its own switches: what the
 * mutation run needs of the reference (harness/cli/mutation-engine.ts). Each file of a mutation
 * round runs against a reference of its own (a lane: a fault or variants switched on), started for
 * it and stopped after it; the clean run that measures which switches each test reaches runs
 * against traced references (reference/trace.ts). The composition root (compose/reference-host.ts)
 * implements it; the harness never imports the reference.
 */
import type { CloudConfig } from './cloud.js';
import type { EmbeddedStartOptions } from './target.js';

/**
 * The request header that names a request's sender in a traced run (`test:<file> > <title>` or
 * `file:<file>`): the harness's mutation workers send it, a traced reference reads it.
 */
export const TRACE_HEADER = 'x-conformance-trace';

export interface LaneStartOptions extends EmbeddedStartOptions {
  /** Record which switches each request reaches (a clean reference only). */
  trace?: boolean;
}

/** A started reference of the host: its addresses and fixtures. */
export interface LaneTarget {
  id: number;
  svcAddr: string;
  schedAddr?: string;
  cloud?: CloudConfig;
}

export interface ReferenceHost {
  /** Starts one reference per options, in order; a failed start rejects (the others are stopped). */
  start(options: LaneStartOptions[]): Promise<LaneTarget[]>;
  stop(ids: number[]): Promise<void>;
  /**
   * What the traced references reached since the last call: for each request context (the
   * `x-conformance-trace` header its sender set; '' outside any request), the switches reached.
   */
  takeReach(): Promise<Record<string, string[]>>;
  /** Stops every reference and the host. */
  close(): Promise<void>;
}
