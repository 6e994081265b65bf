/** Builds results.json from the collected test outcomes, the catalogue and the expectations. */
import type { TargetConfig } from '../config/types.js';
import type { Requirement } from '../spec/catalogue.js';
import { redactor } from '../redaction/redact.js';
import { entryCovers, isExpired, type Expectation } from './expectations.js';
import { completeness } from './completeness.js';
import {
  emptyCounts,
  type NotReached,
  type Reproduction,
  type RequirementRow,
  type Results,
  type Status,
  type TestResult,
} from './model.js';
import { schemaResults } from './schema-results.js';
import type { SpecObservation } from '../spec/findings.js';
import { loadStatements } from '../spec/statements.js';
import { statementVerdicts } from './document-view.js';
import {
  assumptionMode,
  chargedTo,
  classOf,
  failedLevel,
  failsRun,
  statusFor,
  verdictOf,
  type AssumptionMode,
} from './verdict.js';
import type { Attributed } from '../attribution.js';

export interface RawOutcome {
  title: string;
  file: string;
  state: 'passed' | 'failed' | 'skipped' | 'pending';
  durationMs: number;
  errors: string[];
  meta: Record<string, unknown>;
  moduleErrors: string[];
}

const WORST: (Status | NotReached | 'untested')[] = [
  'failed',
  'not-reached',
  'known-failure',
  'known-issue',
  'not-applicable',
  'skipped',
  'fixed',
  'passed',
];

/**
 * A known-failure entry turns a failure into `known-failure` and a pass into `fixed`. A failure is
 * excused only by an entry for the requirement it is charged to (the test keeps its class); a
 * pass is `fixed` for an entry of any of its ids.
 */
function applyExpectation(t: TestResult, expectations: Map<string, Expectation>, now: Date | undefined): void {
  const charged = t.status === 'failed' ? chargedTo(t) : undefined;
  const expectation =
    t.status === 'failed'
      ? charged === undefined
        ? undefined
        : expectations.get(charged)
      : t.ids.map((id) => expectations.get(id)).find(Boolean);
  // An entry that lists its tests speaks of those only: the requirement's other tests keep theirs.
  if (!expectation || !entryCovers(expectation, t.title)) return;
  const expired = isExpired(expectation, now);
  t.expectation = { reason: expectation.reason, ticket: expectation.ticket, expires: expectation.expires, expired };
  if (!expired && t.status === 'failed') t.status = 'known-failure';
  // A known issue observed means the symptom is still there: not fixed, whatever the baseline says.
  else if (t.status === 'passed') t.status = 'fixed';
  else if (expired && t.status === 'failed')
    t.message = `${t.message ?? ''}\n(expectation for ${expectation.id} expired on ${expectation.expires})`;
}

