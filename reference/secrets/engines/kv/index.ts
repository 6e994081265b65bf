/**
 * Key-value engine, version 1 (`options.version` "1", the default when mounted by hand) and
 * version 2 (`options.version` "2"): versions, soft delete, undelete, destroy, metadata, config
 * with max_versions and cas_required, check-and-set.
 */
import type { Engine, EngineContext, EngineFactory, EngineRequest, EngineResponse } from '../../engine.js';
import { badRequest, methodNotAllowed, notFound, unsupportedPath } from '../../errors.js';
import { parseDuration } from '../../duration.js';

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

function iso(ms: number | null): string {
  return ms === null ? '' : new Date(ms).toISOString();
}

/** Keys directly under `prefix` ("a/b/" for a/b/c), folders ending with "/". */
export function listUnder(paths: Iterable<string>, prefix: string): string[] {
  const out = new Set<string>();
  for (const p of paths) {
    if (!p.startsWith(prefix)) continue;
    const rest = p.slice(prefix.length);
    if (!rest) continue;
    const slash = rest.indexOf('/');
    out.add(slash === -1 ? rest : rest.slice(0, slash + 1));
  }
  return [...out].sort();
}

function asObject(value: unknown, what: string): Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw badRequest(`${what} must be a JSON object`);
  return value as Record<string, unknown>;
}

class KvV1 implements Engine {
  private readonly store = new Map<string, Record<string, unknown>>();
  constructor(private readonly ctx: EngineContext) {}

  async exists(path: string): Promise<boolean> {
    return this.store.has(path);
  }

  async handle(req: EngineRequest): Promise<EngineResponse> {
    const path = req.path;
    switch (req.method) {
      case 'LIST':
        return { data: { keys: listUnder(this.store.keys(), path ? `${path}/` : '') } };
      case 'GET': {
        if (!path) throw unsupportedPath();
        const value = this.store.get(path);
        if (!value) throw notFound();
        return { data: { ...value } };
      }
      case 'POST':
      case 'PUT': {
        if (!path) throw unsupportedPath();
        if (Object.keys(req.body).length === 0 && !this.ctx.faults.has('kv.v1-accepts-empty-write')) throw badRequest('no data provided');
        this.store.set(path, { ...req.body });
        return {};
      }
      case 'DELETE':
        this.store.delete(path);
        return {};
    }
  }
}

class KvV2 implements Engine {
  private readonly secrets = new Map<string, Secret>();
  private maxVersions = 0;
  private casRequired = false;
  private deleteVersionAfter = 0;

  constructor(private readonly ctx: EngineContext) {}

