/**
 * The rules of the encryption engine (secrets-service-transit.md) as named functions and values:
 * the model (index.ts, ops.ts, batch.ts) calls `rules.x(...)` where a document states a rule, so a
 * switch (switches/) replaces that one rule and the model never asks which switch is on.
 */
import { createHmac, randomBytes, randomUUID, type KeyObject } from 'node:crypto';
import type { EngineResponse } from '../../engine.js';
import { badRequest, type SvcError } from '../../errors.js';
import { checkRotationPeriod, documentedKeyManagementRules, type KeyManagementRules } from './key-rules.js';
import { type DataOperationRules, documentedDataRules } from './data-rules.js';
import { readView, typeInfo, type KeyVersion, type NamedKey } from './keys.js';
import type { SignOptions } from './ops.js';
import { hashName } from './outputs.js';
import { b64, bool, int, str, type Body } from './params.js';

/** Version material as an import produces it. */
export type Material = Pick<KeyVersion, 'key' | 'privateKey' | 'publicKey'>;

/** What the engine's one response point passes through `rules.answer`. */
export interface Answer {
  method: string;
  seg: string[];
  res: EngineResponse;
  /** The request's body ({} when absent). */
  body: Body;
}

/** How a batch's status is decided. */
export interface BatchOutcome {
  /** Every item failed. */
  total: boolean;
  /** partial_failure_response_code, when given. */
  partialCode: number | undefined;
  /** The operation is encrypt or decrypt (the ones partial_failure_response_code is documented for). */
  tiedToPartialCode: boolean;
  /** The operation (the path's first segment). */
  operation: string;
}

export interface TransitRules extends KeyManagementRules, DataOperationRules {
  // ---------------------------------------------------------------- answers and errors
  /** The answer as it leaves the engine (the one response point). */
  answer(a: Answer): EngineResponse;
  /** The error as it leaves the engine. */
  failure(err: unknown): unknown;
  /** A read or use of a key that does not exist. */
  missingKey(name: string): SvcError;
  /** A hash algorithm the service does not offer for this operation, if one is named. */
  refusedHash(head: string | undefined, named: string[]): string | undefined;
  /** A body field of the wrong JSON type (`err`: the body check's error) on the path `seg`. */
  wrongFieldType(err: unknown, seg: string[]): unknown;

  // ---------------------------------------------------------------- upsert and settings
  /** encrypt on a key name is an update (not a create) for the capability check. */
  encryptIsUpdate(disableUpsert: boolean): boolean;
  /** encrypt may create a missing key. */
  upsertAllowed(a: { create: boolean; disabled: boolean }): boolean;
  /** The type an upsert creates (the request's `type`). */
  upsertType(body: Body): unknown;
  /** The context an upsert looks at (the request's, else the first batch item's; '' is none). */
  upsertContext(body: Body, first: unknown): Buffer | undefined;
  /** An upserted key is derived when a context is given. */
  upsertDerived(hasContext: boolean): boolean;
  /** disable_upsert as config/keys reads it. */
  disableUpsertRead(stored: boolean): boolean;
  checkCacheSize(size: number): void;
  cacheSizeRead(stored: number): number;

  // ---------------------------------------------------------------- key reads and lifecycle
  /** The key read (Named key table). */
  keyRead(k: NamedKey): Record<string, unknown>;
  /** The key names LIST shows (in creation order, before sorting). */
  listed(names: string[]): string[];
  /** Auto-rotation is on for the key. */
  autoRotates(k: NamedKey): boolean;
  checkAutoRotatePeriod(period: number | undefined): void;
  /** auto_rotate_period after a config write of `requested`. */
  autoRotateUpdate(current: number, requested: number): number;
  checkConvergent(convergent: boolean, derived: boolean): void;
  defaultKeyType: string;
  checkHmacKeySize(size: number): void;
  hmacDefaultKeySize: number;
  /** Symmetric bytes of a new version (undefined: the type's size). */
  newVersionBytes(k: NamedKey): number | undefined;
  /** The HMAC key of a new version (`prev`: the latest one; `material`: the new version's key). */
  newHmacKey(prev: KeyVersion | undefined, material: Material): Buffer;
  checkRotation(k: NamedKey): void;
  checkDeletion(k: NamedKey): void;
  removeKey(keys: Map<string, NamedKey>, name: string): void;
  /** config: deletion_allowed written to the next state. */
  applyDeletionAllowed(next: NamedKey, body: Body): void;
  /** Disabling a flag that is on: true applies it, false leaves it, a throw refuses it. */
  disableFlag(field: 'exportable' | 'allow_plaintext_backup', k?: NamedKey): boolean;
  checkMinVersions(next: NamedKey): void;
  checkTrim(k: NamedKey, min: number): void;
  trimVersions(k: NamedKey, min: number): void;

