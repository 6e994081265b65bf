/**
 * The suite author's API: `suite(area)` once per file, then `conformance({id, level, title}, fn)`
 * per behaviour. See docs/AUTHORING.md.
 */
import { afterAll, beforeAll, inject, test, type TestContext as VitestContext } from 'vitest';
import type { Capabilities, TargetConfig } from './config/types.js';
import { ApiClient, type RequestOptions } from './http/client.js';
import type { Exchange } from './http/exchange.js';
import { observeAgainstSpec, specPath } from './checks/schema.js';
import { NameTranslator } from './dialect/names.js';
import { CheckFailure, type Check } from './checks/index.js';
import { mergeObservations, type SpecObservation } from './spec/findings.js';
import { loadCatalogue, type Level } from './catalogue.js';
import { mountAliases, targetConfig, Transcript } from './context.js';
import { specRegistry, type SpecRegistry } from './spec/registry.js';
import { redactor } from './redact.js';
import { Tracker, type CleanupPhase } from './tracker.js';
import { isAffected, knownVersion } from './versions.js';
import { globalEffect, guardGlobal, timeDomain } from './schedule.js';
import { currentLease, type HeldLease } from './lanes/current.js';
import { moveTime, timeOwnerOf } from './time.js';

export { redactor } from './redact.js';
export type { Exchange } from './http/exchange.js';
export type { TargetConfig } from './config/types.js';
export type { CleanupPhase } from './tracker.js';
// Suites reach the harness only through this file and the index files of harness/checks,
// harness/directory and harness/robustness (rule suites-through-harness-entry, .dependency-cruiser.cjs).
export { mountAliases, targetConfig } from './context.js';
export { loadCatalogue } from './catalogue.js';
export { createToken, policyToken, tokenWith, writePolicy } from './identity.js';
export { freshMount } from './fresh-mount.js';
export { schedNamespace, schedTokenWith } from './provision/scheduler.js';
export { ApiClient, TransportError } from './http/client.js';
export type { LdapTarget } from './config/types.js';
export type { CloudConfig } from '../contract/cloud.js';

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
   * Checks a request the test makes to set up the behaviour under test (create a key, write a
   * policy, mount an engine). When the target refuses it (4xx, 501) the test is reported
   * `not-applicable` with the target's answer: the rule under test was never reached. A 5xx, a
   * broken connection or a success of the wrong shape still fails the test.
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
   * Moves time forward for the service the suite checks (harness/time.ts): the reference's clock,
   * a short real sleep, or a skip; scheduler tests never skip, they poll afterwards.
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

let counter = 0;
/** A run-unique, lowercase name: `<prefix>-<base>-<n>`. */
export function uniqueName(base: string): string {
  const cfg = targetConfig();
  counter++;
  // pid and counter apart: files run in several workers at once, and share a worker's counter.
  return `${cfg.prefix}-${base}-${process.pid.toString(36)}-${counter}`.toLowerCase().replace(/[^a-z0-9_-]/g, '-');
}

/** The dialect's names for one API; paths are scoped by the documents' mount they fall under. */
export function namesOf(api: 'svc' | 'sched', cfg: TargetConfig): NameTranslator {
  return new NameTranslator(api, cfg.dialect.names, (p) => specPath(p, { mountAliases, namespace: cfg.svc.namespace }));
}

/**
 * The domain locks this worker's file holds, for the guard: undefined outside the harness's
 * project (no lock service, nothing to guard); a lease holding nothing when the lock service runs
 * but the file took no lease (the setup file did not run for it), so such a file moves nothing.
 */
function heldLease(): HeldLease | undefined {
  const lease = currentLease();
  if (lease) return lease;
  let running = false;
  try {
    running = inject('conformanceLocks') !== undefined;
  } catch {
    // Not inside a vitest worker.
  }
  return running ? { label: 'this file (it took no lease)', wants: {} } : undefined;
}

/** Spec observations of one test (or one file's setup), merged per operation and status. */
export class SpecLedger {
  private readonly byKey = new Map<string, SpecObservation>();

  record(obs: SpecObservation): void {
    mergeObservations(this.byKey, {
      ...obs,
      // Findings carry pieces of response bodies: mask secret fields by name and remembered values.
      findings: obs.findings.map((f) => ({ ...f, actual: safeActual(f.pointer, f.actual) })),
    });
  }

  get observations(): SpecObservation[] {
    return [...this.byKey.values()];
  }
}

function safeActual(pointer: string, actual: unknown): unknown {
  const last = pointer.split('/').pop() ?? '';
  if (actual !== undefined && redactor.isSecretField(last)) return '[REDACTED]';
  const masked = redactor.value(actual);
  const text = typeof masked === 'string' ? masked : JSON.stringify(masked);
  return text !== undefined && text.length > 300 ? `${text.slice(0, 300)}…` : masked;
}

