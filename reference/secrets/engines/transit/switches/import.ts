/**
 * The transit engine's faults on import (transit document: Key management > wrapping key, Import
 * key, Import key version): each breaks one catalogued rule by replacing rules of ../rules.ts (see
 * reference/switches.ts). Gathered, in order, by index.ts.
 */
import { randomBytes } from 'node:crypto';
import { badRequest } from '../../../errors.js';
import { switchesOf } from '../../../../switches.js';
import { generateMaterial } from '../keys.js';
import type { TransitRules } from '../rules.js';
import { KEY_TYPES } from '../types.js';

const { fault } = switchesOf<TransitRules>(['transit']);

const noCheck = (): void => undefined;

export const importSwitches = [
  fault('transit.import-version-after-rotate', {
    breaks: 'transit.import-version.after-rotate-refused',
    statements: ['doc.transit.lifecycle.rotate-ends-import-version'],
    description: 'import_version is accepted after a rotation in the service',
    replace: () => ({ checkImportVersionNotRotated: noCheck }),
  }),
  fault('transit.import-version-ignores-material', {
    breaks: 'transit.import-version.new-version',
    statements: [
      'doc.transit.lifecycle.import-version-new',
      'doc.transit.import-version.new-when-empty',
      'doc.transit.keys-api.import-version',
      'doc.transit.import-version.ciphertext',
    ],
    description: 'import_version copies the latest version instead of using the new material',
    replace: () => ({
      importedVersionMaterial: (_material, k) => ({ ...k.versions.get(k.latestVersion)! }),
    }),
  }),
  fault('transit.import-version-any-key', {
    breaks: 'transit.import-version.imported-only',
    statements: ['doc.transit.import-version.imported-only', 'doc.transit.lifecycle.import-version-conditions'],
    description: 'import_version is accepted on generated keys',
    replace: () => ({ checkImportVersionImported: noCheck }),
  }),
  fault('transit.wrapping-key-2048', {
    breaks: 'transit.wrapping-key.rsa-4096',
    statements: [
      'doc.transit.keys-api.wrapping-key',
      'doc.transit.limits.wrapping-key',
      'doc.transit.limits.import-wrapped-key',
    ],
    description: 'the wrapping key is RSA-2048',
    replace: () => ({ wrappingKeyBits: 2048 }),
  }),
  fault('transit.import-ignores-material', {
    breaks: 'transit.import.byok',
    statements: ['doc.transit.import.private-form', 'doc.transit.keys-api.import'],
    description: 'symmetric imports use random material instead of the unwrapped key',
    replace: () => ({ importedKey: (_material, bytes) => randomBytes(bytes) }),
  }),
  fault('transit.import-hash-function-ignored', {
    breaks: 'transit.import.hash-function',
    statements: ['doc.transit.import.hash-function-values'],
    description: 'import always unwraps with RSA-OAEP SHA-256',
    replace: (d) => ({
      importHashFunction: (name, call) => (call === 'import' ? 'sha256' : d.importHashFunction(name, call)),
    }),
  }),
  fault('transit.public-key-import-can-sign', {
    breaks: 'transit.import.public-key',
    statements: ['doc.transit.import.public-only-form', 'doc.transit.import.public-key'],
    description: 'a public-key import generates its own key pair',
    replace: () => ({ publicKeyImport: (type) => generateMaterial(type) }),
  }),
  fault('transit.import-accepts-garbage', {
    breaks: 'transit.import.bad-ciphertext',
    statements: ['doc.transit.import.ciphertext-layout'],
    description: 'an import ciphertext that does not unwrap creates a random key',
    replace: () => ({
      unwrapRefused: async (type) => {
        const info = KEY_TYPES[type]!;
        if (info.kind === 'aead' || info.kind === 'cmac') return { key: randomBytes(info.bytes!) };
        if (info.kind === 'hmac') return { key: randomBytes(32) };
        return generateMaterial(type);
      },
    }),
  }),

  fault('transit.import-hash-default-sha1', {
    breaks: 'transit.import.byok',
    statements: ['doc.transit.import.hash-function-default'],
    description: 'an import without hash_function unwraps with RSA-OAEP SHA-1',
    replace: (d) => ({
      importHashFunction: (name, call) => (name === '' ? 'sha1' : d.importHashFunction(name, call)),
    }),
  }),
  fault('transit.import-hash-sha224-sha384-refused', {
    breaks: 'transit.import.hash-function',
    statements: ['doc.transit.import.hash-function-values'],
    description: 'import refuses hash_function SHA224 and SHA384',
    replace: (d) => ({
      importHashFunction: (name, call) => {
        if (['SHA224', 'SHA384'].includes(name.toUpperCase())) throw badRequest(`unsupported hash_function ${name}`);
        return d.importHashFunction(name, call);
      },
    }),
  }),
  fault('transit.import-version-hash-function-ignored', {
    breaks: 'transit.import-version.new-version',
    statements: ['doc.transit.import-version.hash-function'],
    description: 'import_version always unwraps with RSA-OAEP SHA-256',
    replace: (d) => ({
      importHashFunction: (name, call) => (call === 'import_version' ? 'sha256' : d.importHashFunction(name, call)),
    }),
  }),
  fault('transit.import-type-defaults', {
    breaks: 'transit.import.type-required',
    statements: ['doc.transit.import.type-required'],
    description: 'an import without type is taken as aes256-gcm96',
    replace: (d) => ({
      importType: (body) => d.importType(body.type === undefined ? { ...body, type: 'aes256-gcm96' } : body),
    }),
  }),
  fault('transit.import-symmetric-aes256-only', {
    breaks: 'transit.import.byok',
    statements: ['doc.transit.import.type-values'],
    description: 'import refuses aes128-gcm96 and chacha20-poly1305 material',
    replace: (d) => ({
      importType: (body) => {
        const type = d.importType(body);
        if (type === 'aes128-gcm96' || type === 'chacha20-poly1305')
          throw badRequest(`import of ${type} keys is not supported`);
        return type;
      },
    }),
  }),
  fault('transit.import-hmac-refused', {
    breaks: 'transit.import.hmac',
    statements: ['doc.transit.key-types.hmac-import', 'doc.transit.import.type-not-listed'],
    description: 'import refuses type hmac',
    replace: (d) => ({
      importType: (body) => {
        const type = d.importType(body);
        if (type === 'hmac') throw badRequest('import of hmac keys is not supported');
        return type;
      },
    }),
  }),
  fault('transit.import-without-material-generates', {
    breaks: 'transit.import.material-required',
    statements: ['doc.transit.import.ciphertext-required'],
    description: 'an import with neither ciphertext nor public_key creates a key with generated material',
    replace: () => ({ missingImportMaterial: (type) => generateMaterial(type) }),
  }),
  fault('transit.import-drops-public-key', {
    breaks: 'transit.import.derived-public-key',
    statements: ['doc.transit.import.derived-public-key'],
    description: 'a private-key import keeps no public key: the read shows none and verify fails',
    replace: () => ({ derivedPublicKey: () => undefined }),
  }),
  fault('transit.public-key-import-cannot-encrypt', {
    breaks: 'transit.import.public-key',
    statements: ['doc.transit.import.public-only-operations'],
    description: 'an RSA key imported with public_key only refuses to encrypt (it asks for the private key)',
    replace: (d) => ({
      checkRsaEncryption: (v) => {
        if (!v.privateKey) throw badRequest('key version has no private key');
        d.checkRsaEncryption(v);
      },
    }),
  }),
  fault('transit.import-derived-ignored', {
    breaks: 'transit.import.derived',
    statements: ['doc.transit.import.derived'],
    description: 'import ignores derived: the imported key is not derived',
    replace: () => ({ importDerived: () => false }),
  }),
  fault('transit.import-context-unchecked', {
    breaks: 'transit.import.derived',
    statements: ['doc.transit.import.context'],
    description: 'an import with derived true and no context is accepted',
    replace: () => ({ checkImportContext: noCheck }),
  }),
  fault('transit.import-flags-ignored', {
    breaks: 'transit.import.flags',
    statements: ['doc.transit.import.flags-exportable'],
    description: 'import ignores exportable and allow_plaintext_backup',
    replace: () => ({
      importFlags: (k) => {
        k.exportable = false;
        k.allowPlaintextBackup = false;
      },
    }),
  }),
  fault('transit.import-auto-rotate-min-unchecked', {
    breaks: 'transit.create.auto-rotate-min',
    statements: ['doc.transit.import.auto-rotate-minimum'],
    description: 'an import accepts auto_rotate_period under one hour',
    replace: () => ({ checkImportAutoRotatePeriod: noCheck }),
  }),
  fault('transit.import-version-version-ignored', {
    breaks: 'transit.import-version.update-version',
    statements: ['doc.transit.import-version.version', 'doc.transit.lifecycle.import-version-update'],
    description: 'import_version ignores version and always adds a new version',
    replace: (d) => ({
      importVersionTarget: (_requested, latest, completesLatest) => d.importVersionTarget(0, latest, completesLatest),
    }),
  }),
  fault('transit.import-version-never-completes', {
    breaks: 'transit.import-version.update-version',
    statements: ['doc.transit.import-version.complete-latest'],
    description:
      'import_version of a private key without version adds a version even when the latest lacks its private key',
    replace: (d) => ({ importVersionTarget: (requested, latest) => d.importVersionTarget(requested, latest, false) }),
  }),
];
