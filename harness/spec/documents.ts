/**
 * The OpenAPI documents of spec/openapi, dereferenced (every `$ref` replaced by what it names).
 * Dereferencing is the slow part of loading the spec, and every test worker needs the result: it
 * is cached on disk, keyed by the documents' contents, this module's source and the parser's version.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { OpenAPIV3_1 } from 'openapi-types';
import { cached, cacheKey, contentHash, packageVersion, sourceHash } from '../cache/disk-cache.js';

const PARSER = '@apidevtools/swagger-parser';

export interface SpecDocuments {
  /** The documents' file names (components.yaml, which only holds shared pieces, left out), sorted. */
  files: string[];
  docs: Record<string, OpenAPIV3_1.Document>;
  /** What the documents were made from: part of the key of anything else built from them. */
  key: string;
}

export async function loadDocuments(dir: string): Promise<SpecDocuments> {
  const files = readdirSync(dir)
    .filter((f) => /\.ya?ml$/.test(f) && f !== 'components.yaml')
    .sort();
  const key = cacheKey(
    contentHash(dir, /\.(ya?ml|json)$/),
    sourceHash(import.meta.url),
    `${PARSER}@${packageVersion(PARSER)}`,
  );
  const docs = await cached('openapi', key, async () => {
    // Imported only on a cache miss: the parser and its dependencies take a while to load.
    const { default: SwaggerParser } = await import('@apidevtools/swagger-parser');
    const out: Record<string, OpenAPIV3_1.Document> = {};
    for (const file of files) out[file] = (await SwaggerParser.dereference(join(dir, file))) as OpenAPIV3_1.Document;
    return out;
  });
  return { files, docs, key };
}
