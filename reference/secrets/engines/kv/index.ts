/**
 * Key-value engine, version 1 (`options.version` "1", the default when mounted by hand) and
 * version 2 (`options.version` "2"): versions, soft delete, undelete, destroy, metadata, config
 * with max_versions and cas_required, check-and-set.
 */
import type { FaultName } from '../../../switch-names.js';
import type { Engine, EngineContext, EngineFactory, EngineRequest, EngineResponse } from '../../engine.js';
import { badRequest, methodNotAllowed, notFound, unsupportedPath } from '../../errors.js';
import { parseDuration } from '../../duration.js';
import type { Faults } from '../../../faults.js';
import type { Variants } from '../../../variants.js';
import { rfc3339 } from '../../timestamps.js';

interface Version {
  data: Record<string, unknown> | null;
  createdAt: number;
  deletedAt: number | null;
  destroyed: boolean;
}

interface Secret {
  versions: Map<number, Version>;
  current: number;
  oldest: number;
  createdAt: number;
  updatedAt: number;
  maxVersions: number;
  casRequired: boolean;
  deleteVersionAfter: number;
  customMetadata: Record<string, string>;
}

/**
 * The formats and input readings where the documents leave a choice, as the enabled variants
 * (kv/variants.ts) pick them: one place, so the engine below stays the plainest reading.
 */
class KvDialect {
  constructor(private readonly variants: Variants) {}

  /** RFC 3339, or "" for no time. */
  iso(ms: number | null): string {
    return ms === null ? '' : rfc3339(ms, this.variants.has('kv.timestamps-nanoseconds'));
  }

  /** A duration read back: whole seconds ("3600s"), or the upstream format ("1h0m0s"). */
  duration(seconds: number): string {
    if (!this.variants.has('kv.durations-go-format')) return `${seconds}s`;
    if (seconds === 0) return '0s';
    const h = Math.floor(seconds / 3600);
    const m = Math.floor((seconds % 3600) / 60);
    const s = seconds % 60;
    return h ? `${h}h${m}m${s}s` : m ? `${m}m${s}s` : `${s}s`;
  }

  /** max_versions of a config or metadata write; a negative value means "not set" with the variant. */
  maxVersions(value: unknown): number {
    if (!Number.isInteger(value)) throw badRequest('max_versions must be a non-negative integer');
    if ((value as number) < 0) {
      if (this.variants.has('kv.negative-max-versions-accepted')) return 0;
      throw badRequest('max_versions must be a non-negative integer');
    }
    return value as number;
  }

  /** The `versions` of delete/undelete/destroy: integers, or (variant) numeric strings. */
  versions(value: unknown): unknown {
    if (!this.variants.has('kv.versions-lenient')) return value;
    const items = typeof value === 'string' ? value.split(',') : value;
    if (!Array.isArray(items)) return value;
    return items.map((n) => (typeof n === 'string' && /^\s*\d+\s*$/.test(n) ? Number(n) : n));
  }

  /** The 404 of a deleted or destroyed version: with its metadata, or the bare error body. */
  goneBody(meta: Record<string, unknown>): Record<string, unknown> {
    return this.variants.has('kv.deleted-read-bare-404')
      ? { errors: [] }
      : { errors: [], data: { data: null, metadata: meta } };
  }
}

/** Keys directly under `prefix` ("a/b/" for a/b/c), folders ending with "/". */
export function listUnder(paths: Iterable<string>, prefix: string, faults?: Faults): string[] {
  const out = new Set<string>();
  const all = [...paths];
  for (const p of all) {
    if (!p.startsWith(prefix)) continue;
    const rest = p.slice(prefix.length);
    if (!rest) continue;
    const slash = rest.indexOf('/');
    if (faults?.has('kv.list-deep-keys')) out.add(rest);
    else if (faults?.has('kv.list-no-folder-suffix')) out.add(slash === -1 ? rest : rest.slice(0, slash));
    else out.add(slash === -1 ? rest : rest.slice(0, slash + 1));
  }
  // A leaf is not a directory: listing it finds nothing unless the fault lists the leaf itself.
  if (faults?.has('kv.list-leaf-lists-itself') && prefix && all.includes(prefix.slice(0, -1)))
    out.add(prefix.slice(0, -1).split('/').pop()!);
  return [...out].sort();
}

