// size: one declaration per clause of the data operations, a table read top to bottom; split further it would scatter one section of the document
/**
 * The transit engine's faults on single clauses of the data operations (transit document: Output
 * formats, Shared parameters, Data operations: encrypt, decrypt, rewrap, datakey, random, hash,
 * HMAC, sign, verify, CMAC), written from the documents and the reference alone, one per clause no
 * earlier fault broke: a parameter honoured on the single path but not in a batch (or the other
 * way), an option for partial failures applied on full success, one case of a general rule (a hash
 * algorithm, an output kind), a default, a value at a documented limit, a URL form. Each replaces
 * rules of ../rules.ts or ../data-rules.ts (see reference/switches.ts); gathered, in order, by
 * index.ts.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { EngineResponse } from '../../../engine.js';
import { badRequest } from '../../../errors.js';
import { switchesOf } from '../../../../switches.js';
import type { DataOp } from '../data-rules.js';
import { hashName } from '../outputs.js';
import { str, type Body } from '../params.js';
import type { TransitRules } from '../rules.js';

const { fault } = switchesOf<TransitRules>(['transit']);

/** The `data` of an answer, also inside the raw body of a batch answered with an error status. */
function dataOf(res: EngineResponse): Record<string, unknown> | undefined {
  const raw = res.rawBody as { data?: unknown } | undefined;
  const data = raw && typeof raw === 'object' && 'data' in raw ? raw.data : res.data;
  return data && typeof data === 'object' ? (data as Record<string, unknown>) : undefined;
}

/** Every result object of an answer: the data itself, or each batch result. */
function resultsOf(res: EngineResponse): Record<string, unknown>[] {
  const data = dataOf(res);
  if (!data) return [];
  const batch = data.batch_results;
  return Array.isArray(batch) ? (batch.filter((r) => r && typeof r === 'object') as Record<string, unknown>[]) : [data];
}

/**
 * A fault after which `op` writes `field` as `<prefix>:<n>:...` (without the `v` of the version),
 * while verify still reads it (so only the form of the output shows the fault).
 */
function unmarked(op: string, field: string) {
  return (d: TransitRules): Partial<TransitRules> => ({
    answer: (a) => {
      const res = d.answer(a);
      if (a.seg[0] !== op) return res;
      for (const r of resultsOf(res))
        if (typeof r[field] === 'string') r[field] = (r[field] as string).replace(/^([^:]+):v(\d+):/, '$1:$2:');
      return res;
    },
    itemFields: (o, item, items) => {
      const fields = d.itemFields(o, item, items);
      const v = fields[field];
      return o === 'verify' && typeof v === 'string' && /^[^:]+:\d+:/.test(v)
        ? { ...fields, [field]: v.replace(/^([^:]+):(\d+):/, '$1:v$2:') }
        : fields;
    },
  });
}

/** A fault after which the ops `ops` read `field` as the base64 of its text (not its base64 decoding). */
function asText(ops: DataOp[], field: string) {
  return (d: TransitRules): Partial<TransitRules> => ({
    itemFields: (op, item, items) => {
      const fields = d.itemFields(op, item, items);
      const v = fields[field];
      return ops.includes(op) && typeof v === 'string' && v !== ''
        ? { ...fields, [field]: Buffer.from(v, 'utf8').toString('base64') }
        : fields;
    },
  });
}

/** A fault after which `op`'s batch items are processed with the first item's context. */
function firstContext(op: DataOp) {
  return (d: TransitRules): Partial<TransitRules> => ({
    itemFields: (o, item, items) =>
      o === op && items?.[0]
        ? { ...d.itemFields(o, item, items), context: items[0].context }
        : d.itemFields(o, item, items),
  });
}

/** A fault after which batch results of `op` do not echo reference. */
function noEcho(op: string) {
  return (d: TransitRules): Partial<TransitRules> => ({
    batchEcho: (reference, operation) => (operation === op ? {} : d.batchEcho(reference, operation)),
  });
}

/** Batch items given the request's top-level context where they carry none. */
function withTopContext(items: unknown[], body: Body): unknown[] {
  if (typeof body.context !== 'string' || body.context === '') return items;
  return items.map((it) =>
    it && typeof it === 'object' && (it as Body).context === undefined
      ? { ...(it as Body), context: body.context }
      : it,
  );
}

