/** The core/kv case tables load, match their schema and name catalogue ids that exist. */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { caseFile, caseFileNames } from '../../fixtures/core/index.js';

const catalogueDir = join(dirname(fileURLToPath(import.meta.url)), '../../spec/catalogue');
const known = new Set(
  readdirSync(catalogueDir)
    .filter((f) => f.endsWith('.yaml'))
    .flatMap((f) =>
      (parse(readFileSync(join(catalogueDir, f), 'utf8')) as { requirements: { id: string }[] }).requirements.map(
        (r) => r.id,
      ),
    ),
);

describe('fixtures/core case tables', () => {
  it('exist', () => {
    expect(caseFileNames().length, 'number of case files').toBeGreaterThan(0);
  });
  for (const name of caseFileNames()) {
    it(`${name}.json matches cases.schema.json and names known ids`, () => {
      const cf = caseFile(name);
      const ids = [cf.rule, ...cf.cases.map((c) => c.id).filter((id): id is string => !!id)];
      expect(
        ids.filter((id) => !known.has(id)),
        `${name}.json ids missing from the catalogue`,
      ).toEqual([]);
    });
  }
});
