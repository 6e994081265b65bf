/**
 * `npm run coverage:docs` is bounded by the published fault proof (generated/fault-proof.json): a
 * statement its tests assert counts as asserted only when a fault declaring it was killed by a test
 * of the requirement it breaks; otherwise it is partial, "no fault proves it", and the figure
 * without the bound is printed beside the bounded one.
 */
import { describe, expect, it } from 'vitest';
import { loadProof, type FaultProof } from '../../harness/cli/mutation-proof.js';
import { docsCoverage, formatCoverage } from '../../tools/coverage-docs.js';

describe('coverage:docs bounded by the fault proof', () => {
  it('counts a statement no fault proves as partial, with the reason, and prints both figures', async () => {
    const proof = structuredClone(loadProof()) as FaultProof;
    const bounded = await docsCoverage('core', proof);
    const target = bounded.statements.find((s) => s.coverage === 'asserted' && s.provedBy.length > 0)!;
    expect(target, 'an asserted statement a fault proves').toBeDefined();
    // The same proof, but the statement's faults survived.
    for (const name of proof.statements.byId[target.id]!.faults) proof.faults.byName[name]!.verdict = 'survived';
    proof.statements.byId[target.id]!.provedBy = [];
    const dropped = await docsCoverage('core', proof);
    const s = dropped.statements.find((x) => x.id === target.id)!;
    expect(s.coverage).toBe('partial');
    expect(s.unproved).toBe(true);
    expect(s.why).toMatch(/^no fault proves it: .*\(survived\)/);
    const before = bounded.totals[0]!;
    const after = dropped.totals[0]!;
    expect(after.asserted).toBe(before.asserted - 1);
    expect(after.assertedByTests).toBe(before.assertedByTests);
    expect(after.unproved).toBe(before.unproved + 1);
    const text = formatCoverage(dropped);
    expect(text).toMatch(/bounded by the fault proof; by the tests alone/);
    expect(text).toContain(target.id);
  }, 60_000);

  it('proves nothing without a published proof', async () => {
    const none = await docsCoverage('core', null);
    expect(none.totals[0]!.asserted).toBe(0);
    expect(none.totals[0]!.assertedByTests).toBeGreaterThan(0);
    expect(formatCoverage(none)).toMatch(/No fault proof is published/);
  }, 60_000);
});