export const dataClauseSwitches = [
  // ---------------------------------------------------------------- output formats
  fault('transit.hmac-input-text', {
    breaks: 'transit.format.base64-fields',
    statements: ['doc.transit.format.base64-input'],
    description: 'hmac computes the HMAC of the text of input instead of its base64 decoding',
    replace: asText(['hmac'], 'input'),
  }),
  fault('transit.nonce-text', {
    breaks: 'transit.params.nonce-12-bytes',
    statements: ['doc.transit.format.base64-nonce'],
    description: 'a nonce is read as text, not base64: its length is that of its base64 string',
    replace: asText(['encrypt', 'decrypt', 'rewrap', 'datakey'], 'nonce'),
  }),
  fault('transit.associated-data-text', {
    breaks: 'transit.format.base64-fields',
    statements: ['doc.transit.format.base64-associated-data'],
    description: 'encrypt and decrypt bind the text of associated_data instead of its base64 decoding',
    replace: asText(['encrypt', 'decrypt'], 'associated_data'),
  }),
  fault('transit.hmac-version-unmarked', {
    breaks: 'transit.format.versioned-output',
    statements: ['doc.transit.format.versioned-hmac'],
    description: 'HMAC strings are written `svc:<n>:<base64>` (no `v`); verify still reads them',
    replace: unmarked('hmac', 'hmac'),
  }),
  fault('transit.signature-version-unmarked', {
    breaks: 'transit.format.versioned-output',
    statements: ['doc.transit.format.versioned-signature'],
    description: 'signature strings are written `svc:<n>:<base64>` (no `v`); verify still reads them',
    replace: unmarked('sign', 'signature'),
  }),
  fault('transit.cmac-version-unmarked', {
    breaks: 'transit.format.versioned-output',
    statements: ['doc.transit.format.versioned-cmac'],
    description: 'CMAC strings are written `svc:<n>:<base64>` (no `v`)',
    replace: unmarked('cmac', 'cmac'),
  }),

  // ---------------------------------------------------------------- hash algorithms, one value each
  fault('transit.sign-sha1-as-sha256', {
    breaks: 'transit.sign.verifiable',
    statements: ['doc.transit.params.hash-values-sha1'],
    description: 'ECDSA and RSA sign with SHA-256 when hash_algorithm sha1 is asked (and answer 200)',
    replace: (d) => ({ signingHash: (algorithm) => d.signingHash(algorithm === 'sha1' ? 'sha2-256' : algorithm) }),
  }),
  fault('transit.sign-explicit-sha2-256-as-sha2-512', {
    breaks: 'transit.sign.verifiable',
    statements: ['doc.transit.params.hash-values-sha2-256'],
    description:
      'sign with hash_algorithm sha2-256 written in the body signs with sha2-512 (the default, without hash_algorithm, is right)',
    replace: (d) => ({
      signHashAlgorithm: (url, body, op) =>
        op !== 'verify' && !url && str(body, 'hash_algorithm') === 'sha2-256'
          ? 'sha2-512'
          : d.signHashAlgorithm(url, body, op),
    }),
  }),
  fault('transit.hash-sha2-512-as-sha384', {
    breaks: 'transit.hash.sum',
    statements: ['doc.transit.params.hash-values-sha2-512'],
    description: 'hash with algorithm sha2-512 answers the SHA-384 digest',
    replace: (d) => ({ hashDigest: (algorithm) => (algorithm === 'sha2-512' ? 'sha384' : d.hashDigest(algorithm)) }),
  }),
  fault('transit.hash-sha3-224-as-sha3-256', {
    breaks: 'transit.hash.sum',
    statements: ['doc.transit.params.hash-values-sha3-224'],
    description: 'hash with algorithm sha3-224 answers the sha3-256 digest',
    replace: (d) => ({ hashDigest: (algorithm) => d.hashDigest(algorithm === 'sha3-224' ? 'sha3-256' : algorithm) }),
  }),
  fault('transit.hash-sha3-256-as-sha2-256', {
    breaks: 'transit.hash.sum',
    statements: ['doc.transit.params.hash-values-sha3-256'],
    description: 'hash with algorithm sha3-256 answers the sha2-256 digest',
    replace: (d) => ({ hashDigest: (algorithm) => d.hashDigest(algorithm === 'sha3-256' ? 'sha2-256' : algorithm) }),
  }),
  fault('transit.hmac-url-algorithm-ignored', {
    breaks: 'transit.params.hash-in-url',
    statements: ['doc.transit.params.hash-in-url'],
    description: 'the algorithm in the hmac URL is ignored (the body, else sha2-256, is used)',
    replace: () => ({ hmacUrlAlgorithm: () => undefined }),
  }),

  // ---------------------------------------------------------------- batches and the single path
  fault('transit.partial-code-on-success', {
    breaks: 'transit.batch.partial-failure-code',
    statements: ['doc.transit.params.partial-failure-when'],
    description:
      'an encrypt or decrypt batch in which every item succeeds answers partial_failure_response_code instead of 200',
    replace: (d) => ({
      answer: (a) => {
        const res = d.answer(a);
        const code = a.body.partial_failure_response_code;
        if ((a.seg[0] !== 'encrypt' && a.seg[0] !== 'decrypt') || !Array.isArray(a.body.batch_input)) return res;
        if (typeof code !== 'number' || res.status !== undefined || res.rawBody !== undefined) return res;
        const results = resultsOf(res);
        return results.some((r) => r.error !== undefined) ? res : { ...res, status: code };
      },
    }),
  }),
  fault('transit.batch-two-items-only', {
    breaks: 'transit.batch.order',
    statements: ['doc.transit.service.batching', 'doc.transit.format.batch-results-order'],
    description: 'every batch operation processes at most two items; a third and later items are dropped',
    replace: (d) => ({
      batchItems: (body, items) => d.batchItems(body, items).slice(0, 2),
      encryptBatch: (items, body) => d.encryptBatch(items, body)?.slice(0, 2),
    }),
  }),
  fault('transit.batch-top-context-used', {
    breaks: 'transit.batch.single-fields-ignored',
    statements: ['doc.transit.params.batch-single-ignored'],
    description: "batch items without a context take the request's top-level context instead of ignoring it",
    replace: (d) => ({
      batchItems: (body, items) => d.batchItems(body, withTopContext(items, body)),
      encryptBatch: (items, body) => d.encryptBatch(items ? withTopContext(items, body) : items, body),
    }),
  }),
  fault('transit.context-value-ignored', {
    breaks: 'transit.encrypt.context-bound',
    statements: ['doc.transit.encrypt.context', 'doc.transit.decrypt.context'],
    description:
      'a single encrypt, decrypt, rewrap or datakey on a derived key needs a context but derives with a fixed one, whatever it says',
    replace: (d) => ({
      itemFields: (op, item, items) => {
        const fields = d.itemFields(op, item, items);
        return ['encrypt', 'decrypt', 'rewrap', 'datakey'].includes(op) &&
          !items &&
          typeof fields.context === 'string' &&
          fields.context !== ''
          ? { ...fields, context: Buffer.from('context').toString('base64') }
          : fields;
      },
    }),
  }),
  fault('transit.rewrap-batch-ignored', {
    breaks: 'transit.batch.item-error',
    statements: ['doc.transit.rewrap.batch-input'],
    description: 'rewrap ignores batch_input and rewraps the single ciphertext only',
    replace: (d) => ({ readsBatch: (op) => op !== 'rewrap' && d.readsBatch(op) }),
  }),
  fault('transit.rewrap-batch-reference-dropped', {
    breaks: 'transit.batch.reference-echo',
    statements: ['doc.transit.rewrap.reference'],
    description: 'rewrap batch results do not carry reference',
    replace: noEcho('rewrap'),
  }),
  fault('transit.hmac-batch-reference-dropped', {
    breaks: 'transit.batch.reference-echo',
    statements: ['doc.transit.hmac.reference'],
    description: 'hmac batch results do not carry reference',
    replace: noEcho('hmac'),
  }),
  fault('transit.sign-batch-reference-dropped', {
    breaks: 'transit.batch.reference-echo',
    statements: ['doc.transit.sign.reference'],
    description: 'sign batch results do not carry reference',
    replace: noEcho('sign'),
  }),
  fault('transit.verify-batch-reference-dropped', {
    breaks: 'transit.batch.reference-echo',
    statements: ['doc.transit.verify.reference'],
    description: 'verify batch results do not carry reference',
    replace: noEcho('verify'),
  }),
  fault('transit.hmac-batch-algorithm-ignored', {
    breaks: 'transit.hmac.compute',
    statements: ['doc.transit.hmac.algorithm', 'doc.transit.hmac.batch'],
    description:
      "an hmac batch computes every item with sha2-256 whatever the request's algorithm (the single input is right)",
    replace: (d) => ({
      batchHashAlgorithm: (op, algorithm) => (op === 'hmac' ? 'sha2-256' : d.batchHashAlgorithm(op, algorithm)),
    }),
  }),
  fault('transit.sign-batch-hash-ignored', {
    breaks: 'transit.sign.verifiable',
    statements: ['doc.transit.sign.hash-algorithm', 'doc.transit.sign.batch'],
    description: "a sign batch signs every item with sha2-256 whatever the request's hash_algorithm",
    replace: (d) => ({
      batchHashAlgorithm: (op, algorithm) => (op === 'sign' ? 'sha2-256' : d.batchHashAlgorithm(op, algorithm)),
    }),
  }),
  fault('transit.sign-batch-key-version-ignored', {
    breaks: 'transit.params.key-version-latest',
    statements: ['doc.transit.sign.key-version', 'doc.transit.sign.batch'],
    description: "a sign batch signs every item with the latest version whatever the request's key_version",
    replace: (d) => ({ batchKeyVersion: (op, v) => (op === 'sign' ? 0 : d.batchKeyVersion(op, v)) }),
  }),
  fault('transit.sign-batch-context-shared', {
    breaks: 'transit.sign.derived-publickey',
    statements: ['doc.transit.sign.batch'],
    description: "every sign batch item on a derived ed25519 key is signed with the first item's context",
    replace: firstContext('sign'),
  }),
  fault('transit.verify-batch-context-shared', {
    breaks: 'transit.verify.batch',
    statements: ['doc.transit.verify.batch', 'doc.transit.verify.context'],
    description: "every verify batch item on a derived ed25519 key is checked with the first item's context",
    replace: firstContext('verify'),
  }),

  // ---------------------------------------------------------------- versions
  fault('transit.key-version-at-min-encryption-refused', {
    breaks: 'transit.params.key-version-min-encryption',
    statements: ['doc.transit.params.key-version-min-encryption'],
    description: 'key_version equal to min_encryption_version is refused (">=" read as ">")',
    replace: (d) => ({
      checkMinEncryption: (k, version, op) => {
        if (k.minEncryptionVersion > 0 && version === k.minEncryptionVersion)
          throw badRequest('requested version for encryption must be above the minimum encryption key version');
        d.checkMinEncryption(k, version, op);
      },
    }),
  }),
  fault('transit.hmac-key-version-ignored', {
    breaks: 'transit.params.key-version-latest',
    statements: ['doc.transit.hmac.key-version'],
    description: 'hmac ignores key_version and always uses the latest version',
    replace: (d) => ({
      versionFor: (op, k, requested, general) =>
        op === 'hmac' ? k.latestVersion : d.versionFor(op, k, requested, general),
    }),
  }),
  fault('transit.sign-first-version', {
    breaks: 'transit.params.key-version-latest',
    statements: ['doc.transit.sign.key-version', 'doc.transit.params.key-version'],
    description: 'sign without key_version signs with version 1 instead of the latest',
    replace: (d) => ({
      versionFor: (op, k, requested, general) =>
        op === 'sign' && requested === 0 ? 1 : d.versionFor(op, k, requested, general),
    }),
  }),
  fault('transit.datakey-first-version', {
    breaks: 'transit.rotate.new-version',
    statements: ['doc.transit.lifecycle.rotate-new-encryption'],
    description: 'datakey without key_version wraps the data key with version 1 instead of the latest',
    replace: (d) => ({
      versionFor: (op, k, requested, general) =>
        op === 'datakey' && requested === 0 ? 1 : d.versionFor(op, k, requested, general),
    }),
  }),

  // ---------------------------------------------------------------- encrypt and upsert
  fault('transit.upsert-default-aes128', {
    breaks: 'transit.upsert.create',
    statements: ['doc.transit.encrypt.type-default'],
    description: 'an encrypt that creates its key without type creates an aes128-gcm96 key',
    replace: (d) => ({ upsertType: (body) => d.upsertType(body) ?? 'aes128-gcm96' }),
  }),
  fault('transit.upsert-batch-type-ignored', {
    breaks: 'transit.upsert.type',
    statements: ['doc.transit.encrypt.type'],
    description: 'an encrypt batch that creates its key ignores `type` (a single encrypt honours it)',
    replace: (d) => ({ upsertType: (body) => (Array.isArray(body.batch_input) ? undefined : d.upsertType(body)) }),
  }),
  fault('transit.upsert-exportable', {
    breaks: 'transit.upsert.create',
    statements: ['doc.transit.lifecycle.upsert-create'],
    description: 'a key created by encrypt is exportable (not the defaults)',
    replace: (d) => ({ upsertDefaults: (base) => ({ ...d.upsertDefaults(base), exportable: true }) }),
  }),

  // ---------------------------------------------------------------- datakey, random, hash
  fault('transit.datakey-plaintext-other-key', {
    breaks: 'transit.datakey.types',
    statements: ['doc.transit.datakey.plaintext'],
    description: 'datakey/plaintext answers a plaintext that is not the key its ciphertext wraps',
    replace: (d) => ({
      answer: (a) => {
        const res = d.answer(a);
        const data = res.data as Record<string, unknown> | undefined;
        if (a.seg[0] !== 'datakey' || !data || typeof data.plaintext !== 'string') return res;
        return {
          ...res,
          data: { ...data, plaintext: randomBytes(Buffer.from(data.plaintext, 'base64').length).toString('base64') },
        };
      },
    }),
  }),
  fault('transit.datakey-default-128', {
    breaks: 'transit.datakey.bits',
    statements: ['doc.transit.datakey.bits-default'],
    description: 'datakey without bits makes a 128-bit key',
    replace: () => ({ datakeyDefaultBits: 128 }),
  }),
  fault('transit.datakey-512-refused', {
    breaks: 'transit.datakey.bits',
    statements: ['doc.transit.datakey.bits-values', 'doc.transit.limits.datakey-bits'],
    description: 'datakey refuses bits 512 (128 and 256 work)',
    replace: (d) => ({
      checkDatakeyBits: (bits) => {
        if (bits === 512) throw badRequest('bits must be 128 or 256');
        d.checkDatakeyBits(bits);
      },
    }),
  }),
  fault('transit.random-url-bytes-ignored', {
    breaks: 'transit.random.bytes',
    statements: ['doc.transit.random.bytes-url'],
    description: 'random ignores a byte count in the URL (the body, else 32, is used)',
    replace: (d) => ({ randomUrlParts: (parts) => d.randomUrlParts(parts).filter((p) => !/^\d+$/.test(p)) }),
  }),
  fault('transit.random-url-source-refused', {
    breaks: 'transit.random.source',
    statements: ['doc.transit.random.source-values'],
    description: 'random refuses a source in the URL (source in the body works)',
    replace: (d) => ({
      randomUrlParts: (parts) => {
        if (parts.some((p) => !/^\d+$/.test(p))) throw badRequest('unsupported path');
        return d.randomUrlParts(parts);
      },
    }),
  }),
  fault('transit.random-default-hex', {
    breaks: 'transit.random.format',
    statements: ['doc.transit.random.format-default'],
    description: 'random without format answers hex',
    replace: () => ({ randomDefaultFormat: 'hex' }),
  }),
  fault('transit.hash-default-base64', {
    breaks: 'transit.hash.sum',
    statements: ['doc.transit.hash.format-default'],
    description: 'hash without format answers base64',
    replace: () => ({ hashFormat: (body) => str(body, 'format') || 'base64' }),
  }),

  // ---------------------------------------------------------------- sign and verify options
  fault('transit.prehashed-guessed', {
    breaks: 'transit.sign.prehashed',
    statements: ['doc.transit.sign.prehashed-default'],
    description:
      'sign without prehashed takes an input as long as the digest for an already hashed input (prehashed guessed from the length)',
    replace: (d) => ({
      prehashed: (requested, input, algorithm) => {
        if (requested || !input || !algorithm || algorithm === 'none') return d.prehashed(requested, input, algorithm);
        return input.length === createHash(hashName(algorithm)).digest().length;
      },
    }),
  }),
  fault('transit.verify-marshaling-refused', {
    breaks: 'transit.verify.options',
    statements: ['doc.transit.verify.marshaling-algorithm'],
    description: 'verify refuses a request that names marshaling_algorithm (sign takes it)',
    replace: (d) => ({
      answer: (a) => {
        if (a.seg[0] === 'verify' && typeof a.body.marshaling_algorithm === 'string' && a.body.marshaling_algorithm)
          throw badRequest('unknown field marshaling_algorithm');
        return d.answer(a);
      },
    }),
  }),
  fault('transit.sign-salt-length-refused', {
    breaks: 'transit.params.salt-length-default',
    statements: ['doc.transit.sign.salt-length'],
    description: 'sign refuses a request that names salt_length (verify takes it)',
    replace: (d) => ({
      answer: (a) => {
        if (a.seg[0] === 'sign' && a.body.salt_length !== undefined && a.body.salt_length !== '')
          throw badRequest('unknown field salt_length');
        return d.answer(a);
      },
    }),
  }),
  fault('transit.verify-body-hash-ignored', {
    breaks: 'transit.verify.options',
    statements: ['doc.transit.verify.hash-algorithm'],
    description: 'verify ignores hash_algorithm in the body and checks with sha2-256 (the URL segment is read)',
    replace: (d) => ({
      signHashAlgorithm: (url, body, op) => (op === 'verify' && !url ? 'sha2-256' : d.signHashAlgorithm(url, body, op)),
    }),
  }),
];
