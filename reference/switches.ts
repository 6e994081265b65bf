/**
 * Switches of the reference, faults and legal variants alike, kept at the edge of the model:
 * - declared as data with typed names (`faultsOf`/`variantsOf`; the union of every declared name is
 *   `FaultName`/`VariantName` in switch-names.ts, so a misspelled name fails `npm run typecheck`);
 * - applied at one place each: a behavioural switch replaces one of a model's named rules
 *   (`withSwitches`), a wire-level one rewrites the response in the server's one response layer
 *   (`rewriteWith`). The model itself reads as the documents' rules.
 */
import type { FaultSpec, VariantSpec } from '../contract/switches.js';

export type { FaultSpec, VariantSpec } from '../contract/switches.js';

/** A declarer of an area's faults: `const f = faultsOf(['ldap']); f(name, breaks, description)`. */
export function faultsOf(suites: string[]) {
  return <const N extends string>(
    name: N,
    breaks: string,
    description: string,
    more: { suites?: string[]; referenceVersion?: string } = {},
  ): FaultSpec<N> => ({
    name,
    breaks,
    suites: more.suites ?? suites,
    description,
    ...(more.referenceVersion ? { referenceVersion: more.referenceVersion } : {}),
  });
}

/** A declarer of an area's variants: `const v = variantsOf(['kv']); v(name, allows, description)`. */
export function variantsOf(suites: string[]) {
  return <const N extends string>(
    name: N,
    allows: string,
    description: string,
    more: { suites?: string[]; assumptions?: string[] } = {},
  ): VariantSpec<N> => ({
    name,
    allows,
    suites: more.suites ?? suites,
    description,
    ...(more.assumptions?.length ? { assumptions: more.assumptions } : {}),
  });
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

/**
 * A model's rules with the active switches' replacements applied: the one place a behavioural
 * switch takes effect. `table` maps a switch name to the rules it replaces, given the documents'
 * rules (to wrap them); the model then calls `rules.x(...)` and never asks which switch is on.
 */
export function withSwitches<R extends object, N extends string>(
  rules: R,
  active: { has(name: N): boolean },
  table: { [K in N]?: (documented: R) => Partial<R> },
): R {
  let out: R = rules;
  for (const [name, replace] of Object.entries(table) as [N, ((documented: R) => Partial<R>) | undefined][]) {
    if (replace && active.has(name)) out = { ...out, ...replace(out) };
  }
  return out;
}

/**
 * The response rewriters of the active wire-level switches, composed: the server's one response
 * layer passes every response through it (envelope, status, content type, error body, headers).
 */
export function rewriteWith<W, N extends string>(
  active: { has(name: N): boolean },
  table: { [K in N]?: (response: W) => W },
): (response: W) => W {
  const on = (Object.entries(table) as [N, ((response: W) => W) | undefined][]).filter(
    ([name, rewrite]) => rewrite && active.has(name),
  );
  return (response) => on.reduce((w, [, rewrite]) => rewrite!(w), response);
}
