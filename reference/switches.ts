/**
 * Switches of the reference, faults and legal variants alike, kept at the edge of the model. Each
 * area has one table, its `switches.ts` (split into the files of a `switches/` folder, or with a
 * `<part>-switches.ts` beside it, where one file would be too long), that declares every switch of
 * the area once, where it takes effect: what the catalogue says of it (name, the rule it `breaks`
 * or the passage that `allows` it, suites, description, the `statements` of the documents it
 * concerns) and its effect, one of
 * - `replace`: the named rules of the area's `rules.ts` it replaces, given the rules as the earlier
 *   switches of the table left them (to wrap them); the model calls `rules.x(...)` and never asks
 *   which switch is on;
 * - `rewrite`: for a wire-level switch, how it rewrites an answer in the area's one response layer.
 * Table order is the order of application. switch-registry.ts gathers the tables into the catalogue
 * the harness lists; the union of the declared names is `FaultName`/`VariantName` there, so
 * `Faults.has`/`Variants.has` take no misspelled name.
 */
import { isDeepStrictEqual } from 'node:util';
import type { FaultSpec, VariantSpec } from '../contract/switches.js';

export type { FaultSpec, VariantSpec } from '../contract/switches.js';

/**
 * A switch's effect: the rules `R` it replaces, or its rewrite of an answer `W` (a table of an area
 * without a response layer has no `W`; a table of wire-level switches only has no `R`).
 */
export type Effect<R, W> =
  | ([R] extends [never] ? never : { replace: (documented: R) => Partial<R>; rewrite?: never })
  | ([W] extends [never] ? never : { rewrite: (answer: W) => W; replace?: never });

/** What a table says of a fault besides its name; `suites` defaults to the area's. */
export type FaultDeclaration<R, W> = Omit<FaultSpec, 'name' | 'suites'> & { suites?: string[] } & Effect<R, W>;
/** What a table says of a variant besides its name; `suites` defaults to the area's. */
export type VariantDeclaration<R, W> = Omit<VariantSpec, 'name' | 'suites'> & { suites?: string[] } & Effect<R, W>;

/**
 * One declared switch: its catalogue entry and its effect (methods, so that the tables of an area's
 * parts, with and without a response layer, make one table).
 */
export interface Switch<K extends 'fault' | 'variant', N extends string, R, W> {
  kind: K;
  name: N;
  spec: K extends 'fault' ? FaultSpec<N> : VariantSpec<N>;
  replace?(documented: R): Partial<R>;
  rewrite?(answer: W): W;
}

/** A catalogue entry leaves out what a switch does not say (no empty referenceVersion, assumptions...). */
const said = (value: unknown) => value !== undefined && value !== '' && !(Array.isArray(value) && value.length === 0);

/**
 * The declarers of an area whose rules are `R` (and whose answers, for an area with wire-level
 * switches, are `W`): `const { fault, variant } = switchesOf<KvRules>(['kv'])`.
 */
export function switchesOf<R, W = never>(suites: string[]) {
  const declarer =
    <K extends 'fault' | 'variant'>(kind: K) =>
    <const N extends string>(
      name: N,
      declaration: K extends 'fault' ? FaultDeclaration<R, W> : VariantDeclaration<R, W>,
    ): Switch<K, N, R, W> => {
      const { replace, rewrite, ...entry } = declaration as Partial<Switch<K, N, R, W>> & { suites?: string[] };
      const spec = Object.fromEntries(
        Object.entries({ name, ...entry, suites: entry.suites ?? suites }).filter(([, value]) => said(value)),
      );
      return {
        kind,
        name,
        spec: spec as unknown as Switch<K, N, R, W>['spec'],
        ...(replace ? { replace } : {}),
        ...(rewrite ? { rewrite } : {}),
      };
    };
  return { fault: declarer('fault'), variant: declarer('variant') };
}

