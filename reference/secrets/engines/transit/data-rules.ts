/**
 * Rules of the transit data operations (transit document: Data operations, Shared parameters,
 * Limits) that rules.ts does not name: which inputs an operation requires, which fields of an item
 * it reads, which version an output uses, what a nonce may do. Part of TransitRules (rules.ts); the
 * model (data.ts, ops.ts) calls them and the switches (switches/data.ts) replace them.
 */
import { badRequest } from '../../errors.js';
import type { NamedKey } from './keys.js';
import type { Body } from './params.js';

/** A data operation, as the first segment of its path names it. */
export type DataOp = 'encrypt' | 'decrypt' | 'rewrap' | 'datakey' | 'hash' | 'hmac' | 'sign' | 'verify' | 'cmac';

export interface DataOperationRules {
  /**
   * The operation refuses a request without `field` (and without batch_input): plaintext of
   * encrypt, ciphertext of decrypt and rewrap, input of hash, hmac, sign, verify and cmac,
   * signature-or-hmac of verify. When it does not, a missing field is read as empty.
   */
  required(op: DataOp, field: string): boolean;
  /** The fields an item of `op` is processed with (`items`: the whole batch, when there is one). */
  itemFields(op: DataOp, item: Body, items: Body[] | undefined): Body;
  /** The operation reads batch_input (otherwise only the single-item fields). */
  readsBatch(op: DataOp): boolean;
  /**
   * The version an output of `op` uses for the requested key_version (`general`: the version the
   * shared key_version rule gives, outputVersion of rules.ts).
   */
  versionFor(op: DataOp, k: NamedKey, requested: number, general: number): number;
  /** An HMAC key version below min_decryption_version is not usable. */
  hmacVersionUsable(k: NamedKey, version: number): boolean;
  /** A nonce may be given for this key (only where it is needed when false). */
  nonceAllowed(k: NamedKey): boolean;
  /** The nonce the cipher seals with (`chosen`: the one the output carries; `supplied`: the request's). */
  sealingNonce(chosen: Buffer, supplied: Buffer | undefined): Buffer;
  /** What decrypt answers for the bytes it opened (`supplied`: the request's nonce, which changes nothing). */
  openedPlaintext(opened: Buffer, supplied: Buffer | undefined): Buffer;
  /** The associated_data decrypt opens with (the request's). */
  openingAssociatedData(ad: Buffer | undefined): Buffer | undefined;
  /** A convergent key of this release needs a nonce on encrypt. */
  convergentNeedsNonce(k: NamedKey): boolean;
  /** encrypt on an existing key with a `type`: the type is used only when the call creates the key. */
  checkEncryptType(existingType: string, requested: unknown): void;
  /** The convergent_encryption an upsert creates the key with. */
  upsertConvergent(body: Body): unknown;
  /** The largest plaintext encrypt takes (the request size limit is the listener's). */
  maxPlaintextBytes: number;
  /** The rewrap answer shows the plaintext too. */
  rewrapShowsPlaintext: boolean;
  /** The size in bits of a data key for the requested `bits`. */
  datakeyBits(requested: number): number;
  /** A hash sum in hex as the answer writes it. */
  hashHex(text: string): string;
  /** random without bytes. */
  randomDefaultBytes: number;
  /** The hash a prehashed RSA signature is made for (hash_algorithm). */
  prehashedHash(algorithm: string): string;
  /** The signature_algorithm verify checks with. */
  verifySignatureAlgorithm(requested: string): string;
  /** A verify batch item is an HMAC item (it carries hmac). */
  verifiesHmac(item: Body): boolean;
  /** The mac_length of the body (0: the full block). */
  cmacBodyLength(length: number): number;
  /** The algorithm segment of an hmac URL as hmac reads it. */
  hmacUrlAlgorithm(urlAlgorithm: string | undefined): string | undefined;
  /** datakey without bits. */
  datakeyDefaultBits: number;
  /** The segments after random/ as random reads them (a source, a byte count). */
  randomUrlParts(parts: string[]): string[];
  /** random without format. */
  randomDefaultFormat: string;
  /** The request's hash algorithm as a batch of `op` applies it to each item. */
  batchHashAlgorithm(op: DataOp, algorithm: string): string;
  /** The request's key_version as a batch of `op` applies it to each item. */
  batchKeyVersion(op: DataOp, keyVersion: number): number;
}

export const documentedDataRules: DataOperationRules = {
  required: () => true,
  itemFields: (_op, item) => item,
  readsBatch: () => true,
  versionFor: (_op, _k, _requested, general) => general,
  hmacVersionUsable: (k, version) => version >= k.minDecryptionVersion,
  nonceAllowed: () => true,
  sealingNonce: (chosen) => chosen,
  openedPlaintext: (opened) => opened,
  openingAssociatedData: (ad) => ad,
  convergentNeedsNonce: () => false,
  checkEncryptType: () => undefined,
  upsertConvergent: (body) => body.convergent_encryption,
  maxPlaintextBytes: Number.POSITIVE_INFINITY,
  rewrapShowsPlaintext: false,
  datakeyBits: (requested) => requested,
  hashHex: (text) => text,
  randomDefaultBytes: 32,
  prehashedHash: (algorithm) => algorithm,
  verifySignatureAlgorithm: (requested) => requested,
  verifiesHmac: (item) => item.hmac !== undefined && item.hmac !== '',
  cmacBodyLength: (length) => length,
  hmacUrlAlgorithm: (urlAlgorithm) => urlAlgorithm,
  datakeyDefaultBits: 256,
  randomUrlParts: (parts) => parts,
  randomDefaultFormat: 'base64',
  batchHashAlgorithm: (_op, algorithm) => algorithm,
  batchKeyVersion: (_op, keyVersion) => keyVersion,
};

/** The refusal of a request that lacks a required input. */
export function missing(op: DataOp, field: string) {
  return badRequest(`missing ${field} for ${op}`);
}
