/**
 * What the robustness generator does with one operation of the spec: which rules apply (the
 * catalogue is generated from this, see catalogue.ts), and the fast-check arbitraries of its
 * cases. Invalid cases (invalid.ts) break the request schema one property at a time; boundary
 * cases (boundary.ts) stay inside it (or inside what the documents let a service tolerate: no
 * Content-Type, odd query values, names that do not exist); edits.ts has what both build on.
 */
import fc from 'fast-check';
import type { OpenAPIV3_1 } from 'openapi-types';
import type { Operation } from '../spec/registry.js';
import { asSchema, numberBound, objectShape, SAMPLE_TEXT, sample, typesOf, type Schema } from './schema.js';

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

export interface Mutation {
  kind: CaseKind;
  target: string;
  arb: fc.Arbitrary<Case>;
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
