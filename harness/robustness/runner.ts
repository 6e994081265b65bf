/**
 * Runs one rule of one operation as a fast-check property: generated cases are sent, each answer
 * judged; a failing case is shrunk (fast-check sends the smaller candidates) and reported with the
 * seed and path that replay it. Every rule of every operation has its own seed, derived from the
 * run's seed (`robustness.seed`, `--seed`), so one failure replays without the rest of the run,
 * and rules running side by side (`robustness.concurrency`) send what they would send one at a time.
 */
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import type { ApiClient } from '../http/client.js';
import type { Exchange } from '../http/exchange.js';
import { redactor } from '../redaction/redact.js';
import type { Case, Rule } from './plan.js';

/** The request a case becomes, as it is reported (redacted before it leaves this module). */
export interface SentRequest {
  method: string;
  path: string;
  query?: Record<string, string>;
  contentType?: string | null;
  body?: unknown;
  raw?: string;
}

export interface Finding {
  operationId: string;
  rule: Rule;
  kind: string;
  target: string;
  /** The shrunk request, redacted. */
  request: SentRequest;
  status?: number;
  message: string;
  seed: number;
  /** fast-check's path to the counterexample: `--seed` alone replays it; path replays it without searching. */
  path?: string;
  runs: number;
  shrinks: number;
}

export interface RuleResult {
  operationId: string;
  rule: Rule;
  seed: number;
  runs: number;
  requests: number;
  interrupted: boolean;
  finding?: Finding;
}

/** A 31-bit seed for one rule of one operation, stable for a given run seed. */
export function ruleSeed(seed: number, operationId: string, rule: Rule): number {
  return createHash('sha256').update(`${seed}:${operationId}:${rule}`).digest().readUInt32BE(0) & 0x7fffffff;
}

/** What the judge of a case says: undefined when the answer keeps the rule. */
/** A rule broken by one case: what is wrong, and the exchange it was seen on (when there was an answer). */
export type Verdict = { message: string; status?: number; exchange?: Exchange } | undefined;

/**
 * The exchange of a finding's counterexample, kept out of the finding itself (findings are
 * written to robustness.json; an exchange still holds the token): the failure's reproduction.
 */
const findingExchanges = new WeakMap<Finding, Exchange>();

export function exchangeOf(finding: Finding): Exchange | undefined {
  return findingExchanges.get(finding);
}

export interface Sender {
  /** The request a case becomes (method, concrete path, query, body). */
  request(c: Case): SentRequest;
  client: ApiClient;
  /** Counts the answers this sender got, for the rule it works for (rules run side by side). */
  counter?: { requests: number };
}

/** Sends a case; a transport failure (no answer within the timeout, reset) is returned, not thrown. */
export async function send(sender: Sender, c: Case): Promise<Exchange | Error> {
  const r = sender.request(c);
  try {
    const ex = await sender.client.request(r.method, r.path, {
      query: r.query,
      validate: false,
      ...(r.raw !== undefined
        ? { rawBody: r.raw, contentType: r.contentType ?? undefined }
        : r.body !== undefined
          ? r.contentType === undefined
            ? { body: r.body }
            : { rawBody: JSON.stringify(r.body), contentType: r.contentType ?? undefined }
          : {}),
    });
    if (sender.counter) sender.counter.requests++;
    return ex;
  } catch (err) {
    return err as Error;
  }
}

class RuleBroken extends Error {
  constructor(readonly verdict: NonNullable<Verdict>) {
    super(verdict.message);
  }
}

export interface RunRuleOptions {
  operationId: string;
  rule: Rule;
  /** The cases, one arbitrary per kind; each kind gets its share of `numRuns` (at least one). */
  kinds: { kind: string; arb: fc.Arbitrary<Case> }[];
  sender: Sender;
  /** Judges one case (sending it, and for `unchanged` reading before and after). */
  judge: (c: Case) => Promise<Verdict>;
  seed: number;
  numRuns: number;
  /**
   * The suite's time cap (epoch ms): generating and shrinking stop there. Nothing else limits a
   * rule by time, so until the cap the cases sent and the counterexample found depend only on the
   * seed, not on how fast the target answers or how many rules run at once.
   */
  deadline: number;
  /** What a kind of case still gets once the cap has passed: enough for one case and a short shrink. */
  minKindMs?: number;
  /** The requests of this rule (its senders count into it), for the figures. */
  counter: { requests: number };
}

