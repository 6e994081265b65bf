/**
 * The self-contained HTML report: summary per area and level, the requirement matrix, failures
 * with their transcripts, skips with reasons, and the comparison with a previous run. No scripts
 * or external assets: it opens from a file, anywhere.
 */
import type { RequirementRow, Results, Status, TestResult } from './model.js';
import { xmlEscape as esc } from './junit.js';
import { incompleteLine } from './completeness.js';
import { DOCUMENT_VIEW_CSS, documentViewHtml } from './document-view.js';
import { loadDocuments, type ParsedDocument } from '../spec/statements.js';
import { FAILURE_CSS, failureSections } from './html-failures.js';

const STATUS_CLASS: Record<string, string> = {
  passed: 'ok',
  'known-issue': 'known',
  failed: 'bad',
  skipped: 'skip',
  'known-failure': 'known',
  fixed: 'fixed',
  untested: 'none',
  'not-observable': 'none',
  'not-applicable': 'skip',
  'not-reached': 'skip',
};

function badge(status: string): string {
  return `<span class="badge ${STATUS_CLASS[status] ?? 'none'}">${esc(status)}</span>`;
}

function json(value: unknown): string {
  return esc(typeof value === 'string' ? value : (JSON.stringify(value, null, 2) ?? ''));
}

function transcript(t: TestResult): string {
  if (!t.transcript?.length) return '<p class="muted">No exchanges recorded.</p>';
  return t.transcript
    .map((e, i) => {
      if (e.kind === 'note') return `<div class="note">${esc(e.note ?? '')}</div>`;
      return `<details class="exchange"${i === t.transcript!.length - 1 ? ' open' : ''}><summary><code>${esc(e.method ?? '')} ${esc(e.url ?? '')}</code> → <b>${e.status}</b> <span class="muted">${e.durationMs} ms ${e.operation ? `· ${esc(e.operation)}` : ''}</span></summary>
<div class="cols"><div><h5>request</h5><pre>${json(e.requestHeaders)}</pre>${e.requestBody !== undefined ? `<pre>${json(e.requestBody)}</pre>` : ''}</div>
<div><h5>response</h5><pre>${json(e.responseHeaders)}</pre><pre>${json(e.responseBody)}</pre></div></div></details>`;
    })
    .join('\n');
}

const CSS = `
body{font:14px/1.45 system-ui,sans-serif;margin:0;color:#1d2330;background:#f6f7f9}
header{background:#1d2330;color:#fff;padding:16px 24px}header h1{margin:0;font-size:20px}
main{padding:16px 24px;max-width:1400px}section{background:#fff;border:1px solid #dde1e7;border-radius:6px;margin:16px 0;padding:12px 16px}
table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:4px 8px;border-bottom:1px solid #eceef2;vertical-align:top}
th{background:#f0f2f5;font-weight:600}.badge{display:inline-block;padding:0 6px;border-radius:3px;font-size:12px;font-weight:600}
.ok{background:#d8f3dc;color:#1b5e20}.bad{background:#fddede;color:#a00}.skip{background:#eceff1;color:#555}.known{background:#fff3cd;color:#7a5b00}.fixed{background:#d0e8ff;color:#0b4f8a}.none{background:#f3f3f3;color:#888}
.totals span{margin-right:16px;font-size:16px}.muted{color:#777}pre{background:#f7f7f9;padding:6px;overflow:auto;max-height:320px;font-size:12px;margin:4px 0}
.cols{display:grid;grid-template-columns:1fr 1fr;gap:8px}.failure{border-left:4px solid #c62828;padding-left:10px;margin:12px 0}
.failure pre.msg{background:#fff5f5}.incomplete{font-weight:600;color:#7a5b00;background:#fff3cd;padding:6px 8px;border-radius:4px}.gating{font-size:12px;color:#0b4f8a}h5{margin:4px 0}.note{font-style:italic;color:#555}code{font-size:12px}
${FAILURE_CSS}`;

/** Version gating and testability of a release-notes row, under its text. */
function gating(r: RequirementRow): string {
  const parts: string[] = [];
  if (r.affected?.length) parts.push(`affected: ${r.affected.map((a) => `<code>${esc(a)}</code>`).join(', ')}`);
  if (r.fixedIn?.length) parts.push(`fixed in: ${r.fixedIn.map((a) => `<code>${esc(a)}</code>`).join(', ')}`);
  if (r.testability) parts.push(`testability: ${esc(r.testability)}${r.capability ? ` (${esc(r.capability)})` : ''}`);
  return parts.length ? `<br><span class="gating">${parts.join(' · ')}</span>` : '';
}

/** The test files of a requirement row (its tests are keys `<file> > <title>`). */
function testFiles(r: Results['requirements'][number]): string[] {
  return [...new Set(r.tests.map((k) => k.split(' > ')[0]!).filter((f) => f.startsWith('suites/')))].sort();
}

