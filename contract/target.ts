/**
 * What the harness needs of a target it starts itself (the embedded reference): a way to start it
 * and the catalogue of its switches. The composition root (compose/reference.ts) builds one from
 * the reference and hands it to the harness; the harness never imports the reference.
 */
import type { CloudConfig } from './cloud.js';
import type { ReferenceHost } from './reference-host.js';
import type { SwitchCatalogue } from './switches.js';

/** How the harness asks for an embedded target to be started. */
export interface EmbeddedStartOptions {
  rootToken: string;
  /** Fault switches to turn on (names from `switches.faults`). */
  faults: string[];
  /** Legal variants to turn on (names from `switches.variants`). */
  variants: string[];
  /** Version the target reports (release-gated behaviour). */
  version?: string;
  maxRequestBytes?: number;
  requireRequestHeader?: boolean;
  quiet?: boolean;
  env?: Record<string, string | undefined>;
}

/** A started embedded target: its addresses, its fixtures, and how to stop it. */
export interface RunningEmbedded {
  svcAddr: string;
  /** The scheduler, when the target has one. */
  schedAddr?: string;
  /** Settings of the cloud fixtures the target provides (its simulated directory). */
  cloud?: CloudConfig;
  stop(): Promise<void>;
}

export interface EmbeddedTarget {
  start(options: EmbeddedStartOptions): Promise<RunningEmbedded>;
  /**
   * Every fault switch and legal variant the target offers, loaded when asked for (only a mutation
   * run needs them, and loading them loads the reference's modules).
   */
  switches(): Promise<SwitchCatalogue>;
  /** Many targets side by side, each with its own switches (the mutation run; contract/reference-host.ts). */
  host?(): Promise<ReferenceHost>;
}
