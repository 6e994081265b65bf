/** The requirement catalogue (spec/catalogue/*.yaml), loaded once per process. */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { cachedSync, cacheKey, contentHash, packageVersion, sourceHash } from './disk-cache.js';
import { schemaRequirements } from './spec/schema-requirements.js';

export const CATALOGUE_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '../spec/catalogue');

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

export function loadCatalogue(dir = CATALOGUE_DIR): Map<string, Requirement> {
  if (cache && dir === CATALOGUE_DIR) return cache;
  // Parsing the YAML is most of the cost: cached on disk, keyed by the catalogue files' contents,
  // the code below (this module's source) and the YAML parser's version.
  const key = cacheKey(contentHash(dir, /\.ya?ml$/), sourceHash(import.meta.url), `yaml@${packageVersion('yaml')}`);
  const entries = cachedSync('catalogue', key, () => {
    const list: Requirement[] = [];
    for (const file of readdirSync(dir)
      .filter((f) => /\.ya?ml$/.test(f))
      .sort()) {
      const doc = parse(readFileSync(join(dir, file), 'utf8')) as {
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
  if (dir === CATALOGUE_DIR) for (const r of schemaRequirements()) if (!out.has(r.id)) out.set(r.id, r);
  if (dir === CATALOGUE_DIR) cache = out;
  return out;
}
