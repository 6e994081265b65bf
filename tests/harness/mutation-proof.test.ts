/**
 * The published fault proof (generated/fault-proof.json and .md, harness/cli/mutation-proof.ts):
 * well-formed, made by the full `npm run mutation`, and about the switches the reference declares
 * now: every fault and variant of the switch tables is in it and nothing else, and each statement's
 * faults are the faults declaring it. When the tables change, the full run publishes it again.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadProof, PROOF_MD, proofMarkdown, type FaultProof } from '../../harness/cli/mutation-proof.js';
import { loadStatements } from '../../harness/spec/statements.js';
import { loadCatalogue } from '../../harness/spec/catalogue.js';
import { PACKAGE_ROOT } from '../../harness/spec/paths.js';
import { allFaults, allVariants } from '../../reference/switch-registry.js';

const STALE =
  'generated/fault-proof.json is stale: run the full `npm run mutation` (~10 minutes on two cores) to publish it again';

describe('the published fault proof', () => {
  const proof = loadProof() as FaultProof;

  it('exists and says what measured it', () => {
    expect(proof, 'generated/fault-proof.json: run `npm run mutation`').toBeDefined();
    expect(proof.generatedBy).toBe('npm run mutation');
    expect(proof.commit).toMatch(/^[0-9a-f]{40}$/);
    expect(Number.isNaN(Date.parse(proof.measuredAt))).toBe(false);
    expect(proof.wallSeconds).toBeGreaterThan(0);
    expect(['files', 'suites']).toContain(proof.radius);
  });

  it('lists every fault and variant of the switch tables, and nothing else', () => {
    expect(Object.keys(proof.faults.byName).sort(), STALE).toEqual(allFaults.map((f) => f.name).sort());
    expect(Object.keys(proof.variants.byName).sort(), STALE).toEqual(allVariants.map((v) => v.name).sort());
    for (const f of allFaults) expect(proof.faults.byName[f.name]?.breaks, `${f.name}: ${STALE}`).toBe(f.breaks);
  });

  it('is consistent: figures match entries, requirements and statements exist', () => {
    const faults = Object.values(proof.faults.byName);
    expect(proof.faults.total).toBe(faults.length);
    expect(proof.faults.killed).toBe(faults.filter((f) => f.verdict === 'killed').length);
    expect(proof.faults.killedByOwnRequirement).toBe(
      faults.filter((f) => f.verdict === 'killed' && f.byOwnRequirement).length,
    );
    expect(proof.faults.contained).toBe(faults.filter((f) => f.verdict === 'killed' && !f.blastRadius.length).length);
    for (const f of faults) {
      expect(f.byOwnRequirement).toBe(f.chargedTo.includes(f.breaks));
      expect(f.blastRadius.includes(f.breaks)).toBe(false);
    }
    const variants = Object.values(proof.variants.byName);
    expect(proof.variants.total).toBe(variants.length);
    expect(proof.variants.passed).toBe(variants.filter((v) => v.verdict === 'passed').length);
    const catalogue = loadCatalogue();
    const charged = new Set(faults.flatMap((f) => [f.breaks, ...f.chargedTo, ...f.blastRadius]));
    const unknown = [...charged].filter((id) => !catalogue.has(id) && !id.startsWith('schema.'));
    expect(unknown, `requirements the proof names that the catalogue lacks: ${STALE}`).toEqual([]);
  });

  it("gives each statement the faults declaring it, and those of them killed by their own requirement's test", () => {
    const declaring = new Map<string, string[]>();
    for (const f of allFaults)
      for (const id of f.statements ?? []) declaring.set(id, [...(declaring.get(id) ?? []), f.name].sort());
    expect(Object.keys(proof.statements.byId).sort(), STALE).toEqual([...declaring.keys()].sort());
    for (const [id, entry] of Object.entries(proof.statements.byId)) {
      expect(entry.faults, `${id}: ${STALE}`).toEqual(declaring.get(id));
      for (const name of entry.provedBy) {
        const f = proof.faults.byName[name]!;
        expect(f.verdict === 'killed' && f.byOwnRequirement, `${name} proves ${id}`).toBe(true);
      }
    }
    const testable = loadStatements().filter((s) => !s.untestable);
    expect(proof.statements.testable, STALE).toBe(testable.length);
    expect(proof.statements.proved).toBe(testable.filter((s) => proof.statements.byId[s.id]?.provedBy.length).length);
  });

  it('has its summary made from it', () => {
    expect(readFileSync(join(PACKAGE_ROOT, PROOF_MD), 'utf8'), `${PROOF_MD}: run \`npm run mutation\``).toBe(
      proofMarkdown(proof),
    );
  });
});