function asObject(value: unknown, what: string): Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw badRequest(`${what} must be a JSON object`);
  return value as Record<string, unknown>;
}

class KvV1 implements Engine {
  private readonly store = new Map<string, Record<string, unknown>>();
  constructor(private readonly ctx: EngineContext) {}

  async exists(path: string): Promise<boolean> {
    return this.store.has(this.key(path));
  }

  /** Storage key of a path; the fault keeps only the last segment, losing the hierarchy. */
  private key(path: string): string {
    return this.ctx.faults.has('kv.v1-nested-key-flattened') ? path.split('/').pop()! : path;
  }

  async handle(req: EngineRequest): Promise<EngineResponse> {
    const path = req.path;
    switch (req.method) {
      case 'LIST':
        return { data: { keys: listUnder(this.store.keys(), path ? `${path}/` : '', this.ctx.faults) } };
      case 'GET': {
        if (!path) throw unsupportedPath();
        const value = this.store.get(this.key(path));
        if (!value) {
          if (this.ctx.faults.has('kv.v1-read-missing-200')) return { data: {} };
          throw notFound();
        }
        if (this.ctx.faults.has('kv.v1-read-wrapped')) return { data: { data: { ...value } } };
        if (this.ctx.faults.has('kv.v1-read-leased'))
          return { data: { ...value }, lease: { ttl: 3600, renewable: false, revoke: async () => {} } };
        return { data: { ...value } };
      }
      case 'POST':
      case 'PUT': {
        if (!path) throw unsupportedPath();
        if (Object.keys(req.body).length === 0 && !this.ctx.faults.has('kv.v1-accepts-empty-write'))
          throw badRequest('no data provided');
        let fields: Record<string, unknown> = { ...req.body };
        if (this.ctx.faults.has('kv.v1-values-stringified'))
          fields = Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, String(v)]));
        if (this.ctx.faults.has('kv.v1-write-merges')) fields = { ...this.store.get(this.key(path)), ...fields };
        this.store.set(this.key(path), fields);
        return {};
      }
      case 'DELETE':
        if (!this.ctx.faults.has('kv.v1-delete-ignored')) this.store.delete(this.key(path));
        return {};
    }
  }
}

class KvV2 implements Engine {
  private readonly secrets = new Map<string, Secret>();
  private readonly dialect: KvDialect;
  private maxVersions = 0;
  private casRequired = false;
  private deleteVersionAfter = 0;

  constructor(private readonly ctx: EngineContext) {
    this.dialect = new KvDialect(ctx.variants);
  }

  private iso(ms: number | null): string {
    return this.dialect.iso(ms);
  }

  private now(): number {
    return this.ctx.clock.now();
  }

  private has(name: FaultName): boolean {
    return this.ctx.faults.has(name);
  }

  async exists(path: string): Promise<boolean> {
    const [section, ...rest] = path.split('/');
    const key = rest.join('/');
    if (section === 'config') return true;
    if (section === 'data' || section === 'metadata') return this.secrets.has(key);
    return true;
  }

  async handle(req: EngineRequest): Promise<EngineResponse> {
    const [section, ...rest] = req.path.split('/');
    const key = rest.join('/');
    switch (section) {
      case 'config':
        if (this.has('kv.v2-config-path-missing')) throw unsupportedPath();
        return this.config(req);
      case 'data':
        if (this.has('kv.v2-data-path-missing')) throw unsupportedPath();
        return this.data(req, key);
      case 'metadata':
        return this.metadata(req, key);
      case 'subkeys':
        return this.subkeys(req, key);
      case 'delete':
        return this.versionOp(req, key, 'delete');
      case 'undelete':
        return this.versionOp(req, key, 'undelete');
      case 'destroy':
        return this.versionOp(req, key, 'destroy');
      default:
        // The real product answers non-data paths of a v2 mount with 404 and a warning.
        if (this.has('kv.v2-unwrapped-path-served')) return this.data(req, req.path);
        throw unsupportedPath();
    }
  }

