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
 * A model's rules with the replacements of the switches that are on applied, in table order: the
 * one place a behavioural switch takes effect.
 */
export function rulesWith<R>(
  documented: R,
  on: SwitchedOn,
  table: readonly { name: string; replace?(documented: R): Partial<R> }[],
): R {
  let out = documented;
  for (const s of activeIn(on, table)) if (s.replace) out = { ...out, ...s.replace(out) };
  return out;
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
  return (answer) => rewriting.reduce((w, s) => s.rewrite!(w), answer);
}
