import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cachedValidator, cachedValidators, newAjv, schemaHash, Validators } from '../../harness/cache/schema-cache.js';
import { loadDocuments } from '../../harness/spec/documents.js';
import { RESPONSE_SCHEMAS, responseSchemas } from '../../harness/spec/registry.js';
import { SPEC_DIR } from '../../harness/spec/paths.js';
import { saveCacheEnv } from '../helpers/cache-env.js';

const restoreCacheEnv = saveCacheEnv();
let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'schema-cache-test-'));
  process.env.CONFORMANCE_CACHE_DIR = dir;
  delete process.env.CONFORMANCE_CACHE;
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  restoreCacheEnv();
});

type Schema = Record<string, unknown>;

/** A value that satisfies the simple parts of a schema (required properties, types, formats, enums). */
function instance(schema: Schema | undefined, depth = 0): unknown {
  if (!schema || depth > 6) return null;
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  const alt = (schema.oneOf ?? schema.anyOf) as Schema[] | undefined;
  if (alt?.length) return instance(alt[0], depth + 1);
  if (Array.isArray(schema.allOf))
    return Object.assign({}, ...(schema.allOf as Schema[]).map((s) => instance(s, depth + 1) ?? {}));
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type ?? (schema.properties ? 'object' : undefined)) {
    case 'object': {
      const props = (schema.properties ?? {}) as Record<string, Schema>;
      const out: Record<string, unknown> = {};
      for (const name of Object.keys(props)) out[name] = instance(props[name], depth + 1);
      return out;
    }
    case 'array':
      return [instance(schema.items as Schema | undefined, depth + 1)];
    case 'string':
      return schema.format === 'date-time'
        ? '2026-11-24T10:00:00Z'
        : schema.format === 'uri'
          ? 'https://example.test/x'
          : 'x'.repeat(Math.max(1, Number(schema.minLength ?? 1)));
    case 'integer':
    case 'number':
      return Number(schema.minimum ?? 1);
    case 'boolean':
      return true;
    default:
      return null;
  }
}

/** The instance and broken copies of it: each top-level and nested property removed or of the wrong type. */
function samples(schema: Schema): unknown[] {
  const good = instance(schema);
  const out: unknown[] = [good, {}, [], null, 'text', 42, { unknown_field: 1 }, { errors: ['e'] }, { data: {} }];
  const walk = (value: unknown, path: string[]) => {
    if (!value || typeof value !== 'object' || Array.isArray(value) || path.length > 3) return;
    for (const key of Object.keys(value)) {
      for (const replacement of [undefined, 12, 'str', [], { nested: true }, '2026-13-99T99:99:99Z']) {
        const copy = structuredClone(good) as Record<string, unknown>;
        let cur = copy;
        for (const p of path) cur = cur[p] as Record<string, unknown>;
        if (replacement === undefined) delete cur[key];
        else cur[key] = replacement;
        out.push(copy);
      }
      walk((value as Record<string, unknown>)[key], [...path, key]);
    }
  };
  walk(good, []);
  return out;
}

describe('standalone validators (ajv code cached on disk)', () => {
  it('give the same verdicts and errors as compiled ones for every response schema of the spec', async () => {
    const { docs, key } = await loadDocuments(SPEC_DIR);
    const schemas = [...responseSchemas(Object.values(docs))];
    const standalone = cachedValidators('test-response', RESPONSE_SCHEMAS, key, () => schemas);
    expect(standalone).toBeDefined();
    const again = cachedValidators('test-response', RESPONSE_SCHEMAS, key, () => {
      throw new Error('built again although cached');
    });
    const compiler = newAjv(RESPONSE_SCHEMAS);
    let compared = 0;
    let invalid = 0;
    for (const schema of new Map(schemas.map((s) => [schemaHash(s)!, s])).values()) {
      const fromDisk = again![schemaHash(schema)!];
      expect(fromDisk, 'every response schema is in the cached code').toBeTypeOf('function');
      const compiled = compiler.compile(schema);
      for (const body of samples(schema as Schema)) {
        const ok = compiled(body);
        expect(fromDisk!(body), JSON.stringify(body)).toBe(ok);
        expect(fromDisk!.errors ?? null).toEqual(compiled.errors ?? null);
        compared++;
        if (!ok) invalid++;
      }
    }
    expect(compared).toBeGreaterThan(1000);
    expect(invalid, 'the samples include invalid bodies').toBeGreaterThan(500);
    expect(compared - invalid, 'and valid ones').toBeGreaterThan(50);
  });

  it('formats, strictness and unknown keywords as configured', () => {
    const schema = {
      type: 'object',
      required: ['at'],
      properties: { at: { type: 'string', format: 'date-time' }, n: { type: 'integer', minimum: 1 } },
      example: { at: 'x' },
      'x-vendor-note': 'unknown keywords are ignored (strict: false)',
    };
    const v = cachedValidator('test-one', RESPONSE_SCHEMAS, schema);
    expect(v({ at: '2026-11-24T10:00:00Z' })).toBe(true);
    expect(v({ at: 'yesterday' })).toBe(false);
    expect(v.errors?.[0]).toMatchObject({ keyword: 'format', instancePath: '/at' });
    expect(v({ at: '2026-11-24T10:00:00Z', n: 0 })).toBe(false);
  });

  it('are keyed by the ajv set-up and the schemas; a corrupt file is rebuilt; off compiles in the process', () => {
    const schema = { type: 'object', required: ['a'] };
    cachedValidator('test-key', RESPONSE_SCHEMAS, schema);
    cachedValidator('test-key', { ...RESPONSE_SCHEMAS, options: { allErrors: false } }, schema);
    cachedValidator('test-key', RESPONSE_SCHEMAS, { type: 'object', required: ['b'] });
    const files = readdirSync(dir).filter((f) => f.startsWith('test-key-'));
    expect(files, 'one file per set-up and schema').toHaveLength(3);

    let builds = 0;
    const collect = () => {
      builds++;
      return [schema];
    };
    cachedValidators('test-corrupt', RESPONSE_SCHEMAS, 'k', collect);
    const [file] = readdirSync(dir).filter((f) => f.startsWith('test-corrupt-'));
    writeFileSync(join(dir, file!), 'exports["x"] = (;'); // truncated code
    const rebuilt = cachedValidators('test-corrupt', RESPONSE_SCHEMAS, 'k', collect);
    expect(builds, 'built again').toBe(2);
    expect(rebuilt?.[schemaHash(schema)!]?.({})).toBe(false);
    expect(cachedValidators('test-corrupt', RESPONSE_SCHEMAS, 'k', collect)?.[schemaHash(schema)!]?.({ a: 1 })).toBe(
      true,
    );
    expect(builds, 'and stored again').toBe(2);

    process.env.CONFORMANCE_CACHE = 'off';
    try {
      expect(cachedValidators('test-off', RESPONSE_SCHEMAS, 'k', () => [schema])).toBeUndefined();
      const v = new Validators(RESPONSE_SCHEMAS);
      expect(v.get(schema)({ a: 1 })).toBe(true);
      expect(v.get({ type: 'object', required: ['a'] }), 'equal schemas share one validator').toBe(v.get(schema));
      expect(v.get(true)('anything'), 'a boolean schema').toBe(true);
      expect(readdirSync(dir).filter((f) => f.startsWith('test-off'))).toEqual([]);
    } finally {
      delete process.env.CONFORMANCE_CACHE;
    }
  });
});