export function buildResults(opts: {
  outcomes: RawOutcome[];
  catalogue: Map<string, Requirement>;
  expectations: Map<string, Expectation>;
  config: TargetConfig | undefined;
  startedAt: Date;
  finishedAt: Date;
  leftovers: { file: string; label: string; error: string }[];
  errors: string[];
  /** Spec observations of file setups and teardowns (beforeAll/afterAll), outside any test. */
  fileSpec?: { file: string; observations: SpecObservation[] }[];
  /** How assumption differences count; default: the config's run.assumptions. */
  mode?: AssumptionMode;
  now?: Date;
}): Results {
  const tests: TestResult[] = opts.outcomes.map((o) => {
    const c = (o.meta.conformance ?? {}) as { ids?: string[]; level?: TestResult['level']; area?: string };
    const ids = c.ids ?? [];
    let status: Status;
    let message = o.errors.length ? o.errors.join('\n\n') : undefined;
    if (o.state === 'passed') status = o.meta.knownIssue ? 'known-issue' : 'passed';
    else if (o.state === 'failed') status = 'failed';
    else if (o.meta.notApplicable) status = 'not-applicable';
    else if (o.moduleErrors.length && !o.meta.skip) {
      // A failed setup (beforeAll) leaves its tests unrun: they count as failures with the cause.
      status = 'failed';
      message = `setup failed: ${o.moduleErrors.join('\n')}`;
    } else status = 'skipped';
    const attributed = o.meta.attribution as Attributed | undefined;
    const relFile = o.file.replace(/^.*?\/(suites|tests|reference|harness)\//, '$1/');
    const result: TestResult = {
      key: `${relFile} > ${o.title}`,
      title: o.title,
      file: relFile,
      area: c.area ?? relFile.split('/')[1] ?? 'other',
      ids,
      level: c.level ?? 'NONE',
      status,
      durationMs: Math.round(o.durationMs),
      message: message ? redactor.text(message) : undefined,
      knownIssue: o.meta.knownIssue as string | undefined,
      skip: o.meta.skip as TestResult['skip'],
      notApplicable: o.meta.notApplicable as TestResult['notApplicable'],
      transcript: o.meta.transcript as TestResult['transcript'],
      leftovers: o.meta.leftovers as TestResult['leftovers'],
      spec: o.meta.spec as TestResult['spec'],
    };
    if (attributed?.differences.length) result.assumptionDifferences = attributed.differences;
    if (status === 'failed') {
      // One requirement fails: the one the failing assertion proves (the first id by default).
      // A setup that failed before the test ran is no difference of reading: a violation.
      const failed = attributed?.failedRequirement ?? ids[0];
      result.failedRequirement = failed;
      result.verdict = attributed ? verdictOf(failed, opts.catalogue) : 'violation';
      result.notReached = attributed?.notReached ?? ids.filter((id) => id !== failed);
      const reproduction = o.meta.reproduction as Reproduction | undefined;
      if (reproduction) result.reproduction = reproduction;
    }
    applyExpectation(result, opts.expectations, opts.now);
    return result;
  });
  // One result per operation and status the run observed: the schema requirements.
  for (const t of schemaResults(tests, opts.fileSpec ?? [], opts.catalogue)) {
    if (t.status === 'failed') {
      t.failedRequirement = t.ids[0];
      t.verdict = 'violation';
      t.notReached = t.ids.slice(1);
    }
    applyExpectation(t, opts.expectations, opts.now);
    tests.push(t);
  }

  const cfg = opts.config;
  const mode = opts.mode ?? assumptionMode(cfg?.run.assumptions);
  const { summary, requirements, statements } = summarize(tests, opts.catalogue, { mode });
  return {
    tool: { name: 'svc-conformance', version: '0.1.0' },
    ...completeness(tests, cfg),
    run: {
      id: cfg?.runId ?? 'unknown',
      startedAt: opts.startedAt.toISOString(),
      finishedAt: opts.finishedAt.toISOString(),
      durationMs: opts.finishedAt.getTime() - opts.startedAt.getTime(),
      target: {
        svc: cfg?.svc.addr ?? '',
        sched: cfg?.sched.addr ?? '',
        version: cfg?.svc.version ?? '',
        embedded: cfg?.embedded ?? false,
        versionSource: cfg?.svc.versionSource ?? (cfg?.svc.version ? 'config' : 'unknown'),
      },
      suites: cfg?.run.suites ?? [],
      faults: cfg?.reference.faults ?? [],
      ...(cfg?.run.shard ? { shard: cfg.run.shard } : {}),
      assumptions: mode,
    },
    summary,
    tests,
    requirements,
    statements,
    leftovers: opts.leftovers,
    errors: opts.errors.map((e) => redactor.text(e)),
  };
}

/** Summary counts and the requirement matrix of a list of test results (one run or merged shards). */
export function summarize(
  tests: TestResult[],
  catalogue: Map<string, Requirement>,
  opts: { mode?: AssumptionMode } = {},
): { summary: Results['summary']; requirements: RequirementRow[]; statements: Results['statements'] } {
  const mode = opts.mode ?? 'report';
  const byArea: Results['summary']['byArea'] = {};
  for (const t of tests) {
    const area = (byArea[t.area] ??= {});
    const counts = (area[t.level] ??= emptyCounts());
    counts[t.status]++;
  }

  const testsById = new Map<string, TestResult[]>();
  for (const t of tests) for (const id of t.ids) testsById.set(id, [...(testsById.get(id) ?? []), t]);
  const ran = new Set(tests.map((t) => t.area));
  const inventory = loadStatements();
  const quoted = new Map(inventory.map((s) => [s.id, { id: s.id, section: s.section, quote: s.quote }]));
  const requirements: RequirementRow[] = [...catalogue.values()]
    .filter((r) => ran.has(r.area) || testsById.has(r.id))
    .map((r) => {
      const ts = testsById.get(r.id) ?? [];
      let status: RequirementRow['status'] = 'untested';
      if (ts.length) status = WORST.find((w) => ts.some((t) => statusFor(t, r.id) === w)) as Status | NotReached;
      else if (r.testability?.class === 'not-observable') status = 'not-observable';
      const note =
        r.kind === 'assumption'
          ? `assumption: ${r.assumption?.why ?? ''}${r.assumption?.setting ? ` (setting ${r.assumption.setting})` : ''}`
          : r.testability?.reason;
      return {
        id: r.id,
        level: r.level,
        area: r.area,
        section: r.section,
        text: r.text,
        kind: r.kind ?? 'rule',
        status,
        ...(status === 'failed' || status === 'known-failure' ? { verdict: verdictOf(r.id, catalogue) } : {}),
        tests: ts.map((t) => t.key),
        note,
        ...(r.kind === 'assumption' && r.assumption ? { assumption: r.assumption } : {}),
        ...(r.affected ? { affected: r.affected } : {}),
        ...(r.fixedIn ? { fixedIn: r.fixedIn } : {}),
        ...(r.testability ? { testability: r.testability.class, capability: r.testability.capability } : {}),
        ...(r.statements?.length
          ? { statements: r.statements.flatMap((id) => (quoted.has(id) ? [quoted.get(id)!] : [])) }
          : {}),
      };
    });

  const summary: Results['summary'] = {
    total: tests.length,
    passed: tests.filter((t) => t.status === 'passed').length,
    failed: tests.filter((t) => t.status === 'failed').length,
    skipped: tests.filter((t) => t.status === 'skipped').length,
    knownFailures: tests.filter((t) => t.status === 'known-failure').length,
    fixed: tests.filter((t) => t.status === 'fixed').length,
    knownIssues: tests.filter((t) => t.status === 'known-issue').length,
    notApplicable: tests.filter((t) => t.status === 'not-applicable').length,
    mustFailed: tests.filter((t) => failsRun(t, mode, catalogue)).length,
    violations: { MUST: 0, SHOULD: 0, MAY: 0 },
    assumptionDifferences: tests.filter((t) => t.status === 'failed' && classOf(t) === 'assumption').length,
    byArea,
  };
  for (const t of tests) {
    if (t.status !== 'failed' || classOf(t) !== 'violation') continue;
    const level = failedLevel(t, catalogue);
    // A test of no catalogued level (a harness test) counts as MUST, as it fails the run.
    summary.violations[level === 'SHOULD' || level === 'MAY' ? level : 'MUST']++;
  }
  return { summary, requirements, statements: statementVerdicts(inventory, requirements, catalogue) };
}
