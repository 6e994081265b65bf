/**
 * The requirement catalogue is the join between the document, the suites and the fault switches:
 * every file must match the catalogue schema, ids must be unique across files, and every id a
 * suite declares (`id: '...'` or `also: [...]`) must exist.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { catalogueFiles } from '../../harness/spec/catalogue.js';
import { SHARED_DIR } from '../../harness/spec/paths.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const schema = JSON.parse(readFileSync(join(SHARED_DIR, 'catalogue.schema.json'), 'utf8')) as object;
/** Hand-written (spec/<area>/requirements.yaml) and generated (generated/catalogue) files, project-relative. */
const files = catalogueFiles();

interface Requirement {
  id: string;
}
interface CatalogueFile {
  area: string;
  requirements: Requirement[];
}

function load(file: string): CatalogueFile {
  return parse(readFileSync(join(root, file), 'utf8')) as CatalogueFile;
}

function walk(dir: string, out: string[] = []): string[] {
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return out;
  }
  for (const name of entries) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) walk(full, out);
    else if (name.endsWith('.test.ts')) out.push(full);
  }
  return out;
}

/** Ids a suite file declares: `id: 'x'` and every quoted string inside `also: [...]`. */
function referencedIds(source: string): string[] {
  const ids: string[] = [];
  for (const m of source.matchAll(/\bid:\s*['"`]([^'"`]+)['"`]/g)) ids.push(m[1]!);
  for (const m of source.matchAll(/\balso:\s*\[([^\]]*)\]/g)) {
    for (const s of m[1]!.matchAll(/['"`]([^'"`]+)['"`]/g)) ids.push(s[1]!);
  }
  return ids;
}

describe('the catalogue (spec/<area>/requirements.yaml)', () => {
  const ajv = new Ajv2020({ allErrors: true, strict: true });
  const validate = ajv.compile(schema);

  it('has hand-written and generated catalogue files', () => {
    expect(files.filter((f) => f.startsWith('spec/')).length, 'hand-written catalogue files').toBeGreaterThan(0);
    expect(files.filter((f) => f.startsWith('generated/')).length, 'generated catalogue files').toBeGreaterThan(0);
  });

  for (const file of files) {
    it(`${file} matches catalogue.schema.json`, () => {
      const ok = validate(load(file));
      expect(ok ? [] : validate.errors, `${file} schema errors`).toEqual([]);
    });

    it(`${file} ids start with its area`, () => {
      const doc = load(file);
      const wrong = doc.requirements.map((r) => r.id).filter((id) => !id.startsWith(`${doc.area}.`));
      expect(wrong, `${file}: ids not under area "${doc.area}"`).toEqual([]);
    });
  }

  it('ids are unique across all files', () => {
    const seen = new Map<string, string>();
    const dupes: string[] = [];
    for (const file of files) {
      for (const { id } of load(file).requirements) {
        const earlier = seen.get(id);
        if (earlier) dupes.push(`${id} (${earlier} and ${file})`);
        else seen.set(id, file);
      }
    }
    expect(dupes, 'requirement ids declared more than once').toEqual([]);
  });

  it('every id a suite declares exists in the catalogue', () => {
    const known = new Set(files.flatMap((f) => load(f).requirements.map((r) => r.id)));
    const missing: string[] = [];
    for (const suiteFile of walk(join(root, 'suites'))) {
      for (const id of referencedIds(readFileSync(suiteFile, 'utf8'))) {
        if (!known.has(id)) missing.push(`${relative(root, suiteFile)}: ${id}`);
      }
    }
    expect(missing, 'suite ids missing from the catalogue (spec/<area>/requirements.yaml)').toEqual([]);
  });
});

describe('generated schema requirements', () => {
  it('one MUST per OpenAPI operation, ids valid and distinct from the hand-written catalogue', async () => {
    const { schemaRequirements } = await import('../../harness/spec/schema-requirements.js');
    const { loadCatalogue } = await import('../../harness/spec/catalogue.js');
    const generated = schemaRequirements();
    const handWritten = new Set(files.flatMap((f) => load(f).requirements.map((r) => r.id)));
    const pattern = /^[a-z][a-z0-9]*(\.[a-z0-9][a-z0-9-]*)+$/;
    expect(
      generated.filter((r) => !pattern.test(r.id)).map((r) => r.id),
      'ids matching the catalogue pattern',
    ).toEqual([]);
    expect(
      generated.filter((r) => handWritten.has(r.id)).map((r) => r.id),
      'no clash with hand-written ids',
    ).toEqual([]);
    expect(new Set(generated.map((r) => r.id)).size, 'distinct ids').toBe(generated.length);
    expect(generated.every((r) => r.level === 'MUST' && r.kind === 'schema')).toBe(true);
    expect(generated.length, 'every operation plus the two generic ones').toBeGreaterThan(150);
    const catalogue = loadCatalogue();
    expect(catalogue.get('schema.kv1-read-or-list')?.section).toBe('kv/openapi.yaml GET /secret/{path}');
  });
});