  private effectiveMax(s: Secret): number {
    if (this.has('kv.v2-max-versions-ignored')) return Infinity;
    const m = s.maxVersions || this.maxVersions;
    return m > 0 ? m : 10;
  }

  /** Seconds until a new version is deleted: the smaller non-zero of the key's and the engine's setting. */
  private effectiveDeleteAfter(s: Secret): number {
    if (this.has('kv.v2-delete-version-after-ignored')) return 0;
    const values = [s.deleteVersionAfter, this.deleteVersionAfter].filter((n) => n > 0);
    return values.length ? Math.min(...values) : 0;
  }

  /** A version whose deletion time has passed (a future deletion time is only scheduled). */
  private isDeleted(v: Version): boolean {
    return v.deletedAt !== null && v.deletedAt <= this.now();
  }

  private versionMeta(v: Version, n: number, s: Secret): Record<string, unknown> {
    const custom =
      Object.keys(s.customMetadata).length && !this.has('kv.v2-custom-metadata-missing')
        ? { ...s.customMetadata }
        : null;
    return {
      created_time: this.iso(v.createdAt),
      custom_metadata: custom,
      deletion_time: this.iso(v.deletedAt),
      destroyed: v.destroyed,
      version: n,
    };
  }

  private newSecret(now: number): Secret {
    return {
      versions: new Map(),
      current: 0,
      oldest: 0,
      createdAt: now,
      updatedAt: now,
      maxVersions: 0,
      casRequired: false,
      deleteVersionAfter: 0,
      customMetadata: {},
    };
  }

  private config(req: EngineRequest): EngineResponse {
    if (req.method === 'GET') {
      return {
        data: {
          max_versions: this.maxVersions,
          cas_required: this.casRequired,
          delete_version_after: this.dialect.duration(this.deleteVersionAfter),
        },
      };
    }
    if (req.method !== 'POST' && req.method !== 'PUT') throw methodNotAllowed();
    const unchecked = this.has('kv.v2-config-types-unchecked');
    // Validate every field first, then store: a refused write changes nothing.
    const next = {
      maxVersions: this.maxVersions,
      casRequired: this.casRequired,
      deleteVersionAfter: this.deleteVersionAfter,
    };
    if (req.body.max_versions !== undefined) {
      next.maxVersions = unchecked
        ? Number(req.body.max_versions) || 0
        : this.dialect.maxVersions(req.body.max_versions);
    }
    if (req.body.cas_required !== undefined && !this.has('kv.v2-config-not-saved')) {
      if (!unchecked && typeof req.body.cas_required !== 'boolean') throw badRequest('cas_required must be a boolean');
      next.casRequired = req.body.cas_required === true;
    }
    if (req.body.delete_version_after !== undefined) {
      try {
        next.deleteVersionAfter = parseDuration(req.body.delete_version_after);
      } catch (e) {
        throw badRequest((e as Error).message);
      }
    }
    ({
      maxVersions: this.maxVersions,
      casRequired: this.casRequired,
      deleteVersionAfter: this.deleteVersionAfter,
    } = next);
    return {};
  }

