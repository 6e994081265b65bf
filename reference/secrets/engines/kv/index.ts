/**
 * Key-value engine, version 1 (`options.version` "1", the default when mounted by hand) and
 * version 2 (`options.version` "2"): versions, soft delete, undelete, destroy, metadata, config
 * with max_versions and cas_required, check-and-set. The rules it follows are named in rules.ts;
 * the switches (switches.ts) replace some of them, so this file never asks which switch is on.
 */
import type { Engine, EngineContext, EngineFactory, EngineRequest, EngineResponse } from '../../engine.js';
import { badRequest, methodNotAllowed, notFound, unsupportedPath } from '../../errors.js';
import { type KvRules, type Secret, type V2Config, type Version, documented, isDeleted } from './rules.js';
import { kvRulesWith } from './switches.js';

/** Keys directly under `prefix` ("a/b/" for a/b/c), folders ending with "/". */
export function listUnder(
  paths: Iterable<string>,
  prefix: string,
  rules: Pick<KvRules, 'keysBelow' | 'listEntry' | 'leafIsDirectory' | 'leafListRefusal'> = documented,
): string[] {
  const out = new Set<string>();
  const all = [...paths];
  for (const rest of rules.keysBelow(all, prefix)) if (rest) out.add(rules.listEntry(rest));
  const leaf = !!prefix && all.includes(prefix.slice(0, -1));
  if (rules.leafIsDirectory && leaf) out.add(prefix.slice(0, -1).split('/').pop()!);
  const refusal = leaf && out.size === 0 ? rules.leafListRefusal() : undefined;
  if (refusal) throw refusal;
  return [...out].sort();
}

function asObject(value: unknown, what: string): Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw badRequest(`${what} must be a JSON object`);
  return value as Record<string, unknown>;
}

class KvV1 implements Engine {
  private readonly store = new Map<string, Record<string, unknown>>();
  constructor(
    private readonly ctx: EngineContext,
    private readonly rules: KvRules,
  ) {}

  private now(): number {
    return this.ctx.clock.now();
  }

  async exists(path: string): Promise<boolean> {
    return this.store.has(this.rules.v1Key(path));
  }

  async handle(req: EngineRequest): Promise<EngineResponse> {
    const { rules } = this;
    const path = req.path;
    switch (req.method) {
      case 'LIST':
        return { data: { keys: listUnder(this.store.keys(), path ? `${path}/` : '', rules) } };
      case 'GET': {
        if (!path) throw unsupportedPath();
        const value = rules.v1Stored(this.store, rules.v1Key(path), this.now());
        return value ? rules.v1Read(value) : rules.v1ReadMissing();
      }
      case 'POST':
      case 'PUT': {
        if (!path) throw unsupportedPath();
        const problem = rules.keyProblem(path, 1);
        if (problem) throw badRequest(problem);
        rules.v1CheckWrite(req.body);
        const key = rules.v1Key(path);
        this.store.set(key, rules.v1Overwrite(this.store.get(key), rules.v1Values({ ...req.body })));
        rules.v1Changed(key, 'write');
        return {};
      }
      case 'DELETE':
        rules.v1Delete(this.store, rules.v1Key(path));
        rules.v1Changed(rules.v1Key(path), 'delete');
        return {};
    }
  }
}

class KvV2 implements Engine {
  private readonly secrets = new Map<string, Secret>();
  private settings: V2Config = { maxVersions: 0, casRequired: false, deleteVersionAfter: 0 };

