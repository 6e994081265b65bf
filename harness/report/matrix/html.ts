/**
 * matrix.html: one self-contained page (inline style and script, no external asset). The
 * summary of each implementation, then the requirements grouped by area and document section,
 * one column per implementation, with the filters (area, level, verdict class, where the
 * implementations disagree, where every implementation fails) and a cell's details on a click.
 * Everything from the runs is escaped; the cells' details travel as JSON in a non-executed
 * script element and are written into the page as text only.
 */
import { xmlEscape as esc } from '../junit.js';
import {
  CELL_CLASSES,
  CLASS_LABEL,
  type CellClass,
  type ColumnSummary,
  type LevelCounts,
  type Matrix,
  type MatrixColumn,
  type MatrixRow,
} from './model.js';
import { MATRIX_SCRIPT } from './script.js';

const SHORT: Record<CellClass, string> = {
  passed: '✓ passed',
  violation: '✗ violation',
  assumption: '≠ assumption',
  'known-failure': '! known',
  'not-applicable': 'n/a',
  skipped: 'skipped',
  'not-run': 'not run',
};

const MEANING: Record<CellClass, string> = {
  passed: 'every test of the requirement passed (or a declared known failure no longer fails)',
  violation: 'a test failed: the implementation breaks a rule of the documents',
  assumption:
    'a test of an assumption failed: the implementation differs where the documents are silent, and the catalogue assumed one behaviour',
  'known-failure':
    "a failure the run's expectations declare, or a documented known issue observed on an affected version",
  'not-applicable': 'the target refused a precondition for a reason outside the rule, or its version is unknown',
  skipped: 'the tests did not run (a capability the target lacks, an assumption switched off, a missing fixture)',
  'not-run': 'no verdict: absent from the run (suite not selected), no test checks it, or not observable',
};

const LEVELS = ['MUST', 'SHOULD', 'MAY'];

const CSS = `
body{font:14px/1.45 system-ui,sans-serif;margin:0;color:#1d2330;background:#f6f7f9}
header{background:#1d2330;color:#fff;padding:16px 24px}header h1{margin:0;font-size:20px}
main{padding:16px 24px}section{background:#fff;border:1px solid #dde1e7;border-radius:6px;margin:16px 0;padding:12px 16px}
table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:4px 8px;border-bottom:1px solid #eceef2;vertical-align:top}
th{background:#f0f2f5;font-weight:600}.muted{color:#777}code{font-size:12px}h5{margin:6px 0 2px}
.badge{display:inline-block;padding:0 6px;border-radius:3px;font-size:12px;font-weight:600}
.v-passed{background:#d8f3dc;color:#1b5e20}.v-violation{background:#fddede;color:#a00}.v-assumption{background:#efe3ff;color:#5a2d91}
.v-known-failure{background:#fff3cd;color:#7a5b00}.v-not-applicable{background:#eceff1;color:#555}.v-skipped{background:#eceff1;color:#555}
.v-not-run{background:#fafafa;color:#999}
#rows td.cell{padding:2px 4px;white-space:nowrap}#rows td.cell button{font:inherit;font-size:12px;font-weight:600;border:0;border-radius:3px;padding:1px 6px;cursor:pointer;background:transparent;color:inherit;width:100%;text-align:left}
#rows td.cell button:hover,#rows td.cell button:focus{outline:2px solid #0b4f8a}
#rows tbody.group tr.section th{background:#e6e9ef;font-size:13px}#rows tr.req td.req-text{max-width:640px}
#rows tr.req.differs td.id{border-left:3px solid #b26a00}#rows tr.req.allfail td.id{border-left:3px solid #a00}
#rows thead th{position:sticky;top:var(--bar,48px);z-index:1}
#filters{position:sticky;top:0;z-index:2;background:#fff;display:flex;flex-wrap:wrap;gap:8px 16px;align-items:center;padding:8px 0;border-bottom:1px solid #dde1e7}
#filters label{white-space:nowrap}#shown{font-weight:600}
blockquote{margin:4px 0;padding:2px 8px;border-left:3px solid #9aa5b5;color:#333}
.kind{font-size:11px;color:#5a2d91}.gist{font-size:12px;color:#555}.note{font-size:12px;color:#7a5b00}.bad{color:#a00;font-weight:600}
#detail{position:fixed;top:0;right:0;bottom:0;width:min(720px,92vw);background:#fff;border-left:1px solid #9aa5b5;box-shadow:-4px 0 16px rgba(0,0,0,.15);overflow:auto;padding:12px 16px;z-index:3}
#detail header{display:flex;justify-content:space-between;align-items:center;background:none;color:inherit;padding:0}#detail h2{font-size:16px;margin:0}
#detail .test{border-left:4px solid #9aa5b5;padding-left:10px;margin:12px 0}#detail .test.s-failed{border-color:#c62828}#detail h4{margin:4px 0}
pre{background:#f7f7f9;padding:6px;overflow:auto;max-height:320px;font-size:12px;margin:4px 0;white-space:pre-wrap;word-break:break-word}pre.msg{background:#fff5f5}
.cols{display:grid;grid-template-columns:1fr 1fr;gap:8px}dl.legend{display:grid;grid-template-columns:max-content 1fr;gap:2px 12px;margin:0}dl.legend dd{margin:0}
`;

