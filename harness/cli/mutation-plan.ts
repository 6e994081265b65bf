/**
 * Which tests a switch can change, from the traced clean run (reference/trace.ts): a test that
 * never reached a switch (never called a rule it replaces, never received an answer its rewrite
 * would write differently) runs the same code with the switch on up to its end, so it passes as
 * it passed clean. Mutation testing tools call this per-test coverage analysis (Stryker's
 * `coverageAnalysis: perTest`); here it is finer, since a rewrite counts only where it would have
 * changed an answer.
 *
 * The unit is a test, except where a file's tests depend on their order (a file listed under
 * `sequential:` in suites/domain-locks.yaml, or with a test that runs alone: it moves a clock or
 * changes what the file's other tests see): there a switch reaching one test runs the whole file.
 * A switch reached in a file's set-up or cleanup reaches every test of the file; one reached
 * outside any request (the reference's start, a timer set at start) every test of its suites.
 */
import type { LaneSpec, TestRecord } from './mutation-engine.js';

export interface ReachIndex {
  byTest: Map<string, Set<string>>;
  byFile: Map<string, Set<string>>;
  /** Switches reached outside any test and file (the reference's start). */
  everywhere: Set<string>;
}

/** The traced round's reach, indexed: senders `test:<file> > <title>`, `file:<file>`, or none. */
export function reachIndex(raw: Record<string, string[]>): ReachIndex {
  const byTest = new Map<string, Set<string>>();
  const byFile = new Map<string, Set<string>>();
  const everywhere = new Set<string>();
  for (const [sender, names] of Object.entries(raw)) {
    if (sender.startsWith('test:')) byTest.set(sender.slice(5), new Set(names));
    else if (sender.startsWith('file:')) byFile.set(sender.slice(5), new Set(names));
    else for (const n of names) everywhere.add(n);
  }
  return { byTest, byFile, everywhere };
}

/** A file's start in a round (its module, its set-up, its reference), in the cost of running it. */
const FILE_START_MS = 100;

export const suiteOfFile = (file: string) => /^suites\/([^/]+)\//.exec(file)?.[1] ?? '';

/** The tests of a selection: file → test names, or undefined for the whole file. */
export type Selection = Map<string, string[] | undefined>;

export class TestIndex {
  readonly byFile = new Map<string, TestRecord[]>();
  /** Files whose tests depend on their order: run whole. */
  readonly whole = new Set<string>();

  constructor(tests: readonly TestRecord[]) {
    for (const t of tests) {
      this.byFile.set(t.file, [...(this.byFile.get(t.file) ?? []), t]);
      if (!t.concurrent) this.whole.add(t.file);
    }
  }

  /** The vitest ids of a file's test of that name. */
  ids(file: string, name: string): string[] {
    return (this.byFile.get(file) ?? []).filter((t) => t.name === name).map((t) => t.id);
  }

  /**
   * What running a file (whole, or the tests named) costs, in the traced round's milliseconds (its
   * tests one after another), plus a file's start (its set-up, its reference).
   */
  cost(file: string, names: readonly string[] | undefined): number {
    const tests = this.byFile.get(file) ?? [];
    const ran = names ? tests.filter((t) => names.includes(t.name)) : tests;
    return FILE_START_MS + ran.reduce((n, t) => n + t.durationMs, 0);
  }

  /** Files of these suites. */
  filesOf(suites: readonly string[]): string[] {
    return [...this.byFile.keys()].filter((f) => suites.includes(suiteOfFile(f))).sort();
  }

  /**
   * The tests of `files` that any of `switches` reaches. A whole file is taken whole when one of
   * its tests is reached.
   */
  reached(reach: ReachIndex, switches: readonly string[], files: readonly string[]): Selection {
    const hit = (names: Set<string> | undefined) => !!names && switches.some((s) => names.has(s));
    const out: Selection = new Map();
    const everywhere = switches.some((s) => reach.everywhere.has(s));
    for (const file of files) {
      const tests = this.byFile.get(file) ?? [];
      const fileWide = everywhere || hit(reach.byFile.get(file));
      const names = tests.filter((t) => fileWide || hit(reach.byTest.get(`${file} > ${t.name}`))).map((t) => t.name);
      if (!names.length) continue;
      const whole = this.whole.has(file) || names.length === tests.length;
      out.set(file, whole ? undefined : [...new Set(names)]);
    }
    return out;
  }
}

/** How many tests a selection runs. */
export function selectionSize(sel: Selection, index: TestIndex): number {
  let n = 0;
  for (const [file, names] of sel) n += names ? names.length : (index.byFile.get(file)?.length ?? 0);
  return n;
}

/** The lane of a set of switches over a selection. */
export function lane(
  key: string,
  sel: Selection,
  switches: { faults?: string[]; variants?: string[]; referenceVersion?: string },
): LaneSpec {
  return {
    key,
    faults: switches.faults ?? [],
    variants: switches.variants ?? [],
    ...(switches.referenceVersion ? { referenceVersion: switches.referenceVersion } : {}),
    files: sel,
  };
}
