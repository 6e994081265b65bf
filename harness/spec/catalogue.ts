/**
 * The requirement catalogue, loaded once per process: the hand-written file of each area,
 * spec/<area>/requirements.yaml, the generated ones of generated/catalogue/ (the robustness
 * requirements) and the schema requirement of every operation (harness/spec/schema-requirements.ts).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseYaml } from '../cache/yaml.js';
import { cachedSync, cacheKey, filesHash, packageVersion, sourceHash } from '../cache/disk-cache.js';
import { areaFiles, GENERATED_CATALOGUE_DIR, PACKAGE_ROOT, SPEC_DIR } from './paths.js';
import { schemaRequirements } from './schema-requirements.js';

export { GENERATED_CATALOGUE_DIR };

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
  /** The statements of the documents (spec/<area>/statements*.yaml) this requirement comes from. */
  statements?: string[];
  testability?: { class: 'api' | 'capability' | 'not-observable'; capability?: string; reason?: string };
  area: string;
  document: string;
}

let cache: Map<string, Requirement> | undefined;

/**
 * The catalogue's YAML files, project-relative, in a stable order: each area's requirements.yaml
 * (by area), then the generated files.
 */
export function catalogueFiles(): string[] {
  return [
    ...areaFiles('requirements', SPEC_DIR).map((f) => `spec/${f}`),
    ...readdirSync(GENERATED_CATALOGUE_DIR)
      .filter((f) => /\.ya?ml$/.test(f))
      .sort()
      .map((f) => `generated/catalogue/${f}`),
  ];
}

export function loadCatalogue(): Map<string, Requirement> {
  if (cache) return cache;
  const files = catalogueFiles();
  // Parsing the YAML is most of the cost: cached on disk, keyed by the catalogue files' contents,
  // the code below (this module's source) and the YAML parser's version.
  const key = cacheKey(filesHash(PACKAGE_ROOT, files), sourceHash(import.meta.url), `yaml@${packageVersion('yaml')}`);
  const entries = cachedSync('catalogue', key, () => {
    const list: Requirement[] = [];
    for (const file of files) {
      const doc = parseYaml(readFileSync(join(PACKAGE_ROOT, file), 'utf8')) as {
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
  for (const r of schemaRequirements()) if (!out.has(r.id)) out.set(r.id, r);
  cache = out;
  return out;
}
