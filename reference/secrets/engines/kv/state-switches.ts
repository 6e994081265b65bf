/**
 * The key-value engine's switches about state across requests (see switches.ts for the rest of
 * the table): reads served from a cache after a change, a write that merges instead of replacing,
 * settings a later write forgets, check-and-set skipped on one verb or one of its two settings,
 * limits off by one. Each replaces rules of rules.ts; the cache faults keep their state in the
 * closure of their replacement, one per mount (rules are built per mount).
 */
import { switchesOf } from '../../../switches.js';
import { badRequest } from '../../errors.js';
import type { KvRules, Secret, V2Change, V2Config } from './rules.js';

const { fault } = switchesOf<KvRules>(['kv']);

/** How long a stale read cache serves what it holds. */
const STALE_MS = 2000;

export const kvStateSwitches = [
  // --- reads right after a change: a cache that one kind of change does not empty ---
  fault('kv.v1-read-stale-after-write', {
    breaks: 'kv.v1.write-read',
    statements: ['doc.core.kv.v1-path', 'doc.core.kv.v1-body'],
    description:
      'A version 1 read is served from a cache a read fills and only a delete empties: for 2 seconds after a write, a key read just before answers its previous value (or 404 if it held none).',
    replace: (rules) => staleV1(rules, 'delete'),
  }),
  fault('kv.v1-read-stale-after-delete', {
    breaks: 'kv.v1.delete',
    statements: ['doc.core.kv.v1-path', 'doc.core.conventions.verb-delete'],
    description:
      'A version 1 read is served from a cache a read fills and only a write empties: for 2 seconds after a DELETE, a key read just before still answers its data.',
    replace: (rules) => staleV1(rules, 'write'),
  }),
  fault('kv.v2-read-stale-after-write', {
    breaks: 'kv.v2.read-latest',
    statements: ['doc.core.kv.v2-data-path'],
    description:
      'A version 2 data read is served from a cache a read fills and a data write does not empty: for 2 seconds after a write, a key read just before answers the previous version.',
    replace: (rules) => staleV2(rules, 'data', ['write']),
  }),
  fault('kv.v2-read-stale-after-delete', {
    breaks: 'kv.v2.deleted-not-read',
    statements: ['doc.core.kv.v2-data-path', 'doc.core.conventions.verb-delete'],
    description:
      'A version 2 data read is served from a cache DELETE data/<key> does not empty: for 2 seconds after the delete, a key read just before still answers its data.',
    replace: (rules) => staleV2(rules, 'data', ['delete-latest']),
  }),
  fault('kv.v2-read-stale-after-delete-versions', {
    breaks: 'kv.v2.deleted-not-read',
    statements: ['doc.core.kv.v2-subpath-delete'],
    description:
      'A version 2 data read is served from a cache POST delete/<key> does not empty: for 2 seconds after it, a version read just before still answers its data.',
    replace: (rules) => staleV2(rules, 'data', ['delete-versions']),
  }),
  fault('kv.v2-read-stale-after-undelete', {
    breaks: 'kv.v2.undelete',
    statements: ['doc.core.kv.v2-subpath-undelete'],
    description:
      'A version 2 data read is served from a cache undelete/<key> does not empty: for 2 seconds after it, a version read (as deleted) just before still answers 404.',
    replace: (rules) => staleV2(rules, 'data', ['undelete']),
  }),
  fault('kv.v2-read-stale-after-destroy', {
    breaks: 'kv.v2.deleted-not-read',
    statements: ['doc.core.kv.v2-subpath-destroy'],
    description:
      'A version 2 data read is served from a cache destroy/<key> does not empty: for 2 seconds after it, a version read just before still answers its data.',
    replace: (rules) => staleV2(rules, 'data', ['destroy']),
  }),
  fault('kv.v2-read-stale-after-metadata-delete', {
    breaks: 'kv.v2.deleted-not-read',
    statements: ['doc.core.kv.v2-subpath-metadata'],
    description:
      'A version 2 data read is served from a cache DELETE metadata/<key> does not empty: for 2 seconds after the key is removed, a read just before still answers its data.',
    replace: (rules) => staleV2(rules, 'data', ['metadata-delete']),
  }),
  fault('kv.v2-metadata-read-stale-after-write', {
    breaks: 'kv.v2.metadata-read',
    statements: ['doc.core.kv.v2-subpath-metadata'],
    description:
      'A metadata read is served from a cache a data write does not empty: for 2 seconds after a write, current_version and versions are those of before it.',
    replace: (rules) => staleV2(rules, 'metadata', ['write']),
  }),
  fault('kv.v2-metadata-read-stale-after-metadata-write', {
    breaks: 'kv.v2.metadata-write',
    statements: ['doc.core.kv.v2-subpath-metadata'],
    description:
      'A metadata read is served from a cache a metadata write does not empty: for 2 seconds after it, max_versions, cas_required and custom_metadata read as before.',
    replace: (rules) => staleV2(rules, 'metadata', ['metadata-write']),
  }),
  fault('kv.v2-config-read-stale', {
    breaks: 'kv.v2.config',
    statements: ['doc.core.kv.v2-subpaths'],
    description:
      'A config read is served from a cache a config write does not empty: for 2 seconds after a write, it answers the settings of before.',
    replace: (rules) => {
      let cached: { config: V2Config; at: number } | undefined;
      return {
        configRead: (config, now) => {
          if (cached && now - cached.at < STALE_MS) return { ...cached.config };
          cached = { config: rules.configRead(config, now), at: now };
          return { ...cached.config };
        },
      };
    },
  }),
  // --- a write replaces; settings a write omits keep their values ---
  fault('kv.v2-write-merges', {
    breaks: 'kv.v2.read-latest',
    statements: ['doc.core.kv.v2-data-path', 'doc.core.kv.v2-data-wrapped'],
    description:
      "A version 2 write merges the previous version's fields into the new version instead of replacing them.",
    replace: () => ({ v2VersionData: (previous, fields) => ({ ...(previous ?? {}), ...fields }) }),
  }),
  fault('kv.v2-custom-metadata-merged', {
    breaks: 'kv.v2.metadata-write',
    statements: ['doc.core.kv.v2-subpath-metadata'],
    description: 'A metadata write merges the custom_metadata sent into the stored map instead of replacing it.',
    replace: () => ({ customMetadata: (stored, sent) => ({ ...stored, ...sent }) }),
  }),
  fault('kv.v2-config-omitted-reset', {
    breaks: 'kv.v2.config',
    statements: ['doc.core.kv.v2-subpaths'],
    description:
      'A config write resets the fields it omits to their defaults (writing max_versions alone turns cas_required off again).',
    replace: () => ({ configBase: () => ({ maxVersions: 0, casRequired: false, deleteVersionAfter: 0 }) }),
  }),
  fault('kv.v2-metadata-omitted-reset', {
    breaks: 'kv.v2.metadata-write',
    statements: ['doc.core.kv.v2-subpath-metadata'],
    description:
      'A metadata write resets the fields it omits to their defaults (writing custom_metadata alone drops max_versions and cas_required).',
    replace: () => ({
      metadataDraft: (stored) => ({
        ...stored,
        maxVersions: 0,
        casRequired: false,
        deleteVersionAfter: 0,
        customMetadata: {},
      }),
    }),
  }),
  // --- check-and-set on every path to a write ---
  fault('kv.v2-cas-ignored-on-put', {
    breaks: 'kv.v2.cas-mismatch-400',
    statements: ['doc.core.kv.v2-data-path', 'doc.core.conventions.put-post-synonyms'],
    description:
      'options.cas is checked on POST but ignored on PUT, so a stale check-and-set write sent with PUT succeeds.',
    replace: (rules) => ({ casApplies: (method) => method !== 'PUT' && rules.casApplies(method) }),
  }),
  fault('kv.v2-cas-required-key-ignored', {
    breaks: 'kv.v2.cas-required',
    statements: ['doc.core.kv.v2-subpath-metadata'],
    description: "cas_required set in a key's metadata is ignored (only the engine config's setting is honoured).",
    replace: () => ({ casRequired: (engineSetting) => engineSetting }),
  }),
  fault('kv.v2-cas-required-config-ignored', {
    breaks: 'kv.v2.cas-required',
    statements: ['doc.core.kv.v2-subpaths'],
    description: "cas_required set in the engine config is ignored (only a key's metadata setting is honoured).",
    replace: () => ({ casRequired: (_engineSetting, keySetting) => keySetting }),
  }),
  // --- values at the documented limits and in every unit ---
  fault('kv.v2-cas-zero-refused', {
    breaks: 'kv.v2.cas-zero-create-only',
    statements: ['doc.core.kv.v2-data-path'],
    description: 'options.cas 0 is refused as below the minimum version 1, also for a key that does not exist yet.',
    replace: (rules) => ({ casMatches: (cas, current) => cas !== 0 && rules.casMatches(cas, current) }),
  }),
  fault('kv.v2-config-max-versions-zero-refused', {
    breaks: 'kv.v2.config',
    statements: ['doc.core.kv.v2-subpaths'],
    description: 'A config write of max_versions 0 (the engine default) is refused: the minimum is taken as 1.',
    replace: (rules) => ({
      configMaxVersions: (value) => {
        if (value === 0) throw badRequest('max_versions must be at least 1');
        return rules.configMaxVersions(value);
      },
    }),
  }),
  fault('kv.v2-max-versions-off-by-one', {
    breaks: 'kv.v2.max-versions',
    statements: ['doc.core.kv.v2-subpaths', 'doc.core.kv.v2-subpath-metadata'],
    description: 'A key keeps one version fewer than max_versions allows.',
    replace: (rules) => ({
      keptVersions: (keyMax, engineMax) => Math.max(1, rules.keptVersions(keyMax, engineMax) - 1),
    }),
  }),
  fault('kv.v2-duration-day-as-hours', {
    breaks: 'kv.v2.delete-version-after',
    statements: ['doc.core.kv.v2-subpaths', 'doc.core.kv.v2-subpath-metadata'],
    description: 'delete_version_after written with the day unit ("7d") is read as hours (7h).',
    replace: (rules) => ({
      durationSeconds: (value) =>
        rules.durationSeconds(typeof value === 'string' ? value.replace(/(\d+(?:\.\d+)?)d/g, '$1h') : value),
    }),
  }),
];

