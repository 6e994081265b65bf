/**
 * The key-value engine's rules as the documents give them (secrets-service-core.md, "Key-value
 * engine"), named so the model (index.ts) reads as those rules: which version a mount is, how keys
 * are stored and listed, what a read, write or delete answers, check-and-set, version limits and
 * the formats of times and durations. The switches (switches.ts) replace some of these by name.
 */
import type { EngineResponse } from '../../engine.js';
import { parseDuration } from '../../duration.js';
import { type SvcError, badRequest, notFound } from '../../errors.js';
import { rfc3339 } from '../../timestamps.js';

export interface Version {
  data: Record<string, unknown> | null;
  createdAt: number;
  deletedAt: number | null;
  destroyed: boolean;
}

export interface Secret {
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

/** A version 2 path split into its sub-path (`data`, `metadata`, `config`, ...) and the key below it. */
export interface V2Route {
  section: string;
  key: string;
}

/** The sub-paths of a version 2 mount. */
export const V2_SECTIONS = ['config', 'data', 'metadata', 'subkeys', 'delete', 'undelete', 'destroy'];

/** What changed a version 2 key (a read cache would have to forget it). */
export type V2Change =
  | 'write'
  | 'delete-latest'
  | 'delete-versions'
  | 'undelete'
  | 'destroy'
  | 'metadata-write'
  | 'metadata-delete';

/** The settings of a version 2 mount's config/ sub-path. */
export interface V2Config {
  maxVersions: number;
  casRequired: boolean;
  deleteVersionAfter: number;
}

/** A version whose deletion time has passed (a future deletion time is only scheduled). */
export function isDeleted(v: Version, now: number): boolean {
  return v.deletedAt !== null && v.deletedAt <= now;
}

export const documented = {
  /** `options.version` "2" mounts version 2; anything else (the default) is version 1. */
  version: (options: Record<string, unknown>): 1 | 2 => (options.version === '2' ? 2 : 1),

  // --- formats ------------------------------------------------------------------------------

  /** RFC 3339, or "" for no time. */
  iso: (ms: number | null): string => (ms === null ? '' : rfc3339(ms, false)),
  /** A duration read back: whole seconds ("3600s"). */
  duration: (seconds: number): string => `${seconds}s`,

  // --- listing ------------------------------------------------------------------------------

  /** The keys below a listed directory (`prefix` ends in "/"), relative to it. */
  keysBelow: (paths: string[], prefix: string): string[] =>
    paths.filter((p) => p.startsWith(prefix)).map((p) => p.slice(prefix.length)),
  /** The listed name of a key below the listed directory: a direct child, folders with a trailing "/". */
  listEntry: (rest: string): string => {
    const slash = rest.indexOf('/');
    return slash === -1 ? rest : rest.slice(0, slash + 1);
  },
  /** A leaf is not a directory: listing it finds nothing. */
  leafIsDirectory: false,
  /** The refusal of a LIST on a leaf with nothing under it (none: it lists nothing, answered 404). */
  leafListRefusal: (): SvcError | undefined => undefined,

  // --- version 1 ----------------------------------------------------------------------------

  /** The storage key of a path: the whole path, so the hierarchy is kept. */
  v1Key: (path: string): string => path,
  /** Why a key cannot hold a secret (undefined: any key can, whatever its characters). */
  keyProblem: (_key: string, _version: 1 | 2): string | undefined => undefined,
  /** What a read finds stored under a key (now: when it reads). */
  v1Stored: (
    store: Map<string, Record<string, unknown>>,
    key: string,
    _now: number,
  ): Record<string, unknown> | undefined => store.get(key),
  /** Told after a write or delete changed a key (nothing to forget: reads go to the store). */
  v1Changed: (_key: string, _how: 'write' | 'delete'): void => {},
  /** A write needs at least one field. */
  v1CheckWrite: (body: Record<string, unknown>): void => {
    if (Object.keys(body).length === 0) throw badRequest('no data provided');
  },
  /** Field values are stored as given (JSON types kept). */
  v1Values: (fields: Record<string, unknown>): Record<string, unknown> => fields,
  /** A write replaces what was stored. */
  v1Overwrite: (_previous: Record<string, unknown> | undefined, fields: Record<string, unknown>) => fields,
  /** A read answers the fields themselves, without a lease. */
  v1Read: (value: Record<string, unknown>): EngineResponse => ({ data: { ...value } }),
  /** A read of a key holding nothing answers 404. */
  v1ReadMissing: (): EngineResponse => {
    throw notFound();
  },
  /** DELETE removes the key. */
  v1Delete: (store: Map<string, Record<string, unknown>>, key: string): void => {
    store.delete(key);
  },

  // --- version 2: paths and writes ----------------------------------------------------------

  /** The sub-path of a version 2 request; a path outside them is unsupported. */
  v2Route: (path: string): V2Route => {
    const [section = '', ...rest] = path.split('/');
    return V2_SECTIONS.includes(section) ? { section, key: rest.join('/') } : { section: '', key: path };
  },
  /** The fields of a data write: its `data` object. */
  v2WriteData: (body: Record<string, unknown>): unknown => body.data,
  /** The fields a new version holds: exactly those written (the previous version's are not kept). */
  v2VersionData: (
    _previous: Record<string, unknown> | null,
    fields: Record<string, unknown>,
  ): Record<string, unknown> => ({ ...fields }),
  /** What a data or metadata read finds stored under a key (now: when it reads). */
  v2Stored: (
    secrets: Map<string, Secret>,
    key: string,
    _now: number,
    _section: 'data' | 'metadata',
  ): Secret | undefined => secrets.get(key),
  /** Told after a request changed a key (nothing to forget: reads go to the store). */
  v2Changed: (_key: string, _how: V2Change): void => {},
  /** The config a config read answers (now: when it reads). */
  configRead: (config: V2Config, _now: number): V2Config => ({ ...config }),
  /** What a config write starts from: the stored settings, so a field it omits keeps its value. */
  configBase: (stored: V2Config): V2Config => ({ ...stored }),
  /** A duration field (delete_version_after): seconds or a duration string with units s, m, h, d. */
  durationSeconds: (value: unknown): number => parseDuration(value),
  /** A data write without `data` is refused. */
  v2MissingData: (): Record<string, unknown> => {
    throw badRequest('no data provided');
  },
  /** A data write answers the new version's metadata. */
  v2WriteResponse: (meta: Record<string, unknown>): EngineResponse => ({ data: meta }),
  /** Each write creates the next version. */
  nextVersion: (current: number): number => current + 1,
  /** How many versions a key keeps: its own max_versions, else the engine's, else 10. */
  keptVersions: (keyMax: number, engineMax: number): number => {
    const m = keyMax || engineMax;
    return m > 0 ? m : 10;
  },
  /** Seconds until a new version is deleted: the smaller non-zero of the key's and the engine's setting. */
  deleteAfter: (keySetting: number, engineSetting: number): number => {
    const values = [keySetting, engineSetting].filter((n) => n > 0);
    return values.length ? Math.min(...values) : 0;
  },

  // --- version 2: check-and-set -------------------------------------------------------------

  /** cas is required when the engine's config or the key's metadata says so. */
  casRequired: (engineSetting: boolean, keySetting: boolean): boolean => engineSetting || keySetting,
  /** A write with options.cas succeeds only when cas is the current version (0: the key must not exist). */
  casMatches: (cas: number, current: number): boolean => cas === current,
  /** Whether options.cas is checked on a write with this verb (PUT and POST are synonyms). */
  casApplies: (_method: string): boolean => true,

  // --- version 2: reads ---------------------------------------------------------------------

  /** The version a read asks for (`?version=N`; absent or 0 means the latest). */
  requestedVersion: (query: URLSearchParams): string | null => query.get('version'),
  /** The latest version of a key. */
  latestVersion: (s: Secret): number => s.current,
  /** A read of a key that does not exist answers 404. */
  v2ReadMissing: (): EngineResponse => {
    throw notFound();
  },
  /** A deleted or destroyed version is not readable. */
  v2ReadGone: (deleted: boolean, destroyed: boolean): boolean => deleted || destroyed,
  /** The status of a read of a deleted or destroyed version. */
  goneStatus: (): number => 404,
  /** The 404 body of a deleted or destroyed version: the `errors` array plus the version metadata. */
  goneBody: (meta: Record<string, unknown>): Record<string, unknown> => ({
    errors: [],
    data: { data: null, metadata: meta },
  }),
  /** The custom_metadata reported with a version: the key's, or null when none is set. */
  versionCustomMetadata: (custom: Record<string, string>): Record<string, string> | null =>
    Object.keys(custom).length ? { ...custom } : null,
  /** subkeys/ shows the structure of the data with every leaf value null. */
  subkeyLeaf: (_value: unknown): unknown => null,

  // --- version 2: deletion ------------------------------------------------------------------

  /** The versions DELETE data/<key> deletes: the latest only. */
  latestDeletion: (s: Secret): number[] => [s.current],
  /** DELETE data/<key> soft-deletes the latest version. */
  deleteLatest: (v: Version, now: number): void => softDelete(v, now),
  /** The versions delete/, undelete/ and destroy/ act on: exactly those named. */
  versionsActedOn: (named: number[], _s: Secret, _op: 'delete' | 'undelete' | 'destroy'): number[] => named,
  /** delete/<key> soft-deletes the listed versions. */
  deleteVersion: (v: Version, now: number): void => softDelete(v, now),
  /** undelete/<key> restores a soft-deleted version (with a fresh scheduled deletion if one is set). */
  undelete: (v: Version, now: number, afterSeconds: number): void => {
    if (v.destroyed) return;
    v.deletedAt = afterSeconds > 0 ? now + afterSeconds * 1000 : null;
  },
  /** destroy/<key> removes a version's data for good. */
  destroy: (v: Version, _now: number): void => {
    v.destroyed = true;
    v.data = null;
  },
  /** The `versions` of delete/undelete/destroy: a non-empty list of integers. */
  versions: (value: unknown): number[] => {
    const valid = Array.isArray(value) && value.length > 0 && value.every((n) => Number.isInteger(n));
    if (!valid) throw badRequest('versions must be a non-empty list of integers');
    return value as number[];
  },

  // --- version 2: config and metadata -------------------------------------------------------

  /** max_versions of a metadata write: a non-negative integer. */
  maxVersions: (value: unknown): number => nonNegative(value),
  /** max_versions of a config write: a non-negative integer. */
  configMaxVersions: (value: unknown): number => nonNegative(value),
  /** cas_required of a config write: a boolean, kept. */
  configCasRequired: (value: unknown, _current: boolean): boolean => {
    if (typeof value !== 'boolean') throw badRequest('cas_required must be a boolean');
    return value;
  },
  /** The current_version of a metadata read: the newest version's number, also after older versions were removed. */
  metadataCurrentVersion: (s: Secret): number => s.current,
  /** The created_time of a version: when that version was written (not when its key was created). */
  versionCreatedAt: (v: Version, _s: Secret): number => v.createdAt,
  /** The versions map of a metadata read. */
  metadataVersions: (versions: Record<string, unknown>): Record<string, unknown> => versions,
  /** A metadata write is validated on a copy and stored only when every field is valid; omitted fields keep their values. */
  metadataDraft: (stored: Secret): Secret => ({ ...stored }),
  /** The custom_metadata a metadata write leaves: the map sent replaces the stored one. */
  customMetadata: (_stored: Record<string, string>, sent: Record<string, string>): Record<string, string> => ({
    ...sent,
  }),
  /** A metadata write leaves the versions alone. */
  metadataWriteVersions: (_s: Secret, _now: number): void => {},
  /** DELETE metadata/<key> removes the key and all its versions. */
  metadataDelete: (secrets: Map<string, Secret>, key: string, _now: number): void => {
    secrets.delete(key);
  },
  /** Whether LIST metadata/ shows a key: every key with metadata, its versions deleted or destroyed included. */
  metadataListed: (_s: Secret, _now: number): boolean => true,
  /** LIST metadata/ lists the keys. */
  metadataList: (keys: string[]): string[] => keys,
};

export type KvRules = typeof documented;

function softDelete(v: Version, now: number): void {
  if (!v.destroyed && !isDeleted(v, now)) v.deletedAt = now;
}

function nonNegative(value: unknown): number {
  if (!Number.isInteger(value) || (value as number) < 0)
    throw badRequest('max_versions must be a non-negative integer');
  return value as number;
}
