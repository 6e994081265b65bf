/**
 * Invalid cases: the request body broken one property at a time (a required property left out, a
 * value of another JSON type, a number or string outside its bounds or enum, a name every object
 * inherits where an enum is expected), plus malformed JSON.
 */
import fc from 'fast-check';
import { admitsAll, numberBound, objectShape, typesOf, type Schema } from './schema.js';
import { bodyCase, deleteAt, has, INHERITED_NAMES, setAt } from './edits.js';
import type { Mutation, OperationPlan } from './plan.js';

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