const MIN_KIND_MS = 1000;

export async function runRule(o: RunRuleOptions): Promise<RuleResult> {
  const before = o.counter.requests;
  const result: RuleResult = {
    operationId: o.operationId,
    rule: o.rule,
    seed: o.seed,
    runs: 0,
    requests: 0,
    interrupted: false,
  };
  const perKind = Math.max(1, Math.ceil(o.numRuns / Math.max(1, o.kinds.length)));
  for (const { kind, arb } of o.kinds) {
    const limit = Math.max(o.minKindMs ?? MIN_KIND_MS, o.deadline - Date.now());
    const seed = ruleSeed(o.seed, o.operationId, `${o.rule}:${kind}` as Rule);
    const property = fc.asyncProperty(arb, async (c) => {
      const verdict = await o.judge(c);
      if (verdict) throw new RuleBroken(verdict);
    });
    let details = await fc.check(property, {
      seed,
      numRuns: perKind,
      interruptAfterTimeLimit: limit,
      markInterruptAsFailure: false,
    });
    // A first answer slower than what is left (a key generated on first use) still gets one case.
    if (details.numRuns === 0) details = await fc.check(property, { seed, numRuns: 1 });
    result.runs += details.numRuns;
    result.interrupted ||= details.interrupted;
    if (details.failed && details.counterexample) {
      result.finding = findingOf(o, details);
      break;
    }
  }
  result.requests = o.counter.requests - before;
  return result;
}

/** The shrunk counterexample of a failed check, redacted, with what replays it. */
function findingOf(o: RunRuleOptions, details: fc.RunDetails<[Case]>): Finding {
  const c = details.counterexample![0];
  const err = details.errorInstance;
  const verdict =
    err instanceof RuleBroken
      ? err.verdict
      : { message: `the check itself failed: ${String((err as Error | undefined)?.message ?? err)}` };
  const finding: Finding = {
    operationId: o.operationId,
    rule: o.rule,
    kind: c.kind,
    target: c.target,
    request: redactRequest(o.sender.request(c)),
    status: verdict.status,
    message: redactor.text(verdict.message),
    seed: o.seed,
    path: details.counterexamplePath ?? undefined,
    runs: details.numRuns,
    shrinks: details.numShrinks,
  };
  if (err instanceof RuleBroken && err.verdict.exchange) findingExchanges.set(finding, err.verdict.exchange);
  return finding;
}

function redactRequest(r: SentRequest): SentRequest {
  const out: SentRequest = { method: r.method, path: r.path };
  if (r.query && Object.keys(r.query).length) out.query = redactor.value(r.query);
  if (r.contentType !== undefined) out.contentType = r.contentType;
  if (r.body !== undefined) out.body = redactor.value(r.body);
  if (r.raw !== undefined)
    out.raw = redactor.text(r.raw.length > 200 ? `${r.raw.slice(0, 200)}... (${r.raw.length} chars)` : r.raw);
  return out;
}

/** The shrunk request and answer, one line each, for a failure message. */
export function describeFinding(f: Finding): string {
  const q =
    f.request.query && Object.keys(f.request.query).length ? `?${new URLSearchParams(f.request.query).toString()}` : '';
  const ct = f.request.contentType === undefined ? '' : ` (Content-Type: ${f.request.contentType ?? 'none'})`;
  const body =
    f.request.raw !== undefined
      ? ` raw ${JSON.stringify(f.request.raw)}`
      : f.request.body !== undefined
        ? ` ${truncate(JSON.stringify(f.request.body))}`
        : '';
  return [
    `${f.operationId} ${f.rule}: ${f.kind}${f.target ? ` at ${f.target}` : ''}`,
    `  request (shrunk in ${f.shrinks} step(s) after ${f.runs} run(s)): ${f.request.method} ${f.request.path}${q}${ct}${body}`,
    `  answer: ${f.message}`,
    `  replay: --seed ${f.seed}${f.path ? ` (fast-check path ${f.path})` : ''}`,
  ].join('\n');
}

function truncate(s: string, n = 400): string {
  return s.length > n ? `${s.slice(0, n)}... (${s.length} chars)` : s;
}
