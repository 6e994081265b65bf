/**
 * Builds the matrix from named runs. Rows are aligned by requirement id over every run (runs of
 * different suite selections or catalogue versions included): a requirement a run does not carry
 * is `not-run` in that column, never `passed`.
 */
import { classifyCell } from './classify.js';
import {
  FAILING,
  type InputRequirement,
  type InputTest,
  type Matrix,
  type MatrixColumn,
  type MatrixInput,
  type MatrixRow,
} from './model.js';
import { summarize } from './summary.js';

export interface NamedRun {
  name: string;
  file: string;
  results: MatrixInput;
}

function column(run: NamedRun): MatrixColumn {
  const r = run.results;
  const target = r.run.target ?? ({} as Partial<MatrixInput['run']['target']>);
  return {
    name: run.name,
    file: run.file,
    version: target.version || '',
    ...(target.versionSource ? { versionSource: target.versionSource } : {}),
    runId: r.run.id ?? '',
    startedAt: r.run.startedAt ?? '',
    suites: r.run.suites ?? [],
    faults: r.run.faults ?? [],
    ...(typeof r.complete === 'boolean' ? { complete: r.complete } : {}),
    incomplete: (r.incomplete ?? []).map((i) => `${i.suite}: ${i.reason}`),
    ...(r.run.shard && !r.run.mergedFrom?.length ? { shard: r.run.shard } : {}),
    ...(r.tool ? { tool: `${r.tool.name} ${r.tool.version}` } : {}),
  };
}

/** `<file> > <title>` keys to their files. */
const fileOf = (key: string) => key.split(' > ')[0]!;

/** Whether the columns that have a verdict do not all agree. */
export function disagrees(classes: string[]): boolean {
  return new Set(classes.filter((c) => c !== 'not-run')).size > 1;
}

/** Whether every column fails the requirement (a hint that the suite or the documents are wrong). */
export function everyoneFails(classes: string[]): boolean {
  return classes.length > 0 && classes.every((c) => (FAILING as string[]).includes(c));
}

export function buildMatrix(runs: NamedRun[], now = new Date()): Matrix {
  const byId = runs.map((r) => new Map(r.results.requirements.map((q) => [q.id, q])));
  const testsByKey = runs.map((r) => new Map<string, InputTest>(r.results.tests.map((t) => [t.key, t])));

  // Every requirement id in first-seen order, with the first run's view of it.
  const first = new Map<string, InputRequirement>();
  for (const run of runs) for (const q of run.results.requirements) if (!first.has(q.id)) first.set(q.id, q);

  const rows: MatrixRow[] = [...first.values()].map((meta) => {
    const views = byId.map((m) => m.get(meta.id));
    const notes: string[] = [];
    runs.forEach((run, i) => {
      const v = views[i];
      if (!v) return;
      if (v.level !== meta.level) notes.push(`level ${v.level} in ${run.name} (${meta.level} elsewhere)`);
      if (v.text !== meta.text) notes.push(`${run.name}'s catalogue words it differently: ${v.text}`);
    });
    const statements = views.find((v) => v?.statements?.length)?.statements;
    const cells = views.map((v, i) => classifyCell(v, testsByKey[i]!));
    const classes = cells.map((c) => c.class);
    const files = new Set<string>();
    for (const v of views) for (const key of v?.tests ?? []) files.add(fileOf(key));
    return {
      id: meta.id,
      level: meta.level,
      area: meta.area,
      section: meta.section,
      kind: meta.kind ?? 'rule',
      text: meta.text,
      ...(statements ? { statements } : {}),
      files: [...files].sort(),
      notes,
      cells,
      disagree: disagrees(classes),
      allFail: everyoneFails(classes),
    };
  });

  // Grouped by area, then by document section, each in order of first appearance (document order).
  const areaOrder = new Map<string, number>();
  const groupOrder = new Map<string, number>();
  for (const r of rows) {
    if (!areaOrder.has(r.area)) areaOrder.set(r.area, areaOrder.size);
    const g = `${r.area}\u0000${r.section}`;
    if (!groupOrder.has(g)) groupOrder.set(g, groupOrder.size);
  }
  const ordered = rows
    .map((r, i) => ({ r, i }))
    .sort(
      (a, b) =>
        areaOrder.get(a.r.area)! - areaOrder.get(b.r.area)! ||
        groupOrder.get(`${a.r.area}\u0000${a.r.section}`)! - groupOrder.get(`${b.r.area}\u0000${b.r.section}`)! ||
        a.i - b.i,
    )
    .map(({ r }) => r);

  const columns = runs.map(column);
  return {
    tool: { name: 'svc-conformance', version: '0.1.0' },
    generatedAt: now.toISOString(),
    columns,
    rows: ordered,
    summary: summarize(columns, ordered),
    counts: {
      rows: ordered.length,
      disagree: ordered.filter((r) => r.disagree).length,
      allFail: ordered.filter((r) => r.allFail).length,
    },
  };
}
