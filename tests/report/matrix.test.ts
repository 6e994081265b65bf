/**
 * The compatibility matrix from runs made in memory: alignment by requirement id (absent is "not
 * run", never "passed"), the verdict classes (read from the results when they carry them, derived
 * otherwise), the differential and "every implementation fails" flags, the summary counts, the
 * reproduction of a failing cell, and the page's escaping of what targets said.
 */
import { describe, expect, it } from 'vitest';
import { buildMatrix, disagrees, everyoneFails, type NamedRun } from '../../harness/report/matrix/build.js';
import { toMatrixHtml } from '../../harness/report/matrix/html.js';
import type { MatrixInput } from '../../harness/report/matrix/model.js';
import { run, type RowSpec } from './matrix-synthetic.js';

const named = (...runs: [string, MatrixInput][]): NamedRun[] =>
  runs.map(([name, results]) => ({ name, file: `${name}.json`, results }));
const cellsOf = (m: ReturnType<typeof buildMatrix>, id: string) => {
  const row = m.rows.find((r) => r.id === id);
  if (!row) throw new Error(`no row ${id}`);
  return row.cells.map((c) => c.class);
};

describe('matrix: alignment by requirement id', () => {
  it('a requirement absent from a run is not run in that column, never passed; rows come from every run', () => {
    const a = run([
      { id: 'kv.a', status: 'passed' },
      { id: 'kv.b', status: 'passed' },
    ]);
    const b = run([
      { id: 'kv.b', status: 'passed' },
      { id: 'jobs.c', status: 'failed' },
    ]);
    const m = buildMatrix(named(['A', a], ['B', b]));
    expect(m.rows.map((r) => r.id)).toEqual(['kv.a', 'kv.b', 'jobs.c']);
    expect(cellsOf(m, 'kv.a')).toEqual(['passed', 'not-run']);
    expect(m.rows[0]!.cells[1]).toMatchObject({ status: 'absent', tests: [] });
    expect(m.rows[0]!.cells[1]!.reason).toMatch(/absent from this run/);
    expect(cellsOf(m, 'jobs.c')).toEqual(['not-run', 'violation']);
    // Not run is no verdict: it neither makes a disagreement nor counts as applicable.
    expect(m.rows.find((r) => r.id === 'kv.a')!.disagree).toBe(false);
    expect(m.summary[1]!.byLevel.MUST).toMatchObject({ passed: 1, applicable: 2, violation: 1, 'not-run': 1 });
  });

  it('groups rows by area, then document section, in order of first appearance', () => {
    const a = run([
      { id: 'kv.1', status: 'passed', section: 'Versions' },
      { id: 'core.1', status: 'passed', section: 'Errors' },
      { id: 'kv.2', status: 'passed', section: 'Errors' },
      { id: 'kv.3', status: 'passed', section: 'Versions' },
    ]);
    const m = buildMatrix(named(['A', a]));
    expect(m.rows.map((r) => `${r.area}/${r.section}/${r.id}`)).toEqual([
      'kv/Versions/kv.1',
      'kv/Versions/kv.3',
      'kv/Errors/kv.2',
      'core/Errors/core.1',
    ]);
  });

  it('notes where the runs catalogues disagree on a level', () => {
    const m = buildMatrix(
      named(
        ['A', run([{ id: 'kv.a', status: 'passed' }])],
        ['B', run([{ id: 'kv.a', status: 'passed', level: 'SHOULD' }])],
      ),
    );
    expect(m.rows[0]!.notes).toEqual(['level SHOULD in B (MUST elsewhere)']);
  });
});

