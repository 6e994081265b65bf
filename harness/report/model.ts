/** The shape of results.json: what every other report (JUnit, HTML, compare) is made from. */
import type { TranscriptEntry } from '../http/transcript.js';
import type { Leftover } from '../author/tracker.js';
import type { SpecFinding, SpecObservation } from '../spec/findings.js';
import type { StatementVerdict } from './document-view.js';
import type { StartupMark } from './startup.js';

/**
 * `not-applicable`: a precondition the target refused for a reason outside the rule under test,
 * or a version-gated test on a target of unknown version; neither a pass nor a failure.
 */
export type Status = 'passed' | 'failed' | 'skipped' | 'known-failure' | 'fixed' | 'known-issue' | 'not-applicable';

/**
 * The class of a failure (harness/report/verdict.ts): `violation`, a rule the documents state;
 * `assumption`, the target differs from a catalogue assumption (kind: assumption), where the
 * documents are silent or vague. Assumption differences fail the run only under
 * `run.assumptions: strict`.
 */
export type Verdict = 'violation' | 'assumption';

/**
 * A requirement of a failed test other than the one its failing assertion proves: the test
 * stopped before it was checked. Never a failure; in a requirement row it ranks below `failed`
 * and above `passed`.
 */
export type NotReached = 'not-reached';

/** How to repeat the exchange a failure is about, from a shell. */
export interface Reproduction {
  /** A ready curl command: tokens as "$SVC_TOKEN"/"$SCHED_TOKEN", other secrets redacted. */
  curl: string;
  /** The exchange (as in the transcript) the failing check looked at, or the test's last one. */
  exchange: TranscriptEntry;
  /** What the command cannot repeat exactly (a token the test created, a raw or clipped body). */
  notes?: string[];
}

/** A quoted sentence of the documents a requirement comes from (spec/<area>/statements*.yaml). */
export interface QuotedStatement {
  id: string;
  section: string;
  quote: string;
}

export interface TestResult {
  /** Stable key for comparisons: `<file> > <title>`. */
  key: string;
  title: string;
  file: string;
  area: string;
  ids: string[];
  level: 'MUST' | 'SHOULD' | 'MAY' | 'NONE';
  status: Status;
  durationMs: number;
  message?: string;
  /** A documented known issue observed on an affected version (the test passed). */
  knownIssue?: string;
  skip?: { reason: string; setting?: string; prerequisite?: boolean };
  expectation?: { reason: string; ticket?: string; expires?: string; expired?: boolean };
  transcript?: TranscriptEntry[];
  leftovers?: Leftover[];
  /** `schema`: a result made from spec observations, one per operation and status. */
  kind?: 'schema';
  /** Schema results: each distinct way the answers broke the spec. */
  findings?: SpecFinding[];
  /** Schema results: the tests whose exchanges were observed (first few). */
  seenIn?: string[];
  /** Why the test was not applicable: what the harness wanted and what the target answered. */
  notApplicable?: { reason: string; answer?: string; setting?: string };
  /** Spec observations of this test's exchanges (folded into schema results). */
  spec?: SpecObservation[];
  /**
   * Failed (and known-failure) tests: the requirement the failing assertion proves (the test's
   * first id when the assertion names none), its class, and the test's other ids, not reached.
   */
  failedRequirement?: string;
  verdict?: Verdict;
  notReached?: string[];
  /** Differences from assumptions a shared helper checked on the way (`t.assuming`), the test going on. */
  assumptionDifferences?: { id: string; message: string }[];
  /** Failed tests: the failing exchange as a curl command. */
  reproduction?: Reproduction;
}

