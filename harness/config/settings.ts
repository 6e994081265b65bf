/**
 * Everything that follows from the one declaration of each setting (schema.ts): the flat list of
 * settings (`svc.addr`, `capabilities.clock`, ...), the defaults, what the environment and the
 * flags of `run` set, and a setting's name as messages give it (`svc.token (SVC_TOKEN)`). Nothing
 * here names a setting.
 */
import { PER_RUN } from '../../contract/setting.js';
import { ConfigError } from './error.js';
import { configSchema } from './schema.js';

export interface SchemaNode {
  type?: string;
  description?: string;
  'x-env'?: string;
  'x-cli'?: string;
  'x-env-only-with'?: string;
  readOnly?: boolean;
  default?: unknown;
  enum?: readonly unknown[];
  anyOf?: readonly SchemaNode[];
  const?: unknown;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  items?: SchemaNode;
  required?: readonly string[];
  properties?: Readonly<Record<string, SchemaNode>>;
  additionalProperties?: boolean | SchemaNode;
  [PER_RUN]?: (defaultsSoFar: Record<string, unknown>) => unknown;
}

export interface Setting {
  /** Dotted path: `svc.addr`. A section (an object of settings) has children listed after it. */
  path: string;
  depth: number;
  schema: SchemaNode;
  /** True for an object whose properties are listed as settings of their own. */
  section: boolean;
  /** The sections it lies in, outermost first. */
  parents: SchemaNode[];
}

type Json = Record<string, unknown>;

const ROOT = configSchema as unknown as SchemaNode;

/** Every property of the schema, depth first, in the schema's order. */
export function settings(schema: SchemaNode = ROOT): Setting[] {
  const out: Setting[] = [];
  const walk = (node: SchemaNode, prefix: string, parents: SchemaNode[]) => {
    for (const [name, child] of Object.entries(node.properties ?? {})) {
      const path = prefix ? `${prefix}.${name}` : name;
      const section = !!child.properties && !!Object.keys(child.properties).length;
      out.push({ path, depth: parents.length, schema: child, section, parents });
      if (section) walk(child, path, [...parents, child]);
    }
  };
  walk(schema, '', []);
  return out;
}

let cached: Setting[] | undefined;
const all = () => (cached ??= settings());

function find(path: string): Setting {
  const found = all().find((s) => s.path === path);
  if (!found) throw new Error(`no setting ${path} in harness/config/schema.ts`);
  return found;
}

/** Setting path to its environment variable (`svc.addr` -> `SVC_ADDR`). */
export function envNames(): Record<string, string> {
  return Object.fromEntries(all().flatMap((s) => (s.schema['x-env'] ? [[s.path, s.schema['x-env']]] : [])));
}

/** The environment variable of a setting (throws for a setting without one). */
export function envOf(path: string): string {
  const env = find(path).schema['x-env'];
  if (!env) throw new Error(`setting ${path} has no environment variable`);
  return env;
}

/** The long flag of a setting (`--report-dir`), if it has one. */
export function flagOf(path: string): string | undefined {
  return find(path).schema['x-cli']?.split(' ')[0];
}

/** A setting as messages name it: its path, and its variable and flag where it has them (`svc.token (SVC_TOKEN)`). */
export function settingName(path: string): string {
  const s = find(path).schema;
  const also = [s['x-env'], s['x-cli']?.split(' ')[0]].filter(Boolean);
  return also.length ? `${path} (${also.join(', ')})` : path;
}

/** Whether a setting's value is chosen afresh for each run. */
export const chosenPerRun = (s: SchemaNode) => typeof s[PER_RUN] === 'function';

/** The defaults: every always-present setting at its default, per-run values chosen now. */
export function defaultValues(): Json {
  const root: Json = {};
  const fill = (node: SchemaNode, into: Json) => {
    const required = new Set(node.required ?? []);
    for (const [name, child] of Object.entries(node.properties ?? {})) {
      if (!required.has(name)) continue;
      const perRun = child[PER_RUN];
      if (perRun) into[name] = perRun(root);
      else if (child.default !== undefined) into[name] = structuredClone(child.default);
      else if (child.properties) fill(child, (into[name] = {}) as Json);
    }
  };
  fill(ROOT, root);
  return root;
}