// ---- replacements too long to write inline ----

/** A version 1 read cache filled by reads and emptied only by the change `forgets`. */
function staleV1(rules: KvRules, forgets: 'write' | 'delete'): Partial<KvRules> {
  const cache = new Map<string, { value: Record<string, unknown> | undefined; at: number }>();
  return {
    v1Stored: (store, key, now) => {
      const hit = cache.get(key);
      if (hit && now - hit.at < STALE_MS) return hit.value && structuredClone(hit.value);
      const value = rules.v1Stored(store, key, now);
      cache.set(key, { value: value && structuredClone(value), at: now });
      return value;
    },
    v1Changed: (key, how) => {
      if (how === forgets) cache.delete(key);
      rules.v1Changed(key, how);
    },
  };
}

/** A version 2 read cache of one sub-path, filled by its reads and emptied by every change but those that `stay`. */
function staleV2(rules: KvRules, section: 'data' | 'metadata', stay: V2Change[]): Partial<KvRules> {
  const cache = new Map<string, { secret: Secret | undefined; at: number }>();
  return {
    v2Stored: (secrets, key, now, asked) => {
      if (asked !== section) return rules.v2Stored(secrets, key, now, asked);
      const hit = cache.get(key);
      if (hit && now - hit.at < STALE_MS) return hit.secret && structuredClone(hit.secret);
      const secret = rules.v2Stored(secrets, key, now, asked);
      cache.set(key, { secret: secret && structuredClone(secret), at: now });
      return secret;
    },
    v2Changed: (key, how) => {
      if (!stay.includes(how)) cache.delete(key);
      rules.v2Changed(key, how);
    },
  };
}
