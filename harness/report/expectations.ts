/**
 * Known failures of a target, kept outside the tests: a YAML file keyed by requirement id, each
 * with a reason, an optional ticket and an optional expiry date. An expired entry no longer
 * excuses a failure; an entry whose tests now pass is reported as fixed.
 *
 * The file of a real product (fixtures/targets/<product>/expectations.yaml) says more of each
 * entry: the verdict class the failure must have, the sentence of the documents it breaks, the
 * evidence (the product's answer, its source), and the tests that fail, so that a run can be held
 * to it exactly (`matchExpectations`): a new failure, an unexpected pass or a changed class is a
 * difference.
 */
import { existsSync, readFileSync } from 'node:fs';
import { parseYaml } from '../cache/yaml.js';
import type { ValidateFunction } from 'ajv';
import { ConfigError } from '../config/load.js';
import { cachedValidator } from '../cache/schema-cache.js';

export interface Expectation {
  id: string;
  reason: string;
  ticket?: string;
  /** ISO date (YYYY-MM-DD); after it the entry is expired. */
  expires?: string;
  /** The class the failure must have: a broken rule, or a reading of an open point. */
  class?: 'violation' | 'assumption';
  /** The sentence of the documents, verbatim. */
  quote?: string;
  /** What shows the difference: the product's answer, its source or an issue. */
  evidence?: string;
  /** Titles of the tests that fail; unset: every test of the requirement. */
  tests?: string[];
}

/**
 * A requirement none of whose tests ran against the target (each skipped or not applicable), with
 * why: a real product's file lists them so the compatibility matrix never counts them as met.
 */
export interface NotRun {
  id: string;
  reason: string;
}

/** What the file says of the target besides its entries (informational; the run reads none of it). */
export interface ExpectationsTarget {
  product?: string;
  version?: string;
  config?: string;
  suites?: string[];
  notes?: string;
}

const schema = {
  type: 'object',
  additionalProperties: false,
  required: ['known-failures'],
  properties: {
    target: {
      type: 'object',
      additionalProperties: false,
      properties: {
        product: { type: 'string' },
        version: { type: 'string' },
        config: { type: 'string' },
        suites: { type: 'array', items: { type: 'string' } },
        notes: { type: 'string' },
      },
    },
    'not-run': {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['id', 'reason'],
        properties: { id: { type: 'string', minLength: 1 }, reason: { type: 'string', minLength: 1 } },
      },
    },
    'known-failures': {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['id', 'reason'],
        properties: {
          id: { type: 'string', minLength: 1 },
          reason: { type: 'string', minLength: 1 },
          ticket: { type: 'string' },
          expires: { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$' },
          class: { enum: ['violation', 'assumption'] },
          quote: { type: 'string', minLength: 1 },
          evidence: { type: 'string', minLength: 1 },
          tests: { type: 'array', minItems: 1, items: { type: 'string', minLength: 1 } },
        },
      },
    },
  },
};
let validate: ValidateFunction | undefined;

export function readExpectationsFile(path: string): {
  target?: ExpectationsTarget;
  entries: Expectation[];
  notRun: NotRun[];
} {
  if (!existsSync(path)) throw new ConfigError('run.expectationsFile (--expectations)', `file not found: ${path}`);
  const doc = parseYaml(readFileSync(path, 'utf8'));
  // Made on first use, as cached code: most runs have no expectations file.
  validate ??= cachedValidator('expectations-v2', { dialect: 'draft-07', options: { allErrors: true } }, schema);
  if (!validate(doc)) {
    const e = validate.errors![0]!;
    throw new ConfigError('run.expectationsFile (--expectations)', `${path}${e.instancePath}: ${e.message}`);
  }
  const d = doc as { target?: ExpectationsTarget; 'known-failures': Expectation[]; 'not-run'?: NotRun[] };
  const seen = new Set<string>();
  for (const e of d['known-failures']) {
    // One entry per requirement: two would make "which reason excuses this failure" a guess.
    if (seen.has(e.id))
      throw new ConfigError('run.expectationsFile (--expectations)', `${path}: requirement ${e.id} is listed twice`);
    seen.add(e.id);
  }
  return { target: d.target, entries: d['known-failures'], notRun: d['not-run'] ?? [] };
}

export function loadExpectations(path: string | undefined): Map<string, Expectation> {
  const out = new Map<string, Expectation>();
  if (!path) return out;
  for (const entry of readExpectationsFile(path).entries) out.set(entry.id, entry);
  return out;
}

/** An entry naming no catalogued requirement would silently excuse nothing: a config error. */
export function checkExpectationIds(expectations: Map<string, Expectation>, catalogue: Map<string, unknown>): void {
  const unknown = [...expectations.keys()].filter((id) => !catalogue.has(id));
  if (unknown.length)
    throw new ConfigError('run.expectationsFile (--expectations)', `unknown requirement id(s): ${unknown.join(', ')}`);
}

export function isExpired(e: Expectation, now = new Date()): boolean {
  return !!e.expires && new Date(`${e.expires}T23:59:59Z`).getTime() < now.getTime();
}

/** Whether an entry speaks of this test: every test of its requirement, or the titles it lists. */
export function entryCovers(e: Expectation, title: string): boolean {
  return !e.tests || e.tests.includes(title);
}