  private now(): number {
    return this.ctx.clock.now();
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
      case 'config': return this.config(req);
      case 'data': return this.data(req, key);
      case 'metadata': return this.metadata(req, key);
      case 'subkeys': return this.subkeys(req, key);
      case 'delete': return this.versionOp(req, key, 'delete');
      case 'undelete': return this.versionOp(req, key, 'undelete');
      case 'destroy': return this.versionOp(req, key, 'destroy');
      default: throw unsupportedPath();
    }
  }

  private effectiveMax(s: Secret): number {
    const m = s.maxVersions || this.maxVersions;
    return m > 0 ? m : 10;
  }

  private versionMeta(v: Version, n: number): Record<string, unknown> {
    return { created_time: iso(v.createdAt), custom_metadata: null, deletion_time: iso(v.deletedAt), destroyed: v.destroyed, version: n };
  }

  private config(req: EngineRequest): EngineResponse {
    if (req.method === 'GET') {
      return { data: { max_versions: this.maxVersions, cas_required: this.casRequired, delete_version_after: `${this.deleteVersionAfter}s` } };
    }
    if (req.method !== 'POST' && req.method !== 'PUT') throw methodNotAllowed();
    if (req.body.max_versions !== undefined) {
      if (!Number.isInteger(req.body.max_versions) || (req.body.max_versions as number) < 0) throw badRequest('max_versions must be a non-negative integer');
      this.maxVersions = req.body.max_versions as number;
    }
    if (req.body.cas_required !== undefined) {
      if (typeof req.body.cas_required !== 'boolean') throw badRequest('cas_required must be a boolean');
      this.casRequired = req.body.cas_required;
    }
    if (req.body.delete_version_after !== undefined) {
      try { this.deleteVersionAfter = parseDuration(req.body.delete_version_after); } catch (e) { throw badRequest((e as Error).message); }
    }
    return {};
  }

  private data(req: EngineRequest, key: string): EngineResponse {
    if (req.method === 'LIST') throw methodNotAllowed();
    if (!key) throw unsupportedPath();
    if (req.method === 'GET') {
      const s = this.secrets.get(key);
      if (!s) throw notFound();
      const wanted = req.query.get('version');
      const n = wanted && wanted !== '0' ? Number(wanted) : s.current;
      if (!Number.isInteger(n) || n < 0) throw badRequest('version must be an integer');
      const v = s.versions.get(n);
      if (!v) throw notFound();
      const meta = this.versionMeta(v, n);
      // Deleted or destroyed versions answer 404; the body keeps the document's `errors` array and
      // adds the metadata the real product returns there.
      if (v.deletedAt !== null || v.destroyed) return { status: 404, rawBody: { errors: [], data: { data: null, metadata: meta } } };
      return { data: { data: { ...v.data }, metadata: meta } };
    }
    if (req.method === 'DELETE') {
      const s = this.secrets.get(key);
      const v = s?.versions.get(s.current);
      if (v && !v.destroyed && v.deletedAt === null) v.deletedAt = this.now();
      return {};
    }
    const dataField = req.body.data;
    if (dataField === undefined) throw badRequest('no data provided');
    const fields = asObject(dataField, 'data');
    const options = req.body.options === undefined ? {} : asObject(req.body.options, 'options');
    let s = this.secrets.get(key);
    const cas = options.cas;
    if (cas !== undefined && (!Number.isInteger(cas) || (cas as number) < 0)) throw badRequest('cas must be a non-negative integer');
    const casNeeded = this.casRequired || s?.casRequired;
    if (casNeeded && cas === undefined) throw badRequest('check-and-set parameter required for this call');
    if (cas !== undefined && !this.ctx.faults.has('kv.cas-ignored')) {
      const current = s ? s.current : 0;
      if (cas !== current) throw badRequest('check-and-set parameter did not match the current version');
    }
    const now = this.now();
    if (!s) {
      s = { versions: new Map(), current: 0, oldest: 0, createdAt: now, updatedAt: now, maxVersions: 0, casRequired: false, deleteVersionAfter: 0, customMetadata: {} };
      this.secrets.set(key, s);
    }
    const next = this.ctx.faults.has('kv.version-not-incremented') && s.current > 0 ? s.current : s.current + 1;
    s.versions.set(next, { data: { ...fields }, createdAt: now, deletedAt: null, destroyed: false });
    s.current = next;
    s.updatedAt = now;
    if (!s.oldest) s.oldest = next;
    const max = this.effectiveMax(s);
    for (const n of [...s.versions.keys()].sort((a, b) => a - b)) {
      if (s.versions.size <= max) break;
      s.versions.delete(n);
    }
    s.oldest = Math.min(...s.versions.keys());
    return { data: this.versionMeta(s.versions.get(next)!, next) };
  }

  private metadata(req: EngineRequest, key: string): EngineResponse {
    if (req.method === 'LIST') {
      const prefix = key ? `${key}/` : '';
      return { data: { keys: listUnder(this.secrets.keys(), prefix) } };
    }
    if (!key) throw unsupportedPath();
    const s = this.secrets.get(key);
    if (req.method === 'GET') {
      if (!s) throw notFound();
      const versions: Record<string, unknown> = {};
      for (const [n, v] of s.versions) versions[String(n)] = { created_time: iso(v.createdAt), deletion_time: iso(v.deletedAt), destroyed: v.destroyed };
      return {
        data: {
          cas_required: s.casRequired,
          created_time: iso(s.createdAt),
          current_version: s.current,
          custom_metadata: Object.keys(s.customMetadata).length ? s.customMetadata : null,
          delete_version_after: `${s.deleteVersionAfter}s`,
          max_versions: s.maxVersions,
          oldest_version: s.oldest,
          updated_time: iso(s.updatedAt),
          versions,
        },
      };
    }
    if (req.method === 'DELETE') {
      this.secrets.delete(key);
      return {};
    }
    const now = this.now();
    const target = s ?? { versions: new Map(), current: 0, oldest: 0, createdAt: now, updatedAt: now, maxVersions: 0, casRequired: false, deleteVersionAfter: 0, customMetadata: {} };
    if (req.body.max_versions !== undefined) {
      if (!Number.isInteger(req.body.max_versions) || (req.body.max_versions as number) < 0) throw badRequest('max_versions must be a non-negative integer');
      target.maxVersions = req.body.max_versions as number;
    }
    if (req.body.cas_required !== undefined) {
      if (typeof req.body.cas_required !== 'boolean') throw badRequest('cas_required must be a boolean');
      target.casRequired = req.body.cas_required;
    }
    if (req.body.custom_metadata !== undefined) {
      const cm = asObject(req.body.custom_metadata, 'custom_metadata');
      for (const [k, v] of Object.entries(cm)) if (typeof v !== 'string') throw badRequest(`custom_metadata value of "${k}" must be a string`);
      target.customMetadata = cm as Record<string, string>;
    }
    if (req.body.delete_version_after !== undefined) {
      try { target.deleteVersionAfter = parseDuration(req.body.delete_version_after); } catch (e) { throw badRequest((e as Error).message); }
    }
    this.secrets.set(key, target);
    return {};
  }

  private subkeys(req: EngineRequest, key: string): EngineResponse {
    if (req.method !== 'GET') throw methodNotAllowed();
    const s = this.secrets.get(key);
    const v = s?.versions.get(s.current);
    if (!s || !v || v.deletedAt !== null || v.destroyed) throw notFound();
    const strip = (o: unknown): unknown => (o && typeof o === 'object' && !Array.isArray(o) ? Object.fromEntries(Object.entries(o).map(([k, x]) => [k, strip(x)])) : null);
    return { data: { subkeys: strip(v.data), metadata: this.versionMeta(v, s.current) } };
  }

  private versionOp(req: EngineRequest, key: string, op: 'delete' | 'undelete' | 'destroy'): EngineResponse {
    if (req.method !== 'POST' && req.method !== 'PUT') throw methodNotAllowed();
    if (!key) throw unsupportedPath();
    const versions = req.body.versions;
    if (!Array.isArray(versions) || versions.length === 0 || versions.some((n) => !Number.isInteger(n))) throw badRequest('versions must be a non-empty list of integers');
    const s = this.secrets.get(key);
    if (!s) return {};
    for (const n of versions as number[]) {
      const v = s.versions.get(n);
      if (!v) continue;
      if (op === 'delete' && !v.destroyed && v.deletedAt === null) v.deletedAt = this.now();
      if (op === 'undelete' && !v.destroyed && !this.ctx.faults.has('kv.undelete-ignored')) v.deletedAt = null;
      if (op === 'destroy') { v.destroyed = true; v.data = null; }
    }
    return {};
  }
}

export const factory: EngineFactory = (ctx) => (ctx.options.version === '2' ? new KvV2(ctx) : new KvV1(ctx));
