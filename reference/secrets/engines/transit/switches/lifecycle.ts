/**
 * The transit engine's faults on the key lifecycle (transit document: Resources > Named key and Key
 * types; States and transitions; Key management: create, read, list, delete, config, rotate, trim,
 * config/keys, cache-config): each breaks one catalogued rule by replacing rules of ../rules.ts
 * (see reference/switches.ts). Gathered, in order, by index.ts.
 */
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { badRequest } from '../../../errors.js';
import { switchesOf } from '../../../../switches.js';
import { typeInfo, type NamedKey } from '../keys.js';
import type { TransitRules } from '../rules.js';

const { fault } = switchesOf<TransitRules>(['transit']);

const noCheck = (): void => undefined;

export const lifecycleSwitches = [
  fault('transit.create-wrong-type-500', {
    breaks: 'robustness.transitcreatekey.invalid-4xx',
    description: 'key creation answers 500 (an unchecked conversion) to a field of the wrong JSON type instead of 400',
    suites: ['robustness'],
    replace: (d) => ({
      wrongFieldType: (err, seg) =>
        seg[0] === 'keys' && seg.length === 2
          ? new TypeError(`cannot convert a field: ${(err as Error).message}`)
          : d.wrongFieldType(err, seg),
    }),
  }),
  fault('transit.read-drops-imported', {
    breaks: 'transit.key.read-fields',
    statements: ['doc.transit.keys-api.read'],
    description: 'the key read leaves out `imported`',
    replace: (d) => ({
      keyRead: (k) => {
        const view = d.keyRead(k);
        delete view.imported;
        return view;
      },
    }),
  }),
  fault('transit.keys-map-iso-time', {
    breaks: 'transit.key.keys-map',
    statements: ['doc.transit.key.keys-creation-time'],
    description: 'symmetric versions map to an ISO time string instead of Unix seconds',
    replace: (d) => ({
      keyRead: (k) => {
        const view = d.keyRead(k);
        const keys = view.keys as Record<string, unknown>;
        for (const [ver, info] of Object.entries(keys))
          if (typeof info === 'number') keys[ver] = new Date(k.versions.get(Number(ver))!.createdAt).toISOString();
        return view;
      },
    }),
  }),
  fault('transit.read-leaks-material', {
    breaks: 'transit.key.no-material-in-read',
    statements: ['doc.transit.key.keys-no-material'],
    description: 'the key read includes the symmetric key material',
    replace: (d) => ({
      keyRead: (k) => {
        const view = d.keyRead(k);
        const keys = view.keys as Record<string, unknown>;
        for (const v of k.versions.values()) if (v.key) keys[`material_${v.version}`] = v.key.toString('base64');
        return view;
      },
    }),
  }),
  fault('transit.supports-inverted', {
    breaks: 'transit.key.supports-by-type',
    statements: ['doc.transit.key.supports-encryption'],
    description: 'supports_encryption is the opposite of what the type supports',
    replace: (d) => ({
      keyRead: (k) => ({ ...d.keyRead(k), supports_encryption: !typeInfo(k).encryption }),
    }),
  }),
  fault('transit.default-type-aes128', {
    breaks: 'transit.key.default-type',
    statements: ['doc.transit.key-types.default', 'doc.transit.create.type-default'],
    description: 'a key created without type is aes128-gcm96',
    replace: () => ({ defaultKeyType: 'aes128-gcm96' }),
  }),
  fault('transit.hmac-default-size-16', {
    breaks: 'transit.key.hmac-default-size',
    statements: ['doc.transit.key-types.hmac-default-size', 'doc.transit.create.key-size-default'],
    description: 'an hmac key without key_size gets 16 bytes',
    replace: () => ({ hmacDefaultKeySize: 16 }),
  }),
  fault('transit.hmac-key-shared', {
    breaks: 'transit.key.hmac-every-type',
    statements: ['doc.transit.key-types.hmac-key-per-version'],
    description: 'rotation reuses the previous HMAC key instead of creating one',
    replace: () => ({ newHmacKey: (prev) => (prev ? prev.hmacKey : randomBytes(32)) }),
  }),
  fault('transit.ed25519-derivation-random', {
    breaks: 'transit.key.ed25519-derived-deterministic',
    statements: ['doc.transit.key-types.ed25519-derivation'],
    description: 'derived ed25519 keys mix a random salt into each derivation',
    replace: () => ({ derivationSalt: () => randomBytes(8) }),
  }),
  fault('transit.exportable-can-be-disabled', {
    breaks: 'transit.key.exportable-irreversible',
    statements: ['doc.transit.create.exportable-once', 'doc.transit.lifecycle.flags-irreversible'],
    description: 'config can turn exportable off again',
    replace: (d) => ({
      disableFlag: (field) => field === 'exportable' || d.disableFlag(field),
    }),
  }),
  fault('transit.plaintext-backup-can-be-disabled', {
    breaks: 'transit.key.plaintext-backup-irreversible',
    statements: [
      'doc.transit.create.plaintext-backup-once',
      'doc.transit.config.flags-once',
      'doc.transit.lifecycle.flags-irreversible-config',
    ],
    description: 'config can turn allow_plaintext_backup off again',
    replace: (d) => ({
      disableFlag: (field) => field === 'allow_plaintext_backup' || d.disableFlag(field),
    }),
  }),
  fault('transit.deletion-allowed-config-ignored', {
    breaks: 'transit.key.deletion-allowed-config',
    statements: ['doc.transit.lifecycle.deletion-allowed-config', 'doc.transit.keys-api.config'],
    description: 'config ignores deletion_allowed',
    replace: () => ({ applyDeletionAllowed: noCheck }),
  }),
  fault('transit.deletion-allowed-sticky', {
    breaks: 'transit.config.deletion-allowed-reset',
    statements: ['doc.transit.config.deletion-allowed'],
    description: 'config deletion_allowed false is ignored once deletion was allowed (the flag treated as once-set)',
    replace: (d) => ({
      applyDeletionAllowed: (next, body) => {
        const was = next.deletionAllowed;
        d.applyDeletionAllowed(next, body);
        next.deletionAllowed ||= was;
      },
    }),
  }),
  fault('transit.delete-keeps-key', {
    breaks: 'transit.key.delete',
    statements: ['doc.transit.lifecycle.delete-removes', 'doc.transit.keys-api.delete'],
    description: 'DELETE answers success but keeps the key',
    replace: () => ({ removeKey: noCheck }),
  }),
  fault('transit.delete-ignores-deletion-allowed', {
    breaks: 'transit.key.delete-not-allowed',
    statements: ['doc.transit.errors.delete-not-allowed', 'doc.transit.config.deletion-allowed'],
    description: 'DELETE removes keys whose deletion_allowed is false',
    replace: () => ({ checkDeletion: noCheck }),
  }),
  fault('transit.rotate-keeps-version', {
    breaks: 'transit.rotate.new-version',
    statements: ['doc.transit.lifecycle.rotate-new-encryption', 'doc.transit.versioning.numbered'],
    description: 'after rotation encryption keeps using the oldest available version',
    replace: (d) => ({
      outputVersion: (k, requested) =>
        requested === 0 ? Math.max(k.minAvailableVersion, 1) : d.outputVersion(k, requested),
    }),
  }),
  fault('transit.rotate-shrinks-key', {
    breaks: 'transit.rotate.keeps-size',
    statements: ['doc.transit.lifecycle.rotate-key-size'],
    description: 'rotating an aes256-gcm96 key creates a 16-byte version',
    replace: (d) => ({
      newVersionBytes: (k) => {
        const info = typeInfo(k);
        return k.latestVersion > 0 && info.kind === 'aead' && info.bytes === 32 ? 16 : d.newVersionBytes(k);
      },
    }),
  }),
  fault('transit.rotate-imported-without-allow', {
    breaks: 'transit.rotate.imported-needs-allow-rotation',
    statements: ['doc.transit.lifecycle.rotate-imported-allow-rotation', 'doc.transit.import.allow-rotation'],
    description: 'imported keys rotate without allow_rotation',
    replace: () => ({ checkRotation: noCheck }),
  }),
  fault('transit.trim-keeps-versions', {
    breaks: 'transit.trim.removes-old',
    statements: ['doc.transit.lifecycle.trim-deletes', 'doc.transit.keys-api.trim'],
    description: 'trim records the minimum but deletes nothing',
    replace: () => ({ trimVersions: noCheck }),
  }),
  fault('transit.trim-bounds-unchecked', {
    breaks: 'transit.trim.bounds',
    statements: ['doc.transit.errors.trim-zero', 'doc.transit.errors.trim-above-maximum'],
    description: 'trim skips its bounds checks',
    replace: () => ({ checkTrim: noCheck }),
  }),
  fault('transit.list-missing-keys', {
    breaks: 'transit.keys.list',
    statements: ['doc.transit.keys-api.list'],
    // Not "the newest key left out": the tests of a file run side by side on one mount, so the newest
    // key may be another test's; a list cut to one name misses one of any test's two keys.
    description: 'LIST answers only the first key name (a page of one)',
    replace: () => ({ listed: (names) => names.slice(0, 1) }),
  }),
  fault('transit.convergent-without-derived', {
    breaks: 'transit.create.convergent-requires-derived',
    statements: ['doc.transit.create.convergent-requires-derived'],
    description: 'convergent_encryption is accepted without derived',
    replace: () => ({ checkConvergent: noCheck }),
  }),
  fault('transit.key-size-unchecked', {
    breaks: 'transit.create.key-size-range',
    statements: ['doc.transit.create.key-size-range', 'doc.transit.limits.key-size'],
    description: 'hmac key_size outside 32..512 is accepted',
    replace: () => ({ checkHmacKeySize: noCheck }),
  }),
  fault('transit.auto-rotate-min-unchecked', {
    breaks: 'transit.create.auto-rotate-min',
    statements: [
      'doc.transit.create.auto-rotate-minimum',
      'doc.transit.config.auto-rotate-minimum',
      'doc.transit.limits.auto-rotate-period',
    ],
    description: 'auto_rotate_period under one hour is accepted',
    replace: () => ({ checkAutoRotatePeriod: noCheck }),
  }),
  fault('transit.auto-rotate-never', {
    breaks: 'transit.auto-rotate.rotates',
    statements: ['doc.transit.create.auto-rotate-period'],
    description: 'keys are never rotated automatically',
    replace: () => ({ autoRotates: () => false }),
  }),
  fault('transit.auto-rotate-zero-ignored', {
    breaks: 'transit.auto-rotate.zero-disables',
    statements: ['doc.transit.config.auto-rotate-zero'],
    description: 'config auto_rotate_period 0 keeps the previous period',
    replace: () => ({
      autoRotateUpdate: (current, requested) => (requested === 0 ? current : requested),
    }),
  }),
  fault('transit.config-min-versions-unchecked', {
    breaks: 'transit.config.min-versions',
    statements: ['doc.transit.config.min-encryption-rule'],
    description: 'min_encryption_version below min_decryption_version is accepted',
    replace: () => ({ checkMinVersions: noCheck }),
  }),
  fault('transit.min-decryption-ignored', {
    breaks: 'transit.config.min-decryption',
    statements: ['doc.transit.config.min-decryption-ciphertext', 'doc.transit.versioning.bounds'],
    description: 'versions below min_decryption_version still decrypt and verify',
    replace: () => ({ allowsVersion: () => true }),
  }),
  fault('transit.cache-size-unchecked', {
    breaks: 'transit.cache-config.size',
    statements: ['doc.transit.keys-api.cache-config-write', 'doc.transit.limits.cache-size'],
    description: 'cache-config accepts sizes 1 to 9',
    replace: () => ({ checkCacheSize: noCheck }),
  }),
  fault('transit.cache-size-ten-refused', {
    breaks: 'transit.cache-config.size',
    statements: ['doc.transit.limits.cache-size'],
    description: 'cache-config refuses size 10 (the documented minimum, ">= 10", taken as exclusive)',
    replace: () => ({
      checkCacheSize: (size) => {
        if (size < 0 || (size > 0 && size <= 10)) throw badRequest('size must be 0 (unlimited) or more than 10');
      },
    }),
  }),
  fault('transit.cache-read-zero', {
    breaks: 'transit.cache-config.read',
    statements: ['doc.transit.keys-api.cache-config-read', 'doc.transit.service.cache-configuration'],
    description: 'GET cache-config always answers 0',
    replace: () => ({ cacheSizeRead: () => 0 }),
  }),
  fault('transit.disable-upsert-not-persisted', {
    breaks: 'transit.config-keys.disable-upsert',
    statements: ['doc.transit.keys-api.disable-upsert-read'],
    description: 'GET config/keys always answers false',
    replace: () => ({ disableUpsertRead: () => false }),
  }),

  // ---------------------------------------------------------------- create, delete, rotate
  fault('transit.delete-leaves-cached-key', {
    breaks: 'transit.key.delete',
    statements: ['doc.transit.lifecycle.delete-data-lost'],
    description: 'a deleted key stays in the key cache: reads answer 404 but decrypt still finds it',
    replace: (d) => {
      const cache = new Map<string, NamedKey>();
      return {
        removeKey: (keys, name) => {
          const k = keys.get(name);
          if (k) cache.set(name, k);
          d.removeKey(keys, name);
        },
        cachedKey: (name) => cache.get(name) ?? d.cachedKey(name),
      };
    },
  }),
  fault('transit.rotate-no-new-version', {
    breaks: 'transit.rotate.new-version',
    statements: ['doc.transit.lifecycle.rotate-new-version', 'doc.transit.keys-api.rotate'],
    description: 'POST keys/:name/rotate answers success and adds no version',
    replace: () => ({ rotatesOnRequest: () => false }),
  }),
  fault('transit.rotate-refused-for-rsa', {
    breaks: 'transit.rotate.keeps-size',
    statements: ['doc.transit.lifecycle.rotate-condition'],
    description: 'RSA keys cannot be rotated, though they encrypt and decrypt',
    replace: (d) => ({
      checkRotation: (k) => {
        if (typeInfo(k).kind === 'rsa') throw badRequest('rotation is not supported for RSA keys');
        d.checkRotation(k);
      },
    }),
  }),
  fault('transit.create-overwrites-existing', {
    breaks: 'transit.create.immutable',
    statements: ['doc.transit.create.immutable'],
    description: 'POST keys/:name on an existing key creates it anew with the new values',
    replace: () => ({ recreateExisting: () => true }),
  }),
  fault('transit.convergent-by-default', {
    breaks: 'transit.create.convergent-default',
    statements: ['doc.transit.create.convergent-default'],
    description: 'a derived key created without convergent_encryption is convergent',
    replace: (d) => ({
      convergentRequested: (body, derived) =>
        body.convergent_encryption === undefined ? derived : d.convergentRequested(body, derived),
    }),
  }),
  fault('transit.convergent-nonce-per-context', {
    breaks: 'transit.create.convergent-nonce',
    statements: ['doc.transit.create.convergent-nonce'],
    description: "a convergent key's nonce is derived from the context only, so one context reuses one nonce",
    replace: (d) => ({
      aeadNonce: (k, key, plaintext) =>
        k.convergent
          ? createHmac('sha256', key).update('nonce').digest().subarray(0, 12)
          : d.aeadNonce(k, key, plaintext),
    }),
  }),
  fault('transit.key-size-for-every-type', {
    breaks: 'transit.create.key-size-hmac-only',
    statements: ['doc.transit.create.key-size-hmac-only'],
    description: 'key_size is accepted with every type and sizes its symmetric key',
    replace: (d) => ({
      checkKeySizeType: () => undefined,
      newVersionBytes: (k) => (k.keySize > 0 && typeInfo(k).kind === 'aead' ? k.keySize : d.newVersionBytes(k)),
    }),
  }),
  fault('transit.list-lease-fields', {
    breaks: 'transit.keys.list',
    statements: ['doc.transit.keys-api.list-lease-duration', 'doc.transit.keys-api.list-renewable'],
    description: "LIST /transit/keys answers with the mount's lease: lease_duration 768h and renewable true",
    replace: (d) => ({
      answer: (a) => {
        const res = d.answer(a);
        if (a.method !== 'LIST' || a.seg.length !== 1 || a.seg[0] !== 'keys' || res.rawBody !== undefined) return res;
        return {
          ...res,
          rawBody: {
            request_id: randomUUID(),
            lease_id: '',
            renewable: true,
            lease_duration: 2764800,
            data: res.data,
            wrap_info: null,
            warnings: null,
            auth: null,
          },
        };
      },
    }),
  }),
  fault('transit.disable-upsert-default-true', {
    breaks: 'transit.config-keys.disable-upsert',
    statements: ['doc.transit.keys-api.disable-upsert-default'],
    description: 'GET config/keys answers disable_upsert true until the setting is first written',
    replace: (d) => {
      let written = false;
      return {
        disableUpsertAnswer: (previous, now) => {
          written = true;
          return d.disableUpsertAnswer(previous, now);
        },
        disableUpsertRead: (stored) => (written ? d.disableUpsertRead(stored) : true),
      };
    },
  }),
  fault('transit.disable-upsert-write-answer-stale', {
    breaks: 'transit.config-keys.disable-upsert',
    statements: ['doc.transit.keys-api.disable-upsert-write-answer'],
    description: 'POST config/keys answers the disable_upsert it had before the write',
    replace: () => ({ disableUpsertAnswer: (previous) => previous }),
  }),
];
