/**
 * Every switch of the key-value engine and the rule it replaces (rules.ts): the one place each kv
 * fault and variant takes effect. Declarations: faults.ts, variants.ts. Variants come first, so a
 * fault replaces the rule as a variant left it.
 */
import type { Faults } from '../../../faults.js';
import type { FaultName, VariantName } from '../../../switch-names.js';
import { withSwitches } from '../../../switches.js';
import type { Variants } from '../../../variants.js';
import { rfc3339 } from '../../timestamps.js';
import { type KvRules, documented } from './rules.js';

type KvSwitch = Extract<FaultName | VariantName, `kv.${string}`>;

const nothing = (): void => {};

const table: { [K in KvSwitch]: (rules: KvRules) => Partial<KvRules> } = {
  // --- legal variants -------------------------------------------------------------------------
  'kv.timestamps-nanoseconds': () => ({ iso: (ms) => (ms === null ? '' : rfc3339(ms, true)) }),
  'kv.negative-max-versions-accepted': (rules) => {
    const lenient = (max: (value: unknown) => number) => (value: unknown) =>
      Number.isInteger(value) && (value as number) < 0 ? 0 : max(value);
    return { maxVersions: lenient(rules.maxVersions), configMaxVersions: lenient(rules.configMaxVersions) };
  },
  'kv.durations-go-format': () => ({
    duration: (seconds) => {
      if (seconds === 0) return '0s';
      const h = Math.floor(seconds / 3600);
      const m = Math.floor((seconds % 3600) / 60);
      const s = seconds % 60;
      return h ? `${h}h${m}m${s}s` : m ? `${m}m${s}s` : `${s}s`;
    },
  }),
  'kv.deleted-read-bare-404': () => ({ goneBody: () => ({ errors: [] }) }),
  'kv.versions-lenient': (rules) => ({
    versions: (value) => {
      const items = typeof value === 'string' ? value.split(',') : value;
      if (!Array.isArray(items)) return rules.versions(value);
      return rules.versions(items.map((n) => (typeof n === 'string' && /^\s*\d+\s*$/.test(n) ? Number(n) : n)));
    },
  }),

  // --- faults ---------------------------------------------------------------------------------
  'kv.version-option-ignored': () => ({ version: () => 1 }),
  // version 1
  'kv.v1-read-wrapped': () => ({ v1Read: (value) => ({ data: { data: { ...value } } }) }),
  'kv.v1-values-stringified': () => ({
    v1Values: (fields) => Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, String(v)])),
  }),
  'kv.v1-write-merges': () => ({ v1Overwrite: (previous, fields) => ({ ...previous, ...fields }) }),
  'kv.v1-nested-key-flattened': () => ({ v1Key: (path) => path.split('/').pop()! }),
  'kv.v1-accepts-empty-write': () => ({ v1CheckWrite: nothing }),
  'kv.v1-read-missing-200': () => ({ v1ReadMissing: () => ({ data: {} }) }),
  'kv.v1-delete-ignored': () => ({ v1Delete: nothing }),
  'kv.v1-read-leased': () => ({
    v1Read: (value) => ({ data: { ...value }, lease: { ttl: 3600, renewable: false, revoke: async () => {} } }),
  }),
  // listing
  'kv.list-leaf-lists-itself': () => ({ leafIsDirectory: true }),
  'kv.list-deep-keys': () => ({ listEntry: (rest) => rest }),
  'kv.list-no-folder-suffix': () => ({
    listEntry: (rest) => (rest.includes('/') ? rest.slice(0, rest.indexOf('/')) : rest),
  }),
  // version 2
  'kv.v2-data-path-missing': (rules) => ({ v2Route: hiding('data', rules.v2Route) }),
  'kv.v2-data-unwrapped': () => ({ v2WriteData: (body) => body }),
  'kv.v2-config-path-missing': (rules) => ({ v2Route: hiding('config', rules.v2Route) }),
  'kv.v2-unwrapped-path-served': (rules) => ({
    v2Route: (path) => {
      const route = rules.v2Route(path);
      return route.section ? route : { section: 'data', key: path };
    },
  }),
  'kv.v2-data-optional': () => ({ v2MissingData: () => ({}) }),
  'kv.v2-write-metadata-missing': () => ({ v2WriteResponse: () => ({}) }),
  'kv.version-not-incremented': () => ({ nextVersion: (current) => (current > 0 ? current : current + 1) }),
  'kv.v2-read-oldest': () => ({ latestVersion: (s) => s.oldest }),
  'kv.v2-version-param-ignored': () => ({ requestedVersion: () => null }),
  'kv.v2-read-missing-200': () => ({ v2ReadMissing: () => ({ data: { data: {}, metadata: null } }) }),
  'kv.v2-deleted-still-readable': () => ({ v2ReadGone: (_deleted, destroyed) => destroyed }),
  'kv.cas-ignored': () => ({ casMatches: () => true }),
  'kv.v2-cas-zero-overwrites': (rules) => ({
    casMatches: (cas, current) => cas === 0 || rules.casMatches(cas, current),
  }),
  'kv.v2-cas-required-ignored': () => ({ casRequired: () => false }),
  'kv.v2-config-not-saved': () => ({ configCasRequired: (_value, current) => current }),
  'kv.v2-config-types-unchecked': () => ({
    configMaxVersions: (value) => Number(value) || 0,
    configCasRequired: (value) => value === true,
  }),
  'kv.v2-max-versions-ignored': () => ({ keptVersions: () => Infinity }),
  'kv.v2-delete-latest-ignored': () => ({ deleteLatest: nothing }),
  'kv.v2-delete-versions-ignored': () => ({ deleteVersion: nothing }),
  'kv.undelete-ignored': () => ({ undelete: nothing }),
  'kv.v2-destroy-soft': () => ({
    destroy: (v, now) => {
      v.deletedAt = now;
    },
  }),
  'kv.v2-versions-unchecked': (rules) => ({
    versions: (value) => {
      try {
        return rules.versions(value);
      } catch {
        return [];
      }
    },
  }),
  'kv.v2-metadata-versions-missing': () => ({ metadataVersions: () => ({}) }),
  'kv.v2-metadata-half-applied': () => ({ metadataDraft: (stored) => stored }),
  'kv.v2-metadata-write-creates-version': () => ({
    metadataWriteVersions: (s, now) => {
      if (s.current === 0) return;
      const latest = s.versions.get(s.current)!;
      s.current += 1;
      s.versions.set(s.current, { ...latest, createdAt: now });
    },
  }),
  'kv.v2-metadata-delete-soft': () => ({
    metadataDelete: (secrets, key, now) => {
      for (const v of secrets.get(key)?.versions.values() ?? []) v.deletedAt = now;
    },
  }),
  'kv.v2-metadata-list-empty': () => ({ metadataList: () => [] }),
  'kv.v2-delete-version-after-ignored': () => ({ deleteAfter: () => 0 }),
  'kv.v2-subkeys-values-leak': () => ({ subkeyLeaf: (value) => value }),
  'kv.v2-custom-metadata-missing': () => ({ versionCustomMetadata: () => null }),
};

/** A route rule that no longer serves one sub-path (it becomes unsupported). */
function hiding(section: string, route: KvRules['v2Route']): KvRules['v2Route'] {
  return (path) => {
    const r = route(path);
    return r.section === section ? { section: '', key: path } : r;
  };
}

/** The kv rules with the switched-on faults and variants applied. */
export function kvRulesWith(faults: Faults, variants: Variants): KvRules {
  const on = new Set([...faults.list(), ...variants.list()]);
  return withSwitches<KvRules, KvSwitch>(documented, { has: (name) => on.has(name) }, table);
}
