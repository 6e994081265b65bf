/**
 * Every assumption of the catalogue names a setting that exists: `assumptions.<its id>` (which
 * switches it off) or a real config path. A setting that names nothing would leave the report's
 * reader with no way to change the assumption.
 */
import { describe, expect, it } from 'vitest';
import { loadCatalogue } from '../../harness/spec/catalogue.js';
import { settings } from '../../harness/config/settings.js';

/** Every setting of the schema (harness/config/schema.ts), set by default or not. */
const known = new Set(settings().map((s) => s.path));

describe('assumption settings', () => {
  const entries = [...loadCatalogue().values()].filter((r) => r.kind === 'assumption');
  it('there are assumptions to check', () => expect(entries.length).toBeGreaterThan(10));
  for (const r of entries) {
    it(`${r.id} names a setting that exists`, () => {
      const setting = r.assumption?.setting;
      expect(setting, `${r.id} has a setting`).toBeTruthy();
      const key = setting!.split(/[\s(,;]/)[0]!;
      expect(
        key === `assumptions.${r.id}` || known.has(key),
        `${r.id}: "${setting}" is assumptions.${r.id} or a config path`,
      ).toBe(true);
    });
  }
});
