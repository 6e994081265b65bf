/**
 * `suite(area)`, once per test file: the file's clients, its run-unique mounts and set-up, and the
 * cleanup of what they created after the file's last test.
 */
import { afterAll, beforeAll } from 'vitest';
import { targetConfig } from '../config/target-config.js';
import type { TargetConfig } from '../config/types.js';
import type { ApiClient } from '../http/client.js';
import { Transcript, tokenHeadersOf } from '../http/transcript.js';
import { redactor } from '../redaction/redact.js';
import { mountAliases } from '../spec/mount-aliases.js';
import { specRegistry } from '../spec/registry.js';
import { makeClient, SpecLedger } from './clients.js';
import { chargeOf } from '../attribution.js';
import { type Check, success } from '../checks/index.js';
import type { Exchange } from '../http/exchange.js';
import type { TranscriptEntry } from '../http/transcript.js';
import { reproduce } from '../report/curl.js';
import { requirePrecondition } from './precondition.js';
import { untilServing } from '../provision/serving.js';
import { NotApplicable, type NotApplicableInfo } from './test-api.js';
import { type CleanupPhase, Tracker } from './tracker.js';
import { uniqueName } from './unique-name.js';

export interface MountRef {
  /** The real mount path, known after the suite's beforeAll. */
  readonly path: string;
}

export interface Suite {
  readonly area: string;
  /** A run-unique mount of an engine, created before the file's tests and removed after. */
  mount(defaultName: string, opts: { type: string; options?: Record<string, string>; configKey?: string }): MountRef;
  /** A run-unique auth method mount (`auth/<name>`). */
  auth(defaultName: string, opts: { type: string }): MountRef;
  /** Runs once before the file's tests with a client; cleanups registered there run after all. */
  setup(fn: (s: SuiteContext) => Promise<void>): void;
}

export interface SuiteContext {
  readonly config: TargetConfig;
  readonly svc: ApiClient;
  readonly sched: ApiClient;
  track(label: string, cleanup: () => Promise<unknown>, phase?: CleanupPhase): void;
  unique(base: string): string;
  /**
   * As `t.precondition`, for the file's set-up: when the target refuses (an error status), the set-up
   * stops and every test of the file is not applicable with the target's answer.
   */
  precondition(ex: Exchange, ...checks: Check[]): Exchange;
}

/** The area of the file being collected: conformance() skips when its prerequisites are missing. */
let fileArea: string | undefined;

export function currentArea(): string | undefined {
  return fileArea;
}

/** What the file's set-up found: a refusal makes every test of the file not applicable. */
export interface FileSetup {
  refused?: NotApplicableInfo;
  /** A set-up that failed: the exchange it failed on (its tests' reproduction). */
  failedOn?: TranscriptEntry;
}
/** The set-up state of the file being collected (one file at a time per worker). */
let fileSetup: FileSetup | undefined;

export function currentSetup(): FileSetup | undefined {
  return fileSetup;
}

/** Why the run cannot test an area at all (no directory for ldap), from the global setup. */
export function unavailable(area: string | undefined): { reason: string; setting: string } | undefined {
  return area ? targetConfig().unavailable?.[area] : undefined;
}

