/**
 * The compatibility matrix: several runs (one per implementation) side by side, one row per
 * requirement, one column per run. What it reads of a results.json is typed here on its own
 * (`MatrixInput`), not as `Results`, so that fields later work adds (a failure's verdict class,
 * the quoted sentences of the documents, a curl line per failure) are optional inputs: a
 * results.json with them shows them, one without them still reads.
 */
import type { TranscriptEntry } from '../../http/transcript.js';
import type { RequirementRow, Results, TestResult } from '../model.js';

/**
 * What a cell shows. `violation`: the implementation broke a rule of the documents;
 * `assumption`: it differs from an assumption the catalogue makes where the documents are silent
 * (a difference, not a violation); `not-run`: no verdict (absent from the run, no test checks it,
 * or not observable through the API).
 */
export type CellClass =
  | 'passed'
  | 'violation'
  | 'assumption'
  | 'known-failure'
  | 'not-applicable'
  | 'skipped'
  | 'not-run';

export const CELL_CLASSES: readonly CellClass[] = [
  'passed',
  'violation',
  'assumption',
  'known-failure',
  'not-applicable',
  'skipped',
  'not-run',
];

export const CLASS_LABEL: Record<CellClass, string> = {
  passed: 'passed',
  violation: 'violation',
  assumption: 'assumption difference',
  'known-failure': 'known failure',
  'not-applicable': 'not applicable',
  skipped: 'skipped',
  'not-run': 'not run',
};

/** Classes that are a failure of the implementation (the "every implementation fails" filter). */
export const FAILING: readonly CellClass[] = ['violation', 'assumption', 'known-failure'];
/** Classes that carry a verdict on the requirement: the denominator of "passed of applicable". */
export const APPLICABLE: readonly CellClass[] = ['passed', 'violation', 'assumption', 'known-failure'];

/** A verbatim sentence of the documents a requirement rests on (the statement inventory). */
export interface StatementQuote {
  id: string;
  section?: string;
  quote: string;
}

/** What the matrix reads of a test entry; `verdict` and `curl` come with later results.json. */
export type InputTest = Pick<TestResult, 'key' | 'title' | 'file' | 'ids' | 'level' | 'status'> &
  Partial<Pick<TestResult, 'message' | 'knownIssue' | 'skip' | 'expectation' | 'notApplicable' | 'transcript'>> & {
    verdict?: string;
    curl?: string;
    /** results.json's failure reproduction (harness/report/curl.ts): its `curl` when `curl` is absent. */
    reproduction?: { curl?: string };
  };

/** What the matrix reads of a requirement row; `verdict` and `statements` come with later results.json. */
export type InputRequirement = Pick<RequirementRow, 'id' | 'level' | 'area' | 'section' | 'text' | 'status' | 'tests'> &
  Partial<Pick<RequirementRow, 'kind' | 'note'>> & {
    verdict?: string;
    statements?: StatementQuote[];
  };

export interface MatrixInput {
  run: Pick<Results['run'], 'id' | 'startedAt' | 'suites' | 'faults' | 'target'> &
    Partial<Pick<Results['run'], 'shard' | 'mergedFrom'>>;
  tool?: Results['tool'];
  complete?: boolean;
  incomplete?: Results['incomplete'];
  tests: InputTest[];
  requirements: InputRequirement[];
}

/** One implementation: a named results.json. */
export interface MatrixColumn {
  name: string;
  file: string;
  version: string;
  versionSource?: string;
  runId: string;
  startedAt: string;
  suites: string[];
  faults: string[];
  complete?: boolean;
  /** What made the run incomplete, one line per suite. */
  incomplete: string[];
  /** `i/n` when the file is one shard of a run (its other shards' rows read as not run). */
  shard?: string;
  tool?: string;
}

/** The failing exchange of a test: the last request of its transcript, as the target answered it. */
export type Exchange = Pick<
  TranscriptEntry,
  'method' | 'url' | 'status' | 'requestHeaders' | 'requestBody' | 'responseHeaders' | 'responseBody'
>;

/** A test behind a cell, with what explains its outcome (failure, reason of a skip, ...). */
export interface CellTest {
  key: string;
  title: string;
  file: string;
  status: string;
  verdict?: string;
  /** The failure message, or the reason of a skip, a not-applicable or a known failure. */
  message?: string;
  curl?: string;
  exchange?: Exchange;
}

export interface MatrixCell {
  class: CellClass;
  /** The requirement's status in that run (`absent` when the run has no row for it). */
  status: string;
  /** Why a `not-run` cell has no verdict, or what a known failure refers to. */
  reason?: string;
  tests: CellTest[];
}

export interface MatrixRow {
  id: string;
  level: string;
  area: string;
  section: string;
  kind: string;
  text: string;
  /** The documents' own sentences, when the results carry the statement inventory. */
  statements?: StatementQuote[];
  /** Test files that check it (over every run), for the link to the test. */
  files: string[];
  /** Where the runs' catalogues disagree on the row (level, text): a note per difference. */
  notes: string[];
  cells: MatrixCell[];
  /** Columns that have a verdict (not `not-run`) do not all agree. */
  disagree: boolean;
  /** Every column fails it (violation, assumption difference or known failure). */
  allFail: boolean;
}

export interface LevelCounts {
  passed: number;
  applicable: number;
  violation: number;
  assumption: number;
  'known-failure': number;
  'not-applicable': number;
  skipped: number;
  'not-run': number;
}

export interface ColumnSummary {
  name: string;
  byLevel: Record<string, LevelCounts>;
  byArea: Record<string, Record<string, LevelCounts>>;
  /** Requirements with a verdict, the violations among them, and the share that is not a violation. */
  overall: { applicable: number; violations: number; conformance: number | null };
}

export interface Matrix {
  tool: { name: string; version: string };
  generatedAt: string;
  columns: MatrixColumn[];
  /** Rows in document order: grouped by area, then section. */
  rows: MatrixRow[];
  summary: ColumnSummary[];
  counts: { rows: number; disagree: number; allFail: number };
}
