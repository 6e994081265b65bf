/**
 * The transit engine's faults on single clauses of key management (transit document: Named key,
 * Key types, States and transitions, Key management: list, delete, config, rotate, trim,
 * config/keys, restore; Limits; a key's material is key-material-clauses.ts),
 * written from the documents and the reference alone, one per clause no earlier fault broke: a
 * value exactly at a documented limit or in another unit, one case of a general rule, a default lost
 * after a later write, a write answer without a documented field, a read served stale after a
 * write or a delete. Each replaces rules of ../rules.ts or ../key-rules.ts (see reference/switches.ts);
 * gathered, in order, by index.ts.
 */
import { randomBytes } from 'node:crypto';
import { badRequest } from '../../../errors.js';
import { switchesOf } from '../../../../switches.js';
import { typeInfo, type NamedKey } from '../keys.js';
import type { TransitRules } from '../rules.js';

const { fault } = switchesOf<TransitRules>(['transit']);

const HOUR = 3600;

/** The key read with `patch` applied to keys of the types `types` selects. */
const readOf =
  (types: (k: NamedKey) => boolean, patch: Record<string, unknown>) =>
  (d: TransitRules): Partial<TransitRules> => ({
    keyRead: (k) => (types(k) ? { ...d.keyRead(k), ...patch } : d.keyRead(k)),
  });

