/**
 * The suite author's API: `suite(area)` once per file, then `conformance({id, level, title}, fn)`
 * per behaviour. See docs/AUTHORING.md.
 */
import { afterAll, beforeAll, inject, test, type TestContext as VitestContext } from 'vitest';
import type { Capabilities, TargetConfig } from './config/types.js';
import { ApiClient, type RequestOptions } from './http/client.js';
import type { Exchange } from './http/exchange.js';
import { checkAgainstSpec, specPath } from './checks/schema.js';
import { NameTranslator } from './dialect/names.js';
import { CheckFailure, type Check } from './checks/index.js';
import { loadCatalogue, type Level } from './catalogue.js';
import { mountAliases, targetConfig, Transcript } from './context.js';
import { specRegistry, type SpecRegistry } from './spec/registry.js';
import { redactor } from './redact.js';
import { Tracker } from './tracker.js';
import { isAffected } from './versions.js';
import { globalEffect, guardGlobal, type Group } from './schedule.js';
import { moveTime, timeOwnerOf } from './time.js';

export { redactor } from './redact.js';
export type { Exchange } from './http/exchange.js';
export type { TargetConfig } from './config/types.js';

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
}

/** What a test body gets. */
export interface T {
  readonly config: TargetConfig;
  readonly svc: ApiClient;
  readonly sched: ApiClient;
  check(ex: Exchange, ...checks: Check[]): Exchange;
  track(label: string, cleanup: () => Promise<unknown>): void;
  unique(base: string): string;
  skip(reason: string, setting?: string): never;
  /**
   * Moves time forward for the service the suite checks (harness/time.ts): the reference's clock,
   * a short real sleep, or a skip; scheduler tests never skip, they poll afterwards.
   */
  advance(seconds: number): Promise<void>;
  note(text: string): void;
  /** Registers a value the test produced or received as secret, so reports mask it. */
  secret(value: unknown): void;
  /** Whether the target's version (svc.version) is in the affected ranges of a known-issue entry. */
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

/** The group of this worker's files (concurrent or serial); undefined outside the harness's projects. */
function group(): Group | undefined {
  try {
    return inject('conformanceGroup');
  } catch {
    return undefined;
  }
}

function makeClient(api: 'svc' | 'sched', cfg: TargetConfig, registry: SpecRegistry, transcript: () => Transcript | undefined, file?: string): ApiClient {
  const names = namesOf(api, cfg);
  return new ApiClient(api, cfg, (ex, validate) => {
    if (api === 'svc') {
      // Remember secrets the target handed out (passwords, client secrets, tokens) before recording.
      redactor.value(ex.response.body);
    }
    let failure: unknown;
    if (validate) {
      try {
        ex.operation = checkAgainstSpec(ex, registry, { mountAliases, namespace: cfg.svc.namespace });
      } catch (err) {
        failure = err;
      }
    }
    transcript()?.exchange(ex);
    if (failure) throw failure;
  }, names.identity ? undefined : names, (method, path) => {
    const effect = globalEffect(api, method, path);
    if (effect) guardGlobal(group(), file, effect);
  });
}

class Skip extends Error {
  constructor(readonly info: SkipInfo) {
    super(`skipped: ${info.reason}`);
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
  track(label: string, cleanup: () => Promise<unknown>): void;
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

  const context = async (): Promise<SuiteContext> => {
    if (ctx) return ctx;
    const cfg = targetConfig();
    const registry = await specRegistry();
    suiteTranscript = new Transcript();
    suiteTracker = new Tracker();
    const tracker = suiteTracker;
    ctx = {
      config: cfg,
      svc: makeClient('svc', cfg, registry, () => suiteTranscript),
      sched: makeClient('sched', cfg, registry, () => suiteTranscript),
      track: (label, fn) => tracker.add(label, fn),
      unique: uniqueName,
    };
    return ctx;
  };

  beforeAll(async () => {
    const s = await context();
    if (unavailable(area)) return;
    for (const fn of setups) await fn(s);
  }, targetConfig().timeouts.hookMs);

  // eslint-disable-next-line no-empty-pattern -- vitest requires a destructuring first parameter
  afterAll(async ({}, file) => {
    const leftovers = await suiteTracker?.runAll();
    if (leftovers?.length) {
      const meta = (file as unknown as { meta: Record<string, unknown> }).meta;
      meta.leftovers = leftovers;
      console.warn(`[conformance] ${area}: ${leftovers.length} resource(s) could not be removed: ${leftovers.map((l) => l.label).join(', ')}`);
    }
  }, targetConfig().timeouts.hookMs);

  const mountLike = (kind: 'secret' | 'auth', defaultName: string, opts: { type: string; options?: Record<string, string>; configKey?: string }): MountRef => {
    const ref = { path: '' };
    setups.push(async (s) => {
      const configured = s.config.mounts[opts.configKey ?? defaultName];
      if (configured) {
        ref.path = configured.replace(/\/+$/, '');
        mountAliases.set(ref.path, kind === 'auth' ? `auth/${defaultName}` : defaultName);
        return;
      }
      if (!s.config.capabilities.mounts) {
        throw new Error(`the ${area} suite needs a ${opts.type} mount: set mounts.${opts.configKey ?? defaultName} in the config file, or capabilities.mounts: true`);
      }
      const name = uniqueName(defaultName);
      const path = kind === 'auth' ? `auth/${name}` : name;
      const ex = await s.svc.post(kind === 'auth' ? `sys/auth/${name}` : `sys/mounts/${name}`, { body: { type: opts.type, options: opts.options ?? {} } });
      if (ex.response.status !== 200 && ex.response.status !== 204) {
        throw new Error(`could not mount ${opts.type} at ${path}: status ${ex.response.status} ${redactor.text(ex.response.text).slice(0, 200)}`);
      }
      ref.path = path;
      mountAliases.set(path, kind === 'auth' ? `auth/${defaultName}` : defaultName);
      s.track(`${kind === 'auth' ? 'auth method' : 'mount'} ${path}`, () => s.svc.delete(kind === 'auth' ? `sys/auth/${name}` : `sys/mounts/${name}`));
    });
    return ref;
  };

  return {
    area,
    mount: (defaultName, opts) => mountLike('secret', defaultName, opts),
    auth: (defaultName, opts) => mountLike('auth', defaultName, opts),
    setup: (fn) => { setups.push(fn); },
  };
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

  test(meta.title, { timeout: meta.timeoutMs ?? targetConfig().timeouts.testMs }, async (vctx: VitestContext) => {
    const taskMeta = vctx.task.meta as Record<string, unknown>;
    taskMeta.conformance = { ids, level: meta.level, area: entry?.area ?? 'unknown' };
    if (problem) throw new Error(problem);
    const cfg = targetConfig();
    const missing = unavailable(area);
    if (missing) {
      taskMeta.skip = missing satisfies SkipInfo;
      vctx.skip(`${missing.reason} (setting ${missing.setting})`);
      return;
    }
    const offAssumption = ids.find((id) => catalogue.get(id)?.kind === 'assumption' && cfg.assumptions[id] === false);
    if (offAssumption) {
      taskMeta.skip = { reason: `assumption ${offAssumption} is switched off for this target`, setting: `assumptions.${offAssumption}` } satisfies SkipInfo;
      vctx.skip(`assumption ${offAssumption} is switched off (setting assumptions.${offAssumption})`);
      return;
    }
    for (const cap of meta.requires ?? []) {
      if (!cfg.capabilities[cap]) {
        taskMeta.skip = { reason: `target lacks capability "${cap}"`, setting: `capabilities.${cap}` } satisfies SkipInfo;
        vctx.skip(`target lacks capability "${cap}" (setting capabilities.${cap})`);
        return;
      }
    }
    const registry = await specRegistry();
    const transcript = new Transcript();
    const tracker = new Tracker();
    const skip = (reason: string, setting?: string): never => {
      throw new Skip({ reason, setting });
    };
    const file = vctx.task.file.filepath;
    const svc = makeClient('svc', cfg, registry, () => transcript, file);
    const sched = makeClient('sched', cfg, registry, () => transcript, file);
    const t: T = {
      config: cfg,
      svc,
      sched,
      check(ex, ...checks) {
        for (const c of checks) c(ex, {});
        return ex;
      },
      track: (label, fn) => tracker.add(label, fn),
      unique: uniqueName,
      skip,
      advance: (seconds) => {
        // Checked before anything moves: a real sleep would not disturb other files, but the file
        // still depends on time passing, which the schedule has to say.
        guardGlobal(group(), file, 'moves time (t.advance)');
        return moveTime(cfg, timeOwnerOf(area), { svc, sched }, seconds, skip);
      },
      note: (text) => transcript.note(text),
      secret: (value) => redactor.add(value),
      affected: (id) => isAffected(catalogue.get(id), cfg.svc.version),
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
