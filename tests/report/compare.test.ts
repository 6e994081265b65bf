/** `compare OLD NEW`: what counts as a new failure, fixed, added and removed, and the exit codes. */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { compareResults, formatComparison, keepPrevious } from '../../harness/report/compare.js';
import { compareFiles } from '../../harness/cli/compare.js';
import type { Results, Status } from '../../harness/report/model.js';
import { results } from './synthetic.js';

function run(statuses: Record<string, Status>): Results {
  const base = results();
  const template = base.tests[0]!;
  return {
    ...base,
    tests: Object.entries(statuses).map(([title, status]) => ({
      ...template,
      key: `suites/demo/demo.test.ts > ${title}`,
      title,
      status,
    })),
  };
}

const dir = mkdtempSync(join(tmpdir(), 'compare-'));
function save(name: string, r: Results | string): string {
  const p = join(dir, name);
  writeFileSync(p, typeof r === 'string' ? r : JSON.stringify(r));
  return p;
}

describe('compareResults', () => {
  const before = run({
    a: 'passed',
    b: 'failed',
    c: 'known-failure',
    d: 'failed',
    e: 'known-failure',
    gone: 'passed',
    ki: 'known-issue',
  });
  const after = run({ a: 'failed', b: 'passed', c: 'fixed', d: 'failed', e: 'failed', fresh: 'failed', ki: 'failed' });
  const c = compareResults(before, after, 'old.json');
  const keys = (ts: string[]) => ts.map((k) => k.split(' > ')[1]);

  it('lists a test that failed now and did not before as a new failure (passed, known-failure, known-issue, or new)', () => {
    expect(keys(c.newFailures), 'new failures').toEqual(['a', 'e', 'fresh', 'ki']);
  });

  it('does not list a test failing in both runs as new', () => {
    expect(keys(c.newFailures), 'new failures').not.toContain('d');
  });

  it('lists failed or known-failure tests that pass now as fixed', () => {
    expect(keys(c.fixed), 'fixed').toEqual(['b', 'c']);
  });

  it('lists added and removed tests', () => {
    expect(keys(c.added), 'added').toEqual(['fresh']);
    expect(keys(c.removed), 'removed').toEqual(['gone']);
  });

  it('prints every section with counts', () => {
    const text = formatComparison(c);
    for (const title of [
      'compared with old.json',
      'new failures (4)',
      'fixed (2)',
      'new tests (1)',
      'removed tests (1)',
    ])
      expect(text, `printed section ${title}`).toContain(title);
  });
});

describe('compareFiles (the CI gate)', () => {
  afterEach(() => vi.restoreAllMocks());

  it('exits 1 on a new failure and 0 without one', () => {
    vi.spyOn(console, 'log').mockImplementation(() => {});
    const ok = save('ok.json', run({ a: 'passed', b: 'failed' }));
    const bad = save('bad.json', run({ a: 'failed', b: 'failed' }));
    expect(compareFiles(ok, bad), 'exit code with a new failure').toBe(1);
    expect(compareFiles(bad, ok), 'exit code when only fixes').toBe(0);
  });

  it('exits 2 on a missing or malformed file', () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const ok = save('ok2.json', run({ a: 'passed' }));
    expect(compareFiles(join(dir, 'absent.json'), ok), 'missing old file').toBe(2);
    expect(compareFiles(ok, save('junk.json', '{"not":"results"}')), 'not a results file').toBe(2);
  });

  it('exits 1 through the command line too', () => {
    const ok = save('cli-ok.json', run({ a: 'passed' }));
    const bad = save('cli-bad.json', run({ a: 'failed' }));
    const root = resolve(import.meta.dirname, '../..');
    const p = spawnSync(process.execPath, ['--import', 'tsx', 'compose/cli.ts', 'compare', ok, bad], {
      cwd: root,
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(p.status, `exit code (stderr: ${p.stderr})`).toBe(1);
    expect(p.stdout, 'the new failure is printed').toContain('new failures (1)');
  }, 60_000);
});

describe('keepPrevious', () => {
  it('copies the previous results aside when they are the results file the new run will overwrite', () => {
    const reportDir = mkdtempSync(join(tmpdir(), 'keep-'));
    const prev = join(reportDir, 'results.json');
    writeFileSync(prev, '{"tests":[]}');
    expect(keepPrevious(prev, reportDir), 'path read by the comparison').toBe(join(reportDir, 'previous-results.json'));
    expect(keepPrevious(join(dir, 'ok.json'), reportDir), 'a file elsewhere is read in place').toBe(
      join(dir, 'ok.json'),
    );
    expect(keepPrevious(undefined, reportDir), 'no previous run').toBeUndefined();
  });
});
