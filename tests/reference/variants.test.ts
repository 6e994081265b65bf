/**
 * The declarations of legal variants and faults: every variant names the document passage that
 * allows it and suites that exist, every assumption it contradicts is a catalogue assumption,
 * and no name is used twice across faults and variants (REF_FAULTS and REF_VARIANTS share a
 * namespace in reports and in `npm run mutation`).
 */
import { describe, expect, it } from 'vitest';
import { allFaults, allVariants } from '../../reference/switch-registry.js';
import { ALL_SUITES } from '../../harness/config/load.js';
import { loadCatalogue } from '../../harness/spec/catalogue.js';
import { Variants } from '../../reference/variants.js';

describe('variant declarations', () => {
  it('every variant names the passage that allows it, a description and suites that exist', () => {
    for (const v of allVariants) {
      expect(v.name, 'a variant name is <area>.<what-differs>').toMatch(/^[a-z0-9]+\.[a-z0-9-]+$/);
      expect(v.allows.trim().length, `${v.name}: allows names a document passage`).toBeGreaterThan(15);
      expect(v.allows, `${v.name}: allows names one of the documents`).toMatch(
        /secrets-service-(core|transit)\.md|jobs-service\.md/,
      );
      expect(v.description.trim().length, `${v.name}: description`).toBeGreaterThan(10);
      expect(v.suites.length, `${v.name}: at least one suite must stay green with it`).toBeGreaterThan(0);
      for (const s of v.suites) expect(ALL_SUITES, `${v.name}: suite ${s}`).toContain(s);
    }
  });

  it('the assumptions a variant contradicts are catalogue assumptions', () => {
    const catalogue = loadCatalogue();
    for (const v of allVariants) {
      for (const id of v.assumptions ?? []) expect(catalogue.get(id)?.kind, `${v.name}: ${id}`).toBe('assumption');
    }
  });

  it('names are unique across faults and variants', () => {
    const names = [...allFaults.map((f) => f.name), ...allVariants.map((v) => v.name)];
    const seen = new Set<string>();
    const twice: string[] = [];
    for (const n of names) {
      if (seen.has(n)) twice.push(n);
      seen.add(n);
    }
    expect(twice).toEqual([]);
  });

  it('REF_VARIANTS parses like REF_FAULTS', () => {
    const v = Variants.parse(' core.forbidden-as-404, kv.versions-lenient ,,');
    expect(v.list()).toEqual(['core.forbidden-as-404', 'kv.versions-lenient']);
    expect(v.has('core.forbidden-as-404')).toBe(true);
    expect(v.has('kv.timestamps-nanoseconds')).toBe(false);
  });
});
