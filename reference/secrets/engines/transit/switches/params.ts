/**
 * The transit engine's faults on the shared parameters as every operation reads them (transit
 * document: Endpoints > Shared parameters; What the service does: prehashed, batching): each breaks
 * one catalogued rule by replacing rules of ../rules.ts or ../key-rules.ts (see
 * reference/switches.ts). Gathered, in order, by index.ts.
 */
import { badRequest } from '../../../errors.js';
import { switchesOf } from '../../../../switches.js';
import type { TransitRules } from '../rules.js';

const { fault } = switchesOf<TransitRules>(['transit']);

/** The operations whose single answer could carry a `reference`. */
const SINGLE = new Set(['encrypt', 'decrypt', 'rewrap', 'hmac', 'sign', 'verify']);

export const paramSwitches = [
  fault('transit.verify-url-hash-ignored', {
    breaks: 'transit.params.hash-in-url',
    statements: ['doc.transit.params.hash-in-url'],
    description: 'the hash algorithm in the verify URL is ignored (sha2-256 is used)',
    replace: (d) => ({
      signHashAlgorithm: (url, body, op) => (op === 'verify' && url ? 'sha2-256' : d.signHashAlgorithm(url, body, op)),
    }),
  }),
  fault('transit.hmac-sha3-as-sha3-256', {
    breaks: 'transit.hmac.compute',
    statements: [
      'doc.transit.params.hash-values-sha3-224',
      'doc.transit.params.hash-values-sha3-384',
      'doc.transit.params.hash-values-sha3-512',
      'doc.transit.hmac.algorithm',
    ],
    description: 'HMAC with sha3-224, sha3-384 or sha3-512 answers 200 with the sha3-256 HMAC',
    replace: (d) => ({
      hmacHash: (algorithm) => (/^sha3-(224|384|512)$/.test(algorithm) ? 'sha3-256' : d.hmacHash(algorithm)),
    }),
  }),
  fault('transit.verify-hash-none-refused', {
    breaks: 'transit.sign.hash-none',
    statements: ['doc.transit.params.hash-none'],
    description: 'verify refuses hash_algorithm none (sign accepts it)',
    replace: (d) => ({
      refuseVerifyOption: (opts) => {
        if (opts.hashAlgorithm === 'none') throw badRequest('hash_algorithm none is not supported for verification');
        d.refuseVerifyOption(opts);
      },
    }),
  }),
  fault('transit.verify-prehashed-ignored', {
    breaks: 'transit.verify.prehashed',
    statements: ['doc.transit.service.prehashed-verify', 'doc.transit.verify.prehashed'],
    description: 'verify ignores prehashed and hashes the input again',
    replace: () => ({ verifyPrehashed: () => false }),
  }),
  fault('transit.pkcs1v15-ignored', {
    breaks: 'transit.params.signature-algorithm',
    statements: ['doc.transit.params.signature-algorithm-pkcs1v15'],
    description: 'signature_algorithm pkcs1v15 is ignored: RSA keys sign and verify with PSS',
    replace: (d) => ({
      signatureAlgorithm: (requested) => (requested === 'pkcs1v15' ? 'pss' : d.signatureAlgorithm(requested)),
    }),
  }),
  fault('transit.verify-salt-length-hash', {
    breaks: 'transit.params.salt-length-default',
    statements: ['doc.transit.params.salt-length-default', 'doc.transit.verify.salt-length'],
    description:
      'verify without salt_length expects a salt as long as the hash, so the default (auto) signatures do not verify',
    replace: (d) => ({ defaultSaltLength: (op) => (op === 'verify' ? 'hash' : d.defaultSaltLength(op)) }),
  }),
  fault('transit.reference-carried-over', {
    breaks: 'transit.batch.reference-echo',
    statements: ['doc.transit.params.reference-default'],
    description: 'a batch item sent without reference echoes the reference of the item before it',
    replace: (d) => {
      let last = '';
      return {
        batchEcho: (reference, operation) => {
          if (reference !== '') last = reference;
          return d.batchEcho(reference === '' ? last : reference, operation);
        },
      };
    },
  }),
  fault('transit.reference-echoed-single', {
    breaks: 'transit.params.reference-batch-only',
    statements: [
      'doc.transit.params.reference-batch-only',
      'doc.transit.encrypt.reference',
      'doc.transit.decrypt.reference',
    ],
    description: 'a single-item request with reference answers it back in data.reference',
    replace: (d) => ({
      answer: (a) => {
        const res = d.answer(a);
        const data = res.data as Record<string, unknown> | undefined;
        if (!SINGLE.has(a.seg[0] ?? '') || !data || typeof data !== 'object' || data.batch_results !== undefined)
          return res;
        if (typeof a.body.reference !== 'string' || a.body.reference === '') return res;
        return { ...res, data: { ...data, reference: a.body.reference } };
      },
    }),
  }),
  fault('transit.batch-single-input-signed', {
    breaks: 'transit.batch.single-fields-ignored',
    statements: ['doc.transit.params.batch-single-ignored'],
    description:
      'decrypt, rewrap, hmac, sign, verify and cmac with batch_input also process the single fields, as the first result',
    replace: (d) => ({
      batchItems: (body, items) => {
        const { batch_input: _, ...single } = body;
        const given = single.input !== undefined || single.ciphertext !== undefined;
        return given ? [single, ...d.batchItems(body, items)] : d.batchItems(body, items);
      },
    }),
  }),
  fault('transit.batch-truncated', {
    breaks: 'transit.batch.order',
    statements: ['doc.transit.service.batching'],
    description: 'decrypt, rewrap, hmac, sign, verify and cmac process only the first item of batch_input',
    replace: (d) => ({ batchItems: (body, items) => d.batchItems(body, items).slice(0, 1) }),
  }),

  fault('transit.convergent-needs-nonce', {
    breaks: 'transit.create.convergent-deterministic',
    statements: ['doc.transit.params.nonce-not-needed'],
    description: 'a convergent key of this release refuses to encrypt without a nonce',
    replace: (d) => ({
      aeadNonce: (k, key, plaintext) => {
        if (k.convergent) throw badRequest('missing nonce: convergent encryption needs a 12-byte nonce');
        return d.aeadNonce(k, key, plaintext);
      },
    }),
  }),
  fault('transit.latest-is-min-encryption', {
    breaks: 'transit.params.key-version-latest',
    statements: ['doc.transit.params.key-version'],
    description: 'without key_version, outputs use min_encryption_version (when set) instead of the latest version',
    replace: (d) => ({
      outputVersion: (k, requested) =>
        requested === 0 && k.minEncryptionVersion > 0 ? k.minEncryptionVersion : d.outputVersion(k, requested),
    }),
  }),
  fault('transit.min-encryption-zero-blocks', {
    breaks: 'transit.key.min-encryption-zero-latest',
    statements: ['doc.transit.key.min-encryption-zero-latest'],
    description: 'min_encryption_version 0 written through config is read as "no version may encrypt"',
    replace: (d) => {
      const zeroed = new Set<string>();
      return {
        applyOmittedConfig: (next, body) => {
          d.applyOmittedConfig(next, body);
          if (body.min_encryption_version === 0 || body.min_encryption_version === '0') zeroed.add(next.name);
          else if (body.min_encryption_version !== undefined) zeroed.delete(next.name);
        },
        checkMinEncryption: (k, version) => {
          if (zeroed.has(k.name)) throw badRequest('no key version may encrypt: min_encryption_version is 0');
          d.checkMinEncryption(k, version);
        },
      };
    },
  }),
];
