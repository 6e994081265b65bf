/**
 * The one runner of table-driven cases (spec/shared/cases.schema.json): a `<name>.cases.yaml` file lives
 * beside the test file that runs it, each case carries its catalogue id, level, title and the
 * fixture world it needs, and reports through conformance({ id, level, title }) like any test.
 */
import { conformance, type T } from '../../harness/index.js';
import { statusBetween, statusIs, success, type Check } from '../../harness/checks/index.js';
import { loadCases, type Case, type CaseFile, type CaseStatus, type WorldName } from './case-files.js';

export * from './case-files.js';

/** Runs one case in its world (the world sets up the fixtures the case needs). */
export interface World {
  run(t: T, c: Case, file: CaseFile): Promise<void>;
  /** Why its cases must each run alone in their file (see `sequential` of a conformance test). */
  sequential?: string;
}

/**
 * Registers one conformance test per case of `file`, each run by the world it names. A case
 * whose world the test file does not provide is an error at collection.
 */
export function runCases(file: string | URL | CaseFile, worlds: Partial<Record<WorldName, World>>): CaseFile {
  const cf = typeof file === 'object' && 'cases' in file ? file : loadCases(file);
  for (const c of cf.cases) {
    const world = worlds[c.world];
    if (!world)
      throw new Error(`${cf.file}: case "${c.title}" needs world ${c.world}, which its test file does not set up`);
    conformance({ id: c.id, also: c.also, level: c.level, title: c.title, sequential: world.sequential }, (t) =>
      world.run(t, c, cf),
    );
  }
  return cf;
}

/** The check of an `expect.status`. */
export function statusCheck(status: CaseStatus): Check {
  if (status === '2xx') return statusBetween(200, 299);
  if (status === '4xx' || status === 'refused') return statusBetween(400, 499);
  if (status === 'success') return success;
  return statusIs(status);
}