  // ---------------------------------------------------------------- import (BYOK)
  wrappingKeyBits: number;
  /** The import ciphertext does not unwrap with the wrapping key. */
  unwrapRefused(type: string): Promise<Material>;
  /** The symmetric key an import stores. */
  importedKey(material: Buffer, bytes: number): Buffer;
  /** A public_key import. */
  publicKeyImport(type: string, publicKey: KeyObject): Promise<Material>;
  checkImportVersionImported(k: NamedKey): void;
  checkImportVersionNotRotated(k: NamedKey): void;
  importedVersionMaterial(material: Material, k: NamedKey): Material;

  // ---------------------------------------------------------------- export, backup, certificates
  /** The versions `latest` names. */
  latestVersions(all: KeyVersion[], k: NamedKey, call: 'export' | 'byok'): KeyVersion[];
  /** signing-key export of an RSA or ECDSA version. */
  signingKeyExport(k: NamedKey, v: KeyVersion): string;
  /** Export of `keyType` (or byok-export, `byok`) needs an exportable key. */
  checkExportable(k: NamedKey, keyType: string): void;
  byokMaterial(material: Buffer): Buffer;
  checkBackupExportable(k: NamedKey): void;
  checkBackupPlaintext(k: NamedKey): void;
  /** The key a backup carries. */
  backupCopy(k: NamedKey): NamedKey;
  checkRestoreTarget(name: string, exists: boolean, force: boolean): void;
  csrTemplate(body: Body): string;
  csrKeyPair(k: NamedKey, v: KeyVersion): Promise<Pick<KeyVersion, 'privateKey' | 'publicKey'>>;
  storeChain(v: KeyVersion, chain: string): void;

  // ---------------------------------------------------------------- batches
  /** The `reference` part of a batch result of `operation`. */
  batchEcho(reference: string, operation: string): Record<string, unknown>;
  /** A failed item's result. */
  batchItemError(message: string, echo: Record<string, unknown>): Record<string, unknown>;
  batchOrder(results: Record<string, unknown>[]): Record<string, unknown>[];
  batchStatus(o: BatchOutcome): number;
  /** The body of a batch answered with an error status. */
  batchFailureBody(data: { batch_results: unknown[] }, errors: string[]): Record<string, unknown>;
  /** The batch an encrypt request runs (batch_input; `body`: the request, single-item fields too). */
  encryptBatch(items: unknown[] | undefined, body: Body): unknown[] | undefined;
  /** The batch a decrypt, rewrap, hmac, sign, verify or cmac request runs (batch_input; the single fields are ignored). */
  batchItems(body: Body, items: unknown[]): unknown[];

  // ---------------------------------------------------------------- data operations
  plaintextEncoding: BufferEncoding;
  /** The version rewrap encrypts with (`previous`: the ciphertext's). */
  rewrapVersion(a: { item: Body; keyVersion: number; previous: number }): number;
  checkDatakeyBits(bits: number): void;
  datakeyShowsPlaintext(kind: string): boolean;
  checkRandomSource(source: string): void;
  randomLength(bytes: number): number;
  randomUsesHex(format: string): boolean;
  randomHex(text: string): string;
  hashDefaultAlgorithm: string;
  hashUrlAlgorithm(urlAlg: string | undefined): string | undefined;
  hashFormat(body: Body): string;
  /** The node hash POST hash computes for `algorithm`. */
  hashDigest(algorithm: string): string;
  checkVerifyBatchModes(withSignature: boolean, withHmac: boolean): void;
  cmacUrlLength(urlLength: string | undefined): string | undefined;