/** The switches on for one reference. `has` takes only declared names. */
export class Switches<N extends string = string> {
  private readonly active: ReadonlySet<string>;
  constructor(names: Iterable<string> = []) {
    this.active = new Set(names);
  }
  has(name: N): boolean {
    return this.active.has(name);
  }
  list(): string[] {
    return [...this.active];
  }
  static names(value: string | undefined): string[] {
    return (value ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
  }
}

/** The faults and variants on for one reference, as a table's effects are chosen by them. */
export interface SwitchedOn {
  faults: { list(): string[] };
  variants: { list(): string[] };
}

function activeIn<S extends { name: string }>(on: SwitchedOn, table: readonly S[]): S[] {
  const names = new Set([...on.faults.list(), ...on.variants.list()]);
  return table.filter((s) => names.has(s.name));
}

/**
 * Which switches a run reaches, for the mutation run's impact analysis (harness/cli/mutation-reach.ts;
 * reference/start.ts sets it from `ReferenceOptions.trace`). With a tracer set, the tables built
 * afterwards report, for each switch that is off, the moments it would have changed something:
 * a call (or a read) of a rule it replaces, and an answer its rewrite would have written
 * differently. A switch never reported in a test's requests cannot change that test's outcome: the
 * model runs the same code up to the first call of a replaced rule or the first rewritten answer.
 */
export interface SwitchTracer {
  reached(name: string): void;
}

let tracer: SwitchTracer | undefined;

/** Sets (or clears) the tracer of the tables built from now on in this thread. */
export function traceSwitches(next: SwitchTracer | undefined): void {
  tracer = next;
}

type Replacing<R> = { name: string; replace?(documented: R): Partial<R> };

/** The rule names each switch of `table` replaces, given the documented rules. */
const replacedKeys = new WeakMap<object, string[] | undefined>();
function keysReplaced<R>(s: Replacing<R>, documented: R): string[] | undefined {
  if (!replacedKeys.has(s)) {
    let keys: string[] | undefined;
    try {
      keys = Object.keys(s.replace!(documented) ?? {});
    } catch {
      // A replacement that cannot even be built from the documented rules is reached everywhere.
      keys = undefined;
    }
    replacedKeys.set(s, keys);
  }
  return replacedKeys.get(s);
}

/** `rules` reporting to `t` every call (or read) of a rule that a switch that is off replaces. */
function tracedRules<R>(rules: R, documented: R, table: readonly Replacing<R>[], on: Set<string>, t: SwitchTracer): R {
  const byRule = new Map<string, string[]>();
  for (const s of table) {
    if (!s.replace || on.has(s.name)) continue;
    const keys = keysReplaced(s, documented);
    if (!keys) {
      t.reached(s.name);
      continue;
    }
    for (const key of keys) byRule.set(key, [...(byRule.get(key) ?? []), s.name]);
  }
  if (!byRule.size || rules === null || typeof rules !== 'object') return rules;
  const wrapped = new Map<string, unknown>();
  return new Proxy(rules as object, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver);
      const names = typeof key === 'string' ? byRule.get(key) : undefined;
      if (!names) return value;
      // A rule function is reached when called (models keep references to rules made at start);
      // any other value when read.
      if (typeof value !== 'function') {
        for (const name of names) t.reached(name);
        return value;
      }
      let fn = wrapped.get(key as string);
      if (!fn) {
        fn = function (this: unknown, ...args: unknown[]) {
          for (const name of names) t.reached(name);
          return (value as (...a: unknown[]) => unknown).apply(this, args);
        };
        wrapped.set(key as string, fn);
      }
      return fn;
    },
  }) as R;
}

/**
 * A model's rules with the replacements of the switches that are on applied, in table order: the
 * one place a behavioural switch takes effect.
 */
export function rulesWith<R>(documented: R, on: SwitchedOn, table: readonly Replacing<R>[]): R {
  let out = documented;
  const active = activeIn(on, table);
  for (const s of active) if (s.replace) out = { ...out, ...s.replace(out) };
  return tracer ? tracedRules(out, documented, table, new Set(active.map((s) => s.name)), tracer) : out;
}

/**
 * The rewrites of the wire-level switches that are on, composed in table order: the area's one
 * response layer passes every answer through it (envelope, status, content type, error body, headers).
 */
export function rewritesWith<W>(
  on: SwitchedOn,
  table: readonly { name: string; rewrite?(answer: W): W }[],
): (answer: W) => W {
  const rewriting = activeIn(on, table).filter((s) => s.rewrite);
  const composed = (answer: W) => rewriting.reduce((w, s) => s.rewrite!(w), answer);
  const t = tracer;
  if (!t) return composed;
  // Traced: each rewrite that is off is tried on the answer as written, and reported where it
  // would have written it differently (rewrites are pure: they return a new answer or the same).
  const active = new Set(rewriting.map((s) => s.name));
  const shadows = table.filter((s) => s.rewrite && !active.has(s.name));
  return (answer) => {
    const out = composed(answer);
    for (const s of shadows) {
      let other: W;
      try {
        other = s.rewrite!(out);
      } catch {
        t.reached(s.name);
        continue;
      }
      if (other !== out && !isDeepStrictEqual(other, out)) t.reached(s.name);
    }
    return out;
  };
}