export function suite(area: string): Suite {
  fileArea = area;
  const setupState: FileSetup = {};
  fileSetup = setupState;
  const setups: ((s: SuiteContext) => Promise<void>)[] = [];
  /** The steps of `setups` that make a run-unique mount: independent of each other (runSetups). */
  const mountSteps = new Set<(s: SuiteContext) => Promise<void>>();
  let ctx: SuiteContext | undefined;
  // Per file, not per module: with isolate off, one worker's module instance serves many files.
  let suiteTranscript: Transcript | undefined;
  let suiteTracker: Tracker | undefined;
  /** Spec observations of the file's setup and teardown (beforeAll/afterAll), reported with the file. */
  let suiteLedger: SpecLedger | undefined;

  const context = async (): Promise<SuiteContext> => {
    if (ctx) return ctx;
    const cfg = targetConfig();
    const registry = await specRegistry();
    suiteTranscript = new Transcript(tokenHeadersOf(cfg));
    suiteTracker = new Tracker();
    suiteLedger = new SpecLedger();
    const tracker = suiteTracker;
    ctx = {
      config: cfg,
      svc: makeClient(
        'svc',
        cfg,
        registry,
        () => suiteTranscript,
        () => suiteLedger,
      ),
      sched: makeClient(
        'sched',
        cfg,
        registry,
        () => suiteTranscript,
        () => suiteLedger,
      ),
      track: (label, fn, phase) => tracker.add(label, fn, phase),
      unique: uniqueName,
      precondition: (ex, ...checks) => requirePrecondition(ex, checks),
    };
    return ctx;
  };

  beforeAll(async () => {
    const s = await context();
    if (unavailable(area)) return;
    try {
      await runSetups(setups, mountSteps, s);
    } catch (err) {
      // A refused set-up step (a mount, a fixture): the file's tests are not applicable, not failed.
      if (!(err instanceof NotApplicable)) {
        const ex = chargeOf(err).exchange;
        setupState.failedOn = ex ? suiteTranscript?.entryOf(ex) : suiteTranscript?.lastExchange();
        throw err;
      }
      setupState.refused = { ...err.info, reason: redactor.text(err.info.reason) };
    }
  }, targetConfig().timeouts.hookMs);

  // biome-ignore lint/correctness/noEmptyPattern: vitest requires a destructuring first parameter
  afterAll(async ({}, file) => {
    const leftovers = await suiteTracker?.runAll();
    const meta = (file as unknown as { meta: Record<string, unknown> }).meta;
    if (suiteLedger?.observations.length) meta.spec = suiteLedger.observations;
    // The tests of a file whose set-up failed are reported failed with the set-up's exchange.
    if (setupState.failedOn) meta.reproduction = reproduce(setupState.failedOn);
    if (leftovers?.length) {
      meta.leftovers = leftovers;
      console.warn(
        `[conformance] ${area}: ${leftovers.length} resource(s) could not be removed: ${leftovers.map((l) => l.label).join(', ')}`,
      );
    }
  }, targetConfig().timeouts.hookMs);

  const mountLike = (
    kind: 'secret' | 'auth',
    defaultName: string,
    opts: { type: string; options?: Record<string, string>; configKey?: string },
  ): MountRef => {
    const ref = { path: '' };
    setups.push(async (s) => {
      const configured = s.config.mounts[opts.configKey ?? defaultName];
      if (configured) {
        ref.path = configured.replace(/\/+$/, '');
        mountAliases.set(ref.path, kind === 'auth' ? `auth/${defaultName}` : defaultName);
        return;
      }
      if (!s.config.capabilities.mounts) {
        throw new Error(
          `the ${area} suite needs a ${opts.type} mount: set mounts.${opts.configKey ?? defaultName} in the config file, or capabilities.mounts: true`,
        );
      }
      const name = uniqueName(defaultName);
      const path = kind === 'auth' ? `auth/${name}` : name;
      const ex = await s.svc.post(kind === 'auth' ? `sys/auth/${name}` : `sys/mounts/${name}`, {
        body: { type: opts.type, options: opts.options ?? {} },
      });
      // A fixture: a target refusing the mount makes the file's tests not applicable (its answer shown).
      s.precondition(ex, success);
      if (kind === 'secret') await untilServing(s, path, opts);
      ref.path = path;
      mountAliases.set(path, kind === 'auth' ? `auth/${defaultName}` : defaultName);
      s.track(
        `${kind === 'auth' ? 'auth method' : 'mount'} ${path}`,
        () => s.svc.delete(kind === 'auth' ? `sys/auth/${name}` : `sys/mounts/${name}`),
        'unmount',
      );
    });
    mountSteps.add(setups[setups.length - 1]!);
    return ref;
  };

  return {
    area,
    mount: (defaultName, opts) => mountLike('secret', defaultName, opts),
    auth: (defaultName, opts) => mountLike('auth', defaultName, opts),
    setup: (fn) => {
      setups.push(fn);
    },
  };
}

/**
 * Runs a file's set-up steps in order, except that mounts declared one after another are made
 * together: each has its own run-unique path and depends on nothing, so they overlap their waits
 * on the target. When several fail, the first in the file's order is reported.
 */
async function runSetups<S>(steps: ((s: S) => Promise<void>)[], mounts: Set<(s: S) => Promise<void>>, s: S) {
  for (let i = 0; i < steps.length; ) {
    let j = i + 1;
    if (mounts.has(steps[i]!)) while (j < steps.length && mounts.has(steps[j]!)) j++;
    const settled = await Promise.allSettled(steps.slice(i, j).map((step) => step(s)));
    const failed = settled.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) throw failed.reason;
    i = j;
  }
}
