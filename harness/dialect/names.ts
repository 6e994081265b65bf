/**
 * The names part of the dialect: a target that was renamed from (or into) the documents speaks
 * other engine types, field names, enum values and environment variable names. The suites and the
 * spec keep the documents' names; this module translates at one place, the HTTP layer:
 * requests are renamed to the target's names before they are sent, responses are renamed back to
 * the documents' names before any check or spec match sees them.
 *
 * Renames are scoped so that a value that merely looks like a name is never touched: field names
 * are renamed only as object keys, values only under their own field, and both only inside the
 * engine they are declared for (keyed by the documents' default mount, `cloud`, `ldap`, ...), so a
 * kv secret that happens to hold a key `cloud_roles` passes unchanged.
 */

import type { NamesDialect, ScopeNames, SvcNames } from '../config/names-schema.js';

/** The shapes of `dialect.names` follow from its schema (harness/config/names-schema.ts). */
export type { NamesDialect, ScopeNames, SvcNames };

type Dir = 'out' | 'in';

interface CompiledScope {
  fields: Map<string, string>;
  /** Keyed by the field's name in the direction's source vocabulary. */
  values: Map<string, Map<string, string>>;
}

function compile(scope: ScopeNames | undefined, dir: Dir): CompiledScope {
  const fields = new Map<string, string>();
  const values = new Map<string, Map<string, string>>();
  for (const [doc, target] of Object.entries(scope?.fields ?? {})) {
    if (dir === 'out') fields.set(doc, target);
    else fields.set(target, doc);
  }
  for (const [docField, map] of Object.entries(scope?.values ?? {})) {
    const m = new Map<string, string>();
    for (const [doc, target] of Object.entries(map)) {
      if (dir === 'out') m.set(doc, target);
      else m.set(target, doc);
    }
    // Outgoing, values are found under the documents' field name (renamed after); incoming, the
    // field is renamed back first, so the documents' name finds the map in both directions.
    values.set(docField, m);
  }
  return { fields, values };
}

function merged(a: CompiledScope, b: CompiledScope): CompiledScope {
  return { fields: new Map([...a.fields, ...b.fields]), values: new Map([...a.values, ...b.values]) };
}

const EMPTY: CompiledScope = { fields: new Map(), values: new Map() };

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** What a translation changed, for the transcript (`cloud_roles→azure_roles`). */
export type Renamed = string[];

/**
 * Renames keys and scoped values of a JSON value; returns a new value (the input is not changed).
 * `docName` turns a key (in the direction's source vocabulary) into the documents' name, so the
 * value maps, which are keyed by the documents' field names, are found in both directions.
 */
function renameDeep(value: unknown, scope: CompiledScope, dir: Dir, renamed: Set<string>): unknown {
  if (Array.isArray(value)) return value.map((v) => renameDeep(v, scope, dir, renamed));
  if (!isPlainObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    const newKey = scope.fields.get(key) ?? key;
    if (newKey !== key) {
      if (Object.hasOwn(value, newKey)) {
        // Both names present: keep each as sent rather than let one overwrite the other.
        out[key] = renameDeep(v, scope, dir, renamed);
        continue;
      }
      renamed.add(`${key}→${newKey}`);
    }
    const docField = dir === 'out' ? key : newKey;
    const valueMap = scope.values.get(docField);
    out[newKey] = valueMap
      ? renameValue(v, valueMap, docField, renamed, scope, dir)
      : renameDeep(v, scope, dir, renamed);
  }
  return out;
}

function renameValue(
  v: unknown,
  map: Map<string, string>,
  field: string,
  renamed: Set<string>,
  scope: CompiledScope,
  dir: Dir,
): unknown {
  if (typeof v === 'string') {
    const to = map.get(v);
    if (to === undefined) return v;
    renamed.add(`${field}: ${v}→${to}`);
    return to;
  }
  if (Array.isArray(v) && v.every((x) => typeof x === 'string'))
    return v.map((x) => renameValue(x, map, field, renamed, scope, dir));
  return renameDeep(v, scope, dir, renamed);
}

/** The parts of a request the translator may change. */
export interface Outgoing {
  body?: unknown;
  query?: Record<string, string | number | boolean | undefined>;
}

/**
 * Translates between the documents' names and a target's for one API. `scopeOf` gives the
 * documents' path of a request path (run-unique mounts and the namespace mapped back), from which
 * the engine is found. Built once per client; an empty names block gives the identity.
 */
export class NameTranslator {
  private readonly out: { global: CompiledScope; engines: Map<string, CompiledScope>; types: Map<string, string> };
  private readonly in: { global: CompiledScope; engines: Map<string, CompiledScope>; types: Map<string, string> };
  private readonly envOut: Map<string, string>;
  private readonly envIn: Map<string, string>;

