/**
 * The layout of the areas (docs/AUTHORING.md, "Areas: one name in every layer"): every area of the
 * catalogue has its spec folder (requirements.yaml naming that area, its ids starting with it;
 * openapi.yaml; statements files optional) and its suite folder; nothing else lies in spec/ besides shared/ and documents/;
 * and the table of areas in docs/AUTHORING.md lists exactly these areas with folders that exist.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { loadCatalogue } from '../../harness/spec/catalogue.js';
import {
  isStatementsFile,
  NOT_AREAS,
  OPENAPI_FILE,
  PACKAGE_ROOT,
  REQUIREMENTS_FILE,
  SPEC_DIR,
  specAreas,
} from '../../harness/spec/paths.js';

/** The generated area: its requirements are written from every area's openapi.yaml (generated/catalogue). */
const GENERATED_AREAS = new Set(['robustness']);

const catalogueAreas = [
  ...new Set([...loadCatalogue().values()].map((r) => r.area).filter((a) => !GENERATED_AREAS.has(a))),
].sort();

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    return statSync(full).isDirectory() ? filesUnder(full) : [relative(SPEC_DIR, full)];
  });
}

describe('areas', () => {
  it('the catalogue has the areas the spec has folders for', () => {
    expect(catalogueAreas.length).toBeGreaterThan(0);
    expect(specAreas()).toEqual(catalogueAreas);
  });

  for (const area of catalogueAreas) {
    it(`${area}: spec/${area}/ holds its requirements and OpenAPI document, suites/${area}/ its tests`, () => {
      const folder = join(SPEC_DIR, area);
      expect(existsSync(join(folder, REQUIREMENTS_FILE)), `spec/${area}/${REQUIREMENTS_FILE}`).toBe(true);
      expect(existsSync(join(folder, OPENAPI_FILE)), `spec/${area}/${OPENAPI_FILE}`).toBe(true);
      const file = parse(readFileSync(join(folder, REQUIREMENTS_FILE), 'utf8')) as {
        area?: string;
        requirements?: { id: string }[];
      };
      expect(file.area, `the area: of spec/${area}/${REQUIREMENTS_FILE}`).toBe(area);
      // A requirement id names its area first, so an id leads to its file (docs/AUTHORING.md section 9).
      const foreign = (file.requirements ?? []).map((r) => r.id).filter((id) => !id.startsWith(`${area}.`));
      expect(foreign, `ids of spec/${area}/${REQUIREMENTS_FILE} not starting with "${area}."`).toEqual([]);
      expect(existsSync(join(PACKAGE_ROOT, 'suites', area)), `suites/${area}/`).toBe(true);
    });
  }

  it('nothing stray in spec/: every file belongs to an area, to shared/ or to documents/', () => {
    const stray = filesUnder(SPEC_DIR).filter((file) => {
      const [top, name, ...deeper] = file.split('/');
      if (NOT_AREAS.includes(top!)) return false;
      if (!name || deeper.length || !catalogueAreas.includes(top!)) return true;
      return !(name === REQUIREMENTS_FILE || name === OPENAPI_FILE || isStatementsFile(name));
    });
    expect(stray, 'files of spec/ that are no area file (requirements.yaml, openapi.yaml, statements*.yaml)').toEqual(
      [],
    );
  });

  it("docs/AUTHORING.md's table of areas lists every area, with folders that exist", () => {
    const doc = readFileSync(join(PACKAGE_ROOT, 'docs/AUTHORING.md'), 'utf8');
    const rows = [...doc.matchAll(/^\| (\w+) \| `spec\/(\w+)\/` \| `suites\/(\w+)\/` \| (.*) \|$/gm)];
    expect(rows.map((r) => r[1]).sort()).toEqual(catalogueAreas);
    const missing: string[] = [];
    for (const [, area, spec, suite, rest] of rows) {
      if (spec !== area || suite !== area) missing.push(`${area}: spec/${spec}/, suites/${suite}/`);
      for (const [, path] of rest!.matchAll(/`((?:reference|contract|fixtures|harness)\/[\w./-]*)`/g))
        if (!existsSync(join(PACKAGE_ROOT, path!))) missing.push(`${area}: ${path}`);
    }
    expect(missing, 'folders and files named in the table that do not exist').toEqual([]);
  });
});
