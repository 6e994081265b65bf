/**
 * One requirement per assertion (harness/attribution.ts): a failure is charged to the requirement
 * its assertion proves, the test's other ids are not reached; an assertion naming no id proves the
 * primary one; naming an undeclared id is an error; an assumption a helper checks on the way is
 * recorded and the test goes on.
 */
import { describe, expect, it } from 'vitest';
import { Attribution, AssumptionDifferenceFailure, charge, chargeOf } from '../../harness/attribution.js';
import { CheckFailure, expectThat } from '../../harness/checks/index.js';
import type { Exchange } from '../../harness/http/exchange.js';

const ids = ['transit.import.byok', 'transit.import.imported-flag', 'transit.import.material-format'];
const assumptions = new Set(['transit.import.material-format', 'jobs.errors.rejections-4xx']);

function attribution(off: string[] = []): Attribution {
  return new Attribution({ ids, isAssumption: (id) => assumptions.has(id), switchedOff: (id) => off.includes(id) });
}

const fail = (what: string) => () => expectThat(false, 'check', false, true, what);

function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (err) {
    return err;
  }
  throw new Error('nothing was thrown');
}

describe('Attribution', () => {
  it('an assertion inside proving() fails its own requirement; the other ids are not reached', () => {
    const a = attribution();
    const err = thrown(() => a.proving('transit.import.imported-flag', fail('imported is true')));
    expect(err).toBeInstanceOf(CheckFailure);
    expect(a.settle(err).attributed).toEqual({
      failedRequirement: 'transit.import.imported-flag',
      notReached: ['transit.import.byok', 'transit.import.material-format'],
      differences: [],
    });
  });

  it('as(id) charges one call; async failures are charged too; the innermost charge holds', async () => {
    const a = attribution();
    const err = thrown(() => a.as('transit.import.material-format')(fail('raw key accepted')));
    expect(a.settle(err).attributed.failedRequirement).toBe('transit.import.material-format');
    const asyncErr = await a
      .proving('transit.import.imported-flag', async () => {
        await Promise.resolve();
        a.proving('transit.import.material-format', fail('inner'));
      })
      .catch((e: unknown) => e);
    expect(a.settle(asyncErr).attributed.failedRequirement).toBe('transit.import.material-format');
  });

  it('a failure naming no requirement (a check outside proving, a TypeError, a transport error) fails the primary id', () => {
    const a = attribution();
    expect(a.settle(new TypeError('x is undefined')).attributed).toMatchObject({
      failedRequirement: 'transit.import.byok',
      notReached: ['transit.import.imported-flag', 'transit.import.material-format'],
    });
    expect(a.settle(thrown(fail('plain'))).attributed.failedRequirement).toBe('transit.import.byok');
    expect(a.settle(undefined)).toEqual({ attributed: { notReached: [], differences: [] } });
  });

  it('naming an id the test does not declare is an error of the test', () => {
    const a = attribution();
    expect(() => a.proving('transit.key.keys-map', () => 1)).toThrowError(/does not declare transit\.key\.keys-map/);
    expect(() => a.as('no.such.id')).toThrowError(/does not declare no\.such\.id/);
  });

  it('the exchange a failing check looked at travels with the failure', () => {
    const ex = { request: { method: 'GET' } } as unknown as Exchange;
    const err = new CheckFailure('status', 'x', 200, 404);
    charge(err, { exchange: ex, requirement: 'a' });
    charge(err, { requirement: 'b' });
    expect(chargeOf(err)).toEqual({ exchange: ex, requirement: 'a' });
    expect(attribution().settle(err).exchange).toBe(ex);
  });

  it('assuming(): a difference is recorded and the test goes on; it fails as that difference only when nothing else fails', () => {
    const a = attribution();
    let after = false;
    a.assuming('jobs.errors.rejections-4xx', fail('refused with a 4xx'));
    after = true;
    expect(after).toBe(true);
    expect(a.ids, 'the assumption joins the ids the test reports').toContain('jobs.errors.rejections-4xx');
    const settled = a.settle(undefined);
    expect(settled.error).toBeInstanceOf(AssumptionDifferenceFailure);
    expect((settled.error as Error).message).toMatch(/assumption difference \(jobs\.errors\.rejections-4xx\)/);
    expect(settled.attributed).toMatchObject({ failedRequirement: 'jobs.errors.rejections-4xx', notReached: [] });
    // A later violation wins; the recorded difference stays reported, and is not "not reached".
    const later = a.settle(thrown(fail('state unchanged')));
    expect(later.attributed.failedRequirement).toBe('transit.import.byok');
    expect(later.attributed.notReached).not.toContain('jobs.errors.rejections-4xx');
    expect(later.attributed.differences.map((d) => d.id)).toEqual(['jobs.errors.rejections-4xx']);
  });

  it('assuming(): skipped when the config switches the assumption off; only for catalogue assumptions; other errors still end the test', () => {
    const off = attribution(['jobs.errors.rejections-4xx']);
    let ran = false;
    off.assuming('jobs.errors.rejections-4xx', () => {
      ran = true;
    });
    expect(ran).toBe(false);
    expect(off.settle(undefined).error).toBeUndefined();
    expect(() => attribution().assuming('transit.import.byok', () => 1)).toThrowError(/not an assumption/);
    expect(() =>
      attribution().assuming('jobs.errors.rejections-4xx', () => {
        throw new TypeError('boom');
      }),
    ).toThrowError(TypeError);
  });
});