describe('matrix: verdict classes', () => {
  const rows: RowSpec[] = [
    { id: 'x.passed', status: 'passed' },
    { id: 'x.fixed', status: 'fixed' },
    { id: 'x.rule-failed', status: 'failed' },
    { id: 'x.assumption-failed', status: 'failed', kind: 'assumption' },
    { id: 'x.verdict-from-row', status: 'failed', verdict: 'assumption' },
    {
      id: 'x.verdict-from-test',
      status: 'failed',
      kind: 'assumption',
      tests: [{ status: 'failed', verdict: 'violation' }],
    },
    { id: 'x.known-failure', status: 'known-failure' },
    { id: 'x.known-issue', status: 'known-issue' },
    { id: 'x.not-applicable', status: 'not-applicable' },
    { id: 'x.skipped', status: 'skipped' },
    { id: 'x.untested', status: 'untested' },
    { id: 'x.not-observable', status: 'not-observable', note: 'a server log line' },
  ];
  const m = buildMatrix(named(['A', run(rows)]));
  const cls = (id: string) => cellsOf(m, id)[0];

  it('maps each requirement status to its class; a failure is a violation unless it is an assumption', () => {
    expect(
      Object.fromEntries(rows.map((r) => [r.id, cls(r.id)])),
      'class per status (verdict from the row, then its tests, then its kind)',
    ).toEqual({
      'x.passed': 'passed',
      'x.fixed': 'passed',
      'x.rule-failed': 'violation',
      'x.assumption-failed': 'assumption',
      'x.verdict-from-row': 'assumption',
      'x.verdict-from-test': 'violation',
      'x.known-failure': 'known-failure',
      'x.known-issue': 'known-failure',
      'x.not-applicable': 'not-applicable',
      'x.skipped': 'skipped',
      'x.untested': 'not-run',
      'x.not-observable': 'not-run',
    });
    const notObservable = m.rows.find((r) => r.id === 'x.not-observable')!.cells[0]!;
    expect(notObservable.reason).toBe('not observable through the API: a server log line');
    expect(m.rows.find((r) => r.id === 'x.untested')!.cells[0]!.reason).toBe('no test of this run checks it');
  });

  it('counts per level: passed of applicable, and a conformance figure that counts only violations', () => {
    const s = m.summary[0]!;
    expect(s.byLevel.MUST).toEqual({
      passed: 2,
      applicable: 8,
      violation: 2,
      assumption: 2,
      'known-failure': 2,
      'not-applicable': 1,
      skipped: 1,
      'not-run': 2,
    });
    expect(s.overall).toEqual({ applicable: 8, violations: 2, conformance: 6 / 8 });
    expect(s.byArea.x!.MUST!.applicable).toBe(8);
  });
});

describe('matrix: the differential and "every implementation fails" views', () => {
  it('disagreement ignores columns without a verdict; every implementation fails needs every column failing', () => {
    expect(disagrees(['passed', 'passed', 'not-run'])).toBe(false);
    expect(disagrees(['passed', 'skipped'])).toBe(true);
    expect(disagrees(['violation', 'assumption'])).toBe(true);
    expect(everyoneFails(['violation', 'assumption', 'known-failure'])).toBe(true);
    expect(everyoneFails(['violation', 'not-run'])).toBe(false);
    expect(everyoneFails([])).toBe(false);

    const m = buildMatrix(
      named(
        [
          'A',
          run([
            { id: 'k.same', status: 'passed' },
            { id: 'k.differs', status: 'passed' },
            { id: 'k.all-fail', status: 'failed' },
          ]),
        ],
        [
          'B',
          run([
            { id: 'k.same', status: 'passed' },
            { id: 'k.differs', status: 'failed' },
            { id: 'k.all-fail', status: 'failed', kind: 'assumption' },
          ]),
        ],
      ),
    );
    expect(m.rows.filter((r) => r.disagree).map((r) => r.id)).toEqual(['k.differs', 'k.all-fail']);
    expect(m.rows.filter((r) => r.allFail).map((r) => r.id)).toEqual(['k.all-fail']);
    expect(m.counts).toEqual({ rows: 3, disagree: 2, allFail: 1 });
  });
});

