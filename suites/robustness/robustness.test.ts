/**
 * The robustness suite, generated from the OpenAPI documents (spec/<area>/openapi.yaml): for every operation of every document,
 * requests that break the request schema one property at a time must be refused (4xx with the
 * error body, never a 5xx or no answer), requests inside the schema's edges must get no 5xx, and a
 * refused write must leave the resource as the operation's `x-observed-by` read saw it.
 * Property-based (fast-check): seeded (`robustness.seed`, `--seed`), shrunk, budgeted
 * (`robustness.examplesPerOperation`, `robustness.timeCapSeconds`). Requirement ids are generated
 * too (generated/catalogue/robustness*.yaml).
 *
 * The rules run ahead of their tests in a bounded pool (`robustness.concurrency`), documents side
 * by side and each document in the order harness/robustness/lanes.ts fixes; each test reports its
 * rule's outcome. Every rule's cases come from its own seed, so the verdicts do not depend on the
 * concurrency.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { conformance, suite, switchedOffAssumption, targetConfig } from '../../harness/index.js';
import { loadCatalogue } from '../../harness/index.js';
import { CheckFailure } from '../../harness/checks/index.js';
import { redactor } from '../../harness/index.js';
import {
  specRegistry,
  type Operation,
  planOperation,
  type OperationPlan,
  type Rule,
  describeFinding,
  exchangeOf,
  type Finding,
  type RuleResult,
  compareOperations,
  JobPool,
  laneJobs,
  groupOf,
  requirementId,
} from '../../harness/robustness/index.js';
import { FAMILIES, type Family } from './families.js';
import { exercise, expectation, type Exercise, type Outcome } from './exercise.js';
import { suiteClients } from './requests.js';

const s = suite('robustness');
const cfg = targetConfig();
const registry = await specRegistry();
const catalogue = loadCatalogue();
const started = Date.now();
const deadline = started + cfg.robustness.timeCapSeconds * 1000;
const counter = { requests: 0 };
const clients = suiteClients(cfg, counter);
const families = new Map<string, Family | Error>();

// ---------------------------------------------------------------------------------------------
// the rules in test order: by document; writes, then reads, then deletions (lanes.ts)

const ordered = [...registry.operations].sort(compareOperations);
const unknownFamily = ordered.filter((o) => !FAMILIES[o.file]).map((o) => o.file);
if (unknownFamily.length)
  throw new Error(
    `no robustness family for ${[...new Set(unknownFamily)].join(', ')}: add one to suites/robustness/families.ts`,
  );

interface Item {
  key: string;
  op: Operation;
  plan: OperationPlan;
  rule: Rule;
  ids: string[];
}
const items: Item[] = ordered.flatMap((op) => {
  const plan = planOperation(op);
  return plan.rules.map((rule) => {
    const group = groupOf(op.api, rule);
    return {
      key: `${plan.operationId}:${rule}`,
      op,
      plan,
      rule,
      ids: [requirementId(plan.operationId, rule), ...(group ? [group] : [])],
    };
  });
});

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
const summaries = new Map<string, OperationSummary>(
  ordered.map((op) => [
    op.operationId!,
    {
      operationId: op.operationId!,
      file: op.file,
      method: op.method,
      template: op.template,
      exercised: false,
      requests: 0,
      rules: [],
      findings: [],
    },
  ]),
);

/** Kept as each rule finishes (not when its test reports), so the figures hold even for a test that timed out. */
function record(item: Item, o: Outcome): void {
  const sum = summaries.get(item.op.operationId!)!;
  if (o.kind === 'skip') sum.skipped = { reason: o.reason, setting: o.setting };
  if (o.kind !== 'done') return;
  sum.exercised ||= o.result.requests > 0;
  sum.requests += o.result.requests;
  const { rule, runs, requests, interrupted } = o.result;
  sum.rules.push({ rule, runs, requests, interrupted });
  if (o.result.finding) sum.findings.push(o.result.finding);
}

// ---------------------------------------------------------------------------------------------
// the pool: started once the suite's client exists, drained before the report and the clean-up