function makeClient(
  api: 'svc' | 'sched',
  cfg: TargetConfig,
  registry: SpecRegistry,
  transcript: () => Transcript | undefined,
  ledger: () => SpecLedger | undefined,
): ApiClient {
  const names = namesOf(api, cfg);
  return new ApiClient(
    api,
    cfg,
    (ex, validate) => {
      if (api === 'svc') {
        // Remember secrets the target handed out (passwords, client secrets, tokens) before recording.
        redactor.value(ex.response.body);
      }
      if (validate) {
        // A spec finding is evidence for the operation's schema requirement, not a failure of the
        // test that happened to send the request (checks that assert the shape consult ex.spec).
        const result = observeAgainstSpec(ex, registry, { mountAliases, namespace: cfg.svc.namespace });
        ex.operation = result.operation;
        ex.spec = result.observation;
        if (result.observation) ledger()?.record(result.observation);
      }
      transcript()?.exchange(ex);
    },
    names.identity ? undefined : names,
    (method, path) => {
      // Checked before anything is sent: a file moves only the domains it holds exclusively.
      const effect = globalEffect(api, method, path);
      if (effect) guardGlobal(heldLease(), effect.domain, effect.what);
    },
  );
}

/** Whether an answer is the target refusing a request (as opposed to failing at it). */
function refused(ex: Exchange): boolean {
  const s = ex.response.status;
  return (s >= 400 && s < 500) || s === 501;
}

function answerOf(ex: Exchange): string {
  const errors = (ex.response.body as { errors?: unknown } | undefined)?.errors;
  const detail = Array.isArray(errors) && errors.length ? `: ${errors.slice(0, 3).join('; ')}` : '';
  return redactor.text(`${ex.request.method} ${ex.request.path} answered ${ex.response.status}${detail}`).slice(0, 500);
}

class Skip extends Error {
  constructor(readonly info: SkipInfo) {
    super(`skipped: ${info.reason}`);
  }
}

class NotApplicable extends Error {
  constructor(readonly info: NotApplicableInfo) {
    super(`not applicable: ${info.reason}`);
  }
}

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
}

/** The area of the file being collected: conformance() skips when its prerequisites are missing. */
let fileArea: string | undefined;

function unavailable(area: string | undefined): { reason: string; setting: string } | undefined {
  return area ? targetConfig().unavailable?.[area] : undefined;
}

export function suite(area: string): Suite {
  fileArea = area;
  const setups: ((s: SuiteContext) => Promise<void>)[] = [];
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
    suiteTranscript = new Transcript();
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
    };
    return ctx;
  };

  beforeAll(async () => {
    const s = await context();
    if (unavailable(area)) return;
    for (const fn of setups) await fn(s);
  }, targetConfig().timeouts.hookMs);

  // biome-ignore lint/correctness/noEmptyPattern: vitest requires a destructuring first parameter
  afterAll(async ({}, file) => {
    const leftovers = await suiteTracker?.runAll();
    const meta = (file as unknown as { meta: Record<string, unknown> }).meta;
    if (suiteLedger?.observations.length) meta.spec = suiteLedger.observations;
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
      if (ex.response.status !== 200 && ex.response.status !== 204) {
        throw new Error(
          `could not mount ${opts.type} at ${path}: status ${ex.response.status} ${redactor.text(ex.response.text).slice(0, 200)}`,
        );
      }
      ref.path = path;
      mountAliases.set(path, kind === 'auth' ? `auth/${defaultName}` : defaultName);
      s.track(
        `${kind === 'auth' ? 'auth method' : 'mount'} ${path}`,
        () => s.svc.delete(kind === 'auth' ? `sys/auth/${name}` : `sys/mounts/${name}`),
        'unmount',
      );
    });
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
 * The first of `ids` that is an assumption the target config switches off: a test naming it is
 * skipped before its body runs (so work done ahead of the test for it can be left out).
 */
export function switchedOffAssumption(ids: readonly string[], cfg: TargetConfig): string | undefined {
  const catalogue = loadCatalogue();
  return ids.find((id) => catalogue.get(id)?.kind === 'assumption' && cfg.assumptions[id] === false);
}

