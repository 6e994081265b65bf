/**
 * `npm run coverage:docs`: how much of the documents the suite checks, statement by statement.
 * Per document and section: statements, testable, asserted by a behavioural test, partly asserted,
 * checked by the response schema only, untested; then every statement that is not asserted, with
 * what is missing. `--json` prints the same as data; `--document core|transit|jobs` narrows it;
 * `--faults` also lists the testable statements no fault switch of the reference declares it breaks.
 *
 * The figures come from the inventory (spec/<area>/statements*.yaml), the catalogue's `statements` fields and
 * the traceability of tools/trace.ts (which requirement a suite test checks): a statement counts as
 * asserted only when a requirement naming it has a test and the inventory names no gap for it, and
 * when the published fault proof (generated/fault-proof.json, the last full `npm run mutation`)
 * shows a fault declaring it killed by a test of the requirement it breaks. A statement its tests
 * assert but no fault proves is partial ("no fault proves it"): the figure is never higher than
 * what the faults prove. The figure without that bound is printed beside it.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  carriersByStatement,
  type Coverage,
  coverageOf,
  DOCUMENTS,
  type DocumentKey,
  loadStatements,
  type Statement,
} from '../harness/spec/statements.js';
import { type FaultProof, loadProof } from '../harness/cli/mutation-proof.js';
import { trace } from './trace.js';

export interface Row {
  document: string;
  section: string;
  statements: number;
  testable: number;
  asserted: number;
  partial: number;
  schemaOnly: number;
  untested: number;
  /** Testable statements that a fault switch of the reference declares it breaks. */
  withFault: number;
  /** Asserted by the tests alone (before the fault proof's bound): `asserted` plus `unproved`. */
  assertedByTests: number;
  /** Asserted by the tests, but no fault proves it: counted as partial. */
  unproved: number;
}

export interface StatementCoverage {
  id: string;
  document: string;
  section: string;
  kind: string;
  quote: string;
  coverage: Coverage;
  requirements: string[];
  /** Fault switches of the reference that declare they break this statement. */
  faults: string[];
  /** Of those, the ones the published proof shows killed by a test of their own requirement. */
  provedBy: string[];
  /** Asserted by its tests, but no fault proves it (its coverage is then partial). */
  unproved?: boolean;
  why?: string;
}

export interface DocsCoverage {
  /** The fault proof that bounds the figures: its commit and date, or undefined when none is published. */
  proof?: { commit: string; measuredAt: string };
  rows: Row[];
  /** Per document: the totals row (section '(all)'). */
  totals: Row[];
  statements: StatementCoverage[];
}

const empty = (document: string, section: string): Row => ({
  document,
  section,
  statements: 0,
  testable: 0,
  asserted: 0,
  partial: 0,
  schemaOnly: 0,
  untested: 0,
  withFault: 0,
  assertedByTests: 0,
  unproved: 0,
});

function count(row: Row, s: Pick<StatementCoverage, 'coverage' | 'faults' | 'unproved'>): void {
  const c = s.coverage;
  row.statements++;
  if (c === 'untestable') return;
  row.testable++;
  if (s.faults.length) row.withFault++;
  if (c === 'asserted' || s.unproved) row.assertedByTests++;
  if (s.unproved) row.unproved++;
  if (c === 'asserted') row.asserted++;
  else if (c === 'partial') row.partial++;
  else if (c === 'schema-only') row.schemaOnly++;
  else row.untested++;
}

/** Why no fault proves a statement its tests assert, from the proof. */
function unprovedWhy(faults: string[], proof: FaultProof | null): string {
  if (!proof) return 'no fault proves it: no fault proof is published (run `npm run mutation`)';
  if (!faults.length) return 'no fault proves it: no fault of the reference declares it';
  const said = faults.map((n) => {
    const f = proof.faults.byName[n];
    if (!f) return `${n} (not in the published proof)`;
    if (f.verdict !== 'killed') return `${n} (${f.verdict})`;
    return `${n} (killed, but by ${f.chargedTo.join(', ')}, not by its own ${f.breaks})`;
  });
  return `no fault proves it: ${said.join('; ')}`;
}

