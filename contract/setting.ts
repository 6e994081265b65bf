/**
 * How a setting of the harness is declared: once, as a JSON schema property (TypeBox) that also
 * carries its description, its environment variable, its command-line flag and its default. The
 * TypeScript type (`Static`), the validation (ajv), the environment and flag readers, the
 * defaults and docs/CONFIGURATION.md all follow from that one declaration
 * (harness/config/settings.ts). Here because the cloud section is declared in contract/cloud.ts,
 * whose type the reference shares.
 */
import { type Static, type TObject, type TOptional, type TProperties, type TSchema, Type } from '@sinclair/typebox';

export type { Static } from '@sinclair/typebox';

/** The key under which a setting keeps how a run chooses its value (no JSON: ajv and the docs never see it). */
export const PER_RUN: unique symbol = Symbol('per-run default');
/** Marks a declared setting or section (not a part of a setting's value), for the walkers and the test of one declaration. */
export const DECLARED: unique symbol = Symbol('declared setting');

/** What else sets a setting, besides a config file. */
export interface SettingFacts<V> {
  /** The environment variable that sets it (`SVC_ADDR`). */
  env?: string;
  /** The flag of `run` that sets it, with its argument as the help shows it (`--report-dir <dir>`). */
  flag?: string;
  /** Its value when nothing sets it. */
  default?: V;
  /**
   * For a setting of an optional section: the value its readers assume while it is unset (shown as
   * its default); the setting stays optional.
   */
  unsetMeans?: V;
  /** Chosen afresh for each run when nothing sets it, from the defaults chosen before it. */
  perRun?: (defaultsSoFar: Record<string, unknown>) => V;
  /** The harness fills it in (a config file need not set it). */
  harness?: true;
  /** Required whenever its section is given, though it has no default. */
  required?: true;
}

type Present<V> = SettingFacts<V> &
  ({ default: V } | { perRun: (d: Record<string, unknown>) => V } | { required: true });

function annotate<T extends TSchema>(description: string, type: T, facts: SettingFacts<unknown>): T {
  return {
    ...type,
    description,
    ...(facts.env ? { 'x-env': facts.env } : {}),
    ...(facts.flag ? { 'x-cli': facts.flag } : {}),
    ...(facts.default !== undefined ? { default: facts.default } : {}),
    ...(facts.unsetMeans !== undefined ? { default: facts.unsetMeans } : {}),
    ...(facts.harness ? { readOnly: true } : {}),
    ...(facts.perRun ? { [PER_RUN]: facts.perRun } : {}),
    [DECLARED]: true,
  };
}

/**
 * One setting: its description, its type, and what else sets it. With a default, a per-run value
 * or `required`, it is always present in the loaded config; without, it is optional.
 */
export function setting<T extends TSchema>(description: string, type: T, facts: Present<Static<T>>): T;
export function setting<T extends TSchema>(description: string, type: T, facts?: SettingFacts<Static<T>>): TOptional<T>;
export function setting<T extends TSchema>(description: string, type: T, facts: SettingFacts<Static<T>> = {}) {
  const out = annotate(description, type, facts as SettingFacts<unknown>);
  const present = facts.default !== undefined || facts.perRun !== undefined || facts.required;
  return present ? out : Type.Optional(out);
}

/**
 * A group of settings (`svc`, `run`): an object of exactly these properties. An optional section
 * (`ldap`, `cloud`) may be left out; its settings read from the environment only when the
 * variable of `envOnlyWith` is set.
 */
export function section<P extends TProperties>(description: string, properties: P): TObject<P>;
export function section<P extends TProperties>(
  description: string,
  properties: P,
  facts: { optional: true; envOnlyWith?: keyof P & string; harness?: true },
): TOptional<TObject<P>>;
export function section<P extends TProperties>(
  description: string,
  properties: P,
  facts: { optional?: true; envOnlyWith?: keyof P & string; harness?: true } = {},
) {
  const out = Type.Object(properties, {
    additionalProperties: false,
    description,
    ...(facts.envOnlyWith ? { 'x-env-only-with': facts.envOnlyWith } : {}),
    ...(facts.harness ? { readOnly: true } : {}),
    [DECLARED]: true,
  });
  return facts.optional ? Type.Optional(out) : out;
}

/** A part of a setting's value (a field of a listed object): a described schema, nothing else sets it. */
export const part = <T extends TSchema>(description: string, type: T): T => ({ ...type, description });

/** A map of names to values of `value` (`mounts`, `assumptions`). */
export const map = <V extends TSchema>(value: V) =>
  Type.Unsafe<Record<string, Static<V>>>({ type: 'object', additionalProperties: value });

/** One of these strings (JSON Schema `enum`: its error names the allowed values). */
export const oneOf = <const V extends readonly string[]>(values: V) =>
  Type.Unsafe<V[number]>({ type: 'string', enum: [...values] });