  private data(req: EngineRequest, key: string): EngineResponse {
    if (req.method === 'LIST') throw methodNotAllowed();
    if (!key) throw unsupportedPath();
    if (req.method === 'GET') {
      const s = this.secrets.get(key);
      if (!s) {
        if (this.has('kv.v2-read-missing-200')) return { data: { data: {}, metadata: null } };
        throw notFound();
      }
      const wanted = this.has('kv.v2-version-param-ignored') ? null : req.query.get('version');
      const latest = this.has('kv.v2-read-oldest') ? s.oldest : s.current;
      const n = wanted && wanted !== '0' ? Number(wanted) : latest;
      if (!Number.isInteger(n) || n < 0) throw badRequest('version must be an integer');
      const v = s.versions.get(n);
      if (!v) throw notFound();
      const meta = this.versionMeta(v, n, s);
      // Deleted or destroyed versions answer 404; the body keeps the document's `errors` array and
      // adds the metadata the real product returns there.
      const gone = (this.isDeleted(v) && !this.has('kv.v2-deleted-still-readable')) || v.destroyed;
      if (gone) return { status: 404, rawBody: this.dialect.goneBody(meta) };
      return { data: { data: { ...v.data }, metadata: meta } };
    }
    if (req.method === 'DELETE') {
      const s = this.secrets.get(key);
      const v = s?.versions.get(s.current);
      if (v && !v.destroyed && !this.isDeleted(v) && !this.has('kv.v2-delete-latest-ignored')) v.deletedAt = this.now();
      return {};
    }
    const dataField = this.has('kv.v2-data-unwrapped') ? req.body : req.body.data;
    if (dataField === undefined && !this.has('kv.v2-data-optional')) throw badRequest('no data provided');
    const fields = dataField === undefined ? {} : asObject(dataField, 'data');
    const options = req.body.options === undefined ? {} : asObject(req.body.options, 'options');
    let s = this.secrets.get(key);
    const cas = options.cas;
    if (cas !== undefined && (!Number.isInteger(cas) || (cas as number) < 0))
      throw badRequest('cas must be a non-negative integer');
    const casNeeded = (this.casRequired || s?.casRequired) && !this.has('kv.v2-cas-required-ignored');
    if (casNeeded && cas === undefined) throw badRequest('check-and-set parameter required for this call');
    if (cas !== undefined && !this.has('kv.cas-ignored') && !(cas === 0 && this.has('kv.v2-cas-zero-overwrites'))) {
      const current = s ? s.current : 0;
      if (cas !== current) throw badRequest('check-and-set parameter did not match the current version');
    }
    const now = this.now();
    if (!s) {
      s = this.newSecret(now);
      this.secrets.set(key, s);
    }
    const next = this.has('kv.version-not-incremented') && s.current > 0 ? s.current : s.current + 1;
    const after = this.effectiveDeleteAfter(s);
    s.versions.set(next, {
      data: { ...fields },
      createdAt: now,
      deletedAt: after > 0 ? now + after * 1000 : null,
      destroyed: false,
    });
    s.current = next;
    s.updatedAt = now;
    if (!s.oldest) s.oldest = next;
    const max = this.effectiveMax(s);
    for (const n of [...s.versions.keys()].sort((a, b) => a - b)) {
      if (s.versions.size <= max) break;
      s.versions.delete(n);
    }
    s.oldest = Math.min(...s.versions.keys());
    if (this.has('kv.v2-write-metadata-missing')) return {};
    return { data: this.versionMeta(s.versions.get(next)!, next, s) };
  }

