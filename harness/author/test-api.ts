/**
 * What a suite file is given: the shape of a conformance test's metadata and of `t`, its one
 * argument. The implementations are conformance.ts (registration), test-context.ts (`t`) and
 * suite.ts (the file's mounts and set-up).
 */
import type { Check } from '../checks/index.js';
import type { Capabilities, TargetConfig } from '../config/types.js';
import type { ApiClient, RequestOptions } from '../http/client.js';
import type { Exchange } from '../http/exchange.js';
import type { Level } from '../spec/catalogue.js';
import type { CleanupPhase } from './tracker.js';

export interface ConformanceMeta {
  /** Primary catalogue id. */
  id: string;
  /** Further catalogue ids the same test also checks. */
  also?: string[];
  level: Level;
  /** "METHOD /path ... does what": reads as the behaviour. */
  title: string;
  /** Capabilities the target must have; otherwise the test is skipped with the reason. */
  requires?: (keyof Capabilities)[];
  /** Per-test timeout override (ms). */
  timeoutMs?: number;
  /**
   * Why the test must run alone in its file (it changes a setting every test of the file sees):
   * it starts after the file's earlier tests and ends before its later ones start. The tests of a
   * file run side by side otherwise (harness/author/in-file-order.ts).
   */
  sequential?: string;
  /**
   * Why the test moves its suite's clock (`t.advance`): it runs alone in its file where the
   * harness can move that clock, and beside the others where it cannot (it then moves nothing).
   */
  movesClock?: string;
}

export interface SkipInfo {
  reason: string;
  setting?: string;
  /**
   * The skip is for something the run needed and lacked (a directory, cloud fixtures), not a
   * property of the target: such skips make the run incomplete (results.json `complete`).
   */
  prerequisite?: boolean;
}

/** Why a test does not apply to this target: reported as `not-applicable`, never as a failure. */
export interface NotApplicableInfo {
  reason: string;
  /** What the target answered to the refused precondition (status and error messages). */
  answer?: string;
  setting?: string;
}

/** What a test body gets. */
export interface T {
  readonly config: TargetConfig;
  readonly svc: ApiClient;
  readonly sched: ApiClient;
  check(ex: Exchange, ...checks: Check[]): Exchange;
  /**
   * The checks of this form prove requirement `id` (one the test declares): when one fails, the
   * test fails `id` and its other ids are not reached. `t.as('transit.import.imported-flag').check(ex, bodyAt(...))`.
   */
  as(id: string): Pick<T, 'check'>;
  /**
   * Every assertion inside `fn` (t.check, expectThat, anything thrown) proves `id`, a requirement
   * the test declares: `await t.proving('jobs.action.ws-frames-order', async () => { ... })`.
   * Without a `proving` or `as`, an assertion proves the test's primary id (harness/attribution.ts).
   */
  proving<R>(id: string, fn: () => R): R;
  /**
   * A check of catalogue assumption `id` (kind: assumption) a shared helper makes on the test's
   * behalf: skipped when `assumptions.<id>` is false; when it fails the difference is recorded and
   * the test goes on (it fails as an assumption difference only if nothing else fails).
   */
  assuming<R>(id: string, fn: () => R): R | undefined;
  /**
   * Checks a request the test makes to set up the behaviour under test (create a key, write a
   * policy, mount an engine). When the target refuses it (any error status, 4xx or 5xx) the test
   * is reported `not-applicable` with the target's answer: the rule under test was never reached.
   * A broken connection or a success of the wrong shape still fails the test.
   */
  precondition(ex: Exchange, ...checks: Check[]): Exchange;
  /** Ends the test as not applicable to this target, with the reason (and the setting that changes it). */
  notApplicable(reason: string, setting?: string): never;
  /**
   * Registers cleanup, run after the test even on failure: phase `revoke` (leases, check-outs,
   * tokens) before `delete` (the default: roles, sets, accounts) before `unmount` (mounts, auth
   * methods, namespaces); newest first inside a phase.
   */
  track(label: string, cleanup: () => Promise<unknown>, phase?: CleanupPhase): void;
  unique(base: string): string;
  /** Skips the test; `prerequisite` when the run lacks something it needed (the run is then incomplete). */
  skip(reason: string, setting?: string, opts?: { prerequisite?: boolean }): never;
  /**
   * Moves time forward for the service the suite checks (harness/author/time.ts): the reference's
   * clock, a short real sleep, or a skip; scheduler tests never skip, they poll afterwards.
   */
  advance(seconds: number): Promise<void>;
  note(text: string): void;
  /** Registers a value the test produced or received as secret, so reports mask it. */
  secret(value: unknown): void;
  /**
   * Whether the target's version (svc.version) is in the affected ranges of a known-issue entry.
   * On a target of unknown version the test ends as not applicable (never gated on a default).
   */
  affected(id: string): boolean;
  /** Records that a documented known issue was observed on an affected version: reported, not failed. */
  knownIssue(message: string): void;
}

/** Thrown by `t.skip`: the test ends as skipped with the reason. */
export class Skip extends Error {
  constructor(readonly info: SkipInfo) {
    super(`skipped: ${info.reason}`);
  }
}

/** Thrown by `t.notApplicable` and a refused precondition. */
export class NotApplicable extends Error {
  constructor(readonly info: NotApplicableInfo) {
    super(`not applicable: ${info.reason}`);
  }
}

export type RequestOpts = RequestOptions;
