/**
 * JSON Schema validators compiled once and kept on disk as ajv "standalone" code: compiling the
 * spec's response schemas cost every test worker ~0.4-1 s of CPU, loading the generated code a
 * few tens of milliseconds. The generated code is what `ajv.compile` builds (same options,
 * formats and keywords), so validation results and error objects are the same.
 *
 * The code is keyed by the schemas it was made from (the caller's key), the ajv set-up (dialect,
 * options, formats, keywords), the ajv and ajv-formats versions and this module's source. Without
 * a usable cache (`CONFORMANCE_CACHE=off`, a corrupt file) the schemas are compiled in the process.
 */
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import type { Ajv, Options, ValidateFunction } from 'ajv';
import { cacheEnabled, cachedText, cacheKey, packageVersion, sourceHash } from './disk-cache.js';

export interface AjvSetup {
  dialect: 'draft-07' | '2020-12';
  options: Options;
  /** ajv-formats' full formats (the default of `addFormats(ajv)`). */
  formats?: boolean;
  /** Keywords accepted without meaning (annotations such as `example`). */
  keywords?: string[];
}

// The generated code requires ajv's runtime helpers and ajv-formats' formats: resolved from here.
const requireHere = createRequire(import.meta.url);

// ajv itself (its compiler, ~50 ms to load) is required only when a schema is compiled: with the
// cache warm every process of a run validates with the cached code alone, which needs only the
// runtime helpers above.
const ajvCompiler = () => ({
  Ajv: (requireHere('ajv') as typeof import('ajv')).Ajv,
  Ajv2020: (requireHere('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js')).Ajv2020,
  addFormats: (requireHere('ajv-formats') as { default: (ajv: Ajv) => void }).default,
  standaloneCode: (
    requireHere('ajv/dist/standalone/index.js') as { default: (ajv: Ajv, refs: Record<string, string>) => string }
  ).default,
});

/** An ajv instance of `setup`; `source` keeps the generated code so it can be written out. */
export function newAjv(setup: AjvSetup, source = false): Ajv {
  const { Ajv, Ajv2020, addFormats } = ajvCompiler();
  const options: Options = source ? { ...setup.options, code: { ...setup.options.code, source: true } } : setup.options;
  const ajv = setup.dialect === '2020-12' ? new Ajv2020(options) : new Ajv(options);
  if (setup.formats) addFormats(ajv);
  for (const kw of setup.keywords ?? []) ajv.addKeyword(kw);
  return ajv;
}

/** A schema's identity by content: equal schemas share one validator. */
export function schemaHash(schema: object | boolean): string | undefined {
  let text: string;
  try {
    text = JSON.stringify(schema);
  } catch {
    return undefined; /* circular: compiled on its own */
  }
  return createHash('sha256').update(text).digest('hex').slice(0, 32);
}

function loadModule(code: string): Record<string, ValidateFunction> {
  const module = { exports: {} as Record<string, ValidateFunction> };
  // The cache holds code this module generated (see the file's key); a truncated file throws here.
  new Function('require', 'module', 'exports', code)(requireHere, module, module.exports);
  return module.exports;
}

function generate(setup: AjvSetup, schemas: Map<string, object | boolean>): string {
  const ajv = newAjv(setup, true);
  const refs: Record<string, string> = {};
  for (const [hash, schema] of schemas) {
    try {
      ajv.addSchema(schema, hash);
      ajv.getSchema(hash); // compiles; a schema that does not compile is left to fail where it is used
      refs[hash] = hash;
    } catch {
      ajv.removeSchema(hash);
    }
  }
  return ajvCompiler().standaloneCode(ajv, refs);
}

/**
 * Validators of the schemas `collect` returns (keyed by `schemaHash`), from the cache, or compiled
 * now and stored. `key` names what the schemas were made from (a hash of their source files).
 * Undefined when the cache is off: the caller compiles what it uses, when it uses it.
 */
export function cachedValidators(
  name: string,
  setup: AjvSetup,
  key: string,
  collect: () => Iterable<object | boolean>,
): Record<string, ValidateFunction> | undefined {
  if (!cacheEnabled()) return undefined;
  const fullKey = cacheKey(
    key,
    JSON.stringify(setup),
    `ajv@${packageVersion('ajv')}`,
    `ajv-formats@${packageVersion('ajv-formats')}`,
    sourceHash(import.meta.url),
  );
  return cachedText(
    `${name}-validators`,
    fullKey,
    'cjs',
    () => {
      const unique = new Map<string, object | boolean>();
      for (const schema of collect()) {
        const hash = schemaHash(schema);
        if (hash) unique.set(hash, schema);
      }
      return generate(setup, unique);
    },
    loadModule,
  );
}

/**
 * Validators by schema: from the cached code when the schema is in it, otherwise compiled once
 * per distinct schema (by content) and kept for the process.
 */
export class Validators {
  private ajv: Ajv | undefined;
  private readonly byObject = new WeakMap<object, ValidateFunction>();
  private readonly byHash = new Map<string, ValidateFunction>();

  constructor(
    private readonly setup: AjvSetup,
    private readonly precompiled: Record<string, ValidateFunction> = {},
  ) {}

  /** A JSON Schema may also be `true` or `false` (accept or refuse everything). */
  get(schema: object | boolean): ValidateFunction {
    const known = typeof schema === 'object' ? this.byObject.get(schema) : undefined;
    if (known) return known;
    const hash = schemaHash(schema);
    let validate = hash === undefined ? undefined : (this.byHash.get(hash) ?? this.precompiled[hash]);
    if (!validate) {
      this.ajv ??= newAjv(this.setup);
      validate = this.ajv.compile(schema);
    }
    if (hash !== undefined) this.byHash.set(hash, validate);
    if (typeof schema === 'object') this.byObject.set(schema, validate);
    return validate;
  }
}

/** One validator for one schema (a config or file format), cached like the spec's. */
export function cachedValidator(name: string, setup: AjvSetup, schema: object): ValidateFunction {
  const hash = schemaHash(schema);
  const precompiled = hash === undefined ? undefined : cachedValidators(name, setup, hash, () => [schema]);
  return new Validators(setup, precompiled).get(schema);
}
