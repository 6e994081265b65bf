/**
 * The robustness suite, generated from spec/openapi: for every operation of every document,
 * requests that break the request schema one property at a time must be refused (4xx with the
 * error body, never a 5xx or no answer), requests inside the schema's edges must get no 5xx, and a
 * refused write must leave the resource as the operation's `x-observed-by` read saw it.
 * Property-based (fast-check): seeded (`robustness.seed`, `--seed`), shrunk, budgeted
 * (`robustness.examplesPerOperation`, `robustness.timeCapSeconds`). Requirement ids are generated
 * too (spec/catalogue/robustness*.yaml).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { conformance, namesOf, suite, type T } from '../../harness/index.js';
import { targetConfig } from '../../harness/index.js';
import { loadCatalogue } from '../../harness/index.js';
import { CheckFailure } from '../../harness/checks/index.js';
import { ApiClient } from '../../harness/index.js';
import type { Exchange } from '../../harness/index.js';
import { redactor } from '../../harness/index.js';
import {
  specRegistry,
  type Operation,
  baseBody,
  baseQuery,
  fullBody,
  boundaryMutations,
  casesOf,
  invalidMutations,
  planOperation,
  type Case,
  type OperationPlan,
  type Rule,
  describeFinding,
  runRule,
  send,
  type Finding,
  type RuleResult,
  type SentRequest,
  type Sender,
  firstDifference,
  judgeBoundary,
  judgeInvalid,
  observed,
  groupOf,
  requirementId,
} from '../../harness/robustness/index.js';
import { FAMILIES, Unavailable, type Family, type OpTweak } from './families.js';

const s = suite('robustness');
const cfg = targetConfig();
const registry = await specRegistry();
const catalogue = loadCatalogue();
const started = Date.now();
const deadline = started + cfg.robustness.timeCapSeconds * 1000;
const counter = { requests: 0 };

const families = new Map<string, Family | Error>();
s.setup(async (ctx) => {
  console.log(
    `[robustness] seed ${cfg.robustness.seed} (replay with --seed ${cfg.robustness.seed}), ${cfg.robustness.examplesPerOperation} example(s) per rule and operation, time cap ${cfg.robustness.timeCapSeconds}s`,
  );
  for (const [file, setup] of Object.entries(FAMILIES)) {
    try {
      families.set(file, await setup(ctx));
    } catch (err) {
      families.set(file, err as Error);
    }
  }
});

// ---------------------------------------------------------------------------------------------
// operations in a safe order: within each document reads and writes first, deletions last

const byId = new Map(registry.operations.map((o) => [o.operationId, o]));
const ordered = [...registry.operations].sort(
  (a, b) =>
    a.file.localeCompare(b.file) ||
    Number(a.method === 'DELETE') - Number(b.method === 'DELETE') ||
    (a.operationId ?? '').localeCompare(b.operationId ?? ''),
);
const unknownFamily = ordered.filter((o) => !FAMILIES[o.file]).map((o) => o.file);
if (unknownFamily.length)
  throw new Error(
    `no robustness family for ${[...new Set(unknownFamily)].join(', ')}: add one to suites/robustness/families.ts`,
  );
const rulesTotal = ordered.reduce((n, o) => n + planOperation(o).rules.length, 0);
let rulesDone = 0;

// ---------------------------------------------------------------------------------------------
// requests

function clientFor(api: 'svc' | 'sched'): ApiClient {
  // The profile's names (engine types, fields) apply to generated requests as to every suite's.
  const names = namesOf(api, cfg);
  return new ApiClient(
    api,
    cfg,
    (ex) => {
      counter.requests++;
      // Remember what the target handed out as secret (tokens, passwords) so reports mask it.
      if (api === 'svc') redactor.value(ex.response.body);
    },
    names.identity ? undefined : names,
  );
}
const clients = { svc: clientFor('svc'), sched: clientFor('sched') };

function pathOf(op: Operation, fam: Family, tweak: OpTweak, unknownName: boolean): string {
  let tpl = op.api === 'sched' ? op.template.replace(/^\/v1/, '') : op.template;
  for (const [def, real] of Object.entries(fam.mounts).sort((a, b) => b[0].length - a[0].length)) {
    if (tpl === `/${def}` || tpl.startsWith(`/${def}/`)) {
      tpl = `/${tweak.mount ?? real}${tpl.slice(def.length + 1)}`;
      break;
    }
  }
  const slashy = new Set(
    ((op.op.parameters ?? []) as { name: string; in: string; 'x-allow-slashes'?: boolean }[])
      .filter((p) => p['x-allow-slashes'])
      .map((p) => p.name),
  );
  return tpl.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = unknownName
      ? `${cfg.prefix}-rb-none`
      : (tweak.params?.[name] ?? fam.params[name] ?? `${cfg.prefix}-rb-${name}`);
    return slashy.has(name) ? value.split('/').map(encodeURIComponent).join('/') : encodeURIComponent(value);
  });
}

function senderFor(op: Operation, fam: Family, tweak: OpTweak): Sender {
  return {
    client: clients[op.api],
    request: (c: Case): SentRequest => ({
      method: op.method,
      path: pathOf(op, fam, tweak, !!c.unknownName),
      query: c.query,
      ...(c.raw !== undefined ? { raw: c.raw, contentType: c.contentType } : {}),
      ...(c.raw === undefined && c.body !== undefined
        ? { body: c.body, ...(c.contentType !== undefined ? { contentType: c.contentType } : {}) }
        : {}),
    }),
  };
}

/** 5xx statuses the spec documents for the operation or its PUT/POST twin on the same path. */
function documented5xx(op: Operation): Set<number> {
  const twins = ['PUT', 'POST'].includes(op.method)
    ? registry.operations.filter(
        (o) => o.api === op.api && o.template === op.template && ['PUT', 'POST'].includes(o.method),
      )
    : [op];
  return new Set(
    twins.flatMap((o) =>
      Object.keys(o.op.responses ?? {})
        .filter((k) => /^5\d\d$/.test(k))
        .map(Number),
    ),
  );
}

