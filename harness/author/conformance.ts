/**
 * `conformance({id, level, title}, fn)`: registers one vitest test tied to catalogue ids. Before
 * the body runs it skips for a missing prerequisite, an assumption switched off or a capability
 * the target lacks; afterwards it runs the test's cleanup and records the transcript, the spec
 * observations and the outcome (skipped, not applicable, failed with a redacted message).
 */
import { test, type TestContext as VitestContext } from 'vitest';
import { Attribution } from '../attribution.js';
import { targetConfig } from '../config/target-config.js';
import type { TargetConfig } from '../config/types.js';
import { Transcript, tokenHeadersOf, type TranscriptEntry } from '../http/transcript.js';
import { reproduce } from '../report/curl.js';
import { redactor } from '../redaction/redact.js';
import { loadCatalogue } from '../spec/catalogue.js';
import { specRegistry } from '../spec/registry.js';
import { SpecLedger } from './clients.js';
import { currentArea, currentSetup, unavailable } from './suite.js';
import {
  type ConformanceMeta,
  NotApplicable,
  type NotApplicableInfo,
  Skip,
  type SkipInfo,
  type T,
} from './test-api.js';
import { testContext } from './test-context.js';
import { Tracker } from './tracker.js';
import { inFileOrder } from './in-file-order.js';
import { clockMovable } from '../domain-locks/declarations.js';

/**
 * The first of `ids` that is an assumption the target config switches off: a test naming it is
 * skipped before its body runs (so work done ahead of the test for it can be left out).
 */
export function switchedOffAssumption(ids: readonly string[], cfg: TargetConfig): string | undefined {
  const catalogue = loadCatalogue();
  return ids.find((id) => catalogue.get(id)?.kind === 'assumption' && cfg.assumptions[id] === false);
}

/** Why the test must not run on this target (skip info and vitest's message), or undefined. */
function skipBeforeRun(
  meta: ConformanceMeta,
  ids: string[],
  area: string | undefined,
  cfg: TargetConfig,
): { info: SkipInfo; message: string } | undefined {
  const missing = unavailable(area);
  if (missing)
    return {
      info: { ...missing, prerequisite: true },
      message: `${missing.reason} (setting ${missing.setting})`,
    };
  const offAssumption = switchedOffAssumption(ids, cfg);
  if (offAssumption)
    return {
      info: {
        reason: `assumption ${offAssumption} is switched off for this target`,
        setting: `assumptions.${offAssumption}`,
      },
      message: `assumption ${offAssumption} is switched off (setting assumptions.${offAssumption})`,
    };
  const cap = (meta.requires ?? []).find((c) => !cfg.capabilities[c]);
  if (cap)
    return {
      info: { reason: `target lacks capability "${cap}"`, setting: `capabilities.${cap}` },
      message: `target lacks capability "${cap}" (setting capabilities.${cap})`,
    };
  return undefined;
}

/** Registers one conformance test tied to catalogue ids. */
export function conformance(meta: ConformanceMeta, body: (t: T) => Promise<void>): void {
  const catalogue = loadCatalogue();
  const area = currentArea();
  const ids = [meta.id, ...(meta.also ?? [])];
  const unknown = ids.filter((id) => !catalogue.has(id));
  const entry = catalogue.get(meta.id);
  const problem = unknown.length
    ? `unknown requirement id(s) ${unknown.join(', ')}: add them to spec/<area>/requirements.yaml or fix the test`
    : entry && entry.level !== meta.level
      ? `level ${meta.level} differs from the catalogue's ${entry.level} for ${meta.id}`
      : undefined;

  // The ids travel with the test from registration on, so a test whose file setup fails (and
  // which therefore never runs) is still reported under its requirements and level.
  const conformanceMeta = { ids, level: meta.level, area: entry?.area ?? area ?? 'unknown' };
  const setup = currentSetup();
  const order = inFileOrder(meta, area, clockMovable(targetConfig().capabilities));
  test(meta.title, {
    timeout: meta.timeoutMs ?? targetConfig().timeouts.testMs,
    meta: { conformance: conformanceMeta } as Record<string, unknown>,
    concurrent: order.concurrent,
    sequential: !order.concurrent,
  }, async (vctx: VitestContext) => {
    const taskMeta = vctx.task.meta as Record<string, unknown>;
    const cfg = targetConfig();
    // Which requirement each assertion proves (harness/attribution.ts); its ids grow by the
    // assumptions the test's helpers check (t.assuming).
    const attribution = new Attribution({
      ids,
      isAssumption: (id) => catalogue.get(id)?.kind === 'assumption',
      switchedOff: (id) => cfg.assumptions[id] === false,
    });
    taskMeta.conformance = { ...conformanceMeta, ids: attribution.ids };
    if (problem) throw new Error(problem);
    const early = skipBeforeRun(meta, ids, area, cfg);
    if (early) {
      taskMeta.skip = early.info;
      vctx.skip(early.message);
      return;
    }
    if (setup?.refused) {
      taskMeta.notApplicable = setup.refused satisfies NotApplicableInfo;
      vctx.skip(
        `not applicable: the file's set-up: ${setup.refused.reason}${setup.refused.answer ? ` (${setup.refused.answer})` : ''}`,
      );
      return;
    }
    const transcript = new Transcript(tokenHeadersOf(cfg));
    const tracker = new Tracker();
    const ledger = new SpecLedger();
    const t = testContext({
      cfg,
      area,
      registry: await specRegistry(),
      catalogue,
      transcript,
      tracker,
      ledger,
      taskMeta,
      attribution,
      order,
    });
    let failure: unknown;
    try {
      await body(t);
    } catch (err) {
      failure = err;
    }
    // The last exchange before the test ended: the reproduction of a failure no check names (cleanup comes after).
    const lastBefore: TranscriptEntry | undefined = transcript.lastExchange();
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
    const settled = attribution.settle(failure);
    taskMeta.attribution = settled.attributed;
    if (settled.error === undefined) return;
    // The exchange the failing check looked at (the test's last one when the failure names none).
    const entry = settled.exchange ? transcript.entryOf(settled.exchange) : lastBefore;
    if (entry) taskMeta.reproduction = reproduce(entry);
    throw redactError(settled.error);
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