/**
 * `sourceRoot`: the package root as seen from the report's folder (e.g. `..`), so each
 * requirement id links to the test file that tests it.
 */
export function toHtml(results: Results, opts: { sourceRoot?: string; documents?: ParsedDocument[] } = {}): string {
  const src = (file: string) => `${opts.sourceRoot ?? '..'}/${file}`;
  const idCell = (r: Results['requirements'][number]) => {
    const files = testFiles(r);
    return files.length
      ? `<a href="${esc(src(files[0]!))}" title="${esc(files.join(', '))}"><code>${esc(r.id)}</code></a>`
      : `<code>${esc(r.id)}</code>`;
  };
  const testsCell = (r: Results['requirements'][number]) =>
    `${r.tests.length}${testFiles(r)
      .map((f) => `<br><a class="muted" href="${esc(src(f))}">${esc(f)}</a>`)
      .join('')}`;
  const s = results.summary;
  const areas = Object.entries(s.byArea).sort();
  const levels = ['MUST', 'SHOULD', 'MAY'];
  const cell = (c: Record<Status, number> | undefined) =>
    c
      ? `${c.passed} ✓ / ${c.failed} ✗ / ${c.skipped} skip${c['known-failure'] ? ` / ${c['known-failure']} known` : ''}${c['known-issue'] ? ` / ${c['known-issue']} known issue` : ''}${c.fixed ? ` / ${c.fixed} fixed` : ''}${c['not-applicable'] ? ` / ${c['not-applicable']} n/a` : ''}`
      : '–';
  const skipped = results.tests.filter((t) => t.status === 'skipped');
  const notApplicable = results.tests.filter((t) => t.status === 'not-applicable');
  const known = results.tests.filter(
    (t) => t.status === 'known-failure' || t.status === 'fixed' || t.status === 'known-issue',
  );
  const incomplete = incompleteLine(results);
  const differences = s.assumptionDifferences ?? 0;
  const differencesBadge = differences
    ? ` <span class="badge known">${differences} assumption difference(s)${results.run.assumptions === 'strict' ? ', failing the run (strict)' : ', not failing the run'}</span>`
    : '';
  const verdict = results.preflight
    ? `<span class="badge bad" id="preflight">not started: ${esc(results.preflight.message)}</span>`
    : s.mustFailed > 0
      ? `<span class="badge bad">${s.mustFailed} MUST failure(s)</span>${differencesBadge}`
      : results.errors.length
        ? `<span class="badge bad">run errors (${results.errors.length}): see below</span>`
        : incomplete
          ? '<span class="badge known">INCOMPLETE (every MUST that ran passed; not a claim of conformance)</span>'
          : `<span class="badge ok">CONFORMS (every MUST passed)</span>${differencesBadge}`;
  // The headline names what did not run, whatever the verdict: a partial run must not read as a pass.
  const headline = incomplete ? `<p id="incomplete" class="incomplete">${esc(incomplete)}</p>` : '';
  const cmp = results.comparison;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Conformance report ${esc(results.run.id)}</title><style>${CSS}${results.statements ? DOCUMENT_VIEW_CSS : ''}</style></head>
<body><header><h1>Conformance report${incomplete ? ' (incomplete)' : ''}</h1><div>run ${esc(results.run.id)} · ${esc(results.run.startedAt)} · target ${esc(results.run.target.svc || '-')} ${results.run.target.embedded ? '(embedded reference)' : ''} · scheduler ${esc(results.run.target.sched || '-')} · version ${esc(results.run.target.version || '(unknown)')}${results.run.target.versionSource ? ` <span class="muted">(${esc(results.run.target.versionSource)})</span>` : ''}${results.run.faults.length ? ` · faults ${esc(results.run.faults.join(','))}` : ''}</div></header>
<main>
<section id="summary"><h2>Summary</h2><p>${verdict}</p>${headline}
<p class="totals"><span>${s.total} tests</span><span>${s.passed} passed</span><span>${s.failed} failed</span><span>${s.violations ? `${s.violations.MUST} MUST / ${s.violations.SHOULD} SHOULD / ${s.violations.MAY} MAY violations` : ''}</span><span>${differences} assumption differences</span><span>${s.skipped} skipped</span><span>${s.notApplicable ?? 0} not applicable</span><span>${s.knownFailures} known failures</span><span>${s.fixed} fixed</span><span>${s.knownIssues ?? 0} known issues observed</span><span>${(results.run.durationMs / 1000).toFixed(1)} s</span></p>
<table><thead><tr><th>area</th>${levels.map((l) => `<th>${l}</th>`).join('')}</tr></thead><tbody>
${areas.map(([area, byLevel]) => `<tr><td>${esc(area)}</td>${levels.map((l) => `<td>${cell(byLevel[l])}</td>`).join('')}</tr>`).join('\n')}
</tbody></table></section>
${
  cmp
    ? `<section id="comparison"><h2>Compared with ${esc(cmp.previous)}</h2>
${[
  ['New failures', cmp.newFailures],
  ['New assumption differences', cmp.newAssumptionDifferences ?? []],
  ['Fixed', cmp.fixed],
  ['New tests', cmp.added],
  ['Removed tests', cmp.removed],
]
  .map(
    ([title, keys]) =>
      `<h3>${title} (${(keys as string[]).length})</h3>${(keys as string[]).length ? `<ul>${(keys as string[]).map((k) => `<li>${esc(k)}</li>`).join('')}</ul>` : ''}`,
  )
  .join('\n')}</section>`
    : ''
}
${failureSections(results, transcript)}
<section id="matrix"><h2>Requirement matrix</h2><table><thead><tr><th>id</th><th>level</th><th>status</th><th>requirement</th><th>section</th><th>tests</th></tr></thead><tbody>
${results.requirements.map((r) => `<tr data-id="${esc(r.id)}"><td>${idCell(r)}${r.kind !== 'rule' ? `<br><span class="muted">${esc(r.kind)}</span>` : ''}</td><td>${esc(r.level)}</td><td>${badge(r.status)}${r.verdict ? `<br><span class="muted">${esc(r.verdict)}</span>` : ''}</td><td>${esc(r.text)}${gating(r)}${r.note ? `<br><span class="muted">${esc(r.note)}</span>` : ''}</td><td class="muted">${esc(r.section)}</td><td>${testsCell(r)}</td></tr>`).join('\n')}
</tbody></table></section>
${results.statements ? documentViewHtml(opts.documents ?? [...loadDocuments().values()], results.statements) : ''}
${known.length ? `<section id="known"><h2>Known issues, known failures and fixed expectations</h2><table><thead><tr><th>test</th><th>status</th><th>reason</th></tr></thead><tbody>${known.map((t) => `<tr><td>${esc(t.title)}</td><td>${badge(t.status)}${t.verdict ? `<br><span class="muted">${esc(t.verdict)}</span>` : ''}</td><td>${esc(t.knownIssue ?? t.expectation?.reason ?? t.message ?? '')}${t.expectation?.ticket ? ` (${esc(t.expectation.ticket)})` : ''}</td></tr>`).join('')}</tbody></table></section>` : ''}
${
  notApplicable.length
    ? `<section id="not-applicable"><h2>Not applicable (${notApplicable.length})</h2><table><thead><tr><th>test</th><th>ids</th><th>reason</th><th>target's answer</th></tr></thead><tbody>
${notApplicable.map((t) => `<tr><td>${esc(t.title)}</td><td>${t.ids.map((id) => `<code>${esc(id)}</code>`).join(' ')}</td><td>${esc(t.notApplicable?.reason ?? '')}${t.notApplicable?.setting ? ` <code>${esc(t.notApplicable.setting)}</code>` : ''}</td><td>${esc(t.notApplicable?.answer ?? '')}</td></tr>`).join('\n')}
</tbody></table></section>`
    : ''
}
<section id="skips"><h2>Skipped (${skipped.length})</h2><table><thead><tr><th>test</th><th>reason</th><th>setting</th></tr></thead><tbody>
${skipped.map((t) => `<tr><td>${esc(t.title)}</td><td>${esc(t.skip?.reason ?? 'skipped')}</td><td><code>${esc(t.skip?.setting ?? '')}</code></td></tr>`).join('\n')}
</tbody></table></section>
${results.leftovers.length ? `<section id="leftovers"><h2>Leftovers</h2><ul>${results.leftovers.map((l) => `<li>${esc(l.file)}: ${esc(l.label)}: ${esc(l.error)}</li>`).join('')}</ul></section>` : ''}
${results.errors.length ? `<section id="errors"><h2>Run errors</h2>${results.errors.map((e) => `<pre>${esc(e)}</pre>`).join('')}</section>` : ''}
<section id="all"><h2>All tests</h2><table><thead><tr><th>test</th><th>ids</th><th>level</th><th>status</th><th>ms</th></tr></thead><tbody>
${results.tests.map((t) => `<tr><td>${esc(t.title)}</td><td>${t.ids.map((id) => `<code>${esc(id)}</code>`).join('<br>')}</td><td>${t.level}</td><td>${badge(t.status)}${t.status === 'failed' && t.verdict ? `<br><span class="muted">${esc(t.verdict)}</span>` : ''}</td><td>${Math.round(t.durationMs)}</td></tr>`).join('\n')}
</tbody></table></section>
</main></body></html>
`;
}
