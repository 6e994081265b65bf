/**
 * Every assumption of the catalogue names a setting that exists: `assumptions.<its id>` (which
 * switches it off) or a real config path. A setting that names nothing would leave the report's
 * reader with no way to change the assumption.
 */
import { describe, expect, it } from 'vitest';
import { loadCatalogue } from '../../harness/spec/catalogue.js';
import { defaults } from '../../harness/config/load.js';

function paths(o: unknown, prefix = ''): string[] {
  if (!o || typeof o !== 'object' || Array.isArray(o)) return [];
  return Object.entries(o).flatMap(([k, v]) => [prefix + k, ...paths(v, `${prefix}${k}.`)]);
}

const OPTIONAL = [
  'ldap.url',
  'ldap.userDn',
  'ldap.serviceAccounts',
  'cloud.directoryAddr',
  'cloud.propagationSeconds',
  'cloud.applicationObjectId',
  'cloud.roleNames',
  'cloud.groupNames',
  'run.expectationsFile',
];
const known = new Set([...paths(defaults()), ...OPTIONAL]);

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
