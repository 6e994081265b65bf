/** The expectations baseline: file format, expiry, and what it does to statuses and the exit count. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../harness/config/load.js';
import { checkExpectationIds, isExpired, loadExpectations } from '../../harness/report/expectations.js';
import { catalogue, outcome, results } from './synthetic.js';

const dir = mkdtempSync(join(tmpdir(), 'expectations-'));
function file(name: string, text: string): string {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
}

describe('loadExpectations', () => {
  it('reads id, reason, ticket and an unquoted expiry date as text', () => {
    const p = file(
      'ok.yaml',
      'known-failures:\n  - id: demo.read.ok\n    reason: proxy rewrites it\n    ticket: OPS-1\n    expires: 2027-03-31\n  - id: demo.list.empty-404\n    reason: no expiry\n',
    );
    const map = loadExpectations(p);
    expect(map.get('demo.read.ok'), 'entry with every field').toEqual({
      id: 'demo.read.ok',
      reason: 'proxy rewrites it',
      ticket: 'OPS-1',
      expires: '2027-03-31',
    });
    expect(map.get('demo.list.empty-404')?.expires, 'entry without expiry').toBeUndefined();
  });

  it('gives an empty baseline when no file is configured', () => {
    expect(loadExpectations(undefined).size, 'entries without a file').toBe(0);
  });

  it('names the setting when the file is missing', () => {
    expect(() => loadExpectations(join(dir, 'absent.yaml')), 'missing file').toThrowError(
      /run\.expectationsFile.*file not found/,
    );
  });

  it('rejects an entry without a reason, naming where', () => {
    const p = file('no-reason.yaml', 'known-failures:\n  - id: demo.read.ok\n');
    expect(() => loadExpectations(p), 'entry without reason').toThrowError(ConfigError);
    expect(() => loadExpectations(p), 'message names the entry').toThrowError(/known-failures\/0.*reason/);
  });

  it('rejects an expiry that is not YYYY-MM-DD', () => {
    const p = file(
      'bad-date.yaml',
      "known-failures:\n  - id: demo.read.ok\n    reason: r\n    expires: 'next spring'\n",
    );
    expect(() => loadExpectations(p), 'free-text expiry').toThrowError(/expires/);
  });

  it('refuses ids the catalogue does not know', () => {
    const p = file('typo.yaml', 'known-failures:\n  - id: demo.read.okk\n    reason: typo\n');
    expect(() => checkExpectationIds(loadExpectations(p), catalogue), 'unknown id').toThrowError(
      /unknown requirement id\(s\): demo\.read\.okk/,
    );
  });
});

describe('isExpired', () => {
  const e = { id: 'x', reason: 'r', expires: '2026-11-20' };
  it('is valid through the whole expiry day and expired the day after', () => {
    expect(isExpired(e, new Date('2026-11-20T23:00:00Z')), 'on the expiry day').toBe(false);
    expect(isExpired(e, new Date('2026-11-21T00:00:01Z')), 'the day after').toBe(true);
    expect(isExpired({ id: 'x', reason: 'r' }, new Date('2100-01-01')), 'no expiry date').toBe(false);
  });
});

describe('buildResults with a baseline', () => {
  it('reports a listed failure as known-failure and does not count it against the exit code', () => {
    const r = results({
      expectations: [{ id: 'demo.read.ok', reason: 'proxy', ticket: 'OPS-1', expires: '2027-01-01' }],
    });
    const t = r.tests.find((x) => x.ids.includes('demo.read.ok'))!;
    expect(t.status, 'status of the listed failing test').toBe('known-failure');
    expect(t.expectation, 'expectation carried into the result').toMatchObject({
      reason: 'proxy',
      ticket: 'OPS-1',
      expired: false,
    });
    expect(r.summary.mustFailed, 'MUST failures').toBe(0);
    expect(r.summary.knownFailures, 'known failures').toBe(1);
  });

  it('fails an expired entry again and says why', () => {
    const r = results({ expectations: [{ id: 'demo.read.ok', reason: 'proxy', expires: '2026-01-01' }] });
    const t = r.tests.find((x) => x.ids.includes('demo.read.ok'))!;
    expect(t.status, 'status with an expired entry').toBe('failed');
    expect(t.message, 'message names the expiry').toMatch(/expired on 2026-01-01/);
    expect(r.summary.mustFailed, 'MUST failures').toBe(1);
  });

  it('reports a listed test that now passes as fixed', () => {
    const r = results({ expectations: [{ id: 'demo.list.empty-404', reason: 'was broken' }] });
    expect(r.tests.find((x) => x.ids.includes('demo.list.empty-404'))!.status, 'status of a passing listed test').toBe(
      'fixed',
    );
    expect(r.summary.fixed, 'fixed count').toBe(1);
  });

  it('keeps an observed known issue as known-issue even when the baseline lists it', () => {
    const r = results({ expectations: [{ id: 'demo.known.crash', reason: 'seen before' }] });
    expect(r.tests.find((x) => x.ids.includes('demo.known.crash'))!.status, 'status of an observed known issue').toBe(
      'known-issue',
    );
  });

  it('leaves skipped tests skipped', () => {
    const r = results({
      outcomes: [outcome('skipped one', ['demo.read.ok'], 'skipped', { meta: { skip: { reason: 'no cap' } } })],
      expectations: [{ id: 'demo.read.ok', reason: 'r' }],
    });
    expect(r.tests[0]!.status, 'status of a skipped listed test').toBe('skipped');
  });
});
