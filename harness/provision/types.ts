/**
 * The provisioning seam: where tests get identities (tokens with chosen rights) and namespaces.
 * The documents specify what a token may do, not how tokens, policies or namespaces are created,
 * so the creating side is the target's own business and a setting, not part of the spec. One
 * provisioner per API; each one cleans up whatever it created through `track`. The secrets
 * service's identity helpers (identity.ts) can move behind the same interface with a grant
 * of path rules.
 */
import type { Check } from '../checks/index.js';
import type { TargetConfig } from '../config/types.js';
import type { ApiClient } from '../http/client.js';
import type { Exchange } from '../http/exchange.js';

/** What a provisioner needs from a test: the subset of T it uses. */
export interface Provisioning {
  readonly config: TargetConfig;
  readonly sched: ApiClient;
  readonly svc: ApiClient;
  track(label: string, cleanup: () => Promise<unknown>): void;
  unique(base: string): string;
  skip(reason: string, setting?: string): never;
  secret(value: unknown): void;
  /** A set-up answer: a refusal (any error status) makes the test not applicable with the target's answer. */
  precondition(ex: Exchange, ...checks: Check[]): Exchange;
}

export interface Provisioner<Grant> {
  /** The setting value that selects it. */
  readonly name: string;
  /** A token that carries exactly `grant`; revoked after the test. */
  token(p: Provisioning, grant: Grant): Promise<string>;
  /**
   * A namespace other than the default one that jobs may be registered in; the `index`-th of the
   * test when it needs several. Removed after the test when the provisioner created it.
   */
  namespace(p: Provisioning, index?: number): Promise<string>;
}
