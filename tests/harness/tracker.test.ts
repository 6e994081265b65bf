/** Cleanup runs in dependency order (revoke, delete, unmount) and a resource already gone is not a leftover. */
import { describe, expect, it } from 'vitest';
import { Tracker, alreadyGone } from '../../harness/author/tracker.js';

const answer =
  (status: number, body: unknown = {}) =>
  async () => ({ response: { status, body } });

describe('cleanup tracker', () => {
  it('revokes leases before deleting the account or role they belong to, and unmounts last', async () => {
    const t = new Tracker();
    const ran: string[] = [];
    const step = (label: string) => async () => {
      ran.push(label);
    };
    // The order a dynamic-credentials test learns things in: mount, role, lease, account entry.
    t.add('mount ldap', step('mount ldap'), 'unmount');
    t.add('dynamic role r', step('dynamic role r'));
    t.add('lease of r', step('lease of r'), 'revoke');
    t.add('account u', step('account u'));
    t.add('check-out lease', step('check-out lease'), 'revoke');
    expect(t.order()).toEqual(['check-out lease', 'lease of r', 'account u', 'dynamic role r', 'mount ldap']);
    expect(await t.runAll()).toEqual([]);
    expect(ran).toEqual(['check-out lease', 'lease of r', 'account u', 'dynamic role r', 'mount ldap']);
  });

  it('reports a leftover only for what still exists', async () => {
    const t = new Tracker();
    t.add('gone (404)', answer(404, { errors: [] }));
    t.add('gone (400, the target says it does not exist)', answer(400, { errors: ['lease not found'] }));
    t.add('gone (directory)', async () => {
      throw new Error('No Such Object');
    });
    t.add('still there (403)', answer(403, { errors: ['permission denied'] }));
    t.add('still there (400)', answer(400, { errors: ['role is in use'] }));
    t.add('still there (500)', answer(500, { errors: ['internal error'] }));
    const leftovers = await t.runAll();
    expect(leftovers.map((l) => l.label).sort()).toEqual([
      'still there (400)',
      'still there (403)',
      'still there (500)',
    ]);
  });

  it('knows the answers that mean "already gone"', () => {
    expect(alreadyGone(404, undefined)).toBe(true);
    expect(alreadyGone(400, { errors: ['invalid lease ID'] })).toBe(true);
    expect(alreadyGone(400, { errors: ['role "x" does not exist'] })).toBe(true);
    expect(alreadyGone(400, { errors: ['missing required field'] })).toBe(false);
    expect(alreadyGone(500, { errors: ['not found'] }), 'a server error is never "gone"').toBe(false);
    expect(alreadyGone(204, undefined), 'success is not a leftover either way').toBe(false);
  });

  it('refuses an unknown phase', () => {
    expect(() => new Tracker().add('x', async () => {}, 'later' as never)).toThrowError(/unknown cleanup phase/);
  });
});