let pool: JobPool<Outcome | undefined> | undefined;
s.setup(async (ctx) => {
  console.log(
    `[robustness] seed ${cfg.robustness.seed} (replay with --seed ${cfg.robustness.seed}), ${cfg.robustness.examplesPerOperation} example(s) per rule and operation, time cap ${cfg.robustness.timeCapSeconds}s, ${cfg.robustness.concurrency} rule(s) at once`,
  );
  const x: Exercise = { cfg, clients, operations: registry.operations, families, deadline };
  // A test whose assumption is switched off is skipped before it asks: its rule is not run.
  const planned = items.filter((i) => !switchedOffAssumption(i.ids, cfg));
  const byKey = new Map(planned.map((i) => [i.key, i]));
  const jobs = laneJobs<Outcome | undefined>(
    planned.map((i) => ({ key: i.key, document: i.op.file, method: i.op.method })),
    {
      setup: (file) => async () => {
        try {
          families.set(file, await FAMILIES[file]!(ctx));
        } catch (err) {
          families.set(file, err as Error);
        }
        return undefined;
      },
      item: (key) => async () => {
        const item = byKey.get(key)!;
        const o = await exercise(x, item.op, item.plan, item.rule);
        record(item, o);
        return o;
      },
    },
  );
  pool = new JobPool(jobs, cfg.robustness.concurrency).start();
});

afterAll(async () => {
  // Every rule has finished before the figures are written and the fixtures are removed.
  await pool?.drained();
  const order = new Map(items.map((i, n) => [i.key, n]));
  const all = [...summaries.values()].map((o) => ({
    ...o,
    rules: [...o.rules].sort(
      (a, b) => order.get(`${o.operationId}:${a.rule}`)! - order.get(`${o.operationId}:${b.rule}`)!,
    ),
  }));
  const exercised = all.filter((o) => o.exercised);
  const skipped = all.filter((o) => o.skipped);
  const findings = all.flatMap((o) => o.findings);
  const report = {
    seed: cfg.robustness.seed,
    examplesPerOperation: cfg.robustness.examplesPerOperation,
    timeCapSeconds: cfg.robustness.timeCapSeconds,
    concurrency: cfg.robustness.concurrency,
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
    `[robustness] exercised ${exercised.length} of ${registry.operations.length} operations, skipped ${skipped.length}${skipped.length ? ` (${skipped.map((o) => `${o.operationId}: ${o.skipped!.reason}`).join('; ')})` : ''}; ${counter.requests} requests in ${((Date.now() - started) / 1000).toFixed(1)}s, up to ${pool?.peak ?? 0} rule(s) at once; ${findings.length} finding(s); seed ${cfg.robustness.seed}; details in ${join(cfg.run.reportDir, 'robustness.json')}`,
  );
}, cfg.timeouts.hookMs);

// ---------------------------------------------------------------------------------------------
// one test per operation and rule: each reports its rule's outcome

const TITLES: Record<Rule, string> = {
  'invalid-4xx': 'refuses requests that break its schema with a 4xx and an error body',
  'boundary-no-5xx': 'answers requests at the edges of its schema without a 5xx',
  unchanged: 'reads back unchanged after a refused write',
};

for (const item of items) {
  const { op, plan, rule, ids } = item;
  conformance(
    {
      id: ids[0]!,
      also: ids.length > 1 ? ids.slice(1) : undefined,
      level: catalogue.get(ids[0]!)?.level ?? 'MUST',
      title: `${op.method} ${op.template} (${plan.operationId}) ${TITLES[rule]}`,
    },
    async (t) => {
      if (!pool) throw new Error('the robustness rules were not started: the suite set-up did not run');
      const settled = await pool.outcome(item.key);
      if (!settled.ok) throw new Error(`${plan.operationId} ${rule} failed: ${redactor.text(settled.error.message)}`);
      const o = settled.value!;
      if (o.kind === 'skip') t.skip(o.reason, o.setting);
      if (o.kind === 'error') throw new Error(o.message);
      if (o.kind !== 'done') return;
      t.note(o.note);
      const finding = o.result.finding;
      if (finding) {
        const failure = new CheckFailure(
          `robustness.${rule}`,
          describeFinding(finding),
          expectation(rule),
          finding.status ?? finding.message,
        );
        // Through t.check, so the report's reproduction is the counterexample's own exchange.
        const ex = exchangeOf(finding);
        if (ex)
          t.check(ex, () => {
            throw failure;
          });
        throw failure;
      }
    },
  );
}
