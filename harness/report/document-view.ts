/**
 * The report's document view: the three documents rendered line by line, every statement of the
 * inventory shown beside the line that quotes it, with the requirements that carry it and this
 * run's verdict. So the report reads as the documents, each sentence showing whether the target
 * kept it, whether the suite checks it fully, or why nothing can.
 */
import type { Requirement } from '../spec/catalogue.js';
import {
  carriersByStatement,
  type Coverage,
  coverageOf,
  type DocumentFile,
  locate,
  type ParsedDocument,
  type Statement,
} from '../spec/statements.js';
import { xmlEscape as esc } from './junit.js';
import type { RequirementRow } from './model.js';

/** A statement's verdict in one run. */
export type StatementStatus =
  | 'passed'
  | 'failed'
  | 'assumption'
  | 'known-failure'
  /** Every requirement carrying it belongs to failed tests that stopped before checking it. */
  | 'not-reached'
  | 'not-applicable'
  | 'skipped'
  | 'not-run'
  | 'untested'
  | 'not-observable';

export interface StatementVerdict {
  id: string;
  document: DocumentFile;
  section: string;
  kind: string;
  quote: string;
  clause?: string;
  /** How far the suite checks it (the inventory's gap and untestable marks). */
  coverage: Coverage;
  /** What is missing (gap) or why nothing can check it (untestable). */
  why?: string;
  status: StatementStatus;
  requirements: { id: string; status: string; verdict?: string }[];
}

const ORDER: StatementStatus[] = [
  'failed',
  'assumption',
  'known-failure',
  'not-reached',
  'passed',
  'not-applicable',
  'skipped',
  'untested',
  'not-run',
  'not-observable',
];

/** The verdict of a failed requirement row: the row's own class when the run gives one. */
function failedAs(row: RequirementRow, catalogue: Map<string, Requirement>): StatementStatus {
  const verdict = (row as RequirementRow & { verdict?: string }).verdict;
  if (verdict) return verdict === 'assumption' ? 'assumption' : 'failed';
  return catalogue.get(row.id)?.kind === 'assumption' ? 'assumption' : 'failed';
}

function rowStatus(row: RequirementRow | undefined, catalogue: Map<string, Requirement>): StatementStatus {
  if (!row) return 'not-run';
  switch (row.status) {
    case 'failed':
      return failedAs(row, catalogue);
    case 'passed':
    case 'fixed':
    case 'known-issue':
      return 'passed';
    case 'known-failure':
      return 'known-failure';
    case 'not-reached':
      return 'not-reached';
    case 'not-applicable':
      return 'not-applicable';
    case 'skipped':
      return 'skipped';
    case 'not-observable':
      return 'not-observable';
    default:
      // No test of this run named it: tests/spec/statements.test.ts guarantees a carried statement
      // has a tested requirement, so the run left its suite out.
      return 'not-run';
  }
}

/** Every statement's verdict in a run, from its requirement rows. */
export function statementVerdicts(
  statements: readonly Statement[],
  requirements: readonly RequirementRow[],
  catalogue: Map<string, Requirement>,
): StatementVerdict[] {
  const rows = new Map(requirements.map((r) => [r.id, r]));
  const carriers = carriersByStatement(catalogue.values());
  return statements.map((s) => {
    const ids = carriers.get(s.id) ?? [];
    const reqs = ids.map((id) => {
      const row = rows.get(id);
      const verdict = row?.status === 'failed' ? failedAs(row, catalogue) : undefined;
      return { id, status: row?.status ?? 'not-run', ...(verdict ? { verdict } : {}) };
    });
    // The inventory's own marks: a carried statement without a gap has a tested requirement.
    const coverage = coverageOf(s, ids, () => true);
    const statuses = ids.map((id) => rowStatus(rows.get(id), catalogue));
    const status: StatementStatus = s.untestable
      ? 'not-observable'
      : !ids.length
        ? 'untested'
        : (ORDER.find((o) => statuses.includes(o)) ?? 'untested');
    return {
      id: s.id,
      document: s.document,
      section: s.section,
      kind: s.kind,
      quote: s.quote,
      ...(s.clause ? { clause: s.clause } : {}),
      coverage,
      ...(s.untestable || s.gap ? { why: s.untestable?.reason ?? s.gap?.note } : {}),
      status,
      requirements: reqs,
    };
  });
}

const CLASS: Record<StatementStatus, string> = {
  passed: 'ok',
  failed: 'bad',
  assumption: 'known',
  'known-failure': 'known',
  'not-reached': 'skip',
  'not-applicable': 'skip',
  skipped: 'skip',
  'not-run': 'none',
  untested: 'none',
  'not-observable': 'none',
};

