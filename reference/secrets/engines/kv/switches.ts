// size: one table for the whole key-value engine, so each of its switches is found in one place beside its neighbours
/**
 * Every switch of the key-value engine, declared once where it takes effect: each fault breaks one
 * catalogued kv rule (spec/kv/requirements.yaml), each legal variant shows a behaviour the documents
 * allow, and each replaces one or more rules of rules.ts (see reference/switches.ts). Variants come
 * first, so a fault replaces the rule as a variant left it.
 */
import type { Faults } from '../../../faults.js';
import { rulesWith, switchesOf } from '../../../switches.js';
import type { Variants } from '../../../variants.js';
import { badRequest } from '../../errors.js';
import { rfc3339 } from '../../timestamps.js';
import { kvDataSwitches } from './data-switches.js';
import { type KvRules, documented, isDeleted } from './rules.js';
import { kvStateSwitches } from './state-switches.js';

const { fault, variant } = switchesOf<KvRules>(['kv']);
const KV = 'secrets-service-core.md, Key-value engine (mount secret)';

const nothing = (): void => {};

const kvMainSwitches = [
  // --- legal variants ---
  variant('kv.timestamps-nanoseconds', {
    allows: `${KV}: the version 2 sub-paths are named, their fields' formats are not (RFC 3339 at any precision)`,
    description:
      'created_time, deletion_time and updated_time carry up to nine fractional digits (RFC3339Nano), as the upstream product writes them.',
    replace: () => ({ iso: (ms) => (ms === null ? '' : rfc3339(ms, true)) }),
  }),
  variant('kv.negative-max-versions-accepted', {
    allows: `${KV}: config and metadata sub-paths named, their fields and limits not given`,
    description:
      'A negative max_versions in config or metadata is accepted and means "not set" (the engine default), as the upstream product does not refuse it.',
    replace: (rules) => {
      const lenient = (max: (value: unknown) => number) => (value: unknown) =>
        Number.isInteger(value) && (value as number) < 0 ? 0 : max(value);
      return { maxVersions: lenient(rules.maxVersions), configMaxVersions: lenient(rules.configMaxVersions) };
    },
  }),
  variant('kv.durations-go-format', {
    allows: `${KV}: the format of delete_version_after on reads is not given`,
    description:
      'delete_version_after reads back in the upstream product\'s duration format ("1h0m0s", "0s") instead of whole seconds ("3600s").',
    replace: () => ({
      duration: (seconds) => {
        if (seconds === 0) return '0s';
        const h = Math.floor(seconds / 3600);
        const m = Math.floor((seconds % 3600) / 60);
        const s = seconds % 60;
        return h ? `${h}h${m}m${s}s` : m ? `${m}m${s}s` : `${s}s`;
      },
    }),
  }),
  variant('kv.deleted-read-bare-404', {
    allows: `${KV} and Errors: a read of a deleted version is an error; "Body for status >= 400: {errors: [...]}" (no metadata promised)`,
    description: 'Reading a deleted or destroyed version answers 404 {errors: []} without the version metadata.',
    replace: () => ({ goneBody: () => ({ errors: [] }) }),
  }),
  variant('kv.versions-lenient', {
    allows: `${KV}: the delete/undelete/destroy bodies are not shown`,
    description:
      'delete, undelete and destroy also take versions as numeric strings ["1"] or one comma-separated string "1,2", as the upstream product\'s weak decoding does.',
    replace: (rules) => ({
      versions: (value) => {
        const items = typeof value === 'string' ? value.split(',') : value;
        if (!Array.isArray(items)) return rules.versions(value);
        return rules.versions(items.map((n) => (typeof n === 'string' && /^\s*\d+\s*$/.test(n) ? Number(n) : n)));
      },
    }),
  }),
  variant('kv.list-leaf-refused-400', {
    allows: `${KV}: "Listing is allowed on directories only" (the answer to a LIST of a leaf is not given)`,
    description:
      'A LIST on a key that holds a secret and has nothing under it answers 400 "not a directory" instead of 404.',
    statements: ['doc.core.kv.list-directories-only'],
    replace: () => ({ leafListRefusal: () => badRequest('cannot list a key that is not a directory') }),
  }),
  // --- faults ---
  fault('kv.version-option-ignored', {
    breaks: 'kv.mount.type-kv',
    statements: ['doc.core.mounts.secret-kv', 'doc.core.kv.v2-data-path'],
    description: 'options.version "2" is ignored: every kv mount is version 1.',
    replace: () => ({ version: () => 1 }),
  }),
  // version 1
  fault('kv.v1-read-wrapped', {
    breaks: 'kv.v1.write-read',
    statements: ['doc.core.kv.v1-body'],
    description: 'A version 1 read wraps the fields in data.data like version 2.',
    replace: () => ({ v1Read: (value) => ({ data: { data: { ...value } } }) }),
  }),
  fault('kv.v1-values-stringified', {
    breaks: 'kv.v1.body-fields',
    statements: ['doc.core.kv.v1-body'],
    description: 'Version 1 stores every field value as a string.',
    replace: () => ({
      v1Values: (fields) => Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, String(v)])),
    }),
  }),
  fault('kv.v1-write-merges', {
    breaks: 'kv.v1.overwrite',
    statements: ['doc.core.kv.v1-body'],
    description: 'A version 1 write merges into the stored fields instead of replacing them.',
    replace: () => ({ v1Overwrite: (previous, fields) => ({ ...previous, ...fields }) }),
  }),
  fault('kv.v1-nested-key-flattened', {
    breaks: 'kv.v1.nested-keys',
    statements: ['doc.core.kv.v1-path'],
    description: 'Version 1 stores a/b/c under its last segment only.',
    replace: () => ({ v1Key: (path) => path.split('/').pop()! }),
  }),
  fault('kv.v1-accepts-empty-write', {
    breaks: 'kv.v1.empty-body-400',
    statements: ['doc.core.kv.v1-body'],
    description: 'A version 1 write with no fields is accepted.',
    replace: () => ({ v1CheckWrite: nothing }),
  }),
  fault('kv.v1-read-missing-200', {
    breaks: 'kv.v1.read-missing-404',
    statements: ['doc.core.kv.v1-path', 'doc.core.errors.status-404-invalid-path'],
    description: 'Reading a version 1 key that holds nothing answers 200 with empty data.',
    replace: () => ({ v1ReadMissing: () => ({ data: {} }) }),
  }),
  fault('kv.v1-delete-ignored', {
    breaks: 'kv.v1.delete',
    statements: ['doc.core.kv.v1-path'],
    description: 'DELETE on a version 1 key answers 204 but keeps the secret.',
    replace: () => ({ v1Delete: nothing }),
  }),
  fault('kv.v1-read-leased', {
    breaks: 'kv.v1.no-lease',
    statements: ['doc.core.envelope.lease-id'],
    description: 'A version 1 read creates a lease.',
    replace: () => ({
      v1Read: (value) => ({ data: { ...value }, lease: { ttl: 3600, renewable: false, revoke: async () => {} } }),
    }),
  }),
  // listing
  fault('kv.list-leaf-lists-itself', {
    breaks: 'kv.list.directories-only',
    statements: ['doc.core.kv.list-directories-only'],
    description: 'A LIST on a leaf key returns the leaf name instead of nothing.',
    replace: () => ({ leafIsDirectory: true }),
  }),
  fault('kv.list-deep-keys', {
    breaks: 'kv.list.folder-suffix',
    statements: ['doc.core.kv.list-keys-under-path'],
    description: 'A LIST returns every key below the directory, not just the direct children.',
    replace: () => ({ listEntry: (rest) => rest }),
  }),
  fault('kv.list-sibling-keys', {
    breaks: 'kv.list.keys-under-path',
    statements: ['doc.core.kv.list-keys-under-path'],
    description:
      'A LIST matches the path as a bare string prefix: a sibling directory whose name starts with the listed one (dir-beside/ beside dir/) is listed too.',
    replace: (rules) => ({
      keysBelow: (paths, prefix) => [...rules.keysBelow(paths, prefix), ...siblings(paths, prefix)],
    }),
  }),
  fault('kv.list-no-folder-suffix', {
    breaks: 'kv.list.folder-suffix',
    statements: ['doc.core.kv.list-keys-under-path'],
    description: 'Sub-directories are listed without their trailing slash.',
    replace: () => ({
      listEntry: (rest) => (rest.includes('/') ? rest.slice(0, rest.indexOf('/')) : rest),
    }),
  }),
  // version 2
  fault('kv.v2-data-path-missing', {
    breaks: 'kv.v2.data-path',
    statements: ['doc.core.kv.v2-data-path'],
    description: 'The data/ sub-path of a version 2 mount answers 404.',
    replace: (rules) => ({ v2Route: hiding('data', rules.v2Route) }),
  }),
  fault('kv.v2-data-unwrapped', {
    breaks: 'kv.v2.data-wrapped',
    statements: ['doc.core.kv.v2-data-wrapped'],
    description: 'A version 2 write stores the whole body instead of its data object.',
    replace: () => ({ v2WriteData: (body) => body }),
  }),
  fault('kv.v2-config-path-missing', {
    breaks: 'kv.v2.subpaths-exist',
    statements: ['doc.core.kv.v2-subpaths'],
    description: 'The config sub-path of a version 2 mount answers 404.',
    replace: (rules) => ({ v2Route: hiding('config', rules.v2Route) }),
  }),
  fault('kv.v2-unwrapped-path-served', {
    breaks: 'kv.v2.unwrapped-path-404',
    statements: ['doc.core.kv.v2-data-path'],
    description: 'secret/<key> without data/ on a version 2 mount behaves like data/<key>.',
    replace: (rules) => ({
      v2Route: (path) => {
        const route = rules.v2Route(path);
        return route.section ? route : { section: 'data', key: path };
      },
    }),
  }),
  fault('kv.v2-data-optional', {
    breaks: 'kv.v2.write-without-data-400',
    statements: ['doc.core.kv.v2-data-wrapped'],
    description: 'A version 2 write without a data object is accepted as an empty version.',
    replace: () => ({ v2MissingData: () => ({}) }),
  }),
  fault('kv.v2-write-metadata-missing', {
    breaks: 'kv.v2.write-returns-version',
    statements: ['doc.core.kv.v2-data-path'],
    description: 'A version 2 write answers 204 without the version metadata.',
    replace: () => ({ v2WriteResponse: () => ({}) }),
  }),
  fault('kv.version-not-incremented', {
    breaks: 'kv.v2.versions-increment',
    statements: ['doc.core.kv.v2-data-path'],
    description: 'A second version 2 write overwrites version 1 instead of creating version 2.',
    replace: () => ({ nextVersion: (current) => (current > 0 ? current : current + 1) }),
  }),
  fault('kv.v2-read-oldest', {
    breaks: 'kv.v2.read-latest',
    statements: ['doc.core.kv.v2-data-path'],
    description: 'A version 2 read without ?version returns the oldest kept version.',
    replace: () => ({ latestVersion: (s) => s.oldest }),
  }),
  fault('kv.v2-version-param-ignored', {
    breaks: 'kv.v2.read-version',
    statements: ['doc.core.kv.v2-data-path'],
    description: '?version=N is ignored and the latest version is returned.',
    replace: () => ({ requestedVersion: () => null }),
  }),
  fault('kv.v2-read-missing-200', {
    breaks: 'kv.v2.read-missing-404',
    statements: ['doc.core.kv.v2-data-path', 'doc.core.errors.status-404-invalid-path'],
    description: 'Reading a version 2 key that does not exist answers 200 with empty data.',
    replace: () => ({ v2ReadMissing: () => ({ data: { data: {}, metadata: null } }) }),
  }),
  fault('kv.v2-deleted-still-readable', {
    breaks: 'kv.v2.deleted-not-read',
    statements: ['doc.core.kv.v2-subpaths'],
    description: 'A soft-deleted version still reads with 200 and its data.',
    replace: () => ({ v2ReadGone: (_deleted, destroyed) => destroyed }),
  }),
  fault('kv.cas-ignored', {
    breaks: 'kv.v2.cas-mismatch-400',
    statements: ['doc.core.kv.v2-data-path'],
    description: 'options.cas is ignored, so a stale check-and-set write succeeds.',
    replace: () => ({ casMatches: () => true }),
  }),
  fault('kv.v2-cas-zero-overwrites', {
    breaks: 'kv.v2.cas-zero-create-only',
    statements: ['doc.core.kv.v2-data-path'],
    description: 'options.cas 0 lets a write overwrite an existing key.',
    replace: (rules) => ({
      casMatches: (cas, current) => cas === 0 || rules.casMatches(cas, current),
    }),
  }),
  fault('kv.v2-cas-required-ignored', {
    breaks: 'kv.v2.cas-required',
    statements: ['doc.core.kv.v2-subpaths'],
    description: 'cas_required is stored but writes without cas still succeed.',
    replace: () => ({ casRequired: () => false }),
  }),
  fault('kv.v2-config-not-saved', {
    breaks: 'kv.v2.config',
    statements: ['doc.core.kv.v2-subpaths'],
    description: 'cas_required written to secret/config is not kept.',
    replace: () => ({ configCasRequired: (_value, current) => current }),
  }),
  fault('kv.v2-config-types-unchecked', {
    breaks: 'kv.v2.config-invalid-400',
    statements: ['doc.core.kv.v2-subpaths'],
    description: 'secret/config accepts wrongly typed max_versions and cas_required.',
    replace: () => ({
      configMaxVersions: (value) => Number(value) || 0,
      configCasRequired: (value) => value === true,
    }),
  }),
  fault('kv.v2-max-versions-ignored', {
    breaks: 'kv.v2.max-versions',
    statements: ['doc.core.kv.v2-subpaths'],
    description: 'max_versions never prunes old versions.',
    replace: () => ({ keptVersions: () => Infinity }),
  }),
  fault('kv.v2-delete-latest-ignored', {
    breaks: 'kv.v2.deleted-not-read',
    statements: ['doc.core.kv.v2-data-path'],
    description: 'DELETE secret/data/<key> answers 204 but deletes nothing.',
    replace: () => ({ deleteLatest: nothing }),
  }),
  fault('kv.v2-delete-versions-ignored', {
    breaks: 'kv.v2.deleted-not-read',
    statements: ['doc.core.kv.v2-subpaths'],
    description: 'POST secret/delete/<key> answers 204 but deletes nothing.',
    replace: () => ({ deleteVersion: nothing }),
  }),
  fault('kv.v2-deleted-read-400', {
    breaks: 'kv.v2.deleted-read-404',
    statements: ['doc.core.kv.v2-subpath-delete'],
    description: 'A read of a soft-deleted or destroyed version answers 400 (without its data) instead of 404.',
    replace: () => ({ goneStatus: () => 400 }),
  }),
  fault('kv.v2-delete-latest-deletes-all', {
    breaks: 'kv.v2.delete-latest',
    statements: ['doc.core.kv.v2-data-path'],
    description: 'DELETE secret/data/<key> soft-deletes every version, not only the latest.',
    replace: () => ({ latestDeletion: (s) => [...s.versions.keys()] }),
  }),
  fault('kv.v2-delete-versions-spill', {
    breaks: 'kv.v2.delete-versions',
    statements: ['doc.core.kv.v2-subpath-delete'],
    description: 'POST secret/delete/<key> also soft-deletes the newest version besides the versions named.',
    replace: (rules) => ({
      versionsActedOn: (named, s, op) => {
        const acted = rules.versionsActedOn(named, s, op);
        return op === 'delete' && !acted.includes(s.current) ? [...acted, s.current] : acted;
      },
    }),
  }),
  fault('kv.undelete-ignored', {
    breaks: 'kv.v2.undelete',
    statements: ['doc.core.kv.v2-subpaths'],
    description: 'POST secret/undelete/<key> answers 204 but restores nothing.',
    replace: () => ({ undelete: nothing }),
  }),
  fault('kv.v2-destroy-soft', {
    breaks: 'kv.v2.destroy',
    statements: ['doc.core.kv.v2-subpaths'],
    description: 'destroy only soft-deletes, so undelete brings the data back.',
    replace: () => ({
      destroy: (v, now) => {
        v.deletedAt = now;
      },
    }),
  }),
  fault('kv.v2-versions-unchecked', {
    breaks: 'kv.v2.versions-required-400',
    statements: ['doc.core.kv.v2-subpaths'],
    description: 'delete/undelete/destroy without versions answer 204.',
    replace: (rules) => ({
      versions: (value) => {
        try {
          return rules.versions(value);
        } catch {
          return [];
        }
      },
    }),
  }),
  fault('kv.v2-metadata-versions-missing', {
    breaks: 'kv.v2.metadata-read',
    statements: ['doc.core.kv.v2-subpaths'],
    description: 'The metadata read has an empty versions map.',
    replace: () => ({ metadataVersions: () => ({}) }),
  }),
  fault('kv.v2-metadata-current-version-counts', {
    breaks: 'kv.v2.metadata-read',
    statements: ['doc.core.kv.v2-subpaths'],
    description:
      'The metadata read reports as current_version the number of versions kept, not the newest version: wrong once max_versions removed older ones.',
    replace: () => ({ metadataCurrentVersion: (s) => s.versions.size }),
  }),
  fault('kv.v2-version-created-time-of-key', {
    breaks: 'kv.v2.metadata-read',
    statements: ['doc.core.kv.v2-subpaths'],
    description: "Every version reports its key's creation time as created_time instead of the time it was written.",
    replace: () => ({ versionCreatedAt: (_v, s) => s.createdAt }),
  }),
  fault('kv.v2-metadata-list-hides-deleted', {
    breaks: 'kv.v2.metadata-list',
    statements: ['doc.core.kv.v2-subpaths', 'doc.core.kv.list-keys-under-path'],
    description:
      'LIST metadata/ leaves out a key whose latest version is soft-deleted or destroyed, though its metadata is kept until DELETE metadata/<key>.',
    replace: () => ({
      metadataListed: (s, now) => {
        const v = s.versions.get(s.current);
        return !!v && !isDeleted(v, now) && !v.destroyed;
      },
    }),
  }),
  fault('kv.v2-metadata-half-applied', {
    breaks: 'robustness.kv2writemetadata.unchanged',
    statements: ['doc.core.kv.v2-subpaths'],
    description: 'A metadata write refused for one bad field has already stored the valid fields before it.',
    suites: ['robustness'],
    replace: () => ({ metadataDraft: (stored) => stored }),
  }),
  fault('kv.v2-metadata-write-creates-version', {
    breaks: 'kv.v2.metadata-write',
    statements: ['doc.core.kv.v2-subpaths'],
    description: 'A metadata write creates a new version of the secret.',
    replace: () => ({
      metadataWriteVersions: (s, now) => {
        if (s.current === 0) return;
        const latest = s.versions.get(s.current)!;
        s.current += 1;
        s.versions.set(s.current, { ...latest, createdAt: now });
      },
    }),
  }),
  fault('kv.v2-metadata-delete-soft', {
    breaks: 'kv.v2.metadata-delete',
    statements: ['doc.core.kv.v2-subpaths'],
    description: 'DELETE secret/metadata/<key> only soft-deletes the versions; the key stays.',
    replace: () => ({
      metadataDelete: (secrets, key, now) => {
        for (const v of secrets.get(key)?.versions.values() ?? []) v.deletedAt = now;
      },
    }),
  }),
  fault('kv.v2-metadata-list-empty', {
    breaks: 'kv.v2.metadata-list',
    statements: ['doc.core.kv.v2-subpaths', 'doc.core.kv.list-keys-under-path'],
    description: 'LIST on secret/metadata/ finds nothing.',
    replace: () => ({ metadataList: () => [] }),
  }),
  fault('kv.v2-delete-version-after-ignored', {
    breaks: 'kv.v2.delete-version-after',
    statements: ['doc.core.kv.v2-subpaths'],
    description: 'delete_version_after never schedules a deletion.',
    replace: () => ({ deleteAfter: () => 0 }),
  }),
  fault('kv.v2-subkeys-values-leak', {
    breaks: 'kv.v2.subkeys',
    statements: ['doc.core.kv.v2-subpaths'],
    description: 'subkeys/ returns the secret values instead of nulls.',
    replace: () => ({ subkeyLeaf: (value) => value }),
  }),
  fault('kv.v2-custom-metadata-missing', {
    breaks: 'kv.v2.custom-metadata-on-read',
    statements: ['doc.core.kv.v2-subpaths'],
    description: 'A version 2 read reports custom_metadata null even when set.',
    replace: () => ({ versionCustomMetadata: () => null }),
  }),
];

/** The whole table: this file's switches, then its parts about state across requests and data beyond the plain. */
export const kvSwitches = [...kvMainSwitches, ...kvStateSwitches, ...kvDataSwitches];

/** Keys of the directories beside `prefix` whose names start with its name, relative to its parent. */
function siblings(paths: string[], prefix: string): string[] {
  const base = prefix.slice(0, -1);
  if (!base) return [];
  const parent = base.slice(0, base.lastIndexOf('/') + 1);
  return paths
    .filter((p) => p.startsWith(base) && !p.startsWith(prefix) && p !== base)
    .map((p) => p.slice(parent.length));
}

/** A route rule that no longer serves one sub-path (it becomes unsupported). */
function hiding(section: string, route: KvRules['v2Route']): KvRules['v2Route'] {
  return (path) => {
    const r = route(path);
    return r.section === section ? { section: '', key: path } : r;
  };
}

/** The kv rules with the switched-on faults and variants applied. */
export function kvRulesWith(faults: Faults, variants: Variants): KvRules {
  return rulesWith(documented, { faults, variants }, kvSwitches);
}
