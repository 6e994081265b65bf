/**
 * One rule of one operation, run ahead of its test in the suite's pool: the generated cases are
 * sent and judged, and the outcome is kept for the test to report (skip, notes, finding). Nothing
 * here touches the test context, so many rules can run at once while the tests report in order.
 */
import { redactor, type TargetConfig } from '../../harness/index.js';
import type { Exchange } from '../../harness/index.js';
import {
  type Case,
  type Operation,
  type OperationPlan,
  type Rule,
  type RuleResult,
  baseBody,
  baseQuery,
  boundaryMutations,
  casesOf,
  entryKeys,
  firstDifference,
  fullBody,
  invalidMutations,
  judgeBoundary,
  judgeInvalid,
  observed,
  planOperation,
  runRule,
  send,
} from '../../harness/robustness/index.js';
import { Unavailable, type Family, type OpTweak } from './families.js';
import { type Clients, documented5xx, paramValue, senderFor } from './requests.js';

/** What the test of a rule reports. */
export type Outcome =
  | { kind: 'skip'; reason: string; setting?: string }
  | { kind: 'error'; message: string }
  | { kind: 'done'; result: RuleResult; note: string };

export interface Exercise {
  cfg: TargetConfig;
  clients: Clients;
  operations: readonly Operation[];
  /** The fixtures of each spec document, or why they could not be set up. */
  families: ReadonlyMap<string, Family | Error>;
  /** The suite's time cap (epoch ms). */
  deadline: number;
}

function familyOf(x: Exercise, op: Operation): Family | Exclude<Outcome, { kind: 'done' }> {
  const fam = x.families.get(op.file);
  if (fam instanceof Unavailable) return { kind: 'skip', reason: fam.reason, setting: fam.setting };
  if (fam instanceof Error)
    return { kind: 'error', message: `the ${op.file} fixtures could not be set up: ${redactor.text(fam.message)}` };
  if (!fam) return { kind: 'error', message: `the ${op.file} fixtures were not set up` };
  const skip = fam.skip[op.operationId!];
  if (skip) return { kind: 'skip', reason: skip.reason, setting: skip.setting };
  return fam;
}

type Judge = (c: Case) => Promise<{ message: string; status?: number } | undefined>;

/** The unchanged rule: read, send the refused write, read again; only the write's own entries of a listing count. */
function unchangedJudge(
  x: Exercise,
  plan: OperationPlan,
  fam: Family,
  tweak: OpTweak,
  base: unknown,
  counter: { requests: number },
  sendCase: (c: Case) => Promise<Exchange | Error>,
): Judge {
  const observer = plan.observer!;
  const reader = x.operations.find((o) => o.operationId === observer.operationId);
  const entries = observer.entries
    ? entryKeys(
        observer.entries,
        (name) => (plan.pathParams.includes(name) ? paramValue(x.cfg, fam, tweak, name) : undefined),
        base,
      )
    : undefined;
  const read = reader && {
    sender: senderFor(x.cfg, x.clients, reader, fam, tweak, counter),
    query: baseQuery(planOperation(reader)),
  };
  const observe = async (): Promise<string | Error> => {
    if (!read) return new Error(`x-observed-by names ${observer.operationId}, which the spec does not have`);
    const ex = await send(read.sender, { kind: 'base', target: '', query: read.query });
    return ex instanceof Error ? ex : observed(ex, observer.ignore, entries);
  };
  return async (c) => {
    const before = await observe();
    if (before instanceof Error) return { message: `the observing read failed: ${redactor.text(before.message)}` };
    const ex = await sendCase(c);
    if (ex instanceof Error || ex.response.status < 400) return undefined; // the invalid-4xx rule reports these
    const after = await observe();
    if (after instanceof Error) return { message: `the observing read failed: ${redactor.text(after.message)}` };
    if (after === before) return undefined;
    return {
      status: ex.response.status,
      message: `refused with ${ex.response.status}, but ${observer.operationId} changed: ${firstDifference(before, after)}`,
      exchange: ex,
    };
  };
}

export async function exercise(x: Exercise, op: Operation, plan: OperationPlan, rule: Rule): Promise<Outcome> {
  const fam = familyOf(x, op);
  if (!('mounts' in fam)) return fam;
  const tweak = fam.ops[plan.operationId] ?? {};
  // This rule's own count: rules run side by side, so the suite's counter cannot tell them apart.
  const counter = { requests: 0 };
  const sender = senderFor(x.cfg, x.clients, op, fam, tweak, counter);
  const base = tweak.body ?? baseBody(plan);
  const query = baseQuery(plan);
  const documented = documented5xx(x.operations, op);
  const sendCase = async (c: Case): Promise<Exchange | Error> => {
    const ex = await send(sender, c);
    if (!(ex instanceof Error)) await fam.afterSend?.(plan.operationId, ex);
    return ex;
  };

  let mutations: ReturnType<typeof invalidMutations>;
  let judge: Judge;
  if (rule === 'boundary-no-5xx') {
    const properties = !tweak.noBoundaryProperties;
    mutations = boundaryMutations(plan, base, query, { properties }).filter(
      (m) => !tweak.pin?.some((p) => m.target === `/${p}`),
    );
    judge = async (c) => judgeBoundary(documented, await sendCase(c));
  } else if (rule === 'invalid-4xx') {
    mutations = invalidMutations(plan, base, query);
    judge = async (c) => judgeInvalid(op.api, await sendCase(c));
  } else {
    const full = fullBody(plan, base);
    mutations = invalidMutations(plan, full, query);
    judge = unchangedJudge(x, plan, fam, tweak, full, counter, sendCase);
  }
  const kinds = casesOf(mutations);
  if (!kinds.length)
    return {
      kind: 'error',
      message: `${plan.operationId}: the generator has no ${rule} case (the catalogue and plan.ts disagree)`,
    };

  // Decided when the rule starts: before the cap every rule gets its full budget; after it, one
  // request per kind of case.
  const numRuns = Date.now() < x.deadline ? x.cfg.robustness.examplesPerOperation : 1;
  const result = await runRule({
    operationId: plan.operationId,
    rule,
    kinds,
    sender,
    judge,
    seed: x.cfg.robustness.seed,
    numRuns,
    deadline: x.deadline,
    counter,
  });
  return {
    kind: 'done',
    result,
    note: `${rule}: ${result.runs} generated case(s), ${result.requests} request(s), seed ${x.cfg.robustness.seed}${result.interrupted ? ' (interrupted by the time cap)' : ''}`,
  };
}

/** What a failing rule expected, for the check failure. */
export function expectation(rule: Rule): string {
  return rule === 'boundary-no-5xx' ? 'no 5xx' : rule === 'invalid-4xx' ? '4xx with an error body' : 'unchanged';
}
