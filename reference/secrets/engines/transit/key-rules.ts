/**
 * The rules of key management in the transit document (create, read, config, rotate, trim,
 * import, import_version, export, byok-export, backup/restore, csr, set-certificate, cache-config)
 * that the model reaches through `rules.x(...)`, kept apart from rules.ts (answers, batches, data
 * operations) so that each part of the document has one module of rules. rules.ts joins both into
 * TransitRules; the switches (switches/) replace them one by one.
 */
import { createPublicKey, type KeyObject } from 'node:crypto';
import type { EngineResponse } from '../../engine.js';
import { badRequest, methodNotAllowed, notFound, type SvcError } from '../../errors.js';
import { OAEP_HASHES } from './byok.js';
import { typeInfo, type KeyVersion, type NamedKey } from './keys.js';
import { b64, duration, int, str, type Body } from './params.js';
import { KEY_TYPES } from './types.js';

const HOUR = 3600;

/** The minimum of an auto_rotate_period (0 disables it). */
export function checkRotationPeriod(period: number | undefined): void {
  if (period !== undefined && period !== 0 && period < HOUR)
    throw badRequest('auto rotate period must be 0 to disable or at least an hour');
}

/** Which request of the key's certificate endpoints names a version. */
export type CertificateCall = 'csr' | 'set-certificate';
/** Which import endpoint unwraps a ciphertext. */
export type ImportCall = 'import' | 'import_version';
/** What a verification checks: a signature or an HMAC. */
export type Verification = 'signature' | 'hmac';

export interface KeyManagementRules {
  // ---------------------------------------------------------------- create and configure
  /** The key type supports derivation (Key types: "derivation"). */
  derivationSupported(type: string): boolean;
  /** convergent_encryption of a new key (Create key: default false). */
  convergentRequested(body: Body, derived: boolean): boolean;
  /** key_size sent with a type other than hmac (Create key: "HMAC only"). */
  checkKeySizeType(type: string, keySize: number): void;
  /** auto_rotate_period of a new key (`requested`: undefined when the request omits it). */
  createAutoRotatePeriod(requested: number | undefined): number;
  /** auto_rotate_period of an imported key. */
  importedAutoRotatePeriod(period: number, allowRotation: boolean): number;
  /** A create request for a key that exists: true replaces the key (Create key: values cannot be changed). */
  recreateExisting(existing: NamedKey, body: Body): boolean;
  /** A config write: what it does to the fields it omits (documented: nothing). */
  applyOmittedConfig(next: NamedKey, body: Body): void;
  /** The size a mount's key cache has until cache-config sets one, and a write without `size` sets. */
  cacheDefaultSize: number;
  /** The disable_upsert a POST config/keys answers. */
  disableUpsertAnswer(previous: boolean, now: boolean): boolean;
  /** The service offers key type `type` (Key types table). */
  typeSupported(type: string): boolean;
  /** The type a create request for `type` makes. */
  typeCreated(type: string): string;
  /** POST /transit/keys without a name (Create key: name required). */
  createWithoutName(): EngineResponse;
  /** The type whose material a new version of a `type` key gets (Key types; `latest`: the key's latest version before it). */
  materialType(type: string, latest?: number): string;
  /** POST keys/:name/rotate adds a version (States and transitions: rotate). */
  rotatesOnRequest(k: NamedKey): boolean;
  /** GET keys/:name of a key that does not exist. */
  missingKeyRead(name: string): SvcError;
  /** A key that is no longer in the engine's key map (deleted), still found by an operation. */
  cachedKey(name: string): NamedKey | undefined;
  /** The key an operation on `name` uses (`stored`: the key the engine holds under that name now). */
  keyInUse(name: string, stored: NamedKey | undefined): NamedKey | undefined;
  /** The existence check of encrypt on `name` (`has`: the engine holds a key of that name). */
  encryptKeyExists(has: boolean): boolean;
  /** The fields an encrypt that creates its key (upsert) creates it with (`base`: type, derived, convergent). */
  upsertDefaults(base: Body): Body;
  /** encrypt on an existing key is refused (`disableUpsert`: the engine's setting). */
  encryptRefusesExisting(disableUpsert: boolean): boolean;
  /** disable_upsert after a POST config/keys that asks for `requested`. */
  disableUpsertWrite(previous: boolean, requested: boolean): boolean;
  /** auto_rotate_period of a create, import or config request, in seconds (undefined when omitted). */
  autoRotatePeriodOf(body: Body): number | undefined;