  constructor(
    private readonly ctx: EngineContext,
    private readonly rules: KvRules,
  ) {}

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
    const { section, key } = this.rules.v2Route(req.path);
    switch (section) {
      case 'config':
        return this.config(req);
      case 'data':
        return this.data(req, key);
      case 'metadata':
        return this.metadata(req, key);
      case 'subkeys':
        return this.subkeys(req, key);
      case 'delete':
      case 'undelete':
      case 'destroy':
        return this.versionOp(req, key, section);
      default:
        // The real product answers non-data paths of a v2 mount with 404 and a warning.
        throw unsupportedPath();
    }
  }

  private effectiveMax(s: Secret): number {
    return this.rules.keptVersions(s.maxVersions, this.settings.maxVersions);
  }

  private effectiveDeleteAfter(s: Secret): number {
    return this.rules.deleteAfter(s.deleteVersionAfter, this.settings.deleteVersionAfter);
  }

  private versionMeta(v: Version, n: number, s: Secret): Record<string, unknown> {
    return {
      created_time: this.rules.iso(this.rules.versionCreatedAt(v, s)),
      custom_metadata: this.rules.versionCustomMetadata(s.customMetadata),
      deletion_time: this.rules.iso(v.deletedAt),
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
    const { rules } = this;
    if (req.method === 'GET') {
      const config = rules.configRead(this.settings, this.now());
      return {
        data: {
          max_versions: config.maxVersions,
          cas_required: config.casRequired,
          delete_version_after: rules.duration(config.deleteVersionAfter),
        },
      };
    }
    if (req.method !== 'POST' && req.method !== 'PUT') throw methodNotAllowed();
    // Validate every field first, then store: a refused write changes nothing.
    const next = rules.configBase(this.settings);
    if (req.body.max_versions !== undefined) next.maxVersions = rules.configMaxVersions(req.body.max_versions);
    if (req.body.cas_required !== undefined)
      next.casRequired = rules.configCasRequired(req.body.cas_required, next.casRequired);
    if (req.body.delete_version_after !== undefined)
      next.deleteVersionAfter = this.duration(req.body.delete_version_after);
    this.settings = next;
    return {};
  }

  private data(req: EngineRequest, key: string): EngineResponse {
    const { rules } = this;
    if (req.method === 'LIST') throw methodNotAllowed();
    if (!key) throw unsupportedPath();
    if (req.method === 'GET') {
      const s = rules.v2Stored(this.secrets, key, this.now(), 'data');
      if (!s) return rules.v2ReadMissing();
      const wanted = rules.requestedVersion(req.query);
      const n = wanted && wanted !== '0' ? Number(wanted) : rules.latestVersion(s);
      if (!Number.isInteger(n) || n < 0) throw badRequest('version must be an integer');
      const v = s.versions.get(n);
      if (!v) throw notFound();
      const meta = this.versionMeta(v, n, s);
      // Deleted or destroyed versions answer 404; the body keeps the document's `errors` array and
      // adds the metadata the real product returns there.
      if (rules.v2ReadGone(isDeleted(v, this.now()), v.destroyed))
        return { status: rules.goneStatus(), rawBody: rules.goneBody(meta) };
      return { data: { data: { ...v.data }, metadata: meta } };
    }
    if (req.method === 'DELETE') {
      const s = this.secrets.get(key);
      for (const n of s ? rules.latestDeletion(s) : []) {
        const v = s?.versions.get(n);
        if (v) rules.deleteLatest(v, this.now());
      }
      rules.v2Changed(key, 'delete-latest');
      return {};
    }
    const problem = rules.keyProblem(key, 2);
    if (problem) throw badRequest(problem);
    const dataField = rules.v2WriteData(req.body);
    const fields = dataField === undefined ? rules.v2MissingData() : asObject(dataField, 'data');
    const options = req.body.options === undefined ? {} : asObject(req.body.options, 'options');
    let s = this.secrets.get(key);
    const cas = options.cas;
    if (cas !== undefined && (!Number.isInteger(cas) || (cas as number) < 0))
      throw badRequest('cas must be a non-negative integer');
    if (rules.casRequired(this.settings.casRequired, s?.casRequired ?? false) && cas === undefined)
      throw badRequest('check-and-set parameter required for this call');
    if (cas !== undefined && rules.casApplies(req.method) && !rules.casMatches(cas as number, s ? s.current : 0))
      throw badRequest('check-and-set parameter did not match the current version');
    const now = this.now();
    if (!s) {
      s = this.newSecret(now);
      this.secrets.set(key, s);
    }
    const next = rules.nextVersion(s.current);
    const after = this.effectiveDeleteAfter(s);
    const previous = s.versions.get(s.current)?.data ?? null;
    s.versions.set(next, {
      data: rules.v2VersionData(previous, fields),
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
    rules.v2Changed(key, 'write');
    return rules.v2WriteResponse(this.versionMeta(s.versions.get(next)!, next, s));
  }

  private metadata(req: EngineRequest, key: string): EngineResponse {
    const { rules } = this;
    if (req.method === 'LIST') {
      const prefix = key ? `${key}/` : '';
      return {
        data: {
          keys: rules.metadataList(
            listUnder(
              [...this.secrets].filter(([, s]) => rules.metadataListed(s, this.now())).map(([k]) => k),
              prefix,
              rules,
            ),
          ),
        },
      };
    }
    if (!key) throw unsupportedPath();
    if (req.method === 'GET') {
      const s = rules.v2Stored(this.secrets, key, this.now(), 'metadata');
      if (!s) throw notFound();
      const versions: Record<string, unknown> = {};
      for (const [n, v] of s.versions)
        versions[String(n)] = {
          created_time: rules.iso(rules.versionCreatedAt(v, s)),
          deletion_time: rules.iso(v.deletedAt),
          destroyed: v.destroyed,
        };
      return {
        data: {
          cas_required: s.casRequired,
          created_time: rules.iso(s.createdAt),
          current_version: rules.metadataCurrentVersion(s),
          custom_metadata: Object.keys(s.customMetadata).length ? s.customMetadata : null,
          delete_version_after: rules.duration(s.deleteVersionAfter),
          max_versions: s.maxVersions,
          oldest_version: s.oldest,
          updated_time: rules.iso(s.updatedAt),
          versions: rules.metadataVersions(versions),
        },
      };
    }
    if (req.method === 'DELETE') {
      rules.metadataDelete(this.secrets, key, this.now());
      rules.v2Changed(key, 'metadata-delete');
      return {};
    }
    const s = this.secrets.get(key);
    const now = this.now();
    // Every field is validated on a draft and stored only when all are valid: a refused write
    // changes nothing.
    const target = rules.metadataDraft(s ?? this.newSecret(now));
    if (req.body.max_versions !== undefined) target.maxVersions = rules.maxVersions(req.body.max_versions);
    if (req.body.cas_required !== undefined) {
      if (typeof req.body.cas_required !== 'boolean') throw badRequest('cas_required must be a boolean');
      target.casRequired = req.body.cas_required;
    }
    if (req.body.custom_metadata !== undefined) {
      const cm = asObject(req.body.custom_metadata, 'custom_metadata');
      for (const [k, v] of Object.entries(cm))
        if (typeof v !== 'string') throw badRequest(`custom_metadata value of "${k}" must be a string`);
      target.customMetadata = rules.customMetadata(target.customMetadata, cm as Record<string, string>);
    }
    if (req.body.delete_version_after !== undefined)
      target.deleteVersionAfter = this.duration(req.body.delete_version_after);
    rules.metadataWriteVersions(target, now);
    this.secrets.set(key, target);
    rules.v2Changed(key, 'metadata-write');
    return {};
  }

  /** A duration field of config or metadata; refused with 400 when it is none. */
  private duration(value: unknown): number {
    try {
      return this.rules.durationSeconds(value);
    } catch (e) {
      throw badRequest((e as Error).message);
    }
  }

  private subkeys(req: EngineRequest, key: string): EngineResponse {
    if (req.method !== 'GET') throw methodNotAllowed();
    const s = this.secrets.get(key);
    const v = s?.versions.get(s.current);
    if (!s || !v || isDeleted(v, this.now()) || v.destroyed) throw notFound();
    const strip = (o: unknown): unknown =>
      o && typeof o === 'object' && !Array.isArray(o)
        ? Object.fromEntries(Object.entries(o).map(([k, x]) => [k, strip(x)]))
        : this.rules.subkeyLeaf(o);
    return { data: { subkeys: strip(v.data), metadata: this.versionMeta(v, s.current, s) } };
  }

  private versionOp(req: EngineRequest, key: string, op: 'delete' | 'undelete' | 'destroy'): EngineResponse {
    const { rules } = this;
    if (req.method !== 'POST' && req.method !== 'PUT') throw methodNotAllowed();
    if (!key) throw unsupportedPath();
    const versions = rules.versions(req.body.versions);
    const s = this.secrets.get(key);
    if (!s) return {};
    for (const n of rules.versionsActedOn(versions, s, op)) {
      const v = s.versions.get(n);
      if (!v) continue;
      if (op === 'delete') rules.deleteVersion(v, this.now());
      if (op === 'undelete') rules.undelete(v, this.now(), this.effectiveDeleteAfter(s));
      if (op === 'destroy') rules.destroy(v, this.now());
    }
    rules.v2Changed(key, op === 'delete' ? 'delete-versions' : op);
    return {};
  }
}

export const factory: EngineFactory = (ctx) => {
  const rules = kvRulesWith(ctx.faults, ctx.variants);
  return rules.version(ctx.options) === 2 ? new KvV2(ctx, rules) : new KvV1(ctx, rules);
};
