/**
 * What the robustness generator does with one operation of the spec: which rules apply (the
 * catalogue is generated from this, see catalogue.ts), and the fast-check arbitraries of its
 * cases. Invalid cases break the request schema one property at a time; boundary cases stay
 * inside it (or inside what the documents let a service tolerate: no Content-Type, odd query
 * values, names that do not exist).
 */
import fc from 'fast-check';
import type { OpenAPIV3_1 } from 'openapi-types';
import type { Operation } from '../spec/registry.js';
import { admitsAll, asSchema, numberBound, objectShape, SAMPLE_TEXT, sample, typesOf, type Schema } from './schema.js';

export type Rule = 'invalid-4xx' | 'boundary-no-5xx' | 'unchanged';
export const RULES: Rule[] = ['invalid-4xx', 'boundary-no-5xx', 'unchanged'];

export type CaseKind =
  | 'missing-required'
  | 'wrong-type'
  | 'out-of-range'
  | 'bad-enum'
  | 'inherited-name'
  | 'oversized'
  | 'too-short'
  | 'malformed-json'
  | 'base'
  | 'in-range'
  | 'content-type'
  | 'query-value'
  | 'unknown-name';

/** One generated request, relative to the operation's base request. */
export interface Case {
  kind: CaseKind;
  /** JSON pointer of the property (or `?name` of a query parameter) the case changes. */
  target: string;
  body?: unknown;
  /** Sent as is instead of `body` (malformed JSON). */
  raw?: string;
  /** Content-Type to send; `null` sends none. Default application/json with a body. */
  contentType?: string | null;
  query: Record<string, string>;
  /** Path parameters replaced by names that do not exist. */
  unknownName?: boolean;
}

export interface Observer {
  operationId: string;
  /** JSON pointers left out of the comparison (values that move on their own, like a clock's now). */
  ignore: string[];
  /**
   * For a read that lists every resource of its kind (sys/mounts, sys/auth): the keys of the
   * entries the write concerns, as templates over its path parameters and body properties
   * (`{path}/`). Only those entries are compared: what other clients create meanwhile is not the
   * refused write's doing.
   */
  entries?: string[];
}

/** An operation as the generator sees it. */
export interface OperationPlan {
  op: Operation;
  operationId: string;
  /** The request body is JSON (malformed JSON and schema breaks apply). */
  jsonBody?: Schema;
  /** A body of another media type (raw payloads): sent, never broken. */
  rawBody: boolean;
  query: OpenAPIV3_1.ParameterObject[];
  pathParams: string[];
  observer?: Observer;
  rules: Rule[];
}

const PARAM_SKIP = new Set(['namespace']);