  // ---------------------------------------------------------------- trim, restore, certificates
  /** min_available_version of a trim request (required). */
  trimMinimum(body: Body): number;
  /** The name a restore creates (path name, body name, or the backup's own). */
  restoreName(pathName: string | undefined, body: Body, backupName: string): string;
  /** A restore request without `backup`. */
  restoreWithoutBackup(): EngineResponse;
  /** The `version` a csr or set-certificate request names (empty or `latest`: the current one). */
  certificateVersion(requested: string, call: CertificateCall): string;
  /** Export of `keyType` needs an exportable key (public-key and certificate-chain do not). */
  exportNeedsExportable(keyType: string): boolean;
  /** The versions an export or byok-export without version returns (all of them). */
  omittedVersions(all: KeyVersion[], k: NamedKey, call?: 'export' | 'byok'): KeyVersion[];
  /** The version `n` an export names (undefined: no such version). */
  exportVersion(k: NamedKey, n: number): KeyVersion | undefined;
  /** The value export answers for `keyType` of version `v` (`value`: the documented one). */
  exportedValue(keyType: string, v: KeyVersion, value: string | undefined): string | undefined;
  /** The certificate chain export certificate-chain returns for a version. */
  chainExport(chain: string | undefined): string | undefined;
  /** The version a CSR answer reports. */
  csrAnswerVersion(version: number): string;
  /** set-certificate without certificate_chain, on the version it names. */
  missingChain(v: KeyVersion): EngineResponse;

  // ---------------------------------------------------------------- import
  /** The type of an import request (required; hmac and managed_key are not listed). */
  importType(body: Body): string;
  /** The node hash an import's hash_function names ('' when the request omits it: SHA256). */
  importHashFunction(name: string, call: ImportCall): string;
  /** An import with neither ciphertext nor public_key. */
  missingImportMaterial(type: string): Promise<Pick<KeyVersion, 'key' | 'privateKey' | 'publicKey'>>;
  /** The public key a private-key import stores (Import key: "public key derived"). */
  derivedPublicKey(privateKey: KeyObject): KeyObject | undefined;
  /** derived of an import request. */
  importDerived(requested: boolean): boolean;
  /** An import with derived true needs a context. */
  checkImportContext(derived: boolean, context: Buffer | undefined): void;
  /** The flags an import sets (exportable, allow_plaintext_backup) on the new key. */
  importFlags(k: NamedKey): void;
  /** The minimum of an import's auto_rotate_period. */
  checkImportAutoRotatePeriod(period: number | undefined): void;
  /**
   * The version import_version writes: the one requested, the latest when a private key completes a
   * latest version that lacks one (`completesLatest`), or 0 for a new version.
   */
  importVersionTarget(requested: number, latest: number, completesLatest: boolean): number;

  // ---------------------------------------------------------------- export and use
  /** The destination key's public key that byok-export wraps for (an RSA key). */
  byokDestination(dest: NamedKey): KeyObject;
  /** An HMAC with the key (every type has an HMAC key). */
  checkHmacSupported(k: NamedKey): void;
  /** The key encrypts (encrypt, datakey). */
  encrypts(k: NamedKey): boolean;
  /** The AEAD cipher of the key, when it has one. */
  aeadCipher(k: NamedKey): string | undefined;
  /** An RSA version can encrypt (it needs its public key only). */
  checkRsaEncryption(v: KeyVersion): void;
  /** signature_algorithm as a sign or verify request gives it ('' when omitted: the default). */
  signatureAlgorithm(requested: string): string;
  /** The salt_length of a sign or verify request that omits it. */
  defaultSaltLength(op: 'sign' | 'verify'): string;
  /** The message an ed25519 signature is made over (the input; ed25519 hashes internally). */
  ed25519Message(input: Buffer): Buffer;
  /** The context bytes of an encrypt or decrypt item (base64 in the request). */
  contextBytes(item: Body): Buffer | undefined;
  /** The key whose min_decryption_version bounds a verification (Update key configuration). */
  verifyingKey(k: NamedKey, what: Verification): NamedKey;
}

