/**
 * Every table of cases (suites/<area>/<name>.cases.yaml) matches the one schema
 * (spec/shared/cases.schema.json), names catalogue ids that exist at their catalogue level, and is run
 * by a test file beside it (so a grep of a case id lands in the suite folder).
 */
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadCatalogue } from '../../harness/spec/catalogue.js';
import { caseFiles, loadCases } from '../../suites/lib/case-files.js';

const catalogue = loadCatalogue();

describe('case tables', () => {
  it('exist', () => {
    expect(caseFiles().length).toBeGreaterThan(0);
  });

  for (const file of caseFiles()) {
    it(`${file} matches spec/shared/cases.schema.json and names known ids at their level`, () => {
      const cf = loadCases(file);
      const bad = cf.cases.flatMap((c) =>
        [c.id, ...(c.also ?? [])]
          .filter((id) => !catalogue.has(id))
          .map((id) => `${c.title}: unknown id ${id}`)
          .concat(
            catalogue.get(c.id) && catalogue.get(c.id)!.level !== c.level
              ? [`${c.title}: level ${c.level}, catalogue says ${catalogue.get(c.id)!.level}`]
              : [],
          ),
      );
      expect(bad).toEqual([]);
    });

    it(`${file} is run by a test file in its folder`, () => {
      const dir = path.dirname(file);
      const name = path.basename(file);
      const runners = readdirSync(dir)
        .filter((f) => f.endsWith('.test.ts'))
        .filter((f) => readFileSync(path.join(dir, f), 'utf8').includes(`'./${name}'`));
      expect(runners, `a test file in ${dir} runs ./${name}`).toHaveLength(1);
    });
  }

  it('a case without its world or level is refused when loaded', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'cases-'));
    const file = path.join(dir, 'broken.cases.yaml');
    writeFileSync(
      file,
      'cases:\n  - id: kv.v1.empty-body-400\n    title: a case missing its world and level\n    request: {}\n    expect: { status: 400 }\n',
    );
    expect(() => loadCases(file)).toThrow(/does not match spec\/shared\/cases.schema.json/);
  });
});