function setAt(out: Json, path: string, value: unknown): void {
  const keys = path.split('.');
  let cur = out;
  for (const k of keys.slice(0, -1)) cur = (cur[k] ??= {}) as Json;
  cur[keys[keys.length - 1]!] = value;
}

const listOf = (v: string) =>
  v
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

/** A number where the text is one; else the text, which the validation then names. */
const numberOr = (v: string) => (/^\s*-?\d+(\.\d+)?\s*$/.test(v) ? Number(v) : v);

/** A value from the environment, as the setting's type reads it. */
function fromText(setting: Setting, name: string, value: string): unknown {
  switch (setting.schema.type) {
    case 'boolean':
      if (/^(1|true|yes)$/i.test(value)) return true;
      if (/^(0|false|no)$/i.test(value)) return false;
      throw new ConfigError(`${setting.path} (${name})`, `must be true or false, got "${value}"`);
    case 'array':
      return listOf(value);
    case 'integer':
    case 'number':
      return numberOr(value);
    case 'object':
      try {
        return JSON.parse(value) as unknown;
      } catch {
        throw new ConfigError(`${setting.path} (${name})`, 'must be a JSON object');
      }
    default:
      return value;
  }
}

/**
 * What the environment sets: the variable of each setting, read as its type says (lists
 * comma-separated, objects as JSON). An empty variable sets nothing. A section whose settings are
 * read only with one of them (`ldap`: LDAP_URL) is read only when that one is set.
 */
export function fromEnv(env: Record<string, string | undefined>): Json {
  const out: Json = {};
  for (const s of all()) {
    const name = s.schema['x-env'];
    const value = name ? env[name] : undefined;
    if (value === undefined || value === '') continue;
    const gated = s.parents.find((p) => p['x-env-only-with']);
    const gate = gated?.properties?.[gated['x-env-only-with']!]?.['x-env'];
    if (gate && !env[gate]) continue;
    setAt(out, s.path, fromText(s, name!, value));
  }
  return out;
}

/** A flag of `run` that sets a setting, as the command line declares it. */
export interface SettingFlag {
  path: string;
  /** `--report-dir <dir>`. */
  flag: string;
  /** commander's name for its value (`reportDir`). */
  attribute: string;
  description: string;
  /** Reads the flag's argument (none for a flag without one). */
  parse?: (value: string) => unknown;
}

const attributeOf = (flag: string) =>
  flag
    .split(' ')[0]!
    .replace(/^--/, '')
    .replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());

/** The flags of `run` that set settings, in the schema's order. */
export function settingFlags(): SettingFlag[] {
  return all().flatMap((s) => {
    const flag = s.schema['x-cli'];
    if (!flag) return [];
    const env = s.schema['x-env'];
    const description = `${s.schema.description ?? ''} (${[s.path, env].filter(Boolean).join(', ')})`;
    const parse =
      s.schema.type === 'array'
        ? listOf
        : s.schema.type === 'integer' || s.schema.type === 'number'
          ? numberOr
          : undefined;
    return [{ path: s.path, flag, attribute: attributeOf(flag), description, ...(parse ? { parse } : {}) }];
  });
}

/** What the command line gave: commander's values, keyed by each flag's attribute (`reportDir`). */
export type FlagValues = Record<string, unknown>;

/** What the flags of `run` set. A key that is no flag's is a mistake of the caller. */
export function fromFlags(values: FlagValues): Json {
  const flags = new Map(settingFlags().map((f) => [f.attribute, f]));
  const out: Json = {};
  for (const [key, value] of Object.entries(values)) {
    const flag = flags.get(key);
    if (!flag) throw new Error(`no flag of run sets "${key}" (known: ${[...flags.keys()].join(', ')})`);
    if (value === undefined || value === false) continue;
    setAt(out, flag.path, value);
  }
  return out;
}