/** `proof`: the published one by default; null for none. */
export async function docsCoverage(
  only?: DocumentKey,
  proof: FaultProof | null = loadProof() ?? null,
): Promise<DocsCoverage> {
  const t = await trace();
  const carriers = carriersByStatement(t.catalogue.values());
  const tested = (id: string) => t.tests.has(id);
  const faultsOf = new Map<string, string[]>();
  for (const f of t.faults) for (const id of f.statements) faultsOf.set(id, [...(faultsOf.get(id) ?? []), f.name]);
  const wanted = (s: Statement) => !only || s.document === DOCUMENTS[only];
  const statements = loadStatements()
    .filter(wanted)
    .map((s): StatementCoverage => {
      const requirements = carriers.get(s.id) ?? [];
      const byTests = coverageOf(s, requirements, tested);
      const faults = faultsOf.get(s.id) ?? [];
      const provedBy = proof?.statements.byId[s.id]?.provedBy ?? [];
      // Bounded by the fault proof: asserted only when a fault declaring it was killed by a test
      // of the requirement it breaks.
      const unproved = byTests === 'asserted' && provedBy.length === 0;
      const coverage: Coverage = unproved ? 'partial' : byTests;
      const why =
        s.untestable?.reason ??
        s.gap?.note ??
        (coverage === 'untested' ? 'no requirement that names it has a test' : undefined) ??
        (unproved ? unprovedWhy(faults, proof) : undefined);
      return {
        id: s.id,
        document: s.document,
        section: s.section,
        kind: s.kind,
        quote: s.quote,
        coverage,
        requirements,
        faults,
        provedBy,
        ...(unproved ? { unproved } : {}),
        why,
      };
    });
  const rows = new Map<string, Row>();
  const totals = new Map<string, Row>();
  for (const s of statements) {
    const key = `${s.document}\u0000${s.section}`;
    if (!rows.has(key)) rows.set(key, empty(s.document, s.section));
    if (!totals.has(s.document)) totals.set(s.document, empty(s.document, '(all)'));
    count(rows.get(key)!, s);
    count(totals.get(s.document)!, s);
  }
  return {
    ...(proof ? { proof: { commit: proof.commit, measuredAt: proof.measuredAt } } : {}),
    rows: [...rows.values()],
    totals: [...totals.values()],
    statements,
  };
}

const pct = (n: number, of: number) => (of ? `${((100 * n) / of).toFixed(1)}%` : '-');

export function formatCoverage(c: DocsCoverage, opts: { faults?: boolean } = {}): string {
  const out: string[] = [];
  const head = [
    'section',
    'statements',
    'testable',
    'asserted',
    'partly',
    'schema only',
    'untested',
    'with a fault',
    'no fault proves',
  ];
  for (const total of c.totals) {
    out.push(`\n${total.document}`);
    const rows = [...c.rows.filter((r) => r.document === total.document), total];
    const cells = rows.map((r) => [
      r.section,
      String(r.statements),
      String(r.testable),
      String(r.asserted),
      String(r.partial),
      String(r.schemaOnly),
      String(r.untested),
      String(r.withFault),
      String(r.unproved),
    ]);
    const widths = head.map((h, i) => Math.max(h.length, ...cells.map((row) => row[i]!.length)));
    const line = (row: string[]) =>
      row.map((v, i) => (i === 0 ? v.padEnd(widths[i]!) : v.padStart(widths[i]!))).join('  ');
    out.push(line(head));
    for (const row of cells) out.push(line(row));
    out.push(
      `asserted: ${total.asserted} of ${total.testable} testable statements (${pct(total.asserted, total.testable)}), bounded by the fault proof; by the tests alone ${total.assertedByTests} (${pct(total.assertedByTests, total.testable)}), of which no fault proves ${total.unproved}; ${total.statements - total.testable} not testable here; a fault breaks ${total.withFault} of them (${pct(total.withFault, total.testable)})`,
    );
  }
  out.push(
    c.proof
      ? `\nBounded by the fault proof of commit ${c.proof.commit.slice(0, 12)} (${c.proof.measuredAt.slice(0, 10)}, generated/fault-proof.json): a statement counts as asserted only when a fault declaring it was killed by a test of the requirement it breaks.`
      : '\nNo fault proof is published (generated/fault-proof.json; run `npm run mutation`): no statement is proved, so none counts as asserted.',
  );
  const open = c.statements.filter((s) => s.coverage !== 'asserted' && s.coverage !== 'untestable');
  out.push(`\nStatements not asserted (${open.length}):`);
  for (const s of open)
    out.push(`  ${s.id} [${s.coverage}] ${s.section}\n      "${s.quote.slice(0, 140)}"\n      ${s.why ?? ''}`);
  if (opts.faults) {
    const bare = c.statements.filter((s) => s.coverage !== 'untestable' && !s.faults.length);
    out.push(`\nTestable statements no fault switch declares (${bare.length}):`);
    for (const s of bare) out.push(`  ${s.id} [${s.coverage}] carried by ${s.requirements.join(', ') || 'nothing'}`);
  }
  return out.join('\n');
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const docArg = args.includes('--document') ? args[args.indexOf('--document') + 1] : undefined;
  if (docArg !== undefined && !(docArg in DOCUMENTS)) {
    console.error(`--document must be one of ${Object.keys(DOCUMENTS).join(', ')} (got "${docArg}")`);
    process.exit(2);
  }
  const c = await docsCoverage(docArg as DocumentKey | undefined);
  console.log(
    args.includes('--json') ? JSON.stringify(c, null, 2) : formatCoverage(c, { faults: args.includes('--faults') }),
  );
}