/** The part of a test result the exact match reads. */
export interface MatchedTest {
  key: string;
  title: string;
  ids: string[];
  status: string;
  verdict?: string;
  failedRequirement?: string;
  message?: string;
}

export interface ExpectationDifference {
  kind: 'new-failure' | 'unexpected-pass' | 'class-changed' | 'expired' | 'not-exercised' | 'not-run' | 'ran';
  id: string;
  test?: string;
  detail: string;
}

/**
 * Holds a run to its expectations exactly. A failure no entry excuses is new; a listed test that
 * passed (`fixed`) is an unexpected pass; a listed failure of another verdict class than the entry
 * states changed class. An entry none of whose tests ran (skipped, not applicable) is
 * `not-exercised`: a run in one mode may not reach it (a scheduler without ACLs), so the caller
 * decides whether that counts.
 */
export function matchExpectations(
  tests: MatchedTest[],
  entries: Expectation[],
  notRun?: { listed: NotRun[]; scope: Iterable<string> },
): ExpectationDifference[] {
  const out: ExpectationDifference[] = [];
  const byId = new Map(entries.map((e) => [e.id, e]));
  for (const t of tests) {
    const charged = t.failedRequirement ?? t.ids[0] ?? '';
    if (t.status === 'failed') {
      const e = byId.get(charged);
      out.push({
        kind: e && entryCovers(e, t.title) ? 'expired' : 'new-failure',
        id: charged,
        test: t.key,
        detail: `${t.verdict ?? 'failure'}: ${(t.message ?? '').split('\n')[0]}`,
      });
    } else if (t.status === 'fixed') {
      out.push({
        kind: 'unexpected-pass',
        id: t.ids.find((id) => byId.has(id)) ?? t.ids[0] ?? '',
        test: t.key,
        detail: 'listed as a known failure, but passed',
      });
    } else if (t.status === 'known-failure') {
      const e = byId.get(charged);
      if (e?.class && t.verdict && e.class !== t.verdict)
        out.push({
          kind: 'class-changed',
          id: charged,
          test: t.key,
          detail: `expected a ${e.class}, the run reports a ${t.verdict}: ${(t.message ?? '').split('\n')[0]}`,
        });
    }
  }
  for (const e of entries) {
    const mine = tests.filter((t) => (t.failedRequirement ?? t.ids[0]) === e.id || t.ids.includes(e.id));
    const covered = mine.filter((t) => entryCovers(e, t.title));
    if (!covered.some((t) => t.status === 'known-failure' || t.status === 'failed' || t.status === 'fixed'))
      out.push({
        kind: 'not-exercised',
        id: e.id,
        detail: covered.length
          ? `its tests did not run here (${[...new Set(covered.map((t) => t.status))].join(', ')})`
          : e.tests
            ? `no test of this run has the title(s) listed: ${e.tests.join(' | ')}`
            : 'no test of this run checks it',
      });
  }
  if (notRun) out.push(...matchNotRun(tests, notRun.listed, notRun.scope));
  return out;
}

const RAN = new Set(['passed', 'failed', 'known-failure', 'fixed', 'known-issue']);

/** The requirements a run ran: some test of theirs passed or failed (not skipped, not applicable). */
export function ranRequirements(tests: Pick<MatchedTest, 'ids' | 'status'>[]): Set<string> {
  const ran = new Set<string>();
  for (const t of tests) if (RAN.has(t.status)) for (const id of t.ids) ran.add(id);
  return ran;
}

/**
 * A file's `not-run` list against the run: a requirement of the scope (those of the suites run)
 * that no test ran must be listed (`not-run`), and a listed one must not have run (`ran`).
 */
function matchNotRun(tests: MatchedTest[], notRun: NotRun[], scope: Iterable<string>): ExpectationDifference[] {
  const ran = ranRequirements(tests);
  const seen = new Map<string, string>();
  for (const t of tests) for (const id of t.ids) if (!seen.has(id)) seen.set(id, t.key);
  const listed = new Set(notRun.map((n) => n.id));
  const out: ExpectationDifference[] = [];
  for (const id of scope)
    if (!ran.has(id) && !listed.has(id))
      out.push({
        kind: 'not-run',
        id,
        test: seen.get(id),
        detail: seen.has(id) ? 'no test of it ran here' : 'no test of the run checks it',
      });
  for (const n of notRun)
    if (ran.has(n.id))
      out.push({ kind: 'ran', id: n.id, detail: `listed in not-run (${n.reason}), but a test of it ran` });
  return out;
}

export function describeDifferences(diffs: ExpectationDifference[]): string {
  const why: Record<ExpectationDifference['kind'], string> = {
    'new-failure': 'a failure no expectation lists: the product changed, or the suite has a bug to fix',
    'unexpected-pass': 'listed as failing but passed: delete the entry, or the check stopped checking',
    'class-changed': 'listed with another verdict class',
    expired: 'its expectation expired',
    'not-exercised': 'an expectation no test of the run reached',
    'not-run': 'list it under not-run with the reason, or make its tests run',
    ran: 'delete it from not-run',
  };
  return diffs.map((d) => `${d.kind} ${d.id}${d.test ? ` [${d.test}]` : ''}: ${d.detail} (${why[d.kind]})`).join('\n');
}
