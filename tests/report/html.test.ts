/** The HTML report's content: summary, matrix with gating, failures with transcripts, comparison. */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { toHtml } from '../../harness/report/html.js';
import { writeReports } from '../../harness/report/reporter.js';
import { compareResults } from '../../harness/report/compare.js';
import { redactor } from '../../harness/redaction/redact.js';
import { results } from './synthetic.js';

describe('toHtml', () => {
  const r = results();
  const html = toHtml(r);

  it('shows the summary with the verdict and the known issues observed', () => {
    expect(html, 'summary section').toContain('<section id="summary">');
    expect(html, 'verdict').toContain('1 MUST failure(s)');
    expect(html, 'known issue count').toContain('1 known issues observed');
  });

  it('shows the requirement matrix with affected ranges, fixed versions and testability', () => {
    expect(html, 'matrix row').toContain('<tr data-id="demo.known.crash">');
    expect(html, 'affected range').toContain('affected: <code>1.13.9</code>, <code>1.14.5</code>');
    expect(html, 'fixed in').toContain('fixed in: <code>1.13.10</code>');
    expect(html, 'testability').toContain('testability: capability (metrics)');
    expect(html, 'not-observable badge').toContain('<span class="badge none">not-observable</span>');
  });

  it('links each requirement id to its test file, relative to the report folder', () => {
    const row = r.requirements.find((q) => q.tests.length)!;
    const file = row.tests[0]!.split(' > ')[0]!;
    const linked = toHtml(r, { sourceRoot: '../..' });
    expect(linked).toContain(`<a href="../../${file}" title="${file}"><code>${row.id}</code></a>`);
    expect(linked).toContain(`<a class="muted" href="../../${file}">${file}</a>`);
  });

  it('shows each failure with its message and escaped transcript', () => {
    expect(html, 'failure heading').toContain('<div class="failure"><h3>GET /demo/:name returns the stored value</h3>');
    expect(html, 'exchange line').toContain('<code>GET http://127.0.0.1:8200/v1/demo/x</code> → <b>500</b>');
    expect(html, 'response body escaped').toContain('internal error &lt;boom&gt;');
    expect(html, 'no raw markup from bodies').not.toContain('<boom>');
  });

  it('shows the comparison only when a previous run is given', () => {
    expect(html, 'no comparison').not.toContain('id="comparison"');
    const prev = results({ outcomes: [] });
    const withCmp = toHtml({ ...r, comparison: compareResults(prev, r, 'reports/previous.json') });
    expect(withCmp, 'comparison section').toContain('<h2>Compared with reports/previous.json</h2>');
    expect(withCmp, 'new failures listed').toContain(
      '<h3>New failures (1)</h3><ul><li>suites/demo/demo.test.ts &gt; GET /demo/:name returns the stored value</li></ul>',
    );
  });

  it('says CONFORMS only when no MUST failed and the run had no errors', () => {
    const clean = { ...r, summary: { ...r.summary, mustFailed: 0 } };
    expect(toHtml(clean), 'clean run').toContain('CONFORMS');
    expect(toHtml({ ...clean, errors: ['target unreachable'] }), 'run with errors').not.toContain('CONFORMS');
  });
});

describe('writeReports', () => {
  it('writes results.json, junit.xml and index.html with remembered secrets masked', () => {
    const dir = mkdtempSync(join(tmpdir(), 'reports-'));
    const secret = 'hvs.synthetic-secret-value-123';
    redactor.add(secret);
    const r = results();
    r.tests[0]!.message = `token ${secret} refused`;
    writeReports(dir, r);
    for (const f of ['results.json', 'junit.xml', 'index.html']) {
      const text = readFileSync(join(dir, f), 'utf8');
      expect(text.length, `${f} written`).toBeGreaterThan(100);
      expect(text, `${f} masks the secret`).not.toContain(secret);
    }
    expect(readFileSync(join(dir, 'junit.xml'), 'utf8'), 'known issue as a JUnit property').toContain(
      '<property name="known-issue"',
    );
  });
});