/** Inline Markdown of the documents: code spans and bold, on escaped text. */
function inline(text: string): string {
  return esc(text)
    .replace(/`([^`]+)`/g, '<code>$1</code>')
    .replace(/\*\*([^*]+)\*\*/g, '<b>$1</b>');
}

const slug = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

function chips(verdicts: StatementVerdict[]): string {
  return verdicts
    .map((v) => {
      const partly = v.coverage === 'partial' || v.coverage === 'schema-only' || v.coverage === 'untested';
      const title = [v.kind, v.clause ? `about: ${v.clause}` : '', v.why ?? ''].filter(Boolean).join(' · ');
      const reqs = v.requirements.length
        ? v.requirements
            .map(
              (r) => `<code class="req">${esc(r.id)}</code> <span class="muted">${esc(r.verdict ?? r.status)}</span>`,
            )
            .join(', ')
        : '<span class="muted">no requirement</span>';
      return `<div class="st" data-statement="${esc(v.id)}" data-status="${v.status}" title="${esc(title)}"><span class="badge ${CLASS[v.status]}">${esc(v.status)}</span>${partly && v.coverage !== 'untested' ? ` <span class="badge known">${esc(v.coverage === 'partial' ? 'partly checked' : 'schema only')}</span>` : ''} <code>${esc(v.id)}</code> → ${reqs}</div>`;
    })
    .join('');
}

function cells(row: string): string[] {
  return row
    .replace(/^\|/, '')
    .replace(/\|\s*$/, '')
    .split('|')
    .map((c) => c.trim());
}

/** One document, rendered line by line with the statements of each line beside it. */
export function documentHtml(doc: ParsedDocument, verdicts: StatementVerdict[]): string {
  const byOffset = new Map<number, StatementVerdict[]>();
  const lines = doc.text.split('\n');
  const lineOf: number[] = [];
  let offset = 0;
  for (const [i, l] of lines.entries()) {
    for (let k = 0; k <= l.length; k++) lineOf[offset + k] = i;
    offset += l.length + 1;
  }
  for (const v of verdicts) {
    const where = locate({ ...v, file: '' } as Statement, doc);
    if (!('at' in where)) continue;
    const line = lineOf[where.at]!;
    byOffset.set(line, [...(byOffset.get(line) ?? []), v]);
  }
  const out: string[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    const heading = /^(#{1,6})\s+(.*)$/.exec(line);
    if (heading) {
      const level = Math.min(6, heading[1]!.length + 1);
      out.push(`<h${level} id="doc-${slug(doc.file)}-${slug(heading[2]!)}-${i}">${inline(heading[2]!)}</h${level}>`);
      i++;
      continue;
    }
    if (line.startsWith('|')) {
      const table: string[] = [];
      while (i < lines.length && lines[i]!.startsWith('|')) {
        const row = lines[i]!;
        const isSeparator = /^\|(\s*:?-+:?\s*\|)+\s*$/.test(row);
        const isHeader = /^\|(\s*:?-+:?\s*\|)+\s*$/.test(lines[i + 1] ?? '');
        if (!isSeparator) {
          const tag = isHeader ? 'th' : 'td';
          const here = byOffset.get(i) ?? [];
          table.push(
            `<tr${here.length ? ` class="line ${CLASS[worst(here)]}"` : ''}>${cells(row)
              .map((c) => `<${tag}>${inline(c)}</${tag}>`)
              .join('')}<${tag} class="sts">${isHeader ? 'statements' : chips(here)}</${tag}></tr>`,
          );
        }
        i++;
      }
      out.push(`<table class="doc">${table.join('\n')}</table>`);
      continue;
    }
    if (line.trim()) {
      const here = byOffset.get(i) ?? [];
      out.push(
        `<div class="docline${here.length ? ` ${CLASS[worst(here)]}` : ''}"><p>${inline(line)}</p>${here.length ? `<div class="sts">${chips(here)}</div>` : ''}</div>`,
      );
    }
    i++;
  }
  return out.join('\n');
}

function worst(verdicts: StatementVerdict[]): StatementStatus {
  return ORDER.find((o) => verdicts.some((v) => v.status === o)) ?? 'untested';
}

/** Counts of statement verdicts per document, for the view's summary. */
export function statementCounts(verdicts: StatementVerdict[]): Map<DocumentFile, Record<StatementStatus, number>> {
  const out = new Map<DocumentFile, Record<StatementStatus, number>>();
  for (const v of verdicts) {
    const c = out.get(v.document) ?? (Object.fromEntries(ORDER.map((o) => [o, 0])) as Record<StatementStatus, number>);
    c[v.status]++;
    out.set(v.document, c);
  }
  return out;
}

export const DOCUMENT_VIEW_CSS = `
.docview .docline{display:grid;grid-template-columns:minmax(0,3fr) minmax(0,2fr);gap:8px;border-left:4px solid transparent;padding-left:6px}
.docview .docline p{margin:4px 0}.docview .docline.ok{border-color:#2e7d32}.docview .docline.bad{border-color:#c62828}
.docview .docline.known{border-color:#b58900}.docview .docline.skip,.docview .docline.none{border-color:#b0b7c3}
.docview table.doc td,.docview table.doc th{font-size:13px}.docview tr.line.bad td:first-child{box-shadow:inset 4px 0 #c62828}
.docview tr.line.ok td:first-child{box-shadow:inset 4px 0 #2e7d32}.docview .st{font-size:12px;margin:2px 0}.docview .sts{min-width:260px}
`;

/** The document view section of the HTML report. */
export function documentViewHtml(docs: ParsedDocument[], verdicts: StatementVerdict[]): string {
  const counts = statementCounts(verdicts);
  const summary = docs
    .map((d) => {
      const c = counts.get(d.file);
      if (!c) return '';
      const parts = ORDER.filter((o) => c[o]).map((o) => `${c[o]} ${o}`);
      return `<li><a href="#doc-${slug(d.file)}">${esc(d.file)}</a>: ${esc(parts.join(', '))}</li>`;
    })
    .join('');
  return `<section id="documents" class="docview"><h2>The documents, statement by statement</h2>
<p class="muted">Every statement of the documents (spec/<area>/statements*.yaml) beside the line that quotes it: the requirements that carry it and this run's verdict. <i>partly checked</i>: the suite asserts only part of the statement (hover for what is missing); <i>untested</i>: no test of this suite checks it; <i>not-observable</i>: no test of the API can (hover for why).</p>
<ul>${summary}</ul>
${docs
  .map(
    (d) =>
      `<details class="document" id="doc-${slug(d.file)}"><summary><b>${esc(d.file)}</b> ${esc(d.title)}</summary>${documentHtml(
        d,
        verdicts.filter((v) => v.document === d.file),
      )}</details>`,
  )
  .join('\n')}
</section>`;
}