// ---------------------------------------------------------------------------------------------
// findings, for the report

interface OperationSummary {
  operationId: string;
  file: string;
  method: string;
  template: string;
  exercised: boolean;
  skipped?: { reason: string; setting?: string };
  requests: number;
  rules: Pick<RuleResult, 'rule' | 'runs' | 'requests' | 'interrupted'>[];
  findings: Finding[];
}
const summaries = new Map<string, OperationSummary>();

function summaryOf(op: Operation): OperationSummary {
  const id = op.operationId!;
  let sum = summaries.get(id);
  if (!sum) {
    sum = {
      operationId: id,
      file: op.file,
      method: op.method,
      template: op.template,
      exercised: false,
      requests: 0,
      rules: [],
      findings: [],
    };
    summaries.set(id, sum);
  }
  return sum;
}

afterAll(() => {
  const all = [...summaries.values()];
  const exercised = all.filter((o) => o.exercised);
  const skipped = all.filter((o) => o.skipped);
  const findings = all.flatMap((o) => o.findings);
  const report = {
    seed: cfg.robustness.seed,
    examplesPerOperation: cfg.robustness.examplesPerOperation,
    timeCapSeconds: cfg.robustness.timeCapSeconds,
    operations: registry.operations.length,
    exercised: exercised.length,
    skipped: skipped.map((o) => ({ operationId: o.operationId, ...o.skipped })),
    requests: counter.requests,
    durationMs: Date.now() - started,
    findings: all
      .filter((o) => o.findings.length)
      .map((o) => ({ operationId: o.operationId, method: o.method, template: o.template, findings: o.findings })),
    perOperation: all,
  };
  mkdirSync(cfg.run.reportDir, { recursive: true });
  writeFileSync(join(cfg.run.reportDir, 'robustness.json'), `${JSON.stringify(report, null, 2)}\n`);
  console.log(
    `[robustness] exercised ${exercised.length} of ${registry.operations.length} operations, skipped ${skipped.length}${skipped.length ? ` (${skipped.map((o) => `${o.operationId}: ${o.skipped!.reason}`).join('; ')})` : ''}; ${counter.requests} requests in ${((Date.now() - started) / 1000).toFixed(1)}s; ${findings.length} finding(s); seed ${cfg.robustness.seed}; details in ${join(cfg.run.reportDir, 'robustness.json')}`,
  );
});

// ---------------------------------------------------------------------------------------------
// one test per operation and rule

const TITLES: Record<Rule, string> = {
  'invalid-4xx': 'refuses requests that break its schema with a 4xx and an error body',
  'boundary-no-5xx': 'answers requests at the edges of its schema without a 5xx',
  unchanged: 'reads back unchanged after a refused write',
};

