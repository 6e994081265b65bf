/**
 * Traceability both ways, between the requirement catalogue (spec/<area>/requirements.yaml), the tests
 * (suites/), and the reference's fault and variant switches:
 * - which test files name each catalogue id (a `conformance()` id or `also`, or a row of a table
 *   of cases, read from the file's syntax tree; a case of a `<name>.cases.yaml` table; or a
 *   robustness test the suite generates per operation);
 * - which ids the tests name that the catalogue lacks;
 * - which faults and variants name ids the catalogue lacks, and which faults no suite exercises.
 * tests/spec/traceability.test.ts fails on any gap; tools/conformance-index.ts writes the index.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ALL_SUITES } from '../harness/config/load.js';
import { loadCatalogue, type Requirement } from '../harness/spec/catalogue.js';
import { groupOf, requirementId } from '../harness/robustness/catalogue.js';
import { planOperation } from '../harness/robustness/plan.js';
import { specRegistry } from '../harness/spec/registry.js';
import { allFaults, allVariants } from '../reference/switch-registry.js';
import { loadStatements } from '../harness/spec/statements.js';
import { caseFiles, loadCases } from '../suites/lib/case-files.js';
import { declarationsOf } from './declarations.js';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const ROBUSTNESS_TEST = 'suites/robustness/robustness.test.ts';

export interface Trace {
  /** Hand-written catalogue entries (generated schema requirements left out), by id. */
  catalogue: Map<string, Requirement>;
  /** Catalogue id → the test files that test it. */
  tests: Map<string, Set<string>>;
  /** Catalogue id → the case tables whose cases test it. */
  cases: Map<string, Set<string>>;
  /** Ids a test declares (`id:`/`also:`, a case) that the catalogue lacks, with the file. */
  unknownInTests: { id: string; file: string }[];
  faults: { name: string; breaks: string; suites: string[]; statements: string[] }[];
  variants: { name: string; assumptions: string[]; suites: string[] }[];
}

function walk(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) walk(full, out);
    else out.push(full);
  }
  return out;
}

const rel = (p: string) => path.relative(ROOT, p).split(path.sep).join('/');

/** Ids a source file declares for conformance() and its case rows (from its syntax tree). */
export function declaredIds(source: string): string[] {
  return declarationsOf(source).declared;
}

/** The test file that runs a case table: the `.test.ts` beside it that names `./<file>`. */
export function runnerOf(caseFile: string): string | undefined {
  const dir = path.join(ROOT, path.dirname(caseFile));
  const name = path.basename(caseFile);
  const runner = readdirSync(dir)
    .filter((f) => f.endsWith('.test.ts'))
    .find((f) => readFileSync(path.join(dir, f), 'utf8').includes(`'./${name}'`));
  return runner ? `${path.dirname(caseFile)}/${runner}` : undefined;
}

export async function trace(): Promise<Trace> {
  const catalogue = new Map([...loadCatalogue()].filter(([, r]) => r.kind !== 'schema'));
  const tests = new Map<string, Set<string>>();
  const cases = new Map<string, Set<string>>();
  const add = (m: Map<string, Set<string>>, id: string, file: string) => {
    if (!m.has(id)) m.set(id, new Set());
    m.get(id)!.add(file);
  };
  const unknownInTests: Trace['unknownInTests'] = [];

  // Suite sources, read as syntax trees (tools/declarations.ts): a catalogue id a test file's code
  // names (declared to conformance(), or a row of a table of tuples); declared ids must exist.
  for (const file of walk(path.join(ROOT, 'suites')).filter((f) => f.endsWith('.ts'))) {
    const r = rel(file);
    const { declared, strings } = declarationsOf(readFileSync(file, 'utf8'), file);
    if (r.endsWith('.test.ts')) for (const id of strings) if (catalogue.has(id)) add(tests, id, r);
    for (const id of declared) if (!loadCatalogue().has(id)) unknownInTests.push({ id, file: r });
  }

  // Case tables: each case names its id, run by the test file beside the table.
  for (const file of caseFiles()) {
    const runner = runnerOf(file) ?? file;
    for (const c of loadCases(file).cases)
      for (const id of [c.id, ...(c.also ?? [])]) {
        if (!catalogue.has(id)) unknownInTests.push({ id, file });
        add(tests, id, runner);
        add(cases, id, file);
      }
  }

  // The robustness suite generates one test per operation and rule, from the same spec as its
  // catalogue (tests/spec/robustness-catalogue.test.ts keeps the two in step).
  const registry = await specRegistry();
  for (const op of registry.operations) {
    const plan = planOperation(op);
    for (const rule of plan.rules) {
      for (const id of [requirementId(plan.operationId, rule), groupOf(op.api, rule)]) {
        if (!id) continue;
        if (!loadCatalogue().has(id)) unknownInTests.push({ id, file: ROBUSTNESS_TEST });
        else add(tests, id, ROBUSTNESS_TEST);
      }
    }
  }

  return {
    catalogue,
    tests,
    cases,
    unknownInTests,
    faults: allFaults.map((f) => ({
      name: f.name,
      breaks: f.breaks,
      suites: [...f.suites],
      statements: [...(f.statements ?? [])],
    })),
    variants: allVariants.map((v) => ({
      name: v.name,
      assumptions: [...(v.assumptions ?? [])],
      suites: [...v.suites],
    })),
  };
}

/** A catalogue entry marked as not testable through the API here (with its reason). */
export const marked = (r: Requirement): boolean => !!r.testability && r.testability.class !== 'api';

/** The gaps `npm test` fails on, as readable lines (empty when traceability holds both ways). */
export function gaps(t: Trace): string[] {
  const out: string[] = [];
  for (const [id, r] of t.catalogue)
    if (!t.tests.has(id) && !marked(r))
      out.push(`${id}: no test names it and it has no testability mark (area ${r.area})`);
  for (const { id, file } of t.unknownInTests) out.push(`${file}: names ${id}, which the catalogue lacks`);
  const suites = new Set(ALL_SUITES);
  const statementIds = new Set(loadStatements().map((s) => s.id));
  for (const f of t.faults) {
    if (!t.catalogue.has(f.breaks)) out.push(`fault ${f.name}: breaks ${f.breaks}, which the catalogue lacks`);
    for (const id of f.statements)
      if (!statementIds.has(id))
        out.push(`fault ${f.name}: declares statement ${id}, which no spec/<area>/statements*.yaml holds`);
    const unknown = f.suites.filter((s) => !suites.has(s));
    if (unknown.length) out.push(`fault ${f.name}: names unknown suite(s) ${unknown.join(', ')}`);
    const inSuites = [...(t.tests.get(f.breaks) ?? [])].filter((file) =>
      f.suites.some((s) => file.startsWith(`suites/${s}/`)),
    );
    if (!f.suites.length || !inSuites.length)
      out.push(`fault ${f.name}: no test of its suites (${f.suites.join(', ') || 'none'}) tests ${f.breaks}`);
  }
  for (const v of t.variants) {
    for (const id of v.assumptions)
      if (!t.catalogue.has(id)) out.push(`variant ${v.name}: names ${id}, which the catalogue lacks`);
    const unknown = v.suites.filter((s) => !suites.has(s));
    if (!v.suites.length || unknown.length)
      out.push(`variant ${v.name}: names no suite or unknown suite(s) ${unknown.join(', ')}`);
  }
  return out;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const found = gaps(await trace());
  for (const g of found) console.log(g);
  console.log(found.length ? `${found.length} traceability gap(s)` : 'traceability holds both ways');
  process.exitCode = found.length ? 1 : 0;
}
