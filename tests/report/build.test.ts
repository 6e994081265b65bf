/** results.json as buildResults makes it: known issues, gating columns and requirement statuses. */
import { describe, expect, it } from 'vitest';
import { results } from './synthetic.js';

describe('buildResults', () => {
  const r = results();

  it('reports a passed test that observed a documented known issue as known-issue', () => {
    const t = r.tests.find((x) => x.ids.includes('demo.known.crash'))!;
    expect(t.status, 'status').toBe('known-issue');
    expect(t.knownIssue, 'the observation').toMatch(/3 of 9 reads failed/);
    expect(r.summary.knownIssues, 'known issues in the summary').toBe(1);
    expect(r.summary.mustFailed, 'a known issue is no MUST failure').toBe(1);
  });

  it('carries affected ranges, fixed versions and testability into the requirement matrix', () => {
    const row = r.requirements.find((x) => x.id === 'demo.known.crash')!;
    expect(row, 'row of the known issue').toMatchObject({
      kind: 'known-issue',
      affected: ['1.13.9', '1.14.5'],
      fixedIn: ['1.13.10', '1.14.6'],
      testability: 'capability',
      capability: 'metrics',
      status: 'known-issue',
    });
  });

  it('marks untested not-observable rows as not-observable with the reason', () => {
    const row = r.requirements.find((x) => x.id === 'demo.logs')!;
    expect(row.status, 'status').toBe('not-observable');
    expect(row.note, 'reason shown').toMatch(/process signal/);
  });

  it('keys tests by file and title for comparisons', () => {
    expect(r.tests[0]!.key, 'key').toBe('suites/demo/demo.test.ts > GET /demo/:name returns the stored value');
  });
});