export const documentedKeyManagementRules: KeyManagementRules = {
  derivationSupported: (type) => KEY_TYPES[type]?.derivation === true,
  convergentRequested: (body) => {
    const v = body.convergent_encryption;
    return v === true || v === 'true' || v === 1 || v === '1';
  },
  checkKeySizeType: (type, keySize) => {
    if (type !== 'hmac' && keySize !== 0) throw badRequest('key_size is only valid for hmac keys');
  },
  createAutoRotatePeriod: (requested) => requested ?? 0,
  importedAutoRotatePeriod: (period) => period,
  recreateExisting: () => false,
  applyOmittedConfig: () => undefined,
  cacheDefaultSize: 0,
  disableUpsertAnswer: (_previous, now) => now,
  typeSupported: () => true,
  typeCreated: (type) => type,
  createWithoutName: () => {
    throw methodNotAllowed();
  },
  materialType: (type) => type,
  rotatesOnRequest: () => true,
  missingKeyRead: () => notFound(),
  cachedKey: () => undefined,
  keyInUse: (_name, stored) => stored,
  encryptKeyExists: (has) => has,
  upsertDefaults: (base) => base,
  encryptRefusesExisting: () => false,
  disableUpsertWrite: (_previous, requested) => requested,
  autoRotatePeriodOf: (body) => duration(body, 'auto_rotate_period'),

  trimMinimum: (body) => {
    if (body.min_available_version === undefined || body.min_available_version === null)
      throw badRequest('missing min_available_version');
    return int(body, 'min_available_version');
  },
  restoreName: (pathName, body, backupName) => pathName || str(body, 'name') || backupName,
  restoreWithoutBackup: () => {
    throw badRequest('missing backup');
  },
  certificateVersion: (requested) => requested,
  exportNeedsExportable: (keyType) => keyType !== 'public-key' && keyType !== 'certificate-chain',
  omittedVersions: (all) => all,
  exportVersion: (k, n) => k.versions.get(n),
  exportedValue: (_keyType, _v, value) => value,
  chainExport: (chain) => chain,
  csrAnswerVersion: (version) => String(version),
  missingChain: () => {
    throw badRequest('certificate_chain is required');
  },

  importType: (body) => {
    const type = str(body, 'type');
    if (!type) throw badRequest('missing type: the type of the imported key is required');
    const info = KEY_TYPES[type];
    if (!info || info.kind === 'managed') throw badRequest('unsupported import key type');
    return type;
  },
  importHashFunction: (name) => {
    const hash = OAEP_HASHES[(name || 'SHA256').toUpperCase()];
    if (!hash) throw badRequest('hash_function must be one of SHA1, SHA224, SHA256, SHA384, SHA512');
    return hash;
  },
  missingImportMaterial: async () => {
    throw badRequest('ciphertext or public_key is required');
  },
  derivedPublicKey: (privateKey) => createPublicKey(privateKey),
  importDerived: (requested) => requested,
  checkImportContext: (derived, context) => {
    if (derived && !context) throw badRequest('context is required when derived is true');
  },
  importFlags: () => undefined,
  checkImportAutoRotatePeriod: (period) => checkRotationPeriod(period),
  importVersionTarget: (requested, latest, completesLatest) => requested || (completesLatest ? latest : 0),

  byokDestination: (dest) => {
    if (typeInfo(dest).kind !== 'rsa') throw badRequest('destination must be an RSA key');
    const publicKey = dest.versions.get(dest.latestVersion)?.publicKey;
    if (!publicKey) throw badRequest('destination key has no public key');
    return publicKey;
  },
  checkHmacSupported: () => undefined,
  encrypts: (k) => typeInfo(k).encryption,
  aeadCipher: (k) => typeInfo(k).cipher,
  checkRsaEncryption: (v) => {
    if (!v.publicKey) throw badRequest('key version has no public key');
  },
  signatureAlgorithm: (requested) => requested,
  defaultSaltLength: () => 'auto',
  ed25519Message: (input) => input,
  contextBytes: (item) => b64(item, 'context'),
  verifyingKey: (k) => k,
};