  constructor(
    readonly api: 'svc' | 'sched',
    names: NamesDialect | undefined,
    private readonly scopeOf: (path: string) => string = (p) => p,
  ) {
    const build = (dir: Dir) => {
      if (api === 'sched')
        return {
          global: compile(names?.sched, dir),
          engines: new Map<string, CompiledScope>(),
          types: new Map<string, string>(),
        };
      const svc = names?.svc;
      const engines = new Map<string, CompiledScope>();
      for (const [mount, scope] of Object.entries(svc?.engines ?? {}))
        if (mount !== '*') engines.set(mount.replace(/^\/+|\/+$/g, ''), compile(scope, dir));
      const types = new Map<string, string>();
      for (const [doc, target] of Object.entries(svc?.mountTypes ?? {})) {
        if (dir === 'out') types.set(doc, target);
        else types.set(target, doc);
      }
      return { global: compile(svc?.engines?.['*'], dir), engines, types };
    };
    this.out = build('out');
    this.in = build('in');
    const env = (api === 'svc' ? names?.svc?.env : names?.sched?.env) ?? {};
    this.envOut = new Map(Object.entries(env));
    this.envIn = new Map(Object.entries(env).map(([d, t]) => [t, d]));
  }

  /** True when nothing is renamed (the documents' own names). */
  get identity(): boolean {
    const none = (s: { global: CompiledScope; engines: Map<string, CompiledScope>; types: Map<string, string> }) =>
      !s.global.fields.size &&
      !s.global.values.size &&
      !s.types.size &&
      [...s.engines.values()].every((e) => !e.fields.size && !e.values.size);
    return none(this.out);
  }

  /** The target's name of an engine type (`cloud` -> `azure`); unknown types pass unchanged. */
  mountType(docType: string): string {
    return this.out.types.get(docType) ?? docType;
  }

  /** The target's name of an environment variable the documents name. */
  envName(docName: string): string {
    return this.envOut.get(docName) ?? docName;
  }

  /** The documents' name of a target's environment variable (unknown names pass unchanged). */
  envDocName(targetName: string): string {
    return this.envIn.get(targetName) ?? targetName;
  }

  /** The target's value of a documents' enum value of `field` inside `engine` (`sign_in_audience`). */
  value(engine: string, field: string, docValue: string): string {
    const scope = merged(this.out.global, this.out.engines.get(engine) ?? EMPTY);
    return scope.values.get(field)?.get(docValue) ?? docValue;
  }

  /** The target's name of a documents' field inside `engine`. */
  field(engine: string, docField: string): string {
    const scope = merged(this.out.global, this.out.engines.get(engine) ?? EMPTY);
    return scope.fields.get(docField) ?? docField;
  }

  private scopeFor(side: typeof this.out, path: string): { scope: CompiledScope; mountTypes: boolean } {
    if (this.api === 'sched') return { scope: side.global, mountTypes: false };
    const p = this.scopeOf(path).replace(/^\/+/, '');
    const segs = p.split('/');
    const mountTypes = segs[0] === 'sys' && (segs[1] === 'mounts' || segs[1] === 'auth');
    const engine = segs[0] === 'auth' ? `auth/${segs[1] ?? ''}` : (segs[0] ?? '');
    const scoped = side.engines.get(engine);
    return { scope: scoped ? merged(side.global, scoped) : side.global, mountTypes };
  }

  /** A request in the documents' names -> the target's names. */
  request(path: string, req: Outgoing): Outgoing & { renamed: Renamed } {
    const { scope, mountTypes } = this.scopeFor(this.out, path);
    const renamed = new Set<string>();
    let body = req.body === undefined ? undefined : renameDeep(req.body, scope, 'out', renamed);
    if (mountTypes && this.out.types.size) body = renameTypes(body, this.out.types, renamed, 1);
    let query = req.query;
    if (query && scope.fields.size) {
      query = {};
      for (const [k, v] of Object.entries(req.query!)) {
        const nk = scope.fields.get(k) ?? k;
        if (nk !== k) renamed.add(`${k}→${nk}`);
        query[nk] = v;
      }
    }
    return { body, query, renamed: [...renamed] };
  }

  /** A response body in the target's names -> the documents' names. */
  response(path: string, body: unknown): { body: unknown; renamed: Renamed } {
    const { scope, mountTypes } = this.scopeFor(this.in, path);
    const renamed = new Set<string>();
    let out = renameDeep(body, scope, 'in', renamed);
    // sys/mounts lists mounts keyed by path, at the top level and under `data`.
    if (mountTypes && this.in.types.size) out = renameTypes(out, this.in.types, renamed, 3);
    // Every engine response names its engine's type in the envelope (`mount_type`).
    if (isPlainObject(out) && typeof out.mount_type === 'string' && this.in.types.has(out.mount_type)) {
      renamed.add(`mount_type: ${out.mount_type}→${this.in.types.get(out.mount_type)}`);
      out = { ...out, mount_type: this.in.types.get(out.mount_type) };
    }
    return { body: out, renamed: [...renamed] };
  }
}

/** Maps `type` values of mount descriptions, down to `depth` levels of nesting. */
function renameTypes(value: unknown, types: Map<string, string>, renamed: Set<string>, depth: number): unknown {
  if (!isPlainObject(value) || depth < 1) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    if (k === 'type' && typeof v === 'string' && types.has(v)) {
      renamed.add(`type: ${v}→${types.get(v)}`);
      out[k] = types.get(v);
    } else {
      out[k] = isPlainObject(v) ? renameTypes(v, types, renamed, depth - 1) : v;
    }
  }
  return out;
}
