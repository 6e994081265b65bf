/**
 * The transit engine's faults on a key's configuration and versions (transit document: Update key
 * configuration, Create key's auto_rotate_period, trim, cache-config; States and transitions:
 * trim): each breaks one catalogued rule by replacing rules of ../rules.ts or ../key-rules.ts (see
 * reference/switches.ts). Gathered, in order, by index.ts.
 */
import { switchesOf } from '../../../../switches.js';
import type { TransitRules } from '../rules.js';

const { fault } = switchesOf<TransitRules>(['transit']);

const HOUR = 3600;

export const configurationSwitches = [
  // ---------------------------------------------------------------- config writes and reads
  fault('transit.config-resets-omitted-min-versions', {
    breaks: 'transit.config.omitted-unchanged',
    statements: ['doc.transit.config.min-decryption-default'],
    description:
      'a config write that omits min_decryption_version and min_encryption_version sets them back to their defaults',
    replace: (d) => ({
      applyOmittedConfig: (next, body) => {
        d.applyOmittedConfig(next, body);
        if (body.min_decryption_version === undefined) next.minDecryptionVersion = 1;
        if (body.min_encryption_version === undefined) next.minEncryptionVersion = 0;
      },
    }),
  }),
  fault('transit.config-resets-auto-rotate', {
    breaks: 'transit.config.auto-rotate-unchanged',
    statements: ['doc.transit.config.auto-rotate-unchanged'],
    description: 'a config write that omits auto_rotate_period turns automatic rotation off',
    replace: (d) => ({
      applyOmittedConfig: (next, body) => {
        d.applyOmittedConfig(next, body);
        if (body.auto_rotate_period === undefined) next.autoRotatePeriod = 0;
      },
    }),
  }),
  fault('transit.verify-min-decryption-off-by-one', {
    breaks: 'transit.config.min-decryption',
    statements: ['doc.transit.config.min-decryption-signatures'],
    description: 'verify refuses signatures of the min_decryption_version itself (it compares with > instead of >=)',
    replace: (d) => ({
      verifyingKey: (k, what) =>
        what === 'signature' && k.minDecryptionVersion > 1
          ? { ...k, minDecryptionVersion: k.minDecryptionVersion + 1 }
          : d.verifyingKey(k, what),
    }),
  }),
  fault('transit.hmac-verify-ignores-min-decryption', {
    breaks: 'transit.config.min-decryption',
    statements: ['doc.transit.config.min-decryption-hmac'],
    description: 'verify of an HMAC accepts versions below min_decryption_version',
    replace: (d) => ({
      verifyingKey: (k, what) => (what === 'hmac' ? { ...k, minDecryptionVersion: 1 } : d.verifyingKey(k, what)),
    }),
  }),

  // ---------------------------------------------------------------- automatic rotation
  fault('transit.auto-rotate-default-hourly', {
    breaks: 'transit.auto-rotate.default-off',
    statements: ['doc.transit.create.auto-rotate-default'],
    description: 'a key created without auto_rotate_period rotates every hour',
    replace: (d) => ({
      createAutoRotatePeriod: (requested) => (requested === undefined ? HOUR : d.createAutoRotatePeriod(requested)),
    }),
  }),
  fault('transit.create-auto-rotate-zero-hourly', {
    breaks: 'transit.auto-rotate.zero-disables',
    statements: ['doc.transit.create.auto-rotate-zero'],
    description: 'auto_rotate_period 0 at creation is read as the minimum period, one hour',
    replace: (d) => ({
      createAutoRotatePeriod: (requested) => (requested === 0 ? HOUR : d.createAutoRotatePeriod(requested)),
    }),
  }),
  fault('transit.import-allow-rotation-auto-rotates', {
    breaks: 'transit.auto-rotate.default-off',
    statements: ['doc.transit.import.auto-rotate-default'],
    description: 'a key imported with allow_rotation and without auto_rotate_period rotates every hour',
    replace: (d) => ({
      importedAutoRotatePeriod: (period, allowRotation) =>
        allowRotation && period === 0 ? HOUR : d.importedAutoRotatePeriod(period, allowRotation),
    }),
  }),

  // ---------------------------------------------------------------- trim
  fault('transit.trim-compares-greater', {
    breaks: 'transit.trim.bounds',
    statements: ['doc.transit.lifecycle.trim-lesser'],
    description: 'trim allows min_available_version up to the greater of the two minimum versions',
    replace: (d) => ({
      checkTrim: (k, min) => {
        const greater = Math.max(k.minDecryptionVersion, k.minEncryptionVersion);
        const zeroKept = k.minEncryptionVersion === 0 ? 0 : greater;
        d.checkTrim({ ...k, minDecryptionVersion: greater, minEncryptionVersion: zeroKept }, min);
      },
    }),
  }),
  fault('transit.trim-ignores-zero-min-encryption', {
    breaks: 'transit.trim.bounds',
    statements: ['doc.transit.lifecycle.trim-not-zero'],
    description: 'trim with min_encryption_version 0 compares with min_decryption_version alone',
    replace: (d) => ({
      checkTrim: (k, min) =>
        d.checkTrim(k.minEncryptionVersion === 0 ? { ...k, minEncryptionVersion: k.minDecryptionVersion } : k, min),
    }),
  }),
  fault('transit.trim-without-minimum-accepted', {
    breaks: 'transit.trim.minimum-required',
    statements: ['doc.transit.keys-api.trim-required'],
    description: 'trim without min_available_version answers success and trims nothing',
    replace: (d) => ({
      trimMinimum: (body) => (body.min_available_version === undefined ? 0 : d.trimMinimum(body)),
    }),
  }),

  // ---------------------------------------------------------------- cache-config
  fault('transit.cache-default-size-100', {
    breaks: 'transit.cache-config.default',
    statements: ['doc.transit.keys-api.cache-size-default'],
    description: 'the cache size defaults to 100 entries (a mount never configured and a write without size)',
    replace: () => ({ cacheDefaultSize: 100 }),
  }),
];
