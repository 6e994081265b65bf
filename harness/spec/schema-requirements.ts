/**
 * Schema requirements, generated from the OpenAPI documents rather than written by hand: one MUST
 * per operation ("every answer of METHOD /path matches the spec for its status"), with the stable
 * id `schema.<operationId in kebab case>`, plus two that belong to no operation (a documented
 * help answer, and answers to paths the spec does not document). The catalogue loads them beside
 * spec/<area>/requirements.yaml, so reports, expectations files and known-failure lists accept the ids.
 *
 * Every test worker loads the catalogue, and parsing the YAML documents again costs each of them
 * hundreds of milliseconds: the result is cached on disk, keyed by the documents' contents, this
 * module's source and the YAML parser's version (harness/cache/disk-cache.ts).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseYaml } from '../cache/yaml.js';
import type { Requirement } from './catalogue.js';
import { cachedSync, cacheKey, filesHash, packageVersion, sourceHash } from '../cache/disk-cache.js';
import { areaFiles, SPEC_DIR } from './paths.js';

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'] as const;

/** `readTransitKey` → `read-transit-key`: catalogue ids are lower case. */
export function kebab(operationId: string): string {
  return operationId
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1-$2')
    .replace(/[^A-Za-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .toLowerCase();
}

/** The schema requirement id of an operation (its operationId, or method and template). */
export function schemaId(op: { operationId?: string; method: string; template: string }): string {
  return `schema.${kebab(op.operationId ?? `${op.method.toLowerCase()} ${op.template}`)}`;
}

export const SCHEMA_HELP_ID = 'schema.generic.help';
export const SCHEMA_UNMATCHED_ID = 'schema.generic.unmatched';

/** Area of an OpenAPI document, the folder it sits in: `transit/openapi.yaml` → `transit`. */
export function areaOfSpecFile(file: string): string {
  return file.split('/')[0]!;
}

/** The schema requirements of the documents of the spec folder `root`. */
export function schemaRequirements(root = SPEC_DIR): Requirement[] {
  const files = areaFiles('openapi', root);
  const key = cacheKey(filesHash(root, files), sourceHash(import.meta.url), `yaml@${packageVersion('yaml')}`);
  return cachedSync('schema-requirements', key, () => buildSchemaRequirements(root, files));
}

function buildSchemaRequirements(root: string, files: readonly string[]): Requirement[] {
  const out: Requirement[] = [
    {
      id: SCHEMA_HELP_ID,
      level: 'MUST',
      section: 'x-generic-responses.help',
      text: 'A help answer (`?help=1`) has the documented help shape.',
      kind: 'schema',
      area: 'core',
      document: 'core/openapi.yaml',
    },
    {
      id: SCHEMA_UNMATCHED_ID,
      level: 'MUST',
      section: 'paths',
      text: 'Every successful answer belongs to a documented operation; every error on an undocumented path carries the error body.',
      kind: 'schema',
      area: 'core',
      document: 'core/openapi.yaml',
    },
  ];
  for (const file of files) {
    const doc = parseYaml(readFileSync(join(root, file), 'utf8')) as {
      paths?: Record<string, Record<string, { operationId?: string; summary?: string }>>;
    };
    for (const [template, item] of Object.entries(doc?.paths ?? {})) {
      for (const method of METHODS) {
        const op = item?.[method];
        if (!op) continue;
        const M = method.toUpperCase();
        out.push({
          id: schemaId({ operationId: op.operationId, method: M, template }),
          level: 'MUST',
          section: `${file} ${M} ${template}`,
          text: `Every answer of ${M} ${template} has a status the spec documents for it and the body its schema describes.`,
          kind: 'schema',
          area: areaOfSpecFile(file),
          document: file,
        });
      }
    }
  }
  return out;
}
