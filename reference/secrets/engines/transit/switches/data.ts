/**
 * The transit engine's faults on data operations (transit document: Shared parameters, Output
 * formats, Data operations: encrypt and upsert, decrypt, rewrap, datakey, random, hash, HMAC, sign,
 * verify, CMAC, and their batches): each breaks one catalogued rule by replacing rules of
 * ../rules.ts (see reference/switches.ts). Gathered, in order, by index.ts.
 */
import { randomBytes } from 'node:crypto';
import { switchesOf } from '../../../../switches.js';
import { badRequest } from '../../../errors.js';
import type { TransitRules } from '../rules.js';

const { fault } = switchesOf<TransitRules>(['transit']);

const noCheck = (): void => undefined;

export const dataSwitches = [
  fault('transit.version-prefix-stuck', {
    breaks: 'transit.versioning.follows-rotation',
    statements: ['doc.transit.format.versioned-ciphertext', 'doc.transit.versioning.embedded'],
    description: 'outputs always say v1 whatever version produced them',
    replace: () => ({ shownVersion: () => 1 }),
  }),
  fault('transit.aead-layout-swapped', {
    breaks: 'transit.encrypt.local-decrypt',
    description: 'AEAD output is nonce|tag|ciphertext instead of nonce|ciphertext|tag',
    replace: () => ({
      sealAead: (nonce, ct, tag) => Buffer.concat([nonce, tag, ct]),
      openAead: (data) => ({ nonce: data.subarray(0, 12), tag: data.subarray(12, 28), ct: data.subarray(28) }),
    }),
  }),
  fault('transit.decrypt-plaintext-raw', {
    breaks: 'transit.format.base64-fields',
    statements: ['doc.transit.format.base64-plaintext'],
    description: 'decrypt returns the plaintext as raw text instead of base64',
    replace: () => ({ plaintextEncoding: 'latin1' }),
  }),
  fault('transit.batch-order-reversed', {
    breaks: 'transit.batch.order',
    statements: ['doc.transit.format.batch-results-order', 'doc.transit.params.batch-order'],
    description: 'the first two batch results are swapped',
    replace: () => ({
      // Swap the first two results: "out of order" without touching single-item batches.
      batchOrder: (results) => (results.length > 1 ? [results[1]!, results[0]!, ...results.slice(2)] : results),
    }),
  }),
  fault('transit.batch-error-dropped', {
    breaks: 'transit.batch.item-error',
    statements: ['doc.transit.format.batch-item-error', 'doc.transit.errors.batch-item-error'],
    description: 'a failed batch item has no `error`',
    replace: () => ({ batchItemError: (_message, echo) => ({ ...echo }) }),
  }),
  fault('transit.batch-reference-dropped', {
    breaks: 'transit.batch.reference-echo',
    statements: ['doc.transit.params.reference-echo', 'doc.transit.format.batch-reference'],
    description: 'batch results do not echo `reference`',
    replace: () => ({ batchEcho: () => ({}) }),
  }),
  fault('transit.batch-partial-200', {
    breaks: 'transit.batch.partial-failure-400',
    statements: ['doc.transit.params.partial-failure-default', 'doc.transit.errors.partial-400'],
    description: 'a partial encrypt or decrypt batch failure answers 200',
    replace: (d) => ({
      batchStatus: (o) => (o.total || !o.tiedToPartialCode || o.partialCode !== undefined ? d.batchStatus(o) : 200),
    }),
  }),
  fault('transit.batch-partial-code-ignored', {
    breaks: 'transit.batch.partial-failure-code',
    statements: ['doc.transit.params.partial-failure-code', 'doc.transit.encrypt.partial-failure-code'],
    description: 'encrypt ignores partial_failure_response_code',
    replace: (d) => ({
      batchStatus: (o) =>
        !o.total && o.operation === 'encrypt' ? d.batchStatus({ ...o, partialCode: undefined }) : d.batchStatus(o),
    }),
  }),
  fault('transit.batch-total-failure-ok', {
    breaks: 'transit.batch.total-failure-error',
    statements: ['doc.transit.params.total-failure', 'doc.transit.errors.total-failure'],
    description: 'a total batch failure answers partial_failure_response_code',
    replace: (d) => ({
      batchStatus: (o) => (o.total && o.partialCode !== undefined ? o.partialCode : d.batchStatus(o)),
    }),
  }),
  fault('transit.batch-single-fields-used', {
    breaks: 'transit.batch.single-fields-ignored',
    statements: ['doc.transit.params.batch-single-ignored'],
    description: 'encrypt uses the single plaintext when batch_input is also set',
    replace: (d) => ({
      encryptBatch: (items, body) => (body.plaintext !== undefined ? undefined : d.encryptBatch(items, body)),
    }),
  }),
  fault('transit.upsert-never', {
    breaks: 'transit.upsert.create',
    statements: ['doc.transit.lifecycle.upsert-create'],
    description: 'encrypt never creates a missing key',
    replace: (d) => ({ upsertAllowed: (a) => d.upsertAllowed({ ...a, create: false }) }),
  }),
  fault('transit.derived-upsert-not-derived', {
    breaks: 'transit.upsert.derived-with-context',
    statements: ['doc.transit.lifecycle.upsert-derived'],
    description: 'a key upserted with a context is not derived',
    replace: () => ({ upsertDerived: () => false }),
  }),
  fault('transit.upsert-batch-context-not-derived', {
    breaks: 'transit.upsert.derived-with-context',
    statements: ['doc.transit.lifecycle.upsert-derived'],
    description:
      'a key upserted by a batch whose items carry a context is not derived (only a top-level context counts)',
    replace: (d) => ({ upsertContext: (body) => d.upsertContext(body, undefined) }),
  }),
  fault('transit.upsert-empty-context-derived', {
    breaks: 'transit.upsert.derived-with-context',
    statements: ['doc.transit.lifecycle.upsert-derived'],
    description: 'a key upserted with an empty context ("") is derived',
    replace: (d) => ({
      upsertContext: (body, first) => (body.context === '' ? Buffer.alloc(0) : d.upsertContext(body, first)),
    }),
  }),
  fault('transit.upsert-without-create', {
    breaks: 'transit.upsert.update-only-refused',
    statements: [
      'doc.transit.lifecycle.upsert-update-only',
      'doc.transit.encrypt.upsert-create-capability',
      'doc.transit.errors.upsert-update-only',
      'doc.transit.auth.encrypt-create-update',
    ],
    description: 'the existence check always says the key exists and encrypt upserts anyway, so update suffices',
    replace: (d) => ({
      encryptIsUpdate: () => true,
      upsertAllowed: (a) => d.upsertAllowed({ ...a, create: true }),
    }),
  }),
  fault('transit.upsert-ignores-disable', {
    breaks: 'transit.upsert.disabled-refused',
    statements: [
      'doc.transit.lifecycle.upsert-disabled',
      'doc.transit.encrypt.disable-upsert',
      'doc.transit.errors.upsert-disabled',
    ],
    description: 'encrypt upserts even with disable_upsert',
    replace: () => ({ upsertAllowed: () => true }),
  }),
  fault('transit.upsert-type-ignored', {
    breaks: 'transit.upsert.type',
    statements: ['doc.transit.encrypt.type'],
    description: 'encrypt upserts ignore `type`',
    replace: () => ({ upsertType: () => undefined }),
  }),
  fault('transit.hash-default-sha512', {
    breaks: 'transit.params.hash-default',
    statements: ['doc.transit.params.hash-default', 'doc.transit.hash.algorithm'],
    description: 'hash defaults to sha2-512',
    replace: () => ({ hashDefaultAlgorithm: 'sha2-512' }),
  }),
  fault('transit.hash-url-ignored', {
    breaks: 'transit.params.hash-in-url',
    description: 'the algorithm in the hash URL is ignored',
    replace: () => ({ hashUrlAlgorithm: () => undefined }),
  }),
  fault('transit.sign-hash-url-ignored', {
    breaks: 'transit.params.hash-in-url',
    statements: ['doc.transit.sign.hash-algorithm'],
    description: 'the hash algorithm in the sign URL is ignored',
    replace: (d) => ({
      signHashAlgorithm: (urlAlgorithm, body) => (urlAlgorithm ? 'sha2-256' : d.signHashAlgorithm(urlAlgorithm, body)),
    }),
  }),
  fault('transit.pss-default-pkcs1', {
    breaks: 'transit.params.signature-algorithm',
    statements: ['doc.transit.params.signature-algorithm-default', 'doc.transit.sign.signature-algorithm'],
    description: 'RSA signatures default to PKCS#1 v1.5',
    replace: () => ({ defaultSignatureAlgorithm: 'pkcs1v15' }),
  }),
  fault('transit.marshaling-default-jws', {
    breaks: 'transit.params.marshaling-default',
    statements: ['doc.transit.params.marshaling-default', 'doc.transit.sign.marshaling-algorithm'],
    description: 'ECDSA signatures default to the raw (JWS) encoding',
    replace: () => ({ defaultMarshaling: 'jws' }),
  }),
  fault('transit.key-version-ignored', {
    breaks: 'transit.params.key-version-latest',
    statements: ['doc.transit.params.key-version', 'doc.transit.encrypt.key-version'],
    description: 'key_version is ignored: the latest version is always used',
    replace: () => ({ outputVersion: (k) => k.latestVersion }),
  }),
  fault('transit.min-encryption-unchecked', {
    breaks: 'transit.params.key-version-min-encryption',
    statements: ['doc.transit.params.key-version-min-encryption'],
    description: 'key_version below min_encryption_version is accepted',
    replace: () => ({ checkMinEncryption: noCheck }),
  }),
  fault('transit.context-optional', {
    breaks: 'transit.params.context-required',
    statements: ['doc.transit.params.context-required', 'doc.transit.create.derived-context'],
    description: 'derived keys accept requests without context',
    replace: () => ({ checkDerivationContext: noCheck }),
  }),
  fault('transit.nonce-length-unchecked', {
    breaks: 'transit.params.nonce-12-bytes',
    statements: ['doc.transit.params.nonce-length', 'doc.transit.limits.nonce'],
    description: 'a nonce of any length is accepted',
    replace: () => ({ checkNonce: noCheck }),
  }),
  fault('transit.convergent-random-nonce', {
    breaks: 'transit.create.convergent-deterministic',
    statements: ['doc.transit.create.convergent-same', 'doc.transit.key-types.aes256-gcm96-derivation'],
    description: 'convergent keys use a random nonce',
    replace: () => ({ aeadNonce: () => randomBytes(12) }),
  }),
  fault('transit.associated-data-ignored', {
    breaks: 'transit.encrypt.associated-data',
    statements: ['doc.transit.encrypt.associated-data'],
    description: 'associated_data is not bound to the ciphertext',
    replace: () => ({ associatedData: () => undefined }),
  }),
  fault('transit.tamper-accepted', {
    breaks: 'transit.decrypt.tampered',
    description: 'decrypt skips the authentication tag check',
    replace: () => ({ authenticate: (out) => out }),
  }),
  fault('transit.rewrap-keeps-version', {
    breaks: 'transit.rewrap.latest',
    statements: ['doc.transit.rewrap.latest'],
    description: "rewrap re-encrypts under the ciphertext's own version",
    replace: () => ({ rewrapVersion: ({ previous }) => previous }),
  }),
  fault('transit.datakey-wrapped-leaks-plaintext', {
    breaks: 'transit.datakey.types',
    statements: ['doc.transit.datakey.wrapped', 'doc.transit.auth.datakey-path'],
    description: 'datakey/wrapped also returns the plaintext',
    replace: () => ({ datakeyShowsPlaintext: () => true }),
  }),
  fault('transit.datakey-bits-unchecked', {
    breaks: 'transit.datakey.bits',
    statements: ['doc.transit.limits.datakey-bits'],
    description: 'datakey accepts any multiple of 8 bits',
    replace: () => ({ checkDatakeyBits: noCheck }),
  }),
  fault('transit.random-bytes-off-by-one', {
    breaks: 'transit.random.bytes',
    statements: ['doc.transit.random.bytes'],
    description: 'random returns one byte less than asked',
    replace: () => ({ randomLength: (bytes) => bytes - 1 }),
  }),
  fault('transit.random-format-ignored', {
    breaks: 'transit.random.format',
    statements: ['doc.transit.random.format-hex'],
    description: 'random ignores format hex',
    replace: () => ({ randomUsesHex: () => false }),
  }),
  fault('transit.random-source-all-rejected', {
    breaks: 'transit.random.source',
    statements: ['doc.transit.random.source-values'],
    description: 'random refuses source all',
    replace: (d) => ({
      checkRandomSource: (source) => {
        if (source === 'all') throw badRequest('source all is not supported');
        d.checkRandomSource(source);
      },
    }),
  }),
  fault('transit.seal-source-rejected', {
    breaks: 'transit.random.seal',
    statements: ['doc.transit.random.source-values'],
    description: 'random refuses source seal',
    replace: (d) => ({
      checkRandomSource: (source) => {
        if (source === 'seal') throw badRequest('source seal is not supported');
        d.checkRandomSource(source);
      },
    }),
  }),
  fault('transit.hash-format-ignored', {
    breaks: 'transit.hash.sum',
    statements: ['doc.transit.hash.format-base64'],
    description: 'hash ignores format base64',
    replace: () => ({ hashFormat: () => 'hex' }),
  }),
  fault('transit.hash-sha3-384-as-sha3-256', {
    breaks: 'transit.hash.sum',
    statements: ['doc.transit.hash.response', 'doc.transit.hash.algorithm'],
    description: 'hash with algorithm sha3-384 answers 200 with the sha3-256 digest',
    replace: (d) => ({ hashDigest: (algorithm) => d.hashDigest(algorithm === 'sha3-384' ? 'sha3-256' : algorithm) }),
  }),
  fault('transit.hmac-ignores-algorithm', {
    breaks: 'transit.hmac.compute',
    statements: ['doc.transit.hmac.algorithm'],
    description: 'HMAC always uses SHA-256',
    replace: () => ({ hmacHash: () => 'sha256' }),
  }),
  fault('transit.sign-wrong-hash', {
    breaks: 'transit.sign.verifiable',
    description: 'ECDSA and RSA sign with SHA-1 whatever was asked',
    replace: () => ({ signingHash: () => 'sha1' }),
  }),
  fault('transit.sign-sha3-384-as-sha3-256', {
    breaks: 'transit.sign.verifiable',
    statements: ['doc.transit.sign.hash-algorithm'],
    description: 'ECDSA and RSA sign with sha3-256 when hash_algorithm sha3-384 is asked (and answer 200)',
    replace: (d) => ({
      signingHash: (algorithm) => d.signingHash(algorithm === 'sha3-384' ? 'sha3-256' : algorithm),
    }),
  }),
  fault('transit.verify-hmac-ignores-hash-algorithm', {
    breaks: 'transit.verify.hmac-hash-algorithm',
    statements: ['doc.transit.verify.hash-algorithm'],
    description: 'verify checks an hmac with sha2-256 whatever hash_algorithm names',
    replace: () => ({ hmacVerifyHash: () => 'sha256' }),
  }),
  fault('transit.prehashed-ignored', {
    breaks: 'transit.sign.prehashed',
    statements: ['doc.transit.service.prehashed-sign', 'doc.transit.sign.prehashed-raw'],
    description: 'prehashed input is hashed again',
    replace: () => ({ prehashed: () => false }),
  }),
  fault('transit.hash-none-unchecked', {
    breaks: 'transit.sign.hash-none',
    statements: ['doc.transit.sign.hash-none'],
    description: 'hash_algorithm none is accepted without prehashed or with PSS',
    replace: () => ({ checkHashNone: noCheck }),
  }),
  fault('transit.derived-publickey-missing', {
    breaks: 'transit.sign.derived-publickey',
    statements: ['doc.transit.sign.derived-publickey'],
    description: 'derived ed25519 batch results lack publickey',
    replace: () => ({ showsPublicKey: (batch) => !batch }),
  }),
  fault('transit.verify-always-true', {
    breaks: 'transit.verify.valid',
    statements: ['doc.transit.service.data-operations'],
    description: 'verify answers valid true for any signature or HMAC',
    replace: () => ({ verified: () => true }),
  }),
  fault('transit.verify-mixed-accepted', {
    breaks: 'transit.verify.mixed-batch',
    statements: ['doc.transit.verify.no-mixing', 'doc.transit.errors.verify-mixed'],
    description: 'verify batches may mix hmac and signature items',
    replace: () => ({ checkVerifyBatchModes: noCheck }),
  }),
  fault('transit.cmac-url-length-ignored', {
    breaks: 'transit.cmac.compute',
    statements: ['doc.transit.cmac.url-mac-length'],
    description: 'url_mac_length is ignored',
    replace: () => ({ cmacUrlLength: () => undefined }),
  }),
  fault('transit.cmac-length-unchecked', {
    breaks: 'transit.cmac.length-bound',
    statements: ['doc.transit.cmac.length-bound'],
    description: 'mac_length above 16 is accepted',
    replace: () => ({
      checkMacLength: (length) => {
        if (length < 1) throw badRequest('mac_length must be between 1 and the cipher block size (16)');
      },
    }),
  }),
];