export function planOperation(op: Operation): OperationPlan {
  const operationId = op.operationId ?? `${op.method}${op.template}`;
  const body = op.op.requestBody as OpenAPIV3_1.RequestBodyObject | undefined;
  const content = body?.content ?? {};
  const jsonKey = Object.keys(content).find((k) => /json/i.test(k));
  const jsonBody = jsonKey ? ((content[jsonKey]!.schema as Schema | undefined) ?? {}) : undefined;
  const params = [...((op.op.parameters ?? []) as OpenAPIV3_1.ParameterObject[])];
  const query = params.filter((p) => p.in === 'query' && !PARAM_SKIP.has(p.name));
  const pathParams = [...op.template.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
  const raw = (op.op as unknown as Record<string, unknown>)['x-observed-by'];
  const observer: Observer | undefined =
    typeof raw === 'string'
      ? { operationId: raw, ignore: [] }
      : raw && typeof raw === 'object'
        ? {
            operationId: String((raw as Observer).operationId),
            ignore: (raw as Observer).ignore ?? [],
            ...((raw as Observer).entries ? { entries: (raw as Observer).entries } : {}),
          }
        : undefined;
  const rules: Rule[] = ['boundary-no-5xx'];
  if (jsonBody) rules.unshift('invalid-4xx');
  if (jsonBody && observer) rules.push('unchanged');
  return {
    op,
    operationId,
    jsonBody,
    rawBody: !jsonKey && Object.keys(content).length > 0,
    query,
    pathParams,
    observer,
    rules,
  };
}

// ---------------------------------------------------------------------------------------------
// body edits

function setAt(body: unknown, path: string[], value: unknown): unknown {
  const root = structuredClone(body ?? {}) as Record<string, unknown>;
  let cur = root;
  for (const k of path.slice(0, -1)) {
    const next = cur[k];
    cur[k] = next && typeof next === 'object' && !Array.isArray(next) ? next : {};
    cur = cur[k] as Record<string, unknown>;
  }
  cur[path[path.length - 1]!] = value;
  return root;
}

function deleteAt(body: unknown, path: string[]): unknown {
  const root = structuredClone(body ?? {}) as Record<string, unknown>;
  let cur: Record<string, unknown> | undefined = root;
  for (const k of path.slice(0, -1)) cur = cur?.[k] as Record<string, unknown> | undefined;
  if (cur) delete cur[path[path.length - 1]!];
  return root;
}

function has(body: unknown, path: string[]): boolean {
  let cur = body;
  for (const k of path) {
    if (!cur || typeof cur !== 'object' || !(k in (cur as object))) return false;
    cur = (cur as Record<string, unknown>)[k];
  }
  return true;
}

const pointer = (path: string[]) => `/${path.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/')}`;

// ---------------------------------------------------------------------------------------------
// invalid cases

/** A value of a JSON type the schema does not admit, and that no lenient parser turns into one. */
function wrongValue(types: ReturnType<typeof typesOf>): fc.Arbitrary<unknown> | undefined {
  if (admitsAll(types)) return undefined;
  // An object is never a string, number, boolean or list, however weakly a service decodes input.
  if (!types!.has('object'))
    return fc.dictionary(
      fc.constantFrom('robustness', 'x', 'nested'),
      fc.oneof(fc.integer(), fc.string({ maxLength: 8 })),
      { minKeys: 1, maxKeys: 3 },
    );
  if (!types!.has('number') && !types!.has('integer') && !types!.has('string') && !types!.has('boolean'))
    return fc.integer({ min: 0, max: 1_000_000 });
  return undefined;
}

export interface Mutation {
  kind: CaseKind;
  target: string;
  arb: fc.Arbitrary<Case>;
}

function bodyCase(
  kind: CaseKind,
  path: string[],
  body: fc.Arbitrary<unknown>,
  query: Record<string, string>,
): Mutation {
  const target = pointer(path);
  return { kind, target, arb: body.map((b) => ({ kind, target, body: b, query })) };
}

/**
 * Properties a service may rightly ignore, so breaking them proves nothing: one named like a path
 * parameter or marked `x-overridden-by-path` when the operation has path parameters (the URL's
 * value wins, as in the real products), and one the spec marks `x-only-on-create` (the
 * documents: "used only when the call creates the key").
 */
function ignorable(name: string, prop: Schema, path: string[], pathParams: string[]): boolean {
  if (prop['x-only-on-create'] === true) return true;
  return (
    path.length === 0 && pathParams.length > 0 && (pathParams.includes(name) || prop['x-overridden-by-path'] === true)
  );
}

function invalidAt(
  schema: Schema,
  base: unknown,
  path: string[],
  depth: number,
  query: Record<string, string>,
  out: Mutation[],
  pathParams: string[],
): void {
  const { properties, required } = objectShape(schema);
  for (const [name, prop] of Object.entries(properties)) {
    if (ignorable(name, prop, path, pathParams)) continue;
    const p = [...path, name];
    const types = typesOf(prop);
    if (required.includes(name) && has(base, p))
      out.push(bodyCase('missing-required', p, fc.constant(deleteAt(base, p)), query));
    const wrong = wrongValue(types);
    if (wrong)
      out.push(
        bodyCase(
          'wrong-type',
          p,
          wrong.map((v) => setAt(base, p, v)),
          query,
        ),
      );
    const numeric = types && (types.has('integer') || types.has('number')) && !types.has('string');
    if (numeric) {
      const min = numberBound(prop, 'min');
      const max = numberBound(prop, 'max');
      if (min !== undefined)
        out.push(
          bodyCase(
            'out-of-range',
            p,
            fc.integer({ min: 1, max: 1_000_000 }).map((d) => setAt(base, p, Math.ceil(min) - d)),
            query,
          ),
        );
      if (max !== undefined)
        out.push(
          bodyCase(
            'out-of-range',
            p,
            fc.integer({ min: 1, max: 1_000_000 }).map((d) => setAt(base, p, Math.floor(max) + d)),
            query,
          ),
        );
    }
    const enumValues = Array.isArray(prop.enum) ? (prop.enum as unknown[]) : undefined;
    if (enumValues?.length && enumValues.every((e) => typeof e === 'string')) {
      const known = new Set(enumValues.map((e) => String(e).toLowerCase()));
      const inherited = INHERITED_NAMES.filter((n) => !known.has(n.toLowerCase()));
      if (inherited.length)
        out.push(
          bodyCase(
            'inherited-name',
            p,
            fc.constantFrom(...inherited).map((v) => setAt(base, p, v)),
            query,
          ),
        );
      out.push(
        bodyCase(
          'bad-enum',
          p,
          fc
            .stringMatching(/^[a-z][a-z0-9-]{0,11}$/)
            .map((s) => `not-${s}`)
            .filter((s) => !known.has(s))
            .map((v) => setAt(base, p, v)),
          query,
        ),
      );
    }
    if (types?.size === 1 && types.has('string')) {
      if (typeof prop.maxLength === 'number') {
        const max = prop.maxLength;
        out.push(
          bodyCase(
            'oversized',
            p,
            fc.integer({ min: 1, max: 4096 }).map((d) => setAt(base, p, 'x'.repeat(max + d))),
            query,
          ),
        );
      }
      if (typeof prop.minLength === 'number' && prop.minLength > 0)
        out.push(bodyCase('too-short', p, fc.constant(setAt(base, p, 'x'.repeat(prop.minLength - 1))), query));
    }
    if (depth < 2 && types?.size === 1 && types.has('object') && Object.keys(objectShape(prop).properties).length) {
      invalidAt(prop, base, p, depth + 1, query, out, pathParams);
    }
  }
}

/**
 * Names every JavaScript object inherits. An implementation that looks a name from the request up
 * in a plain object finds a function for them instead of nothing, and answers 500: where the name
 * is outside an enum it must be refused (invalid-4xx), where any string is allowed it must not
 * break the service (boundary-no-5xx). A kind of its own, so every operation sends one.
 */
export const INHERITED_NAMES = ['toString', 'constructor', '__proto__', 'hasOwnProperty', 'valueOf'];

/** Requests that break the schema one property at a time, plus malformed JSON. */
export function invalidMutations(plan: OperationPlan, base: unknown, query: Record<string, string>): Mutation[] {
  if (!plan.jsonBody) return [];
  const out: Mutation[] = [];
  const text = JSON.stringify(base ?? {});
  // Every strict prefix of a JSON object's text is malformed JSON.
  out.push({
    kind: 'malformed-json',
    target: '',
    arb: fc
      .oneof(
        fc.integer({ min: 1, max: Math.max(1, text.length - 1) }).map((n) => text.slice(0, n)),
        fc.constantFrom('{"', '{,}', '[}', 'not json', '{"a":1}}'),
      )
      .map((raw) => ({ kind: 'malformed-json' as const, target: '', raw, contentType: 'application/json', query })),
  });
  invalidAt(plan.jsonBody, base, [], 0, query, out, plan.pathParams);
  return out;
}

// ---------------------------------------------------------------------------------------------
// boundary cases

const INT32 = 2 ** 31 - 1;

/** Values the schema admits, biased to its edges. */
function validValue(prop: Schema): fc.Arbitrary<unknown> | undefined {
  const types = typesOf(prop);
  if (Array.isArray(prop.enum) && prop.enum.length) return fc.constantFrom(...(prop.enum as unknown[]));
  if (!types) return undefined;
  const options: fc.Arbitrary<unknown>[] = [];
  if (types.has('integer') || types.has('number')) {
    const min = numberBound(prop, 'min');
    const max = numberBound(prop, 'max');
    const lo = min !== undefined ? Math.ceil(min) : -INT32;
    const hi = max !== undefined ? Math.floor(max) : INT32;
    const edges = [
      min !== undefined ? lo : 0,
      max !== undefined ? hi : Number.MAX_SAFE_INTEGER,
      Math.max(lo, Math.min(hi, 1)),
    ];
    options.push(fc.constantFrom(...edges));
    if (hi - lo <= 2 * INT32) options.push(fc.integer({ min: Math.max(lo, -INT32), max: Math.min(hi, INT32) }));
  }
  if (types.has('boolean')) options.push(fc.boolean());
  if (types.has('string')) {
    const minL = typeof prop.minLength === 'number' ? prop.minLength : 0;
    const maxL = typeof prop.maxLength === 'number' ? prop.maxLength : 1024;
    options.push(
      fc.constantFrom('x'.repeat(minL), 'x'.repeat(maxL)),
      fc.string({
        minLength: minL,
        maxLength: Math.max(minL, Math.min(maxL, 32)),
        unit: fc.oneof(
          fc.string({ minLength: 1, maxLength: 1 }),
          fc.constantFrom('é', 'ß', '中', '😀', ' ', '/', '%', '.', '"'),
        ),
      }),
    );
  }
  if (types.has('array')) options.push(fc.array(fc.string({ maxLength: 16 }), { maxLength: 4 }));
  return options.length ? fc.oneof(...options) : undefined;
}

/** A free string property (no enum, format or pattern it would break) that admits `value`. */
function admitsString(prop: Schema, value: string): boolean {
  const types = typesOf(prop);
  if (types?.size !== 1 || !types.has('string')) return false;
  if (prop.enum !== undefined || prop.const !== undefined || prop.format !== undefined) return false;
  if (typeof prop.minLength === 'number' && value.length < prop.minLength) return false;
  if (typeof prop.maxLength === 'number' && value.length > prop.maxLength) return false;
  if (typeof prop.pattern === 'string') {
    try {
      if (!new RegExp(prop.pattern, 'u').test(value)) return false;
    } catch {
      return false;
    }
  }
  return true;
}

const ODD_QUERY = ['maybe', '-1', '', '99999999999999999999', 'robustness', '%ZZ', 'true,false'];

/**
 * Valid and tolerated requests: the base request, each top-level property at an edge of what the
 * schema admits, no or another Content-Type (the documents: the service "does not require it on
 * requests"), every query parameter with a documented and an unknown value (lenient parsing is
 * allowed), and path names that do not exist.
 */
export function boundaryMutations(
  plan: OperationPlan,
  base: unknown,
  query: Record<string, string>,
  opts: { properties: boolean },
): Mutation[] {
  const withBody = plan.jsonBody !== undefined || plan.rawBody;
  const out: Mutation[] = [
    {
      kind: 'base',
      target: '',
      arb: fc.constant({ kind: 'base', target: '', body: withBody ? base : undefined, query }),
    },
  ];
  if (plan.jsonBody) {
    out.push({
      kind: 'content-type',
      target: 'Content-Type',
      arb: fc
        .constantFrom<string | null>(null, 'text/plain')
        .map((ct) => ({ kind: 'content-type' as const, target: 'Content-Type', body: base, contentType: ct, query })),
    });
    if (opts.properties) {
      for (const [name, prop] of Object.entries(objectShape(plan.jsonBody).properties)) {
        const value = validValue(prop);
        if (value)
          out.push(
            bodyCase(
              'in-range',
              [name],
              value.map((v) => setAt(base, [name], v)),
              query,
            ),
          );
        const inherited = INHERITED_NAMES.filter((n) => admitsString(prop, n));
        if (inherited.length)
          out.push(
            bodyCase(
              'inherited-name',
              [name],
              fc.constantFrom(...inherited).map((v) => setAt(base, [name], v)),
              query,
            ),
          );
      }
    }
  }
  for (const q of plan.query) {
    const schema = asSchema(q.schema) ?? {};
    const documented = validValue(schema) ?? fc.constant(String(sample(schema)));
    const value = fc.oneof(documented.map(String), fc.constantFrom(...ODD_QUERY));
    out.push({
      kind: 'query-value',
      target: `?${q.name}`,
      arb: value.map((v) => ({
        kind: 'query-value' as const,
        target: `?${q.name}`,
        body: withBody ? base : undefined,
        query: { ...query, [q.name]: v },
      })),
    });
  }
  if (plan.pathParams.length)
    out.push({
      kind: 'unknown-name',
      target: plan.pathParams.join(','),
      arb: fc.constant({
        kind: 'unknown-name',
        target: plan.pathParams.join(','),
        body: withBody ? base : undefined,
        query,
        unknownName: true,
      }),
    });
  return out;
}

/** The base body the schema documents as valid (required properties only). */
export function baseBody(plan: OperationPlan): unknown {
  if (!plan.jsonBody) return plan.rawBody ? SAMPLE_TEXT : undefined;
  const b = sample(plan.jsonBody);
  return b && typeof b === 'object' && !Array.isArray(b) ? b : {};
}

/**
 * The base body with every optional top-level property set to a valid value other than its
 * default (a flipped boolean, the next integer, another enum value). The `unchanged` rule breaks
 * one property of this body: a service that applies the valid properties before it finds the bad
 * one has half-applied a refused write, and the read shows it.
 */
export function fullBody(plan: OperationPlan, base: unknown): unknown {
  if (!plan.jsonBody || !base || typeof base !== 'object' || Array.isArray(base)) return base;
  const out: Record<string, unknown> = { ...(base as Record<string, unknown>) };
  for (const [name, prop] of Object.entries(objectShape(plan.jsonBody).properties)) {
    if (name in out || plan.pathParams.includes(name) || prop['x-only-on-create'] === true) continue;
    const value = otherThanDefault(prop);
    if (value !== undefined) out[name] = value;
  }
  return out;
}

function otherThanDefault(prop: Schema): unknown {
  const types = typesOf(prop);
  if (Array.isArray(prop.enum))
    return (prop.enum as unknown[]).find((e) => e !== prop.default && typeof e === 'string');
  if (!types || types.size > 2) return undefined;
  if (types.has('boolean')) return prop.default !== true;
  if (types.has('integer') && !types.has('string')) {
    const min = numberBound(prop, 'min') ?? 0;
    const max = numberBound(prop, 'max') ?? Number.MAX_SAFE_INTEGER;
    const d = typeof prop.default === 'number' ? prop.default : min;
    const v = Math.ceil(d) + 1;
    return v <= max ? v : undefined;
  }
  return undefined;
}

/** Required query parameters with a documented value (the LIST operations' list=true). */
export function baseQuery(plan: OperationPlan): Record<string, string> {
  const out: Record<string, string> = {};
  for (const p of (plan.op.op.parameters ?? []) as OpenAPIV3_1.ParameterObject[]) {
    if (p.in === 'query' && p.required) out[p.name] = String(sample(asSchema(p.schema)));
  }
  return out;
}

/**
 * One arbitrary per kind of case (missing required, wrong type, ...), each choosing among that
 * kind's targets: the runner gives every kind its share of the budget, so even a small budget
 * sends every kind of break.
 */
export function casesOf(mutations: Mutation[]): { kind: CaseKind; arb: fc.Arbitrary<Case> }[] {
  const kinds = new Map<CaseKind, fc.Arbitrary<Case>[]>();
  for (const m of mutations) kinds.set(m.kind, [...(kinds.get(m.kind) ?? []), m.arb]);
  return [...kinds].map(([kind, arbs]) => ({ kind, arb: arbs.length === 1 ? arbs[0]! : fc.oneof(...arbs) }));
}
