/**
 * The failure entries of the HTML report, by class: violations of the documents, and assumption
 * differences (the target reads a point the documents leave open otherwise than the catalogue
 * assumes) with the assumption, why it exists and the setting that changes it. Each entry shows
 * the requirement its failing assertion proves (the test's other ids as not reached), the failing
 * exchange as a curl command, and the sentences of the documents the requirement comes from.
 */
import type { RequirementRow, Results, TestResult } from './model.js';
import { xmlEscape as esc } from './junit.js';
import { chargedTo } from './verdict.js';

export const FAILURE_CSS = `
.failure.assumption{border-left-color:#b58900}.ids .failed-id{font-weight:700;color:#a00}.ids .not-reached{color:#777;text-decoration:line-through}
pre.curl{background:#1d2330;color:#e8e8e8;white-space:pre-wrap;word-break:break-all}
blockquote.quote{margin:6px 0;padding:4px 10px;border-left:3px solid #8aa;background:#f4f8f8}blockquote.quote cite{display:block;font-size:12px;color:#577;font-style:normal}
.assumption-why{background:#fff8e1;padding:6px 8px;border-radius:4px}
`;

function rowOf(results: Results, id: string | undefined): RequirementRow | undefined {
  return id === undefined ? undefined : results.requirements.find((r) => r.id === id);
}

/** The test's ids: the failed one first and marked, the others marked not reached. */
function idsLine(t: TestResult): string {
  const failed = chargedTo(t);
  const ids = [failed, ...t.ids.filter((id) => id !== failed)].filter((id): id is string => !!id);
  return ids
    .map((id) =>
      id === failed
        ? `<code class="failed-id" title="the failing assertion proves this requirement">${esc(id)}</code>`
        : t.notReached?.includes(id)
          ? `<code class="not-reached" title="not reached: the test stopped before checking it">${esc(id)}</code>`
          : `<code>${esc(id)}</code>`,
    )
    .join(' ');
}

/** The sentences of the documents the failed requirement comes from; its text when it names none yet. */
function sentences(row: RequirementRow | undefined): string {
  if (!row) return '';
  if (row.statements?.length)
    return row.statements
      .map(
        (s) =>
          `<blockquote class="quote" data-statement="${esc(s.id)}">${esc(s.quote)}<cite>${esc(s.section)} · ${esc(s.id)}</cite></blockquote>`,
      )
      .join('');
  return `<blockquote class="quote requirement-text">${esc(row.text)}<cite>${esc(row.section)} · requirement text (no statement of the documents named yet)</cite></blockquote>`;
}

function reproduction(t: TestResult): string {
  const r = t.reproduction;
  if (!r) return '<p class="muted">No exchange to repeat.</p>';
  return `<h5>reproduce</h5><pre class="curl">${esc(r.curl)}</pre>${(r.notes ?? []).map((n) => `<p class="muted">${esc(n)}</p>`).join('')}`;
}

export function failureEntry(t: TestResult, results: Results, transcript: (t: TestResult) => string): string {
  const row = rowOf(results, chargedTo(t));
  const assumption =
    t.verdict === 'assumption' && row?.assumption
      ? `<p class="assumption-why"><b>assumption:</b> ${esc(row.text)}<br><b>why:</b> ${esc(row.assumption.why)}${row.assumption.setting ? `<br><b>setting:</b> <code>${esc(row.assumption.setting)}</code>` : ''}</p>`
      : '';
  return `<div class="failure${t.verdict === 'assumption' ? ' assumption' : ''}"><h3>${esc(t.title)}</h3><p class="ids">${idsLine(t)} · ${t.level} · <span class="muted">${esc(t.file)}</span></p>${assumption}${sentences(row)}<pre class="msg">${esc(t.message ?? '')}</pre>${reproduction(t)}${transcript(t)}</div>`;
}

/** The failures section(s): violations, then assumption differences apart. */
export function failureSections(results: Results, transcript: (t: TestResult) => string): string {
  const failed = results.tests.filter((t) => t.status === 'failed');
  const violations = failed.filter((t) => t.verdict !== 'assumption');
  const differences = failed.filter((t) => t.verdict === 'assumption');
  const strict = results.run.assumptions === 'strict';
  return `<section id="failures"><h2>Violations (${violations.length})</h2>
<p class="muted">Rules the documents state that the target broke.</p>
${violations.map((t) => failureEntry(t, results, transcript)).join('\n') || '<p>None.</p>'}
</section>
<section id="assumption-differences"><h2>Assumption differences (${differences.length})</h2>
<p class="muted">Where the documents are silent or vague the catalogue states a reading (kind: assumption); the target reads it otherwise. ${
    strict
      ? 'run.assumptions is strict: these fail the run.'
      : 'They do not fail the run; run.assumptions: strict (--assumptions strict) makes them fail, and the setting of each switches it off for this target.'
  }</p>
${differences.map((t) => failureEntry(t, results, transcript)).join('\n') || '<p>None.</p>'}
</section>`;
}
