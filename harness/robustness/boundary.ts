/** Boundary cases: requests inside the schema (or inside what the documents let a service tolerate). */
import fc from 'fast-check';
import { asSchema, numberBound, objectShape, sample, typesOf, type Schema } from './schema.js';
import { bodyCase, INHERITED_NAMES, setAt } from './edits.js';
import type { Mutation, OperationPlan } from './plan.js';

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
