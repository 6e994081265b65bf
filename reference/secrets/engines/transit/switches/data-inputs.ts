/**
 * The transit engine's faults on what the data operations take and answer (transit document: Data
 * operations, Shared parameters, Limits, Versioning): a required input read as empty, a parameter
 * or a batch item's field ignored, a documented answer field renamed, a version bound skipped. Each
 * replaces rules of ../rules.ts and ../data-rules.ts (see reference/switches.ts); gathered, in
 * order, by index.ts after switches/data.ts.
 */
import { switchesOf } from '../../../../switches.js';
import { badRequest } from '../../../errors.js';
import type { DataOp } from '../data-rules.js';
import type { Answer, TransitRules } from '../rules.js';

const { fault } = switchesOf<TransitRules>(['transit']);

/** A fault that reads a missing required `field` of `op` as empty instead of refusing the request. */
function optional(op: DataOp, field: string) {
  return (d: TransitRules): Partial<TransitRules> => ({
    required: (o, f) => (o === op && f === field ? false : d.required(o, f)),
  });
}

/** A fault that answers a single-item `op` with the documented field `from` under the name `to`. */
function renamed(op: string, from: string, to: string, value: (v: unknown) => unknown = (v) => v) {
  return (d: TransitRules): Partial<TransitRules> => ({
    answer: (a: Answer) => {
      const res = d.answer(a);
      const data = res.data as Record<string, unknown> | undefined;
      if (a.seg[0] !== op || !data || typeof data !== 'object' || !(from in data)) return res;
      const { [from]: moved, ...rest } = data;
      return { ...res, data: { ...rest, [to]: value(moved) } };
    },
  });
}

/** A fault after which `op` reads batch items with the first item's context. */
function firstContext(op: DataOp) {
  return (d: TransitRules): Partial<TransitRules> => ({
    itemFields: (o, item, items) =>
      o === op && items?.[0]
        ? { ...d.itemFields(o, item, items), context: items[0].context }
        : d.itemFields(o, item, items),
  });
}