  // ---------------------------------------------------------------- per item (ops.ts)
  /** A version at or above min_decryption_version may decrypt and verify. */
  allowsVersion(k: NamedKey, version: number): boolean;
  /** Verifying with a version below min_decryption_version: an error, or valid false. */
  tooOldVerification: 'error' | 'invalid';
  /** The version an output's prefix shows. */
  shownVersion(version: number): number;
  /** The version a new output uses for `requested` (0: latest). */
  outputVersion(k: NamedKey, requested: number): number;
  /** key_version below min_encryption_version is refused (`op`: the data operation asking). */
  checkMinEncryption(k: NamedKey, version: number, op?: string): void;
  /** A derived key needs a context. */
  checkDerivationContext(context: Buffer | undefined): void;
  checkNonce(nonce: Buffer | undefined): void;
  aeadNonce(k: NamedKey, key: Buffer, plaintext: Buffer): Buffer;
  associatedData(ad: Buffer | undefined): Buffer | undefined;
  /** AEAD output layout: nonce | ciphertext | tag. */
  sealAead(nonce: Buffer, ct: Buffer, tag: Buffer): Buffer;
  openAead(data: Buffer): { nonce: Buffer; ct: Buffer; tag: Buffer };
  /** The end of an AEAD decryption: the tag must authenticate. */
  authenticate(out: Buffer, final: () => Buffer): Buffer;
  hmacHash(algorithm: string): string;
  /** The node hash verify checks an `hmac` with for hash_algorithm `algorithm`. */
  hmacVerifyHash(algorithm: string): string;
  verified(valid: boolean): boolean;
  defaultSignatureAlgorithm: string;
  defaultMarshaling: string;
  signHashAlgorithm(urlAlgorithm: string | undefined, body: Body, op?: 'sign' | 'verify'): string;
  derivationSalt(): Buffer;
  checkHashNone(opts: { hashAlgorithm: string; prehashed: boolean; signatureAlgorithm: string }): void;
  prehashed(requested: boolean, input?: Buffer, algorithm?: string): boolean;
  /** prehashed as verify reads it. */
  verifyPrehashed(requested: boolean): boolean;
  /** Verify options the service refuses (documented: none of the documented ones). */
  refuseVerifyOption(opts: SignOptions): void;
  /** The node hash a signature uses for hash_algorithm `algorithm`. */
  signingHash(algorithm: string): string;
  /** A derived ed25519 signature shows its public key. */
  showsPublicKey(batch: boolean): boolean;
  checkMacLength(length: number): void;
}

const nothing = (): void => undefined;