describe('matrix: a cell and its reproduction', () => {
  it('carries the failure message, the last exchange (redacted) and a curl line when the results have one', () => {
    const a = run([
      {
        id: 'kv.read',
        status: 'failed',
        tests: [
          {
            status: 'failed',
            message: 'expected 404, got 200',
            curl: 'curl -X GET http://127.0.0.1:8200/v1/secret/x',
            transcript: [
              { kind: 'exchange', method: 'PUT', url: 'http://t/v1/secret/x', status: 204 },
              { kind: 'note', note: 'then reads it' },
              {
                kind: 'exchange',
                method: 'GET',
                url: 'http://t/v1/secret/x',
                status: 200,
                requestHeaders: { 'X-Svc-Token': 's.0123456789' },
                responseBody: { data: { password: 'hunter2-long' } },
              },
            ],
          },
          { status: 'passed', title: 'another test' },
        ],
      },
    ]);
    const [failed, passed] = buildMatrix(named(['A', a])).rows[0]!.cells[0]!.tests;
    expect(failed).toMatchObject({
      status: 'failed',
      verdict: 'violation',
      message: 'expected 404, got 200',
      curl: 'curl -X GET http://127.0.0.1:8200/v1/secret/x',
      exchange: {
        method: 'GET',
        url: 'http://t/v1/secret/x',
        status: 200,
        requestHeaders: { 'X-Svc-Token': '[REDACTED]' },
        responseBody: { data: { password: '[REDACTED]' } },
      },
    });
    expect(passed, 'a passed test carries no details').toEqual({
      key: passed!.key,
      title: 'another test',
      file: 'suites/kv/kv.test.ts',
      status: 'passed',
    });
  });

  it('explains a skip and a not-applicable test', () => {
    const a = run([
      {
        id: 'kv.s',
        status: 'skipped',
        tests: [{ status: 'skipped', skip: { reason: 'switched off', setting: 'assumptions.kv.s' } }],
      },
      {
        id: 'kv.n',
        status: 'not-applicable',
        tests: [{ status: 'not-applicable', notApplicable: { reason: 'mount refused', answer: '403 forbidden' } }],
      },
    ]);
    const m = buildMatrix(named(['A', a]));
    expect(m.rows[0]!.cells[0]!.tests[0]!.message).toBe('switched off\n(setting assumptions.kv.s)');
    expect(m.rows[1]!.cells[0]!.tests[0]!.message).toBe('mount refused\ntarget answered: 403 forbidden');
  });
});

describe('matrix.html', () => {
  const hostile = '</script><img src=x onerror="alert(1)">';
  const a = run([
    {
      id: 'kv.quoted',
      status: 'failed',
      statements: [{ id: 'st.1', section: 'Key-value engine', quote: 'A read of a missing key answers 404.' }],
      tests: [{ status: 'failed', message: hostile, file: 'javascript:alert(1)' }],
    },
    { id: 'kv.plain', status: 'passed', text: `Plain text ${hostile}` },
  ]);
  const html = toMatrixHtml(buildMatrix(named([`<b>${hostile}`, a])));

  it('escapes what the runs carry: names, texts and messages never become markup', () => {
    expect(html).not.toContain('<img');
    expect(html).not.toContain('<b></script>');
    expect(html).toContain('&lt;b&gt;&lt;/script&gt;&lt;img src=x onerror=&quot;alert(1)&quot;&gt;');
    // The details travel as JSON that cannot close its script element.
    const json = html.match(/<script type="application\/json" id="matrix-data">([\s\S]*?)<\/script>/)![1]!;
    expect(json).not.toMatch(/<|>/);
    expect(JSON.parse(json).rows[0].cells[0].tests[0].message).toBe(hostile);
    expect(html.match(/<script/g)!.length, 'the data block and the page script only').toBe(2);
    expect(html, 'a file path that is a scheme is not linked').not.toContain('href="javascript');
  });

  it('shows the quoted sentence when the results carry it (the requirement text under it), else the text', () => {
    const quotedRow = html.match(/<tr [^>]*data-id="kv.quoted"[\s\S]*?<\/tr>/)![0];
    expect(quotedRow).toContain('<blockquote title="st.1">A read of a missing key answers 404.</blockquote>');
    expect(quotedRow, "the catalogue's wording follows, set apart").toContain(
      '</blockquote><span class="gist">Requirement kv.quoted.</span>',
    );
    expect(html.match(/<tr [^>]*data-id="kv.plain"[\s\S]*?<\/tr>/)![0]).not.toContain('blockquote');
    expect(html).toContain('Plain text &lt;/script&gt;');
  });

  it('is self-contained: no external script, style, image or font', () => {
    expect(html).not.toMatch(/<(script|link|img|iframe)[^>]+(src|href)=/i);
    expect(html).not.toMatch(/url\(/);
  });
});
