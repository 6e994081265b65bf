/** The example baseline in fixtures/release stays loadable and names catalogued ids only. */
import { describe, expect, it } from 'vitest';
import { loadCatalogue } from '../../harness/spec/catalogue.js';
import { checkExpectationIds, loadExpectations } from '../../harness/report/expectations.js';

describe('fixtures/release/expectations.example.yaml', () => {
  it('loads and names only requirement ids of the catalogue', () => {
    const map = loadExpectations('fixtures/release/expectations.example.yaml');
    expect(map.size, 'entries').toBeGreaterThan(0);
    expect(() => checkExpectationIds(map, loadCatalogue()), 'ids known to the catalogue').not.toThrow();
  });
});
