/**
 * The OpenAPI documents of the spec, one per area (spec/<area>/openapi.yaml, referring to the shared
 * spec/shared/components.yaml), dereferenced (every `$ref` replaced by what it names).
 * Dereferencing is the slow part of loading the spec, and every test worker needs the result: it
 * is cached on disk, keyed by the documents' contents, this module's source and the parser's version.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { OpenAPIV3_1 } from 'openapi-types';
import { cached, cacheKey, filesHash, packageVersion, sourceHash } from '../cache/disk-cache.js';
import { areaFiles } from './paths.js';

const PARSER = '@apidevtools/swagger-parser';

export interface SpecDocuments {
  /** The documents' names, their paths under the spec folder (`kv/openapi.yaml`), sorted. */
  files: string[];
  docs: Record<string, OpenAPIV3_1.Document>;
  /** What the documents were made from: part of the key of anything else built from them. */
  key: string;
}

/** The documents of the spec folder `root`, and what they refer to (the YAML and JSON of shared/). */
export async function loadDocuments(root: string): Promise<SpecDocuments> {
  const files = areaFiles('openapi', root);
  const shared = readdirSync(join(root, 'shared'))
    .filter((f) => /\.(ya?ml|json)$/.test(f))
    .sort()
    .map((f) => `shared/${f}`);
  const key = cacheKey(
    filesHash(root, [...files, ...shared]),
    sourceHash(import.meta.url),
    `${PARSER}@${packageVersion(PARSER)}`,
  );
  const docs = await cached('openapi', key, async () => {
    // Imported only on a cache miss: the parser and its dependencies take a while to load.
    const { default: SwaggerParser } = await import('@apidevtools/swagger-parser');
    const out: Record<string, OpenAPIV3_1.Document> = {};
    for (const file of files) out[file] = (await SwaggerParser.dereference(join(root, file))) as OpenAPIV3_1.Document;
    return out;
  });
  return { files, docs, key };
}
