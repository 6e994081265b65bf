/**
 * The requirement catalogue, loaded once per process: the hand-written files of spec/catalogue/,
 * the generated ones of generated/catalogue/ (the robustness requirements) and the schema
 * requirement of every operation (harness/spec/schema-requirements.ts).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseYaml } from '../cache/yaml.js';
import { cachedSync, cacheKey, contentHash, packageVersion, sourceHash } from '../cache/disk-cache.js';
import { CATALOGUE_DIR, GENERATED_CATALOGUE_DIR } from './paths.js';
import { schemaRequirements } from './schema-requirements.js';

export { CATALOGUE_DIR, GENERATED_CATALOGUE_DIR };

/** The folders whose YAML files make up the catalogue: hand-written, then generated. */
export const CATALOGUE_DIRS = [CATALOGUE_DIR, GENERATED_CATALOGUE_DIR];

export type Level = 'MUST' | 'SHOULD' | 'MAY';

export interface Requirement {
  id: string;
  level: Level;
  section: string;
  text: string;
  /** `schema`: generated from the OpenAPI documents (harness/spec/schema-requirements.ts). */
  kind?: 'rule' | 'assumption' | 'change' | 'known-issue' | 'schema';
  assumption?: { why: string; setting?: string };
  capability?: string;
  affected?: string[];
  fixedIn?: string[];
  /** The statements of the documents (spec/statements) this requirement comes from. */
  statements?: string[];
  testability?: { class: 'api' | 'capability' | 'not-observable'; capability?: string; reason?: string };
  area: string;
  document: string;
}

let cache: Map<string, Requirement> | undefined;

/** The catalogue's YAML files, as full paths, in a stable order. */
export function catalogueFiles(dirs = CATALOGUE_DIRS): string[] {
  return dirs.flatMap((dir) =>
    readdirSync(dir)
      .filter((f) => /\.ya?ml$/.test(f))
      .sort()
      .map((f) => join(dir, f)),
  );
}

export function loadCatalogue(dirs = CATALOGUE_DIRS): Map<string, Requirement> {
  const standard = dirs === CATALOGUE_DIRS;
  if (cache && standard) return cache;
  // Parsing the YAML is most of the cost: cached on disk, keyed by the catalogue files' contents,
  // the code below (this module's source) and the YAML parser's version.
  const key = cacheKey(
    ...dirs.map((dir) => contentHash(dir, /\.ya?ml$/)),
    sourceHash(import.meta.url),
    `yaml@${packageVersion('yaml')}`,
  );
  const entries = cachedSync('catalogue', key, () => {
    const list: Requirement[] = [];
    for (const file of catalogueFiles(dirs)) {
      const doc = parseYaml(readFileSync(file, 'utf8')) as {
        area: string;
        document: string;
        requirements: Omit<Requirement, 'area' | 'document'>[];
      };
      for (const r of doc?.requirements ?? []) list.push({ ...r, area: doc.area, document: doc.document });
    }
    return list;
  });
  const out = new Map<string, Requirement>();
  for (const r of entries) out.set(r.id, r);
  // The schema requirement of every operation, generated from the spec (never hand-written).
  if (standard) for (const r of schemaRequirements()) if (!out.has(r.id)) out.set(r.id, r);
  if (standard) cache = out;
  return out;
}
