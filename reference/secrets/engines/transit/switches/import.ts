/**
 * The transit engine's faults on import (transit document: Key management > wrapping key, Import
 * key, Import key version): each breaks one catalogued rule by replacing rules of ../rules.ts (see
 * reference/switches.ts). Gathered, in order, by index.ts.
 */
import { randomBytes } from 'node:crypto';
import { switchesOf } from '../../../../switches.js';
import { generateMaterial } from '../keys.js';
import type { TransitRules } from '../rules.js';
import { KEY_TYPES } from '../types.js';

const { fault } = switchesOf<TransitRules>(['transit']);

const noCheck = (): void => undefined;

export const importSwitches = [
  fault('transit.import-version-after-rotate', {
    breaks: 'transit.import-version.after-rotate-refused',
    description: 'import_version is accepted after a rotation in the service',
    replace: () => ({ checkImportVersionNotRotated: noCheck }),
  }),
  fault('transit.import-version-ignores-material', {
    breaks: 'transit.import-version.new-version',
    description: 'import_version copies the latest version instead of using the new material',
    replace: () => ({
      importedVersionMaterial: (_material, k) => ({ ...k.versions.get(k.latestVersion)! }),
    }),
  }),
  fault('transit.import-version-any-key', {
    breaks: 'transit.import-version.imported-only',
    description: 'import_version is accepted on generated keys',
    replace: () => ({ checkImportVersionImported: noCheck }),
  }),
  fault('transit.wrapping-key-2048', {
    breaks: 'transit.wrapping-key.rsa-4096',
    statements: ['doc.transit.limits.wrapping-key', 'doc.transit.limits.import-wrapped-key'],
    description: 'the wrapping key is RSA-2048',
    replace: () => ({ wrappingKeyBits: 2048 }),
  }),
  fault('transit.import-ignores-material', {
    breaks: 'transit.import.byok',
    description: 'symmetric imports use random material instead of the unwrapped key',
    replace: () => ({ importedKey: (_material, bytes) => randomBytes(bytes) }),
  }),
  fault('transit.import-hash-function-ignored', {
    breaks: 'transit.import.hash-function',
    description: 'import always unwraps with RSA-OAEP SHA-256',
    replace: () => ({ importOaepHash: () => 'sha256' }),
  }),
  fault('transit.public-key-import-can-sign', {
    breaks: 'transit.import.public-key',
    description: 'a public-key import generates its own key pair',
    replace: () => ({ publicKeyImport: (type) => generateMaterial(type) }),
  }),
  fault('transit.import-accepts-garbage', {
    breaks: 'transit.import.bad-ciphertext',
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
];