export const dataInputSwitches = [
  // ---------------------------------------------------------------- answers (endpoint table)
  fault('transit.encrypt-ciphertext-renamed', {
    breaks: 'transit.encrypt.roundtrip',
    statements: ['doc.transit.encrypt.response'],
    description: 'encrypt answers its ciphertext as data.encrypted instead of data.ciphertext',
    replace: renamed('encrypt', 'ciphertext', 'encrypted'),
  }),
  fault('transit.decrypt-plaintext-renamed', {
    breaks: 'transit.encrypt.roundtrip',
    statements: ['doc.transit.decrypt.response'],
    description: 'decrypt answers the plaintext as data.decrypted instead of data.plaintext',
    replace: renamed('decrypt', 'plaintext', 'decrypted'),
  }),
  fault('transit.rewrap-ciphertext-renamed', {
    breaks: 'transit.rewrap.latest',
    statements: ['doc.transit.rewrap.response'],
    description: 'rewrap answers the new ciphertext as data.rewrapped instead of data.ciphertext',
    replace: renamed('rewrap', 'ciphertext', 'rewrapped'),
  }),
  fault('transit.datakey-ciphertext-renamed', {
    breaks: 'transit.datakey.types',
    statements: ['doc.transit.datakey.response'],
    description: 'datakey answers the wrapped key as data.wrapped_key instead of data.ciphertext',
    replace: renamed('datakey', 'ciphertext', 'wrapped_key'),
  }),
  fault('transit.random-bytes-renamed', {
    breaks: 'transit.random.bytes',
    statements: ['doc.transit.random.response'],
    description: 'random answers data.bytes instead of data.random_bytes',
    replace: renamed('random', 'random_bytes', 'bytes'),
  }),
  fault('transit.hash-sum-renamed', {
    breaks: 'transit.hash.sum',
    statements: ['doc.transit.hash.response'],
    description: 'hash answers data.hash instead of data.sum',
    replace: renamed('hash', 'sum', 'hash'),
  }),
  fault('transit.hmac-renamed', {
    breaks: 'transit.hmac.compute',
    statements: ['doc.transit.hmac.response'],
    description: 'hmac answers data.mac instead of data.hmac',
    replace: renamed('hmac', 'hmac', 'mac'),
  }),
  fault('transit.sign-signature-renamed', {
    breaks: 'transit.sign.verifiable',
    statements: ['doc.transit.sign.response'],
    description: 'sign answers data.sig instead of data.signature',
    replace: renamed('sign', 'signature', 'sig'),
  }),
  fault('transit.verify-valid-string', {
    breaks: 'transit.verify.valid',
    statements: ['doc.transit.verify.response'],
    description: 'verify answers data.valid as the string "true" or "false" instead of a boolean',
    replace: renamed('verify', 'valid', 'valid', (v) => String(v)),
  }),
  fault('transit.cmac-renamed', {
    breaks: 'transit.cmac.compute',
    statements: ['doc.transit.cmac.response'],
    description: 'cmac answers data.mac instead of data.cmac',
    replace: renamed('cmac', 'cmac', 'mac'),
  }),

  // ---------------------------------------------------------------- required inputs
  fault('transit.encrypt-plaintext-optional', {
    breaks: 'transit.data.required-input',
    statements: ['doc.transit.encrypt.plaintext'],
    description: 'encrypt without plaintext encrypts the empty string',
    replace: optional('encrypt', 'plaintext'),
  }),
  fault('transit.decrypt-ciphertext-optional', {
    breaks: 'transit.data.required-input',
    statements: ['doc.transit.decrypt.ciphertext'],
    description: 'decrypt without ciphertext answers an empty plaintext',
    replace: optional('decrypt', 'ciphertext'),
  }),
  fault('transit.rewrap-ciphertext-optional', {
    breaks: 'transit.data.required-input',
    statements: ['doc.transit.rewrap.ciphertext'],
    description: 'rewrap without ciphertext answers a ciphertext of the empty string',
    replace: optional('rewrap', 'ciphertext'),
  }),
  fault('transit.hash-input-optional', {
    breaks: 'transit.data.required-input',
    statements: ['doc.transit.hash.input'],
    description: 'hash without input answers the digest of the empty string',
    replace: optional('hash', 'input'),
  }),
  fault('transit.hmac-input-optional', {
    breaks: 'transit.data.required-input',
    statements: ['doc.transit.hmac.input'],
    description: 'hmac without input answers the HMAC of the empty string',
    replace: optional('hmac', 'input'),
  }),
  fault('transit.sign-input-optional', {
    breaks: 'transit.data.required-input',
    statements: ['doc.transit.sign.input'],
    description: 'sign without input signs the empty string',
    replace: optional('sign', 'input'),
  }),
  fault('transit.verify-input-optional', {
    breaks: 'transit.data.required-input',
    statements: ['doc.transit.verify.input'],
    description: 'verify without input verifies the signature against the empty string',
    replace: optional('verify', 'input'),
  }),
  fault('transit.verify-signature-optional', {
    breaks: 'transit.data.required-input',
    statements: ['doc.transit.verify.signature-or-hmac'],
    description: 'verify with neither signature nor hmac answers valid false',
    replace: optional('verify', 'signature or hmac'),
  }),
  fault('transit.cmac-input-optional', {
    breaks: 'transit.data.required-input',
    statements: ['doc.transit.cmac.input'],
    description: 'cmac without input answers the CMAC of the empty string',
    replace: optional('cmac', 'input'),
  }),

  // ---------------------------------------------------------------- nonce, contexts, types
  fault('transit.nonce-used-not-carried', {
    breaks: 'transit.params.nonce-optional',
    statements: [
      'doc.transit.encrypt.nonce',
      'doc.transit.rewrap.nonce',
      'doc.transit.datakey.nonce',
      'doc.transit.limits.nonce',
    ],
    description: 'a nonce given to encrypt seals the plaintext, but the ciphertext carries the generated nonce',
    replace: () => ({ sealingNonce: (chosen, supplied) => supplied ?? chosen }),
  }),
  fault('transit.decrypt-nonce-echoed', {
    breaks: 'transit.params.nonce-optional',
    statements: ['doc.transit.decrypt.nonce'],
    description: 'decrypt given a nonce accepts it and answers the nonce in place of the plaintext',
    replace: () => ({ openedPlaintext: (opened, supplied) => supplied ?? opened }),
  }),
  fault('transit.decrypt-associated-data-ignored', {
    breaks: 'transit.encrypt.associated-data',
    statements: ['doc.transit.decrypt.associated-data'],
    description: 'decrypt ignores associated_data, so a ciphertext bound to associated data never opens',
    replace: () => ({ openingAssociatedData: () => undefined }),
  }),
  fault('transit.encrypt-batch-context-shared', {
    breaks: 'transit.batch.item-context',
    statements: ['doc.transit.encrypt.batch-items'],
    description: "every encrypt batch item is encrypted with the first item's context",
    replace: firstContext('encrypt'),
  }),
  fault('transit.decrypt-batch-context-shared', {
    breaks: 'transit.batch.item-context',
    statements: ['doc.transit.decrypt.batch-items'],
    description: "every decrypt batch item is decrypted with the first item's context",
    replace: firstContext('decrypt'),
  }),
  fault('transit.rewrap-context-dropped', {
    breaks: 'transit.rewrap.derived-context',
    statements: ['doc.transit.rewrap.context'],
    description: 'rewrap drops the context, so a derived key cannot be rewrapped',
    replace: (d) => ({
      itemFields: (op, item, items) =>
        op === 'rewrap' ? { ...d.itemFields(op, item, items), context: undefined } : d.itemFields(op, item, items),
    }),
  }),
  fault('transit.datakey-context-dropped', {
    breaks: 'transit.datakey.context',
    statements: ['doc.transit.datakey.context'],
    description: 'datakey drops the context, so a derived key gives no data key',
    replace: (d) => ({
      itemFields: (op, item, items) =>
        op === 'datakey' ? { ...d.itemFields(op, item, items), context: undefined } : d.itemFields(op, item, items),
    }),
  }),
  fault('transit.sign-single-context-dropped', {
    breaks: 'transit.sign.single-context',
    statements: ['doc.transit.sign.context'],
    description: 'sign reads context from batch items only, so a single sign on a derived ed25519 key fails',
    replace: (d) => ({
      itemFields: (op, item, items) =>
        op === 'sign' && !items
          ? { ...d.itemFields(op, item, items), context: undefined }
          : d.itemFields(op, item, items),
    }),
  }),
  fault('transit.encrypt-type-mismatch-refused', {
    breaks: 'transit.upsert.type',
    statements: ['doc.transit.encrypt.type'],
    description: "encrypt on an existing key refuses a `type` other than the key's",
    replace: () => ({
      checkEncryptType: (existing, requested) => {
        if (requested !== existing) throw badRequest(`the key is of type ${existing}, not ${String(requested)}`);
      },
    }),
  }),
  fault('transit.upsert-convergent-ignored', {
    breaks: 'transit.upsert.convergent',
    statements: ['doc.transit.encrypt.convergent-upsert'],
    description: 'an encrypt that creates the key ignores convergent_encryption',
    replace: () => ({ upsertConvergent: () => undefined }),
  }),
  fault('transit.convergent-nonce-required', {
    breaks: 'transit.create.convergent-deterministic',
    statements: ['doc.transit.versioning.new-keys-no-nonce'],
    description: 'encrypt on a convergent key of this release without a nonce is refused',
    replace: () => ({ convergentNeedsNonce: () => true }),
  }),

  // ---------------------------------------------------------------- versions
  fault('transit.rewrap-key-version-ignored', {
    breaks: 'transit.rewrap.latest',
    statements: ['doc.transit.rewrap.given-version', 'doc.transit.rewrap.key-version'],
    description: 'rewrap ignores key_version and always uses the latest version',
    replace: () => ({ rewrapVersion: () => 0 }),
  }),
  fault('transit.hmac-first-version', {
    breaks: 'transit.hmac.compute',
    statements: ['doc.transit.hmac.latest'],
    description: 'hmac without key_version uses version 1 instead of the latest',
    replace: (d) => ({
      versionFor: (op, k, requested, general) =>
        op === 'hmac' && requested === 0 ? 1 : d.versionFor(op, k, requested, general),
    }),
  }),
  fault('transit.sign-key-version-ignored', {
    breaks: 'transit.params.key-version-latest',
    statements: ['doc.transit.sign.key-version'],
    description: 'sign ignores key_version and always signs with the latest version',
    replace: (d) => ({
      versionFor: (op, k, requested, general) =>
        op === 'sign' ? k.latestVersion : d.versionFor(op, k, requested, general),
    }),
  }),
  fault('transit.cmac-key-version-ignored', {
    breaks: 'transit.params.key-version-latest',
    statements: ['doc.transit.cmac.key-version'],
    description: 'cmac ignores key_version and always uses the latest version',
    replace: (d) => ({
      versionFor: (op, k, requested, general) =>
        op === 'cmac' ? k.latestVersion : d.versionFor(op, k, requested, general),
    }),
  }),
  fault('transit.hmac-min-encryption-ignored', {
    breaks: 'transit.params.key-version-min-encryption',
    statements: ['doc.transit.versioning.bounds'],
    description: 'hmac computes with a key_version below min_encryption_version',
    replace: (d) => ({
      checkMinEncryption: (k, version, op) => (op === 'hmac' ? undefined : d.checkMinEncryption(k, version, op)),
    }),
  }),
  fault('transit.hmac-min-decryption-ignored', {
    breaks: 'transit.config.min-decryption',
    statements: ['doc.transit.versioning.bounds', 'doc.transit.config.min-decryption-hmac'],
    description: 'hmac computes with a version below min_decryption_version',
    replace: () => ({ hmacVersionUsable: () => true }),
  }),

  // ---------------------------------------------------------------- per operation
  fault('transit.rewrap-returns-plaintext', {
    breaks: 'transit.rewrap.latest',
    statements: ['doc.transit.rewrap.no-plaintext', 'doc.transit.auth.rewrap-no-plaintext'],
    description: 'rewrap also answers the plaintext',
    replace: () => ({ rewrapShowsPlaintext: true }),
  }),
  fault('transit.datakey-bits-ignored', {
    breaks: 'transit.datakey.bits',
    statements: ['doc.transit.datakey.bits-values'],
    description: 'datakey always makes a 256-bit key, whatever bits asks',
    replace: () => ({ datakeyBits: () => 256 }),
  }),
  fault('transit.random-default-16', {
    breaks: 'transit.random.bytes',
    statements: ['doc.transit.limits.random-bytes-default'],
    description: 'random without bytes returns 16 bytes',
    replace: () => ({ randomDefaultBytes: 16 }),
  }),
  fault('transit.encrypt-size-capped', {
    breaks: 'transit.limits.request-size',
    statements: ['doc.transit.limits.request-size'],
    description: 'encrypt refuses plaintexts over 1 MiB, far below the 32 MB request size',
    replace: () => ({ maxPlaintextBytes: 1024 * 1024 }),
  }),
  fault('transit.prehashed-rsa-sha256-only', {
    breaks: 'transit.sign.prehashed',
    statements: ['doc.transit.sign.prehashed-rsa-hash'],
    description: 'RSA prehashed signing ignores hash_algorithm and takes the input for a SHA-256 digest',
    replace: () => ({ prehashedHash: () => 'sha2-256' }),
  }),
  fault('transit.verify-signature-algorithm-ignored', {
    breaks: 'transit.verify.options',
    statements: ['doc.transit.verify.signature-algorithm'],
    description: 'verify ignores signature_algorithm and checks RSA signatures as PSS',
    replace: (d) => ({ verifySignatureAlgorithm: () => d.defaultSignatureAlgorithm }),
  }),
  fault('transit.verify-batch-as-signatures', {
    breaks: 'transit.verify.batch',
    statements: ['doc.transit.verify.batch'],
    description: 'verify batch items are always checked as signatures, so hmac items fail',
    replace: () => ({ verifiesHmac: () => false, checkVerifyBatchModes: () => undefined }),
  }),
  fault('transit.hmac-batch-ignored', {
    breaks: 'transit.batch.item-error',
    statements: ['doc.transit.hmac.batch'],
    description: 'hmac ignores batch_input and computes the single input only',
    replace: (d) => ({ readsBatch: (op) => op !== 'hmac' && d.readsBatch(op) }),
  }),
  fault('transit.sign-batch-ignored', {
    breaks: 'transit.batch.item-error',
    statements: ['doc.transit.sign.batch'],
    description: 'sign ignores batch_input and signs the single input only',
    replace: (d) => ({ readsBatch: (op) => op !== 'sign' && d.readsBatch(op) }),
  }),
  fault('transit.cmac-batch-ignored', {
    breaks: 'transit.batch.item-error',
    statements: ['doc.transit.cmac.batch-input'],
    description: 'cmac ignores batch_input and computes the single input only',
    replace: (d) => ({ readsBatch: (op) => op !== 'cmac' && d.readsBatch(op) }),
  }),
  fault('transit.cmac-batch-reference-dropped', {
    breaks: 'transit.batch.reference-echo',
    statements: ['doc.transit.cmac.batch-results'],
    description: 'cmac batch results do not carry reference',
    replace: (d) => ({ batchEcho: (reference, op) => (op === 'cmac' ? {} : d.batchEcho(reference, op)) }),
  }),
  fault('transit.cmac-mac-length-ignored', {
    breaks: 'transit.cmac.compute',
    statements: ['doc.transit.cmac.mac-length'],
    description: 'cmac ignores mac_length in the body and answers the full 16 bytes',
    replace: () => ({ cmacBodyLength: () => 0 }),
  }),
  fault('transit.decrypt-partial-code-ignored', {
    breaks: 'transit.batch.partial-failure-code',
    statements: ['doc.transit.decrypt.partial-failure-code'],
    description: 'decrypt ignores partial_failure_response_code',
    replace: (d) => ({
      batchStatus: (o) =>
        !o.total && o.operation === 'decrypt' ? d.batchStatus({ ...o, partialCode: undefined }) : d.batchStatus(o),
    }),
  }),
];
