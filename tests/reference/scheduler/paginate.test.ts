import { describe, expect, it } from 'vitest';
import { compareJobs, compareJobToToken, jobToken, paginate } from '../../../reference/scheduler/paginate.js';

const jobs = ['a', 'b', 'c', 'd', 'e'].map((ID) => ({ Namespace: 'default', ID, odd: 'ace'.includes(ID) }));
const opts = { compareToToken: compareJobToToken, tokenOf: jobToken };

describe('paginate', () => {
  it('per_page 0 returns everything without a next token', () => {
    expect(paginate(jobs, { ...opts, perPage: 0, nextToken: '' })).toEqual({ items: jobs, nextToken: '' });
  });

  it('a page ends with the token of the first item of the next page', () => {
    const p1 = paginate(jobs, { ...opts, perPage: 2, nextToken: '' });
    expect(p1.items.map((j) => j.ID)).toEqual(['a', 'b']);
    expect(p1.nextToken).toBe('default.c');
    const p2 = paginate(jobs, { ...opts, perPage: 2, nextToken: p1.nextToken });
    expect(p2.items.map((j) => j.ID)).toEqual(['c', 'd']);
    const p3 = paginate(jobs, { ...opts, perPage: 2, nextToken: p2.nextToken });
    expect(p3.items.map((j) => j.ID)).toEqual(['e']);
    expect(p3.nextToken).toBe('');
  });

  it('an exact last page has no next token', () => {
    expect(paginate(jobs.slice(0, 4), { ...opts, perPage: 2, nextToken: 'default.c' }).nextToken).toBe('');
  });

  it('the filter applies before counting', () => {
    const p = paginate(jobs, { ...opts, perPage: 2, nextToken: '', keep: (j) => j.odd });
    expect(p.items.map((j) => j.ID)).toEqual(['a', 'c']);
    expect(p.nextToken).toBe('default.e');
  });

  it('a token between items resumes at the next one', () => {
    expect(paginate(jobs, { ...opts, perPage: 1, nextToken: 'default.bb' }).items[0]!.ID).toBe('c');
  });

  it('jobs order by namespace then ID', () => {
    const mixed = [
      { Namespace: 'prod', ID: 'a' },
      { Namespace: 'default', ID: 'z' },
      { Namespace: 'default', ID: 'b' },
    ];
    expect([...mixed].sort(compareJobs).map(jobToken)).toEqual(['default.b', 'default.z', 'prod.a']);
  });
});
