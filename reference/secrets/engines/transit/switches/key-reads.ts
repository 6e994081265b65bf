/**
 * The transit engine's faults on what a key is and how its read shows it (transit document:
 * Resources > Named key, Key types): each breaks one catalogued rule by replacing rules of
 * ../rules.ts or ../key-rules.ts (see reference/switches.ts). Gathered, in order, by index.ts.
 */
import { createHash } from 'node:crypto';
import { badRequest } from '../../../errors.js';
import { switchesOf } from '../../../../switches.js';
import { typeInfo } from '../keys.js';
import type { TransitRules } from '../rules.js';

const { fault } = switchesOf<TransitRules>(['transit']);

/** A key read with one field set to `value` whatever the key holds. */
const readWith =
  (field: string, value: unknown) =>
  (d: TransitRules): Partial<TransitRules> => ({ keyRead: (k) => ({ ...d.keyRead(k), [field]: value }) });

export const keyReadSwitches = [
  // ---------------------------------------------------------------- the read's fields
  fault('transit.read-deletion-allowed-true', {
    breaks: 'transit.key.read-fields',
    statements: ['doc.transit.key.deletion-allowed'],
    description: 'the key read answers deletion_allowed true for every key',
    replace: readWith('deletion_allowed', true),
  }),
  fault('transit.read-exportable-true', {
    breaks: 'transit.key.read-fields',
    statements: ['doc.transit.key.exportable'],
    description: 'the key read answers exportable true for every key',
    replace: readWith('exportable', true),
  }),
  fault('transit.read-plaintext-backup-true', {
    breaks: 'transit.key.read-fields',
    statements: ['doc.transit.key.allow-plaintext-backup', 'doc.transit.create.plaintext-backup-default'],
    description: 'the key read answers allow_plaintext_backup true for every key',
    replace: readWith('allow_plaintext_backup', true),
  }),
  fault('transit.read-imported-true', {
    breaks: 'transit.key.read-fields',
    statements: ['doc.transit.key.imported'],
    description: 'the key read answers imported true for every key',
    replace: readWith('imported', true),
  }),
  fault('transit.read-derived-true', {
    breaks: 'transit.key.read-fields',
    statements: ['doc.transit.create.derived-default', 'doc.transit.key.derived'],
    description: 'the key read answers derived true for every key',
    replace: readWith('derived', true),
  }),
  fault('transit.read-min-decryption-stuck', {
    breaks: 'transit.key.read-fields',
    statements: ['doc.transit.key.min-decryption-version'],
    description: 'the key read answers min_decryption_version 1 whatever config set',
    replace: readWith('min_decryption_version', 1),
  }),
  fault('transit.read-min-encryption-stuck', {
    breaks: 'transit.key.read-fields',
    statements: ['doc.transit.key.min-encryption-version'],
    description: 'the key read answers min_encryption_version 0 whatever config set',
    replace: readWith('min_encryption_version', 0),
  }),
  fault('transit.read-min-decryption-latest', {
    breaks: 'transit.key.read-fields',
    statements: ['doc.transit.config.min-decryption-default'],
    description: 'a key never configured reads min_decryption_version as its latest version',
    replace: (d) => ({
      keyRead: (k) => ({
        ...d.keyRead(k),
        ...(k.minDecryptionVersion <= 1 ? { min_decryption_version: k.latestVersion } : {}),
      }),
    }),
  }),
  fault('transit.read-min-encryption-latest', {
    breaks: 'transit.key.read-fields',
    statements: ['doc.transit.config.min-encryption-default'],
    description: 'a key never configured reads min_encryption_version as its latest version',
    replace: (d) => ({
      keyRead: (k) => ({
        ...d.keyRead(k),
        ...(k.minEncryptionVersion === 0 ? { min_encryption_version: k.latestVersion } : {}),
      }),
    }),
  }),
  fault('transit.version-times-copied', {
    breaks: 'transit.key.keys-map',
    statements: ['doc.transit.key.keys-creation-time'],
    description: "every version of the keys map shows the creation time of the key's first version",
    replace: (d) => ({
      keyRead: (k) => {
        const view = d.keyRead(k);
        const keys = view.keys as Record<string, unknown>;
        const first = Object.values(keys).find((v) => typeof v === 'number');
        for (const [ver, info] of Object.entries(keys)) if (typeof info === 'number') keys[ver] = first;
        return view;
      },
    }),
  }),
  fault('transit.read-leaks-private-key', {
    breaks: 'transit.key.no-material-in-read',
    statements: ['doc.transit.key.keys-no-material'],
    description: "the key read of an asymmetric key shows each version's private key beside its public key",
    replace: (d) => ({
      keyRead: (k) => {
        const view = d.keyRead(k);
        const keys = view.keys as Record<string, Record<string, unknown> | number>;
        for (const v of k.versions.values()) {
          const info = keys[String(v.version)];
          if (v.privateKey && info && typeof info === 'object')
            info.private_key = v.privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
        }
        return view;
      },
    }),
  }),
  fault('transit.supports-signing-false', {
    breaks: 'transit.key.supports-by-type',
    statements: ['doc.transit.key.supports-signing'],
    description: 'the key read answers supports_signing false for the asymmetric types',
    replace: readWith('supports_signing', false),
  }),

  // ---------------------------------------------------------------- the key types
  fault('transit.aes128-is-aes256', {
    breaks: 'transit.key.types',
    statements: ['doc.transit.key-types.aes128-gcm96'],
    description: 'aes128-gcm96 keys are made and used as 256-bit AES keys',
    replace: (d) => ({
      materialType: (type) => (type === 'aes128-gcm96' ? 'aes256-gcm96' : d.materialType(type)),
      aeadCipher: (k) => (k.type === 'aes128-gcm96' ? 'aes-256-gcm' : d.aeadCipher(k)),
    }),
  }),
  fault('transit.aes256-is-aes128', {
    breaks: 'transit.key.types',
    statements: ['doc.transit.key-types.aes256-gcm96'],
    description: 'aes256-gcm96 keys are made and used as 128-bit AES keys',
    replace: (d) => ({
      materialType: (type) => (type === 'aes256-gcm96' ? 'aes128-gcm96' : d.materialType(type)),
      aeadCipher: (k) => (k.type === 'aes256-gcm96' ? 'aes-128-gcm' : d.aeadCipher(k)),
    }),
  }),
  fault('transit.chacha-is-aes256', {
    breaks: 'transit.encrypt.local-decrypt',
    statements: ['doc.transit.key-types.chacha20-poly1305'],
    description: 'chacha20-poly1305 keys encrypt with AES-256-GCM',
    replace: (d) => ({
      aeadCipher: (k) => (k.type === 'chacha20-poly1305' ? 'aes-256-gcm' : d.aeadCipher(k)),
    }),
  }),
  fault('transit.ecdsa-p384-on-p256', {
    breaks: 'transit.key.types',
    statements: ['doc.transit.key-types.ecdsa-p384'],
    description: 'ecdsa-p384 keys are generated on the P-256 curve',
    replace: (d) => ({ materialType: (type) => (type === 'ecdsa-p384' ? 'ecdsa-p256' : d.materialType(type)) }),
  }),
  fault('transit.rsa-3072-is-2048', {
    breaks: 'transit.key.types',
    statements: ['doc.transit.key-types.rsa-3072'],
    description: 'rsa-3072 keys are generated with a 2048-bit modulus',
    replace: (d) => ({ materialType: (type) => (type === 'rsa-3072' ? 'rsa-2048' : d.materialType(type)) }),
  }),
  fault('transit.ed25519-signs-digest', {
    breaks: 'transit.key.types',
    statements: ['doc.transit.key-types.ed25519'],
    description: 'ed25519 keys sign the SHA-512 digest of the input instead of the input',
    replace: () => ({
      ed25519Message: (input) => createHash('sha512').update(input).digest(),
    }),
  }),
  fault('transit.aes128-derivation-refused', {
    breaks: 'transit.key.derivation-types',
    statements: ['doc.transit.key-types.aes128-gcm96-derivation'],
    description: 'an aes128-gcm96 key cannot be created with derived true',
    replace: (d) => ({ derivationSupported: (type) => type !== 'aes128-gcm96' && d.derivationSupported(type) }),
  }),
  fault('transit.chacha-derivation-refused', {
    breaks: 'transit.key.derivation-types',
    statements: ['doc.transit.key-types.chacha20-poly1305-derivation'],
    description: 'a chacha20-poly1305 key cannot be created with derived true',
    replace: (d) => ({ derivationSupported: (type) => type !== 'chacha20-poly1305' && d.derivationSupported(type) }),
  }),
  fault('transit.hmac-key-encrypts', {
    breaks: 'transit.key.hmac-only',
    statements: ['doc.transit.key-types.hmac-only'],
    description: 'an hmac key also encrypts and decrypts, using its key as an AES-256-GCM key',
    replace: (d) => ({
      encrypts: (k) => k.type === 'hmac' || d.encrypts(k),
      aeadCipher: (k) => (k.type === 'hmac' ? 'aes-256-gcm' : d.aeadCipher(k)),
    }),
  }),
  fault('transit.hmac-asymmetric-refused', {
    breaks: 'transit.key.hmac-every-type',
    statements: ['doc.transit.key-types.hmac-every-type'],
    description: 'HMAC with an ed25519, ECDSA or RSA key is refused',
    replace: (d) => ({
      checkHmacSupported: (k) => {
        if (['ed25519', 'ecdsa', 'rsa'].includes(typeInfo(k).kind))
          throw badRequest(`HMAC is not supported for key type ${k.type}`);
        d.checkHmacSupported(k);
      },
    }),
  }),
  fault('transit.hmac-key-is-encryption-key', {
    breaks: 'transit.key.hmac-every-type',
    statements: ['doc.transit.key-types.hmac-second-key'],
    description: "a symmetric key's HMAC key is its encryption key, not a second random key",
    replace: (d) => ({ newHmacKey: (prev, material) => material.key ?? d.newHmacKey(prev, material) }),
  }),
  fault('transit.context-base64-ignored', {
    breaks: 'transit.format.base64-fields',
    statements: ['doc.transit.format.base64-context'],
    description: 'encrypt and decrypt use the text of context as the context instead of its base64 decoding',
    replace: () => ({
      contextBytes: (item) =>
        typeof item.context === 'string' && item.context !== '' ? Buffer.from(item.context, 'utf8') : undefined,
    }),
  }),

  fault('transit.read-type-abbreviated', {
    breaks: 'transit.key.types',
    statements: ['doc.transit.key.type'],
    description: 'the key read of a chacha20-poly1305 key answers type chacha20',
    replace: (d) => ({
      keyRead: (k) => {
        const view = d.keyRead(k);
        return view.type === 'chacha20-poly1305' ? { ...view, type: 'chacha20' } : view;
      },
    }),
  }),
  fault('transit.read-name-path', {
    breaks: 'transit.key.read-fields',
    statements: ['doc.transit.key.name'],
    description: 'the key read answers name as the path keys/<name>',
    replace: (d) => ({ keyRead: (k) => ({ ...d.keyRead(k), name: `keys/${k.name}` }) }),
  }),
  fault('transit.read-public-key-latest', {
    breaks: 'transit.key.keys-map',
    statements: ['doc.transit.key.keys-public-key'],
    description: "every version of an asymmetric key's keys map shows the latest version's public key",
    replace: (d) => ({
      keyRead: (k) => {
        const view = d.keyRead(k);
        const keys = view.keys as Record<string, unknown>;
        const latest = keys[String(k.latestVersion)] as Record<string, unknown> | undefined;
        if (latest && typeof latest === 'object')
          for (const [ver, info] of Object.entries(keys))
            if (info && typeof info === 'object') keys[ver] = { ...info, public_key: latest.public_key };
        return view;
      },
    }),
  }),
  fault('transit.create-hmac-as-aes', {
    breaks: 'transit.key.types',
    statements: ['doc.transit.create.type-values', 'doc.transit.keys-api.create'],
    description: 'POST /transit/keys/:name with type hmac creates an aes256-gcm96 key',
    replace: (d) => ({ typeCreated: (type) => (type === 'hmac' ? 'aes256-gcm96' : d.typeCreated(type)) }),
  }),
  fault('transit.create-without-name-accepted', {
    breaks: 'transit.key.types',
    statements: ['doc.transit.create.name'],
    description: 'POST /transit/keys without a key name answers success and creates nothing',
    replace: () => ({ createWithoutName: () => ({}) }),
  }),
  fault('transit.cmac-aes128-refused', {
    breaks: 'transit.cmac.compute',
    statements: ['doc.transit.key-types.cmac', 'doc.transit.service.cmac'],
    description: 'keys of type aes128-cmac cannot be created',
    replace: (d) => ({ typeSupported: (type) => type !== 'aes128-cmac' && d.typeSupported(type) }),
  }),
];