/** Registers one conformance test tied to catalogue ids. */
export function conformance(meta: ConformanceMeta, body: (t: T) => Promise<void>): void {
  const catalogue = loadCatalogue();
  const area = fileArea;
  const ids = [meta.id, ...(meta.also ?? [])];
  const unknown = ids.filter((id) => !catalogue.has(id));
  const entry = catalogue.get(meta.id);
  const problem = unknown.length
    ? `unknown requirement id(s) ${unknown.join(', ')}: add them to spec/catalogue or fix the test`
    : entry && entry.level !== meta.level
      ? `level ${meta.level} differs from the catalogue's ${entry.level} for ${meta.id}`
      : undefined;

  // The ids travel with the test from registration on, so a test whose file setup fails (and
  // which therefore never runs) is still reported under its requirements and level.
  const conformanceMeta = { ids, level: meta.level, area: entry?.area ?? area ?? 'unknown' };
  test(meta.title, {
    timeout: meta.timeoutMs ?? targetConfig().timeouts.testMs,
    meta: { conformance: conformanceMeta } as Record<string, unknown>,
  }, async (vctx: VitestContext) => {
    const taskMeta = vctx.task.meta as Record<string, unknown>;
    taskMeta.conformance = conformanceMeta;
    if (problem) throw new Error(problem);
    const cfg = targetConfig();
    const missing = unavailable(area);
    if (missing) {
      taskMeta.skip = { ...missing, prerequisite: true } satisfies SkipInfo;
      vctx.skip(`${missing.reason} (setting ${missing.setting})`);
      return;
    }
    const offAssumption = switchedOffAssumption(ids, cfg);
    if (offAssumption) {
      taskMeta.skip = {
        reason: `assumption ${offAssumption} is switched off for this target`,
        setting: `assumptions.${offAssumption}`,
      } satisfies SkipInfo;
      vctx.skip(`assumption ${offAssumption} is switched off (setting assumptions.${offAssumption})`);
      return;
    }
    for (const cap of meta.requires ?? []) {
      if (!cfg.capabilities[cap]) {
        taskMeta.skip = {
          reason: `target lacks capability "${cap}"`,
          setting: `capabilities.${cap}`,
        } satisfies SkipInfo;
        vctx.skip(`target lacks capability "${cap}" (setting capabilities.${cap})`);
        return;
      }
    }
    const registry = await specRegistry();
    const transcript = new Transcript();
    const tracker = new Tracker();
    const ledger = new SpecLedger();
    const skip = (reason: string, setting?: string, opts: { prerequisite?: boolean } = {}): never => {
      throw new Skip({ reason, setting, ...(opts.prerequisite ? { prerequisite: true } : {}) });
    };
    const notApplicable = (reason: string, setting?: string): never => {
      throw new NotApplicable({ reason, setting });
    };
    const svc = makeClient(
      'svc',
      cfg,
      registry,
      () => transcript,
      () => ledger,
    );
    const sched = makeClient(
      'sched',
      cfg,
      registry,
      () => transcript,
      () => ledger,
    );
    const t: T = {
      config: cfg,
      svc,
      sched,
      check(ex, ...checks) {
        for (const c of checks) c(ex, {});
        return ex;
      },
      precondition(ex, ...checks) {
        try {
          for (const c of checks) c(ex, {});
        } catch (err) {
          if (!refused(ex)) throw err;
          const why = err instanceof CheckFailure ? err.message.split('\n')[0] : String(err);
          throw new NotApplicable({
            reason: `a precondition was refused by the target (${why})`,
            answer: answerOf(ex),
          });
        }
        return ex;
      },
      notApplicable,
      track: (label, fn, phase) => tracker.add(label, fn, phase),
      unique: uniqueName,
      skip,
      advance: (seconds) => {
        // Checked before anything moves: a real sleep would not disturb other files, but the file
        // still depends on time passing, which the schedule has to say.
        const owner = timeOwnerOf(area);
        guardGlobal(heldLease(), timeDomain(owner), 'moves time (t.advance)');
        return moveTime(cfg, owner, { svc, sched }, seconds, skip);
      },
      note: (text) => transcript.note(text),
      secret: (value) => redactor.add(value),
      affected: (id) => {
        if (!knownVersion(cfg.svc.version))
          notApplicable(
            `${id} is version-gated and the target's version is unknown (${cfg.svc.versionSource ?? 'not configured'})`,
            'svc.version (SVC_VERSION) or dialect.versionProbe',
          );
        return isAffected(catalogue.get(id), cfg.svc.version);
      },
      knownIssue: (message) => {
        taskMeta.knownIssue = redactor.text(message);
        transcript.note(`known issue observed: ${message}`);
      },
    };
    let failure: unknown;
    try {
      await body(t);
    } catch (err) {
      failure = err;
    }
    const leftovers = await tracker.runAll();
    if (leftovers.length) taskMeta.leftovers = leftovers;
    taskMeta.transcript = transcript.entries;
    if (ledger.observations.length) taskMeta.spec = ledger.observations;
    if (failure instanceof NotApplicable) {
      taskMeta.notApplicable = {
        ...failure.info,
        reason: redactor.text(failure.info.reason),
      } satisfies NotApplicableInfo;
      vctx.skip(`not applicable: ${failure.info.reason}${failure.info.answer ? ` (${failure.info.answer})` : ''}`);
      return;
    }
    if (failure instanceof Skip) {
      taskMeta.skip = failure.info;
      vctx.skip(`${failure.info.reason}${failure.info.setting ? ` (setting ${failure.info.setting})` : ''}`);
      return;
    }
    if (failure) throw redactError(failure);
  });
}

/** Failure messages pass through the redactor before vitest prints or reports them. */
function redactError(err: unknown): Error {
  if (err instanceof Error) {
    const e = err;
    e.message = redactor.text(e.message);
    if (e.stack) e.stack = redactor.text(e.stack);
    const withValues = e as Error & { expected?: unknown; actual?: unknown };
    if ('expected' in withValues) withValues.expected = redactor.value(withValues.expected);
    if ('actual' in withValues) withValues.actual = redactor.value(withValues.actual);
    return e;
  }
  return new Error(redactor.text(String(err)));
}

export type RequestOpts = RequestOptions;