export interface RequirementRow {
  id: string;
  level: string;
  area: string;
  section: string;
  text: string;
  kind: string;
  /**
   * untested: no test names it; otherwise the worst status of its tests, where a failed test
   * counts as failed only for the requirement its failing assertion proves (`not-reached` for its
   * other ids).
   */
  status: Status | NotReached | 'untested' | 'not-observable';
  /** The class of the failure when the row failed. */
  verdict?: Verdict;
  /** Assumptions: why the catalogue assumes it and the setting that switches it off. */
  assumption?: { why: string; setting?: string };
  tests: string[];
  note?: string;
  /** Known issues and changes: semver ranges of the affected versions, one per release line. */
  affected?: string[];
  fixedIn?: string[];
  /** api | capability | not-observable, and the capability a `capability` row needs. */
  testability?: string;
  capability?: string;
  /** The statements of the documents this requirement comes from, quoted (spec/<area>/statements*.yaml). */
  statements?: QuotedStatement[];
}

export interface AreaSummary {
  [level: string]: Record<Status, number>;
}

/** A selected suite that did not run, or ran with a share of its tests skipped for a missing prerequisite. */
export interface IncompleteSuite {
  suite: string;
  kind: 'not-run' | 'partial';
  reason: string;
  /** The setting (or install step) that provides what was missing. */
  setting?: string;
  /** partial: tests skipped for a missing prerequisite, of `total` tests of the suite. */
  skipped?: number;
  total?: number;
}

export interface Results {
  tool: { name: string; version: string };
  /**
   * False when a selected suite did not run or a share of its tests was skipped for a missing
   * prerequisite (no directory, no cloud fixtures): such a run is no claim of conformance.
   */
  complete: boolean;
  /** What made the run incomplete, suite by suite (empty when complete). */
  incomplete: IncompleteSuite[];
  run: {
    id: string;
    startedAt: string;
    finishedAt: string;
    durationMs: number;
    target: {
      svc: string;
      sched: string;
      version: string;
      embedded: boolean;
      /** Where the version came from: config file, environment, probe, embedded reference, or unknown. */
      versionSource?: string;
    };
    suites: string[];
    faults: string[];
    /** When the first test started (start-up cost: bench/main.ts). */
    firstTestAt?: string;
    /**
     * Where the start-up went: milliseconds since the command's process started when it reached the
     * command's code, vitest's start, the global setup, a ready target and the first test
     * (harness/report/startup.ts). The first test's is when it started in its worker.
     */
    startup?: Partial<Record<StartupMark, number>>;
    /** `i/n` when this is one shard of a run (`--shard`); `merge` combines the shards. */
    shard?: string;
    /** Shards merged into this file (`merge`), in order. */
    mergedFrom?: string[];
    /** How assumption differences counted (run.assumptions): `report` unless set to `strict`. */
    assumptions?: 'report' | 'strict';
  };
  /** The pre-flight check stopped the run before any suite: the message and the setting to fix. */
  preflight?: { setting: string; message: string };
  summary: {
    total: number;
    passed: number;
    failed: number;
    skipped: number;
    knownFailures: number;
    fixed: number;
    knownIssues: number;
    /** Tests not applicable to this target (refused precondition, unknown version), with reasons. */
    notApplicable: number;
    /**
     * Failed tests that make the run exit 1: MUST violations, plus MUST assumption differences
     * under run.assumptions: strict.
     */
    mustFailed: number;
    /** Failed tests whose failure is a violation of the documents, by the level of the failed requirement. */
    violations: { MUST: number; SHOULD: number; MAY: number };
    /** Failed tests whose failure is a difference from a catalogue assumption. */
    assumptionDifferences: number;
    byArea: Record<string, AreaSummary>;
  };
  tests: TestResult[];
  requirements: RequirementRow[];
  /** Every statement of the documents with this run's verdict (the report's document view). */
  statements?: StatementVerdict[];
  leftovers: { file: string; label: string; error: string }[];
  errors: string[];
  comparison?: Comparison;
}

export interface Comparison {
  previous: string;
  /** Tests that fail now with a violation and did not before (the gate). */
  newFailures: string[];
  /** Tests that now differ from an assumption and did not before (fail the gate only under strict). */
  newAssumptionDifferences?: string[];
  fixed: string[];
  added: string[];
  removed: string[];
}

export const emptyCounts = (): Record<Status, number> => ({
  passed: 0,
  failed: 0,
  skipped: 0,
  'known-failure': 0,
  fixed: 0,
  'known-issue': 0,
  'not-applicable': 0,
});