export const keyClauseSwitches = [
  // ---------------------------------------------------------------- the key read and the key types
  fault('transit.supports-decryption-rsa-false', {
    breaks: 'transit.key.supports-by-type',
    statements: ['doc.transit.key.supports-decryption'],
    description: 'the key read of an RSA key answers supports_decryption false (AEAD keys read true)',
    replace: readOf((k) => typeInfo(k).kind === 'rsa', { supports_decryption: false }),
  }),
  fault('transit.supports-derivation-aes128-chacha-false', {
    breaks: 'transit.key.supports-by-type',
    statements: ['doc.transit.key.supports-derivation'],
    description:
      'the key read of an aes128-gcm96 or chacha20-poly1305 key answers supports_derivation false (only aes256-gcm96 reads true)',
    replace: readOf((k) => k.type === 'aes128-gcm96' || k.type === 'chacha20-poly1305', { supports_derivation: false }),
  }),
  fault('transit.keys-map-milliseconds', {
    breaks: 'transit.key.keys-map',
    statements: ['doc.transit.key.keys-creation-time'],
    description: 'the keys map gives creation times in Unix milliseconds (an integer, but not seconds)',
    replace: (d) => ({
      keyRead: (k) => {
        const view = d.keyRead(k);
        const keys = view.keys as Record<string, unknown>;
        for (const [ver, info] of Object.entries(keys)) if (typeof info === 'number') keys[ver] = info * 1000;
        return view;
      },
    }),
  }),
  fault('transit.ecdsa-p256-on-p384', {
    breaks: 'transit.key.types',
    statements: ['doc.transit.key-types.ecdsa-p256'],
    description: 'ecdsa-p256 keys are generated on the P-384 curve',
    replace: (d) => ({
      materialType: (type, latest) => (type === 'ecdsa-p256' ? 'ecdsa-p384' : d.materialType(type, latest)),
    }),
  }),
  fault('transit.ecdsa-p521-on-p384', {
    breaks: 'transit.key.types',
    statements: ['doc.transit.key-types.ecdsa-p521'],
    description: 'ecdsa-p521 keys are generated on the P-384 curve',
    replace: (d) => ({
      materialType: (type, latest) => (type === 'ecdsa-p521' ? 'ecdsa-p384' : d.materialType(type, latest)),
    }),
  }),
  fault('transit.rsa-2048-is-3072', {
    breaks: 'transit.key.types',
    statements: ['doc.transit.key-types.rsa-2048'],
    description: 'rsa-2048 keys are generated with a 3072-bit modulus',
    replace: (d) => ({
      materialType: (type, latest) => (type === 'rsa-2048' ? 'rsa-3072' : d.materialType(type, latest)),
    }),
  }),
  fault('transit.rsa-4096-is-3072', {
    breaks: 'transit.key.types',
    statements: ['doc.transit.key-types.rsa-4096'],
    description: 'rsa-4096 keys are generated with a 3072-bit modulus',
    replace: (d) => ({
      materialType: (type, latest) => (type === 'rsa-4096' ? 'rsa-3072' : d.materialType(type, latest)),
    }),
  }),
  fault('transit.hmac-aes128-chacha-refused', {
    breaks: 'transit.key.hmac-every-type',
    statements: ['doc.transit.key-types.hmac-every-type'],
    description: 'HMAC with an aes128-gcm96 or chacha20-poly1305 key is refused (aes256-gcm96 and the others work)',
    replace: (d) => ({
      checkHmacSupported: (k) => {
        if (k.type === 'aes128-gcm96' || k.type === 'chacha20-poly1305')
          throw badRequest(`HMAC is not supported for key type ${k.type}`);
        d.checkHmacSupported(k);
      },
    }),
  }),
  fault('transit.hmac-key-128-bit', {
    breaks: 'transit.key.hmac-every-type',
    statements: ['doc.transit.key-types.hmac-key-per-version'],
    description: 'the second (HMAC) key of every version is 128-bit instead of 256-bit',
    replace: () => ({ newHmacKey: () => randomBytes(16) }),
  }),

  // ---------------------------------------------------------------- list, delete, caches
  fault('transit.list-lease-id-set', {
    breaks: 'transit.keys.list',
    statements: ['doc.transit.keys-api.list-lease-id'],
    description: 'LIST /transit/keys answers a lease_id (lease_duration 0 and renewable false as documented)',
    replace: (d) => ({
      answer: (a) => {
        const res = d.answer(a);
        if (a.method !== 'LIST' || a.seg.length !== 1 || a.seg[0] !== 'keys' || res.rawBody !== undefined) return res;
        return {
          ...res,
          rawBody: {
            request_id: randomBytes(16).toString('hex'),
            lease_id: `transit/keys/${randomBytes(8).toString('hex')}`,
            renewable: false,
            lease_duration: 0,
            data: res.data,
            wrap_info: null,
            warnings: null,
            auth: null,
          },
        };
      },
    }),
  }),
  fault('transit.list-keeps-deleted', {
    breaks: 'transit.key.delete',
    statements: ['doc.transit.lifecycle.delete-removes'],
    description: 'LIST /transit/keys still names deleted keys (reads and operations answer as for a missing key)',
    replace: (d) => {
      const deleted = new Set<string>();
      return {
        removeKey: (keys, name) => {
          d.removeKey(keys, name);
          if (!keys.has(name)) deleted.add(name);
        },
        listed: (names) => d.listed([...names, ...[...deleted].filter((n) => !names.includes(n))]),
      };
    },
  }),
  fault('transit.delete-takes-effect-later', {
    breaks: 'transit.key.delete',
    statements: ['doc.transit.lifecycle.delete-removes', 'doc.transit.keys-api.delete'],
    description:
      'DELETE answers success at once but the key is removed two seconds later (read, LIST and use still find it)',
    replace: (d) => ({
      removeKey: (keys, name) => {
        const k = keys.get(name);
        setTimeout(() => {
          if (keys.get(name) === k) d.removeKey(keys, name);
        }, 2000).unref();
      },
    }),
  }),
  fault('transit.recreated-key-cached', {
    breaks: 'transit.key.delete',
    statements: ['doc.transit.lifecycle.delete-data-lost'],
    description:
      'a deleted key stays in the key cache: a key created again under its name encrypts and decrypts with the deleted material',
    replace: (d) => {
      const cache = new Map<string, NamedKey>();
      return {
        removeKey: (keys, name) => {
          const k = keys.get(name);
          d.removeKey(keys, name);
          if (k && !keys.has(name)) cache.set(name, k);
        },
        keyInUse: (name, stored) => (stored ? (cache.get(name) ?? d.keyInUse(name, stored)) : d.keyInUse(name, stored)),
      };
    },
  }),
  fault('transit.restore-force-cached', {
    breaks: 'transit.restore.force',
    statements: ['doc.transit.lifecycle.restore-force'],
    description:
      'a restore with force replaces the stored key but the key cache keeps serving the overwritten key to reads and operations',
    replace: (d) => {
      const cache = new Map<string, NamedKey>();
      return {
        removeKey: (keys, name) => {
          cache.delete(name);
          d.removeKey(keys, name);
        },
        keyInUse: (name, stored) => {
          const used = d.keyInUse(name, stored);
          if (!used) return used;
          const cached = cache.get(name);
          if (cached) return cached;
          cache.set(name, used);
          return used;
        },
      };
    },
  }),

  // ---------------------------------------------------------------- config, rotate, trim, config/keys
  fault('transit.min-encryption-equal-refused', {
    breaks: 'transit.config.min-versions',
    statements: ['doc.transit.config.min-encryption-rule'],
    description: 'min_encryption_version equal to min_decryption_version is refused (">=" read as ">")',
    replace: (d) => ({
      checkMinVersions: (next) => {
        if (next.minEncryptionVersion > 0 && next.minEncryptionVersion === next.minDecryptionVersion)
          throw badRequest('min_encryption_version must be greater than min_decryption_version');
        d.checkMinVersions(next);
      },
    }),
  }),
  fault('transit.config-omitted-exportable-reset', {
    breaks: 'transit.key.exportable-irreversible',
    statements: ['doc.transit.lifecycle.flags-irreversible-config', 'doc.transit.config.flags-once'],
    description: 'a config write that omits exportable sets it back to its default, false',
    replace: (d) => ({
      applyOmittedConfig: (next, body) => {
        d.applyOmittedConfig(next, body);
        if (body.exportable === undefined) next.exportable = false;
      },
    }),
  }),
  fault('transit.config-omitted-deletion-allowed-reset', {
    breaks: 'transit.config.omitted-unchanged',
    statements: ['doc.transit.config.deletion-allowed'],
    description: 'a config write that omits deletion_allowed sets it back to its default, false',
    replace: (d) => ({
      applyOmittedConfig: (next, body) => {
        d.applyOmittedConfig(next, body);
        if (body.deletion_allowed === undefined) next.deletionAllowed = false;
      },
    }),
  }),
  fault('transit.decrypt-bounded-by-min-encryption', {
    breaks: 'transit.config.min-decryption',
    statements: ['doc.transit.config.min-decryption-ciphertext', 'doc.transit.versioning.bounds'],
    description:
      'decrypt and verify refuse versions below min_encryption_version (when set) though they are at or above min_decryption_version',
    replace: (d) => ({
      allowsVersion: (k, version) =>
        d.allowsVersion(k, version) && (k.minEncryptionVersion === 0 || version >= k.minEncryptionVersion),
    }),
  }),
  fault('transit.decrypt-min-off-by-one', {
    breaks: 'transit.config.min-decryption',
    statements: ['doc.transit.config.min-decryption-ciphertext'],
    description: 'once min_decryption_version is raised, ciphertexts of that version itself no longer decrypt',
    replace: (d) => ({
      allowsVersion: (k, version) =>
        k.minDecryptionVersion > 1 ? version > k.minDecryptionVersion : d.allowsVersion(k, version),
    }),
  }),
  fault('transit.verify-only-latest-above-min', {
    breaks: 'transit.config.min-decryption',
    statements: ['doc.transit.config.min-decryption-signatures'],
    description:
      'once min_decryption_version is raised, only signatures of the latest version verify (versions between the minimum and the latest are refused)',
    replace: (d) => ({
      verifyingKey: (k, what) =>
        what === 'signature' && k.minDecryptionVersion > 1
          ? { ...k, minDecryptionVersion: k.latestVersion }
          : d.verifyingKey(k, what),
    }),
  }),
  fault('transit.hmac-verify-min-off-by-one', {
    breaks: 'transit.config.min-decryption',
    statements: ['doc.transit.config.min-decryption-hmac'],
    description: 'once min_decryption_version is raised, verify refuses HMACs of that version itself',
    replace: (d) => ({
      verifyingKey: (k, what) =>
        what === 'hmac' && k.minDecryptionVersion > 1
          ? { ...k, minDecryptionVersion: k.minDecryptionVersion + 1 }
          : d.verifyingKey(k, what),
    }),
  }),
  fault('transit.rotate-rsa-4096-shrinks', {
    breaks: 'transit.rotate.keeps-size',
    statements: ['doc.transit.lifecycle.rotate-key-size'],
    description: 'rotating an rsa-4096 key creates a version with a 2048-bit modulus',
    replace: (d) => ({
      materialType: (type, latest) =>
        type === 'rsa-4096' && (latest ?? 0) > 0 ? 'rsa-2048' : d.materialType(type, latest),
    }),
  }),
  fault('transit.trim-at-limit-refused', {
    breaks: 'transit.trim.bounds',
    statements: ['doc.transit.lifecycle.trim-lesser'],
    description:
      'trim refuses min_available_version equal to the lesser of the two minimum versions ("at most" read as "below")',
    replace: (d) => ({
      checkTrim: (k, min) => {
        if (min > 0 && min === Math.min(k.minDecryptionVersion, k.minEncryptionVersion))
          throw badRequest('minimum available version must be below min_encryption_version and min_decryption_version');
        d.checkTrim(k, min);
      },
    }),
  }),
  fault('transit.disable-upsert-sticky', {
    breaks: 'transit.config-keys.disable-upsert',
    statements: ['doc.transit.keys-api.disable-upsert-read'],
    description: 'once disable_upsert was true, POST config/keys with disable_upsert false leaves it true',
    replace: (d) => ({
      disableUpsertWrite: (previous, requested) => previous || d.disableUpsertWrite(previous, requested),
    }),
  }),
  fault('transit.disable-upsert-blocks-existing', {
    breaks: 'transit.upsert.disabled-update-served',
    statements: ['doc.transit.encrypt.disable-upsert'],
    description: 'with disable_upsert true, encrypt is refused on existing keys too',
    replace: () => ({ encryptRefusesExisting: (disabled) => disabled }),
  }),
  fault('transit.encrypt-existing-needs-create', {
    breaks: 'transit.upsert.update-existing',
    statements: ['doc.transit.auth.encrypt-create-update'],
    description:
      'encrypt is always checked as a create, so a caller with only update cannot encrypt with an existing key',
    replace: () => ({ encryptKeyExists: () => false }),
  }),

  // ---------------------------------------------------------------- limits and units
  fault('transit.key-size-bounds-exclusive', {
    breaks: 'transit.create.key-size-range',
    statements: ['doc.transit.create.key-size-range', 'doc.transit.limits.key-size'],
    description: 'hmac key_size 32 and 512, the bounds themselves, are refused',
    replace: (d) => ({
      checkHmacKeySize: (size) => {
        if (size === 32 || size === 512) throw badRequest('key_size must be between 32 and 512 bytes, exclusive');
        d.checkHmacKeySize(size);
      },
    }),
  }),
  fault('transit.auto-rotate-hour-refused', {
    breaks: 'transit.create.auto-rotate-min',
    statements: [
      'doc.transit.create.auto-rotate-minimum',
      'doc.transit.config.auto-rotate-minimum',
      'doc.transit.limits.auto-rotate-period',
    ],
    description:
      'auto_rotate_period of exactly one hour is refused on create and config (the minimum taken as exclusive)',
    replace: (d) => ({
      checkAutoRotatePeriod: (period) => {
        if (period === HOUR) throw badRequest('auto rotate period must be more than an hour');
        d.checkAutoRotatePeriod(period);
      },
    }),
  }),
  fault('transit.import-auto-rotate-hour-refused', {
    breaks: 'transit.create.auto-rotate-min',
    statements: ['doc.transit.import.auto-rotate-minimum'],
    description: 'an import with auto_rotate_period of exactly one hour is refused',
    replace: (d) => ({
      checkImportAutoRotatePeriod: (period) => {
        if (period === HOUR) throw badRequest('auto rotate period must be more than an hour');
        d.checkImportAutoRotatePeriod(period);
      },
    }),
  }),
  fault('transit.auto-rotate-whole-hours-only', {
    breaks: 'transit.auto-rotate.duration-units',
    statements: ['doc.transit.create.auto-rotate-period'],
    description:
      'auto_rotate_period strings are read by their whole hours only: periods written in `s` or `m` (`7200s`, `120m`) count as 0 hours and are refused as below the minimum',
    replace: (d) => ({
      autoRotatePeriodOf: (body) => {
        const v = body.auto_rotate_period;
        if (typeof v === 'string' && /^\s*\d+\s*[sm]\s*$/.test(v))
          throw badRequest('auto rotate period must be 0 to disable or at least an hour');
        return d.autoRotatePeriodOf(body);
      },
    }),
  }),
];