const pct = (n: number | null) => (n === null ? '–' : `${(Math.floor(n * 1000) / 10).toFixed(1)}%`);

function ratio(c: LevelCounts | undefined): string {
  if (!c) return '<span class="muted">–</span>';
  if (c.applicable === 0)
    return `<span class="muted">${c['not-run'] === c['not-applicable'] + c.skipped + c['not-run'] ? 'not run' : 'no verdict'}</span>`;
  const extra = [
    c.violation ? `<span class="bad">${c.violation} violation${c.violation > 1 ? 's' : ''}</span>` : '',
    c.assumption ? `${c.assumption} assumption` : '',
    c['known-failure'] ? `${c['known-failure']} known` : '',
  ].filter(Boolean);
  return `${c.passed}/${c.applicable}${extra.length ? ` <span class="muted">(${extra.join(', ')})</span>` : ''}`;
}

/** Test files are linked only when they look like a path of the package, never a scheme. */
const linkable = (file: string) => /^[\w][\w./-]*$/.test(file) && !file.includes('..');

function columnHead(c: MatrixColumn): string {
  return `${esc(c.name)}<br><span class="muted">${esc(c.version || 'version unknown')}</span>`;
}

function runLine(c: MatrixColumn): string {
  const parts = [
    `run ${esc(c.runId)}`,
    c.startedAt ? esc(c.startedAt) : '',
    `suites ${esc(c.suites.join(',') || '–')}`,
    c.faults.length ? `faults ${esc(c.faults.join(','))}` : '',
    c.shard ? `<span class="bad">shard ${esc(c.shard)} only: merge the shards first</span>` : '',
    c.complete === false ? `<span class="bad">incomplete: ${esc(c.incomplete.join('; '))}</span>` : '',
  ];
  return parts.filter(Boolean).join(' · ');
}

function summaryTable(m: Matrix): string {
  const counts = (s: ColumnSummary, key: keyof LevelCounts) => Object.values(s.byLevel).reduce((n, c) => n + c[key], 0);
  return `<table id="overall"><thead><tr><th>implementation</th><th>version</th>${LEVELS.map((l) => `<th>${l} passed of applicable</th>`).join('')}<th>violations</th><th>assumption differences</th><th>known failures</th><th>not applicable</th><th>skipped</th><th>not run</th><th>conformance</th></tr></thead><tbody>
${m.columns
  .map((c, i) => {
    const s = m.summary[i]!;
    return `<tr data-col="${i}"><td><b>${esc(c.name)}</b><br><span class="muted">${runLine(c)}<br>${esc(c.file)}</span></td><td>${esc(c.version || 'unknown')}${c.versionSource ? `<br><span class="muted">${esc(c.versionSource)}</span>` : ''}</td>${LEVELS.map((l) => `<td class="lv-${l}">${ratio(s.byLevel[l])}</td>`).join('')}<td class="n-violation">${counts(s, 'violation')}</td><td class="n-assumption">${counts(s, 'assumption')}</td><td class="n-known-failure">${counts(s, 'known-failure')}</td><td class="n-not-applicable">${counts(s, 'not-applicable')}</td><td class="n-skipped">${counts(s, 'skipped')}</td><td class="n-not-run">${counts(s, 'not-run')}</td><td class="conformance"><b>${pct(s.overall.conformance)}</b><br><span class="muted">${s.overall.violations} violation(s) of ${s.overall.applicable} applicable</span></td></tr>`;
  })
  .join('\n')}
</tbody></table>`;
}