export const documentedRules: TransitRules = {
  ...documentedKeyManagementRules,
  ...documentedDataRules,
  answer: (a) => a.res,
  failure: (err) => err,
  missingKey: (name) => badRequest(`key ${JSON.stringify(name)} not found`),
  refusedHash: () => undefined,
  wrongFieldType: (err) => err,

  encryptIsUpdate: (disableUpsert) => disableUpsert,
  upsertAllowed: ({ create, disabled }) => create && !disabled,
  upsertType: (body) => body.type,
  upsertContext: (body, first) =>
    b64(body, 'context') ?? (first && typeof first === 'object' ? b64(first as Body, 'context') : undefined),
  upsertDerived: (hasContext) => hasContext,
  disableUpsertRead: (stored) => stored,
  checkCacheSize: (size) => {
    if (size < 0 || (size > 0 && size < 10)) throw badRequest('size must be 0 (unlimited) or at least 10');
  },
  cacheSizeRead: (stored) => stored,

  keyRead: (k) => readView(k),
  listed: (names) => names,
  autoRotates: (k) => k.autoRotatePeriod > 0,
  checkAutoRotatePeriod: (period) => checkRotationPeriod(period),
  autoRotateUpdate: (_current, requested) => requested,
  checkConvergent: (convergent, derived) => {
    if (convergent && !derived) throw badRequest('convergent encryption requires derivation to be enabled');
  },
  defaultKeyType: 'aes256-gcm96',
  checkHmacKeySize: (size) => {
    if (size !== 0 && (size < 32 || size > 512)) throw badRequest('key_size must be between 32 and 512 bytes');
  },
  hmacDefaultKeySize: 32,
  newVersionBytes: (k) => (typeInfo(k).kind === 'hmac' ? k.keySize : undefined),
  newHmacKey: () => randomBytes(32),
  checkRotation: (k) => {
    if (k.imported && !k.allowRotation)
      throw badRequest('imported key does not allow rotation (allow_rotation is false)');
  },
  checkDeletion: (k) => {
    if (!k.deletionAllowed) throw badRequest('deletion is not allowed for this key');
  },
  removeKey: (keys, name) => {
    keys.delete(name);
  },
  applyDeletionAllowed: (next, body) => {
    if (body.deletion_allowed !== undefined) next.deletionAllowed = bool(body, 'deletion_allowed');
  },
  disableFlag: (field) => {
    throw badRequest(`${field} cannot be disabled on a key that has it enabled`);
  },
  checkMinVersions: (next) => {
    if (next.minEncryptionVersion > 0 && next.minEncryptionVersion < next.minDecryptionVersion)
      throw badRequest('min_encryption_version must be 0 or at least min_decryption_version');
  },
  checkTrim: (k, min) => {
    if (k.minEncryptionVersion === 0)
      throw badRequest('minimum available version cannot be set when min_encryption_version is not set');
    if (k.minDecryptionVersion === 0)
      throw badRequest('minimum available version cannot be set when min_decryption_version is not set');
    if (min > Math.min(k.minEncryptionVersion, k.minDecryptionVersion))
      throw badRequest('minimum available version cannot exceed min_encryption_version or min_decryption_version');
    if (min < 0) throw badRequest('minimum available version cannot be negative');
    if (min < k.minAvailableVersion) throw badRequest('minimum available version cannot be decremented');
  },
  trimVersions: (k, min) => {
    for (const v of [...k.versions.keys()]) if (v < min) k.versions.delete(v);
  },

  wrappingKeyBits: 4096,
  unwrapRefused: async () => {
    throw badRequest('failed to unwrap the import ciphertext with the wrapping key');
  },
  importedKey: (material) => material,
  publicKeyImport: async (_type, publicKey) => ({ publicKey }),
  checkImportVersionImported: (k) => {
    if (!k.imported) throw badRequest('import_version is only supported on imported keys');
  },
  checkImportVersionNotRotated: (k) => {
    if (k.rotatedInService)
      throw badRequest('import_version is not supported after the key was rotated in the service');
  },
  importedVersionMaterial: (material) => material,

  latestVersions: (all, k) => all.filter((v) => v.version === k.latestVersion),
  signingKeyExport: (_k, v) => v.privateKey!.export({ format: 'pem', type: 'pkcs8' }).toString(),
  checkExportable: (k) => {
    if (!k.exportable) throw badRequest('key is not exportable');
  },
  byokMaterial: (material) => material,
  checkBackupExportable: (k) => {
    if (!k.exportable) throw badRequest('backup is not allowed: the key is not exportable');
  },
  checkBackupPlaintext: (k) => {
    if (!k.allowPlaintextBackup) throw badRequest('plaintext backup is not allowed for this key');
  },
  backupCopy: (k) => k,
  checkRestoreTarget: (name, exists, force) => {
    if (exists && !force) throw badRequest(`key ${JSON.stringify(name)} already exists; use force to overwrite it`);
  },
  csrTemplate: (body) => str(body, 'csr'),
  csrKeyPair: async (_k, v) => v,
  storeChain: (v, chain) => {
    v.certificateChain = chain;
  },

  batchEcho: (reference) => ({ reference }),
  batchItemError: (message, echo) => ({ error: message, ...echo }),
  batchOrder: (results) => results,
  batchStatus: ({ total, partialCode }) => (total ? 400 : (partialCode ?? 400)),
  batchFailureBody: (data, errors) => ({
    request_id: randomUUID(),
    lease_id: '',
    renewable: false,
    lease_duration: 0,
    data,
    wrap_info: null,
    warnings: null,
    auth: null,
    errors,
  }),
  encryptBatch: (items) => items,
  batchItems: (_body, items) => items,

  plaintextEncoding: 'base64',
  rewrapVersion: ({ item, keyVersion }) => int(item, 'key_version', keyVersion),
  checkDatakeyBits: (bits) => {
    if (![128, 256, 512].includes(bits)) throw badRequest('bits must be 128, 256 or 512');
  },
  datakeyShowsPlaintext: (kind) => kind === 'plaintext',
  checkRandomSource: nothing,
  randomLength: (bytes) => bytes,
  randomUsesHex: (format) => format === 'hex',
  randomHex: (text) => text,
  hashDefaultAlgorithm: 'sha2-256',
  hashUrlAlgorithm: (urlAlg) => urlAlg,
  hashFormat: (body) => str(body, 'format') || 'hex',
  hashDigest: (algorithm) => hashName(algorithm),
  checkVerifyBatchModes: (withSignature, withHmac) => {
    if (withSignature && withHmac)
      throw badRequest('batch_input items must all use signature or all use hmac, not both');
  },
  cmacUrlLength: (urlLength) => urlLength,

  allowsVersion: (k, version) => version >= k.minDecryptionVersion,
  tooOldVerification: 'error',
  shownVersion: (version) => version,
  outputVersion: (k, requested) => (requested === 0 ? k.latestVersion : requested),
  checkMinEncryption: (k, version) => {
    if (k.minEncryptionVersion > 0 && version < k.minEncryptionVersion)
      throw badRequest('requested version for encryption is less than the minimum encryption key version');
  },
  checkDerivationContext: (context) => {
    if (!context) throw badRequest("missing 'context' for key derivation: the key was created using a derived key");
  },
  checkNonce: (nonce) => {
    if (nonce && nonce.length !== 12) throw badRequest('invalid nonce length: a nonce must be 12 bytes (96 bits)');
  },
  aeadNonce: (k, key, plaintext) =>
    k.convergent ? createHmac('sha256', key).update(plaintext).digest().subarray(0, 12) : randomBytes(12),
  associatedData: (ad) => ad,
  sealAead: (nonce, ct, tag) => Buffer.concat([nonce, ct, tag]),
  openAead: (data) => ({
    nonce: data.subarray(0, 12),
    ct: data.subarray(12, data.length - 16),
    tag: data.subarray(data.length - 16),
  }),
  authenticate: (out, final) => {
    try {
      return Buffer.concat([out, final()]);
    } catch {
      throw badRequest('cipher: message authentication failed');
    }
  },
  hmacHash: (algorithm) => hashName(algorithm),
  hmacVerifyHash: (algorithm) => hashName(algorithm),
  verified: (valid) => valid,
  defaultSignatureAlgorithm: 'pss',
  defaultMarshaling: 'asn1',
  signHashAlgorithm: (urlAlgorithm, body) =>
    urlAlgorithm ?? (str(body, 'hash_algorithm') || str(body, 'algorithm') || 'sha2-256'),
  derivationSalt: () => Buffer.alloc(0),
  checkHashNone: (opts) => {
    if (opts.hashAlgorithm === 'none' && (!opts.prehashed || opts.signatureAlgorithm !== 'pkcs1v15'))
      throw badRequest('hash_algorithm none requires prehashed true and signature_algorithm pkcs1v15');
  },
  prehashed: (requested) => requested,
  verifyPrehashed: (requested) => requested,
  refuseVerifyOption: nothing,
  signingHash: (algorithm) => hashName(algorithm),
  showsPublicKey: () => true,
  checkMacLength: (length) => {
    if (length > 16 || length < 1) throw badRequest('mac_length must be between 1 and the cipher block size (16)');
  },
};