function familyOf(t: T, op: Operation): Family {
  const fam = families.get(op.file);
  if (fam instanceof Unavailable) {
    summaryOf(op).skipped = { reason: fam.reason, setting: fam.setting };
    t.skip(fam.reason, fam.setting);
  }
  if (fam instanceof Error)
    throw new Error(`the ${op.file} fixtures could not be set up: ${redactor.text(fam.message)}`);
  if (!fam) throw new Error(`the ${op.file} fixtures were not set up`);
  const skip = fam.skip[op.operationId!];
  if (skip) {
    summaryOf(op).skipped = skip;
    t.skip(skip.reason, skip.setting);
  }
  return fam;
}

async function observe(plan: OperationPlan, fam: Family, tweak: OpTweak): Promise<string | Error> {
  const reader = byId.get(plan.observer!.operationId);
  if (!reader) return new Error(`x-observed-by names ${plan.observer!.operationId}, which the spec does not have`);
  const readerPlan = planOperation(reader);
  const ex = await send(senderFor(reader, fam, tweak), { kind: 'base', target: '', query: baseQuery(readerPlan) });
  return ex instanceof Error ? ex : observed(ex, plan.observer!.ignore);
}

async function exercise(t: T, op: Operation, plan: OperationPlan, rule: Rule): Promise<void> {
  const fam = familyOf(t, op);
  const tweak = fam.ops[plan.operationId] ?? {};
  const sender = senderFor(op, fam, tweak);
  const base = tweak.body ?? baseBody(plan);
  const query = baseQuery(plan);
  const documented = documented5xx(op);
  const sendCase = async (c: Case): Promise<Exchange | Error> => {
    const ex = await send(sender, c);
    if (!(ex instanceof Error)) await fam.afterSend?.(plan.operationId, ex);
    return ex;
  };

  let mutations: ReturnType<typeof invalidMutations>;
  let judge: (c: Case) => Promise<ReturnType<typeof judgeBoundary>>;
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
    mutations = invalidMutations(plan, fullBody(plan, base), query);
    judge = async (c) => {
      const before = await observe(plan, fam, tweak);
      if (before instanceof Error) return { message: `the observing read failed: ${redactor.text(before.message)}` };
      const ex = await sendCase(c);
      if (ex instanceof Error || ex.response.status < 400) return undefined; // the invalid-4xx rule reports these
      const after = await observe(plan, fam, tweak);
      if (after instanceof Error) return { message: `the observing read failed: ${redactor.text(after.message)}` };
      if (after === before) return undefined;
      return {
        status: ex.response.status,
        message: `refused with ${ex.response.status}, but ${plan.observer!.operationId} changed: ${firstDifference(before, after)}`,
      };
    };
  }
  const kinds = casesOf(mutations);
  if (!kinds.length)
    throw new Error(`${plan.operationId}: the generator has no ${rule} case (the catalogue and plan.ts disagree)`);

  const rulesLeft = Math.max(1, rulesTotal - rulesDone);
  const remaining = deadline - Date.now();
  const numRuns = remaining > 0 ? cfg.robustness.examplesPerOperation : 1;
  const timeLimitMs = Math.max(2000, Math.floor(remaining / rulesLeft) * 4);
  rulesDone++;
  const result = await runRule({
    operationId: plan.operationId,
    rule,
    kinds,
    sender,
    judge,
    seed: cfg.robustness.seed,
    numRuns,
    timeLimitMs,
    counter,
  });
  const sum = summaryOf(op);
  sum.exercised ||= result.requests > 0;
  sum.requests += result.requests;
  sum.rules.push({ rule, runs: result.runs, requests: result.requests, interrupted: result.interrupted });
  t.note(
    `${rule}: ${result.runs} generated case(s), ${result.requests} request(s), seed ${cfg.robustness.seed}${result.interrupted ? ' (interrupted by the time cap)' : ''}`,
  );
  if (result.finding) {
    sum.findings.push(result.finding);
    throw new CheckFailure(
      `robustness.${rule}`,
      describeFinding(result.finding),
      rule === 'boundary-no-5xx' ? 'no 5xx' : rule === 'invalid-4xx' ? '4xx with an error body' : 'unchanged',
      result.finding.status ?? result.finding.message,
    );
  }
}

for (const op of ordered) {
  const plan = planOperation(op);
  for (const rule of plan.rules) {
    const id = requirementId(plan.operationId, rule);
    const group = groupOf(op.api, rule);
    conformance(
      {
        id,
        also: group ? [group] : undefined,
        level: catalogue.get(id)?.level ?? 'MUST',
        title: `${op.method} ${op.template} (${plan.operationId}) ${TITLES[rule]}`,
      },
      (t) => exercise(t, op, plan, rule),
    );
  }
}