function areaTable(m: Matrix): string {
  const areas = [...new Set(m.rows.map((r) => r.area))];
  return `<table id="areas"><thead><tr><th>area</th>${m.columns.map((c) => `<th>${columnHead(c)}</th>`).join('')}</tr></thead><tbody>
${areas
  .map(
    (a) =>
      `<tr data-area="${esc(a)}"><td>${esc(a)}</td>${m.summary
        .map((s) => {
          const byLevel = s.byArea[a] ?? {};
          return `<td>${LEVELS.filter((l) => byLevel[l])
            .map((l) => `${l} ${ratio(byLevel[l])}`)
            .join('<br>')}</td>`;
        })
        .join('')}</tr>`,
  )
  .join('\n')}
</tbody></table>`;
}

function requirementCell(r: MatrixRow): string {
  // The documents' own sentences first; the catalogue's wording under them says which part of
  // the sentence this row checks (a sentence often carries several requirements).
  const words = r.statements?.length
    ? `${r.statements.map((s) => `<blockquote title="${esc(s.id)}">${esc(s.quote)}</blockquote>`).join('')}<span class="gist">${esc(r.text)}</span>`
    : esc(r.text);
  return `${words}${r.notes.map((n) => `<br><span class="note">${esc(n)}</span>`).join('')}`;
}

function row(r: MatrixRow, i: number, sourceRoot: string): string {
  const link = r.files.find(linkable);
  const id = link
    ? `<a href="${esc(`${sourceRoot}/${link}`)}" title="${esc(r.files.join(', '))}"><code>${esc(r.id)}</code></a>`
    : `<code>${esc(r.id)}</code>`;
  const flags = `${r.disagree ? ' data-disagree' : ''}${r.allFail ? ' data-allfail' : ''}`;
  const classes = `req${r.disagree ? ' differs' : ''}${r.allFail ? ' allfail' : ''}`;
  return `<tr class="${classes}" data-i="${i}" data-id="${esc(r.id)}" data-area="${esc(r.area)}" data-level="${esc(r.level)}" data-classes="${r.cells.map((c) => c.class).join(' ')}"${flags}><td class="id">${id}${r.kind !== 'rule' ? `<br><span class="kind">${esc(r.kind)}</span>` : ''}</td><td>${esc(r.level)}</td><td class="req-text">${requirementCell(r)}</td>${r.cells.map((c, j) => `<td class="cell v-${c.class}"><button type="button" data-c="${j}">${SHORT[c.class]}</button></td>`).join('')}</tr>`;
}

function groups(m: Matrix, sourceRoot: string): string {
  const out: string[] = [];
  let current = '';
  let i = 0;
  for (const r of m.rows) {
    const key = `${r.area}\u0000${r.section}`;
    if (key !== current) {
      if (current) out.push('</tbody>');
      current = key;
      out.push(
        `<tbody class="group" data-area="${esc(r.area)}"><tr class="section"><th colspan="${3 + m.columns.length}">${esc(r.area)} · ${esc(r.section)}</th></tr>`,
      );
    }
    out.push(row(r, i++, sourceRoot));
  }
  if (current) out.push('</tbody>');
  return out.join('\n');
}