  private metadata(req: EngineRequest, key: string): EngineResponse {
    if (req.method === 'LIST') {
      if (this.has('kv.v2-metadata-list-empty')) return { data: { keys: [] } };
      const prefix = key ? `${key}/` : '';
      return { data: { keys: listUnder(this.secrets.keys(), prefix, this.ctx.faults) } };
    }
    if (!key) throw unsupportedPath();
    const s = this.secrets.get(key);
    if (req.method === 'GET') {
      if (!s) throw notFound();
      const versions: Record<string, unknown> = {};
      for (const [n, v] of s.versions)
        versions[String(n)] = {
          created_time: this.iso(v.createdAt),
          deletion_time: this.iso(v.deletedAt),
          destroyed: v.destroyed,
        };
      return {
        data: {
          cas_required: s.casRequired,
          created_time: this.iso(s.createdAt),
          current_version: s.current,
          custom_metadata: Object.keys(s.customMetadata).length ? s.customMetadata : null,
          delete_version_after: this.dialect.duration(s.deleteVersionAfter),
          max_versions: s.maxVersions,
          oldest_version: s.oldest,
          updated_time: this.iso(s.updatedAt),
          versions: this.has('kv.v2-metadata-versions-missing') ? {} : versions,
        },
      };
    }
    if (req.method === 'DELETE') {
      if (this.has('kv.v2-metadata-delete-soft')) {
        for (const v of s?.versions.values() ?? []) v.deletedAt = this.now();
      } else {
        this.secrets.delete(key);
      }
      return {};
    }
    const now = this.now();
    // Every field is validated on a copy and stored only when all are valid: a refused write
    // changes nothing (the fault applies each field as it goes, half-applying a refused write).
    const stored = s ?? this.newSecret(now);
    const target = this.has('kv.v2-metadata-half-applied') ? stored : { ...stored };
    if (req.body.max_versions !== undefined) target.maxVersions = this.dialect.maxVersions(req.body.max_versions);
    if (req.body.cas_required !== undefined) {
      if (typeof req.body.cas_required !== 'boolean') throw badRequest('cas_required must be a boolean');
      target.casRequired = req.body.cas_required;
    }
    if (req.body.custom_metadata !== undefined) {
      const cm = asObject(req.body.custom_metadata, 'custom_metadata');
      for (const [k, v] of Object.entries(cm))
        if (typeof v !== 'string') throw badRequest(`custom_metadata value of "${k}" must be a string`);
      target.customMetadata = cm as Record<string, string>;
    }
    if (req.body.delete_version_after !== undefined) {
      try {
        target.deleteVersionAfter = parseDuration(req.body.delete_version_after);
      } catch (e) {
        throw badRequest((e as Error).message);
      }
    }
    if (this.has('kv.v2-metadata-write-creates-version') && target.current > 0) {
      const latest = target.versions.get(target.current)!;
      target.current += 1;
      target.versions.set(target.current, { ...latest, createdAt: now });
    }
    this.secrets.set(key, target);
    return {};
  }

  private subkeys(req: EngineRequest, key: string): EngineResponse {
    if (req.method !== 'GET') throw methodNotAllowed();
    const s = this.secrets.get(key);
    const v = s?.versions.get(s.current);
    if (!s || !v || this.isDeleted(v) || v.destroyed) throw notFound();
    const leak = this.has('kv.v2-subkeys-values-leak');
    const strip = (o: unknown): unknown =>
      o && typeof o === 'object' && !Array.isArray(o)
        ? Object.fromEntries(Object.entries(o).map(([k, x]) => [k, strip(x)]))
        : leak
          ? o
          : null;
    return { data: { subkeys: strip(v.data), metadata: this.versionMeta(v, s.current, s) } };
  }

  private versionOp(req: EngineRequest, key: string, op: 'delete' | 'undelete' | 'destroy'): EngineResponse {
    if (req.method !== 'POST' && req.method !== 'PUT') throw methodNotAllowed();
    if (!key) throw unsupportedPath();
    const versions = this.dialect.versions(req.body.versions);
    const valid = Array.isArray(versions) && versions.length > 0 && versions.every((n) => Number.isInteger(n));
    if (!valid && !this.has('kv.v2-versions-unchecked'))
      throw badRequest('versions must be a non-empty list of integers');
    const s = this.secrets.get(key);
    if (!s || !valid) return {};
    for (const n of versions as number[]) {
      const v = s.versions.get(n);
      if (!v) continue;
      if (op === 'delete' && !v.destroyed && !this.isDeleted(v) && !this.has('kv.v2-delete-versions-ignored'))
        v.deletedAt = this.now();
      if (op === 'undelete' && !v.destroyed && !this.has('kv.undelete-ignored')) {
        const after = this.effectiveDeleteAfter(s);
        v.deletedAt = after > 0 ? this.now() + after * 1000 : null;
      }
      if (op === 'destroy') {
        if (this.has('kv.v2-destroy-soft')) {
          v.deletedAt = this.now();
          continue;
        }
        v.destroyed = true;
        v.data = null;
      }
    }
    return {};
  }
}

export const factory: EngineFactory = (ctx) =>
  ctx.options.version === '2' && !ctx.faults.has('kv.version-option-ignored') ? new KvV2(ctx) : new KvV1(ctx);
