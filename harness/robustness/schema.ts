/**
 * Request-schema reading for the robustness generator: a valid sample of a (dereferenced) JSON
 * schema, the JSON types a schema admits, and the constraints one property carries. Only the
 * subset the documents' OpenAPI files use: type (or a list), enum/const, minimum/maximum (and the
 * exclusive forms), minLength/maxLength, properties/required, items, allOf/oneOf/anyOf.
 */
export type Schema = Record<string, unknown>;

export type JsonType = 'string' | 'integer' | 'number' | 'boolean' | 'object' | 'array' | 'null';

const ALL: JsonType[] = ['string', 'integer', 'number', 'boolean', 'object', 'array', 'null'];

function asSchema(v: unknown): Schema | undefined {
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Schema) : undefined;
}

function branches(s: Schema): Schema[] {
  return [...((s.oneOf as Schema[] | undefined) ?? []), ...((s.anyOf as Schema[] | undefined) ?? [])].filter(Boolean);
}

/** The JSON types a schema admits; undefined when it admits anything (no type information). */
export function typesOf(s: Schema | undefined): Set<JsonType> | undefined {
  if (!s) return undefined;
  if (Array.isArray(s.enum)) return new Set((s.enum as unknown[]).map(jsonType));
  if ('const' in s) return new Set([jsonType(s.const)]);
  let out: Set<JsonType> | undefined;
  if (typeof s.type === 'string') out = new Set([s.type as JsonType]);
  else if (Array.isArray(s.type)) out = new Set(s.type as JsonType[]);
  const alts = branches(s);
  if (alts.length) {
    const merged = new Set<JsonType>(out ?? []);
    for (const b of alts) {
      const t = typesOf(b);
      if (!t) return out; // one branch admits anything: only the outer type (if any) is known
      for (const x of t) merged.add(x);
    }
    out = merged;
  }
  if (!out && (s.properties || s.additionalProperties !== undefined)) out = new Set(['object']);
  if (out?.has('number')) out.add('integer');
  return out;
}

export function jsonType(v: unknown): JsonType {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v as JsonType;
}

/** Properties and required names of an object schema, allOf parts merged. */
export function objectShape(s: Schema | undefined): { properties: Record<string, Schema>; required: string[] } {
  const properties: Record<string, Schema> = {};
  const required: string[] = [];
  const visit = (x: Schema | undefined) => {
    if (!x) return;
    for (const [k, v] of Object.entries(asSchema(x.properties) ?? {})) properties[k] ??= v as Schema;
    if (Array.isArray(x.required)) required.push(...(x.required as string[]));
    for (const part of (x.allOf as Schema[] | undefined) ?? []) visit(part);
  };
  visit(s);
  return { properties, required: [...new Set(required)].filter((r) => r in properties || true) };
}

/**
 * The text of generated string values. Values of secret fields (bindpass, client_secret, ...) are
 * remembered and masked by the redactor wherever they appear, so this must be a value that never
 * stands in a requirement id, title or message (as the word "robustness" does).
 */
export const SAMPLE_TEXT = 'sample-7q2z';

/** A value the schema documents as valid: example, default, const, first enum, then by type. */
export function sample(s: Schema | undefined, depth = 0): unknown {
  if (!s) return SAMPLE_TEXT;
  if (s.example !== undefined) return s.example;
  if (Array.isArray(s.examples) && s.examples.length) return s.examples[0];
  if (s.default !== undefined) return s.default;
  if ('const' in s) return s.const;
  if (Array.isArray(s.enum) && s.enum.length) return s.enum[0];
  const alts = branches(s);
  const types = typesOf(s);
  const type =
    typeof s.type === 'string'
      ? s.type
      : Array.isArray(s.type)
        ? (s.type as string[]).find((t) => t !== 'null')
        : alts.length
          ? undefined
          : [...(types ?? [])][0];
  if (!type && alts.length) return sample(alts[0], depth);
  switch (type) {
    case 'integer':
    case 'number': {
      const min = numberBound(s, 'min');
      const max = numberBound(s, 'max');
      if (min !== undefined) return type === 'integer' ? Math.ceil(min) : min;
      if (max !== undefined) return Math.min(1, type === 'integer' ? Math.floor(max) : max);
      return 1;
    }
    case 'boolean':
      return false;
    case 'array': {
      const n = typeof s.minItems === 'number' ? s.minItems : 0;
      return Array.from({ length: n }, () => sample(asSchema(s.items), depth + 1));
    }
    case 'object':
    case undefined: {
      if (type === undefined && !s.properties && !s.allOf) return SAMPLE_TEXT;
      const { properties, required } = objectShape(s);
      const out: Record<string, unknown> = {};
      if (depth > 6) return out;
      for (const r of required) if (properties[r]) out[r] = sample(properties[r], depth + 1);
      return out;
    }
    default: {
      const min = typeof s.minLength === 'number' ? s.minLength : 0;
      return SAMPLE_TEXT.padEnd(min, 'x').slice(
        0,
        typeof s.maxLength === 'number' ? Math.max(min, s.maxLength) : undefined,
      );
    }
  }
}

/** The inclusive numeric bound of a schema (exclusive bounds turned inclusive for integers). */
export function numberBound(s: Schema, side: 'min' | 'max'): number | undefined {
  const incl = side === 'min' ? s.minimum : s.maximum;
  const excl = side === 'min' ? s.exclusiveMinimum : s.exclusiveMaximum;
  if (typeof excl === 'number')
    return side === 'min'
      ? excl + (s.type === 'integer' ? 1 : Number.EPSILON * Math.max(1, Math.abs(excl)))
      : excl - (s.type === 'integer' ? 1 : Number.EPSILON * Math.max(1, Math.abs(excl)));
  return typeof incl === 'number' ? incl : undefined;
}

/** Whether the schema admits every JSON type (nothing to break by type). */
export function admitsAll(types: Set<JsonType> | undefined): boolean {
  return !types || ALL.every((t) => t === 'null' || types.has(t));
}

export { asSchema };