/** The cells' details for the script, as JSON that cannot end the script element it sits in. */
function detailsJson(m: Matrix): string {
  // A few reasons repeat over thousands of cells (absent from the run, ...): listed once, by index.
  const reasons: string[] = [];
  const reasonIndex = new Map<string, number>();
  const reasonOf = (text: string) => {
    if (!reasonIndex.has(text)) reasonIndex.set(text, reasons.push(text) - 1);
    return reasonIndex.get(text)!;
  };
  const client = {
    labels: CLASS_LABEL,
    columns: m.columns.map((c) => ({ name: c.name, version: c.version })),
    rows: m.rows.map((r) => ({
      id: r.id,
      level: r.level,
      kind: r.kind,
      text: r.text,
      ...(r.statements ? { statements: r.statements } : {}),
      cells: r.cells.map((c) => ({
        cls: c.class,
        status: c.status,
        ...(c.reason ? { reason: reasonOf(c.reason) } : {}),
        // The key is the file and the title again: the page needs neither twice.
        tests: c.tests.map(({ key: _key, ...t }) => t),
      })),
    })),
    reasons,
  };
  return JSON.stringify(client)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

const option = (value: string, label: string) => `<option value="${esc(value)}">${esc(label)}</option>`;

/** `sourceRoot`: the package root as seen from the page's folder, for the links to test files. */
export function toMatrixHtml(m: Matrix, opts: { sourceRoot?: string } = {}): string {
  const sourceRoot = opts.sourceRoot ?? '.';
  const areas = [...new Set(m.rows.map((r) => r.area))];
  const levels = [...new Set(m.rows.map((r) => r.level))].sort(
    (a, b) => (LEVELS.indexOf(a) + 1 || 99) - (LEVELS.indexOf(b) + 1 || 99),
  );
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Compatibility matrix: ${esc(m.columns.map((c) => c.name).join(', '))}</title><style>${CSS}</style></head>
<body><header><h1>Compatibility matrix</h1><div>${m.counts.rows} requirements × ${m.columns.length} implementations · ${m.counts.disagree} where they disagree · ${m.counts.allFail} where every implementation fails · made ${esc(m.generatedAt)}</div></header>
<main>
<section id="summary"><h2>Summary</h2>
<p class="muted">Passed of applicable: applicable requirements are those with a verdict (passed, violation, assumption difference, known failure). Conformance counts only violations: (applicable − violations) / applicable.</p>
${summaryTable(m)}
<h3>Per area</h3>
${areaTable(m)}
</section>
<section id="legend"><h2>Verdict classes</h2><dl class="legend">${CELL_CLASSES.map((c) => `<dt><span class="badge v-${c}">${esc(CLASS_LABEL[c])}</span></dt><dd>${esc(MEANING[c])}</dd>`).join('')}</dl></section>
<section id="matrix"><h2>Requirements</h2>
<form id="filters" autocomplete="off">
<label>area <select name="area">${option('', 'all')}${areas.map((a) => option(a, a)).join('')}</select></label>
<label>level <select name="level">${option('', 'all')}${levels.map((l) => option(l, l)).join('')}</select></label>
<label>verdict <select name="cls">${option('', 'any')}${CELL_CLASSES.map((c) => option(c, CLASS_LABEL[c])).join('')}</select></label>
<label>in <select name="col">${option('', 'any implementation')}${m.columns.map((c, i) => option(String(i), c.name)).join('')}</select></label>
<label>find <input type="search" name="text" placeholder="id or words"></label>
<label><input type="checkbox" name="disagree"> only where implementations disagree</label>
<label><input type="checkbox" name="allfail"> only where every implementation fails</label>
<button type="reset">reset</button>
<output id="shown">${m.counts.rows} of ${m.counts.rows} requirements</output>
</form>
<table id="rows"><thead><tr><th>id</th><th>level</th><th>requirement</th>${m.columns.map((c) => `<th>${columnHead(c)}</th>`).join('')}</tr></thead>
${groups(m, sourceRoot)}
</table></section>
</main>
<aside id="detail" role="dialog" aria-labelledby="detail-title" hidden><header><h2 id="detail-title"></h2><button type="button" id="detail-close">close</button></header><div id="detail-body"></div></aside>
<script type="application/json" id="matrix-data">${detailsJson(m)}</script>
<script>${MATRIX_SCRIPT}</script>
</body></html>
`;
}
