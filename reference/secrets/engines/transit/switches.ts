/**
 * The one table of the encryption engine's switches: every transit fault (faults.ts) and legal
 * variant (variants.ts) by name, with the rule of rules.ts it replaces. Applied once per engine by
 * `transitRulesFor`; faults come first so a variant wraps the rule a fault left (table order is the
 * order of application).
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Faults } from '../../../faults.js';
import { withSwitches } from '../../../switches.js';
import type { FaultName, VariantName } from '../../../switch-names.js';
import type { Variants } from '../../../variants.js';
import { badRequest, notFound, SvcError } from '../../errors.js';
import { generateMaterial, typeInfo } from './keys.js';
import { documentedRules, type TransitRules } from './rules.js';
import { KEY_TYPES } from './types.js';
import {
  extraReadFields,
  isPlainWrite,
  keysFromMinDecryption,
  listUnsorted,
  multiError,
  nanosecondTimes,
  onlyDocumentedExport,
  withoutKeyVersion,
  withoutUndocumentedReadFields,
} from './variant-shapes.js';

type Table = { [K in FaultName | VariantName]?: (documented: TransitRules) => Partial<TransitRules> };

const noCheck = (): void => undefined;

const table: Table = {
  // ---------------------------------------------------------------- faults: bad input
  'transit.create-wrong-type-500': (d) => ({
    wrongFieldType: (err, seg) =>
      seg[0] === 'keys' && seg.length === 2
        ? new TypeError(`cannot convert a field: ${(err as Error).message}`)
        : d.wrongFieldType(err, seg),
  }),
  // ---------------------------------------------------------------- faults: key reads and types
  'transit.read-drops-imported': (d) => ({
    keyRead: (k) => {
      const view = d.keyRead(k);
      delete view.imported;
      return view;
    },
  }),
  'transit.keys-map-iso-time': (d) => ({
    keyRead: (k) => {
      const view = d.keyRead(k);
      const keys = view.keys as Record<string, unknown>;
      for (const [ver, info] of Object.entries(keys))
        if (typeof info === 'number') keys[ver] = new Date(k.versions.get(Number(ver))!.createdAt).toISOString();
      return view;
    },
  }),
  'transit.read-leaks-material': (d) => ({
    keyRead: (k) => {
      const view = d.keyRead(k);
      const keys = view.keys as Record<string, unknown>;
      for (const v of k.versions.values()) if (v.key) keys[`material_${v.version}`] = v.key.toString('base64');
      return view;
    },
  }),
  'transit.supports-inverted': (d) => ({
    keyRead: (k) => ({ ...d.keyRead(k), supports_encryption: !typeInfo(k).encryption }),
  }),
  'transit.default-type-aes128': () => ({ defaultKeyType: 'aes128-gcm96' }),
  'transit.hmac-default-size-16': () => ({ hmacDefaultKeySize: 16 }),
  'transit.hmac-key-shared': () => ({ newHmacKey: (prev) => (prev ? prev.hmacKey : randomBytes(32)) }),
  'transit.ed25519-derivation-random': () => ({ derivationSalt: () => randomBytes(8) }),
  // ---------------------------------------------------------------- faults: outputs and batches
  'transit.version-prefix-stuck': () => ({ shownVersion: () => 1 }),
  'transit.aead-layout-swapped': () => ({
    sealAead: (nonce, ct, tag) => Buffer.concat([nonce, tag, ct]),
    openAead: (data) => ({ nonce: data.subarray(0, 12), tag: data.subarray(12, 28), ct: data.subarray(28) }),
  }),
  'transit.decrypt-plaintext-raw': () => ({ plaintextEncoding: 'latin1' }),
  'transit.batch-order-reversed': () => ({
    // Swap the first two results: "out of order" without touching single-item batches.
    batchOrder: (results) => (results.length > 1 ? [results[1]!, results[0]!, ...results.slice(2)] : results),
  }),
  'transit.batch-error-dropped': () => ({ batchItemError: (_message, echo) => ({ ...echo }) }),
  'transit.batch-reference-dropped': () => ({ batchEcho: () => ({}) }),
  'transit.batch-partial-200': (d) => ({ batchStatus: (o) => (o.total ? d.batchStatus(o) : 200) }),
  'transit.batch-partial-code-ignored': (d) => ({
    batchStatus: (o) => (o.total ? d.batchStatus(o) : d.batchStatus({ ...o, partialCode: undefined })),
  }),
  'transit.batch-total-failure-ok': (d) => ({
    batchStatus: (o) => (o.total && o.partialCode !== undefined ? o.partialCode : d.batchStatus(o)),
  }),
  'transit.batch-single-fields-used': () => ({ encryptBatch: () => undefined }),
  // ---------------------------------------------------------------- faults: versions
  'transit.rotate-keeps-version': (d) => ({
    outputVersion: (k, requested) =>
      requested === 0 ? Math.max(k.minAvailableVersion, 1) : d.outputVersion(k, requested),
  }),
  'transit.key-version-ignored': () => ({ outputVersion: (k) => k.latestVersion }),
  'transit.min-encryption-unchecked': () => ({ checkMinEncryption: noCheck }),
  'transit.min-decryption-ignored': () => ({ allowsVersion: () => true }),
  'transit.rewrap-keeps-version': () => ({ rewrapVersion: ({ previous }) => previous }),
  // ---------------------------------------------------------------- faults: cryptography
  'transit.context-optional': () => ({ checkDerivationContext: noCheck }),
  'transit.nonce-length-unchecked': () => ({ checkNonce: noCheck }),
  'transit.convergent-random-nonce': () => ({ aeadNonce: () => randomBytes(12) }),
  'transit.associated-data-ignored': () => ({ associatedData: () => undefined }),
  'transit.tamper-accepted': () => ({ authenticate: (out) => out }),
  'transit.hmac-ignores-algorithm': () => ({ hmacHash: () => 'sha256' }),
  'transit.verify-always-true': () => ({ verified: () => true }),
  'transit.sign-hash-url-ignored': (d) => ({
    signHashAlgorithm: (urlAlgorithm, body) => (urlAlgorithm ? 'sha2-256' : d.signHashAlgorithm(urlAlgorithm, body)),
  }),
  'transit.pss-default-pkcs1': () => ({ defaultSignatureAlgorithm: 'pkcs1v15' }),
  'transit.marshaling-default-jws': () => ({ defaultMarshaling: 'jws' }),
  'transit.sign-wrong-hash': () => ({ signingHash: () => 'sha1' }),
  'transit.prehashed-ignored': () => ({ prehashed: () => false }),
  'transit.hash-none-unchecked': () => ({ checkHashNone: noCheck }),
  'transit.derived-publickey-missing': () => ({ showsPublicKey: (batch) => !batch }),
  'transit.cmac-length-unchecked': () => ({
    checkMacLength: (length) => {
      if (length < 1) throw badRequest('mac_length must be between 1 and the cipher block size (16)');
    },
  }),
  'transit.cmac-url-length-ignored': () => ({ cmacUrlLength: () => undefined }),
  'transit.verify-mixed-accepted': () => ({ checkVerifyBatchModes: noCheck }),
  // ---------------------------------------------------------------- faults: upsert and settings
  'transit.upsert-without-create': () => ({ encryptIsUpdate: () => true, upsertAllowed: () => true }),
  'transit.upsert-never': (d) => ({ upsertAllowed: (a) => d.upsertAllowed({ ...a, create: false }) }),
  'transit.upsert-ignores-disable': () => ({ upsertAllowed: () => true }),
  'transit.upsert-type-ignored': () => ({ upsertType: () => undefined }),
  'transit.derived-upsert-not-derived': () => ({ upsertDerived: () => false }),
  'transit.disable-upsert-not-persisted': () => ({ disableUpsertRead: () => false }),
  'transit.cache-size-unchecked': () => ({ checkCacheSize: noCheck }),
  'transit.cache-read-zero': () => ({ cacheSizeRead: () => 0 }),
  // ---------------------------------------------------------------- faults: key lifecycle
  'transit.list-missing-keys': () => ({ listed: (names) => names.slice(0, -1) }),
  'transit.auto-rotate-never': () => ({ autoRotates: () => false }),
  'transit.auto-rotate-min-unchecked': () => ({ checkAutoRotatePeriod: noCheck }),
  'transit.auto-rotate-zero-ignored': () => ({
    autoRotateUpdate: (current, requested) => (requested === 0 ? current : requested),
  }),
  'transit.convergent-without-derived': () => ({ checkConvergent: noCheck }),
  'transit.key-size-unchecked': () => ({ checkHmacKeySize: noCheck }),
  'transit.rotate-shrinks-key': (d) => ({
    newVersionBytes: (k) => {
      const info = typeInfo(k);
      return k.latestVersion > 0 && info.kind === 'aead' && info.bytes === 32 ? 16 : d.newVersionBytes(k);
    },
  }),
  'transit.rotate-imported-without-allow': () => ({ checkRotation: noCheck }),
  'transit.delete-ignores-deletion-allowed': () => ({ checkDeletion: noCheck }),
  'transit.delete-keeps-key': () => ({ removeKey: noCheck }),
  'transit.deletion-allowed-config-ignored': () => ({ applyDeletionAllowed: noCheck }),
  'transit.exportable-can-be-disabled': (d) => ({
    disableFlag: (field) => field === 'exportable' || d.disableFlag(field),
  }),
  'transit.plaintext-backup-can-be-disabled': (d) => ({
    disableFlag: (field) => field === 'allow_plaintext_backup' || d.disableFlag(field),
  }),
  'transit.config-min-versions-unchecked': () => ({ checkMinVersions: noCheck }),
  'transit.trim-bounds-unchecked': () => ({ checkTrim: noCheck }),
  'transit.trim-keeps-versions': () => ({ trimVersions: noCheck }),
  // ---------------------------------------------------------------- faults: import (BYOK)
  'transit.wrapping-key-2048': () => ({ wrappingKeyBits: 2048 }),
  'transit.import-hash-function-ignored': () => ({ importOaepHash: () => 'sha256' }),
  'transit.import-accepts-garbage': () => ({
    unwrapRefused: async (type) => {
      const info = KEY_TYPES[type]!;
      if (info.kind === 'aead' || info.kind === 'cmac') return { key: randomBytes(info.bytes!) };
      if (info.kind === 'hmac') return { key: randomBytes(32) };
      return generateMaterial(type);
    },
  }),
  'transit.import-ignores-material': () => ({ importedKey: (_material, bytes) => randomBytes(bytes) }),
  'transit.public-key-import-can-sign': () => ({ publicKeyImport: (type) => generateMaterial(type) }),
  'transit.import-version-any-key': () => ({ checkImportVersionImported: noCheck }),
  'transit.import-version-after-rotate': () => ({ checkImportVersionNotRotated: noCheck }),
  'transit.import-version-ignores-material': () => ({
    importedVersionMaterial: (_material, k) => ({ ...k.versions.get(k.latestVersion)! }),
  }),
  // ---------------------------------------------------------------- faults: export, backup, certificates
  'transit.export-latest-all': () => ({ latestVersions: (all) => all }),
  'transit.export-signing-key-wrong': () => ({
    signingKeyExport: (k) => k.versions.get(1)!.publicKey!.export({ format: 'pem', type: 'spki' }).toString(),
  }),
  'transit.export-ignores-exportable': () => ({ checkExportable: noCheck }),
  'transit.byok-export-wrong-material': () => ({
    byokMaterial: (material) => createHash('sha256').update(material).digest(),
  }),
  'transit.backup-without-flag': () => ({ checkBackupExportable: noCheck, checkBackupPlaintext: noCheck }),
  'transit.restore-loses-versions': () => ({
    backupCopy: (k) => ({ ...k, versions: new Map([[k.latestVersion, k.versions.get(k.latestVersion)!]]) }),
  }),
  'transit.restore-overwrites-without-force': () => ({ checkRestoreTarget: noCheck }),
  'transit.csr-template-ignored': () => ({ csrTemplate: () => '' }),
  'transit.csr-wrong-key': () => ({ csrKeyPair: (k) => generateMaterial(k.type) }),
  'transit.set-certificate-not-stored': () => ({
    storeChain: (v, chain) => {
      if (!v.certificateChain) v.certificateChain = chain;
    },
  }),
  // ---------------------------------------------------------------- faults: datakey, random, hash
  'transit.datakey-bits-unchecked': () => ({ checkDatakeyBits: noCheck }),
  'transit.datakey-wrapped-leaks-plaintext': () => ({ datakeyShowsPlaintext: () => true }),
  'transit.random-source-all-rejected': (d) => ({
    checkRandomSource: (source) => {
      if (source === 'all') throw badRequest('source all is not supported');
      d.checkRandomSource(source);
    },
  }),
  'transit.seal-source-rejected': (d) => ({
    checkRandomSource: (source) => {
      if (source === 'seal') throw badRequest('source seal is not supported');
      d.checkRandomSource(source);
    },
  }),
  'transit.random-bytes-off-by-one': () => ({ randomLength: (bytes) => bytes - 1 }),
  'transit.random-format-ignored': () => ({ randomUsesHex: () => false }),
  'transit.hash-default-sha512': () => ({ hashDefaultAlgorithm: 'sha2-512' }),
  'transit.hash-url-ignored': () => ({ hashUrlAlgorithm: () => undefined }),
  'transit.hash-format-ignored': () => ({ hashFormat: () => 'hex' }),

  // ---------------------------------------------------------------- variants: batches
  'transit.batch-other-ops-partial-200': (d) => ({
    batchStatus: (o) => (!o.total && !o.tiedToPartialCode && o.partialCode === undefined ? 200 : d.batchStatus(o)),
  }),
  'transit.batch-400-envelope-only': (d) => ({
    batchFailureBody: (data, errors) => {
      const { errors: _, ...envelope } = d.batchFailureBody(data, errors);
      return envelope;
    },
  }),
  'transit.batch-reference-omitted-when-empty': (d) => ({
    batchEcho: (reference) => (reference === '' ? {} : d.batchEcho(reference)),
  }),
  // ---------------------------------------------------------------- variants: key reads
  'transit.keys-map-from-min-decryption': (d) => ({ keyRead: (k) => keysFromMinDecryption(d.keyRead(k), k) }),
  'transit.asymmetric-time-nanos': (d) => ({ keyRead: (k) => nanosecondTimes(d.keyRead(k)) }),
  'transit.read-extra-fields': (d) => ({ keyRead: (k) => extraReadFields(d.keyRead(k), k) }),
  'transit.read-undocumented-fields-absent': (d) => ({ keyRead: (k) => withoutUndocumentedReadFields(d.keyRead(k)) }),
  // ---------------------------------------------------------------- variants: answers and errors
  'transit.output-key-version-absent': (d) => ({ answer: (a) => withoutKeyVersion(d.answer(a)) }),
  'transit.export-documented-only': (d) => ({ answer: (a) => onlyDocumentedExport(a.seg, d.answer(a)) }),
  'transit.keys-list-unsorted': (d) => ({ answer: (a) => listUnsorted(a.seg, d.answer(a)) }),
  'transit.writes-answer-204': (d) => ({ answer: (a) => (isPlainWrite(a.method, a.seg) ? {} : d.answer(a)) }),
  'transit.error-texts-multierror': (d) => ({
    failure: (err) => {
      const e = d.failure(err);
      return e instanceof SvcError ? multiError(e) : e;
    },
  }),
  'transit.missing-key-404': () => ({ missingKey: (name) => notFound(`key ${JSON.stringify(name)} not found`) }),
  'transit.hash-without-sha1': (d) => ({
    refusedHash: (head, named) => (head === 'hash' && named.includes('sha1') ? 'sha1' : d.refusedHash(head, named)),
  }),
  'transit.hash-only-material-algorithms': (d) => ({
    refusedHash: (head, named) =>
      d.refusedHash(head, named) ??
      (['hash', 'hmac', 'sign', 'verify'].includes(head ?? '')
        ? named.find((x) => x === 'sha2-224' || x === 'sha2-384')
        : undefined),
  }),
  // ---------------------------------------------------------------- variants: flags, backup, random, verify
  'transit.flags-disable-ignored': (d) => ({
    disableFlag: (field) => {
      try {
        return d.disableFlag(field);
      } catch {
        return false;
      }
    },
  }),
  'transit.backup-needs-plaintext-flag-only': () => ({ checkBackupExportable: noCheck }),
  'transit.random-hex-uppercase': (d) => ({ randomHex: (text) => d.randomHex(text).toUpperCase() }),
  'transit.verify-too-old-valid-false': () => ({ tooOldVerification: 'invalid' }),
};

/** The engine's rules with the switches on for this reference applied. */
export function transitRulesFor(faults: Faults, variants: Variants): TransitRules {
  const on = new Set([...faults.list(), ...variants.list()]);
  return withSwitches(documentedRules, { has: (name: FaultName | VariantName) => on.has(name) }, table);
}
