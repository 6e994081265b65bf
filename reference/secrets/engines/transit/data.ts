/**
 * The data operations of the transit engine (transit document: Data operations: encrypt (with
 * upsert), decrypt, rewrap, datakey, random, hash, HMAC, sign, verify, CMAC; Shared parameters).
 * Per-item work is in ops.ts, batches in batch.ts.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { EngineRequest, EngineResponse } from '../../engine.js';
import { badRequest } from '../../errors.js';
import { runBatch } from './batch.js';
import { type DataOp, missing } from './data-rules.js';
import { cmacItem, decryptRaw, encryptRaw, hmacItem, signItem, signOptions, verifyItem } from './ops.js';
import { encryptionVersion, hashName, type OpContext, parseVersioned } from './outputs.js';
import { b64, batchInput, int, str, type Body } from './params.js';
import type { TransitRules } from './rules.js';
import type { Call, Routes, Shared } from './shared.js';

/** Operations with keys on data: each answers one item, or a batch of them (batch_input). */
export class DataOperations {
  private readonly rules: TransitRules;
  private readonly op: OpContext;

  constructor(private readonly s: Shared) {
    this.rules = s.rules;
    this.op = s.op;
  }

  routes(): Routes {
    return [
      ['encrypt', (c) => (c.seg.length === 2 && c.post ? this.encrypt(c.seg[1]!, c.req) : undefined)],
      ['decrypt', (c) => (c.seg.length === 2 && c.post ? this.decrypt(c.seg[1]!, c.body) : undefined)],
      ['rewrap', (c) => (c.seg.length === 2 && c.post ? this.rewrap(c.seg[1]!, c.body) : undefined)],
      ['datakey', (c) => (c.seg.length === 3 && c.post ? this.datakey(c.seg[1]!, c.seg[2]!, c.body) : undefined)],
      ['random', (c) => (c.seg.length <= 3 && c.post ? this.random(c.seg.slice(1), c.body) : undefined)],
      ['hash', (c) => (c.seg.length <= 2 && c.post ? this.hash(c.seg[1], c.body) : undefined)],
      ['hmac', (c) => (this.named(c) ? this.hmac(c.seg[1]!, c.seg[2], c.body) : undefined)],
      ['sign', (c) => (this.named(c) ? this.sign(c.seg[1]!, c.seg[2], c.body) : undefined)],
      ['verify', (c) => (this.named(c) ? this.verify(c.seg[1]!, c.seg[2], c.body) : undefined)],
      ['cmac', (c) => (this.named(c) ? this.cmac(c.seg[1]!, c.seg[2], c.body) : undefined)],
    ];
  }

  /** <operation>/:name(/:url-parameter), with POST. */
  private named({ seg, post }: Call): boolean {
    return (seg.length === 2 || seg.length === 3) && post;
  }

  /**
   * The answer of an operation on one item (`one`): for each item of batch_input, or for the body
   * (hmac, sign, verify, rewrap, cmac; partial_failure_response_code is not theirs: see runBatch).
   */
  private async eachItem(
    op: DataOp,
    body: Body,
    items: Body[] | undefined,
    one: (item: Body) => Record<string, unknown>,
  ): Promise<EngineResponse> {
    if (items)
      return runBatch(
        this.rules.batchItems(body, items) as Body[],
        this.rules,
        this.partialCode(body),
        (item) => one(this.item(op, item, items)),
        op,
      );
    return { data: one(this.item(op, body, undefined)) };
  }

  /** The batch items `op` processes (none: the single-item fields). */
  private batch(op: DataOp, body: Body): Body[] | undefined {
    const items = batchInput(body) as Body[] | undefined;
    return this.rules.readsBatch(op) ? items : undefined;
  }

  /** The fields of an item `op` works with (a batch item, or the body). */
  private item(op: DataOp, item: Body, items: Body[] | undefined): Body {
    return item !== null && typeof item === 'object' ? this.rules.itemFields(op, item, items) : item;
  }

  /** Refuses a request without its required input and without batch_input. */
  private require(op: DataOp, field: string, present: boolean, items: unknown[] | undefined): void {
    if (!items && !present && this.rules.required(op, field)) throw missing(op, field);
  }

  private partialCode(body: Body): number | undefined {
    if (body.partial_failure_response_code === undefined || body.partial_failure_response_code === null)
      return undefined;
    const code = int(body, 'partial_failure_response_code');
    if (code < 200 || code > 599) throw badRequest('partial_failure_response_code must be an HTTP status code');
    return code;
  }

  private async encrypt(name: string, req: EngineRequest): Promise<EngineResponse> {
    const body = req.body;
    const items = this.batch('encrypt', body);
    const partial = this.partialCode(body);
    const keyVersion = int(body, 'key_version', 0);
    this.require('encrypt', 'plaintext', body.plaintext !== undefined, items);
    let k = this.rules.keyInUse(name, this.s.keys.get(name));
    if (!k) {
      // Upsert: only a create operation (existence check said missing, caller holds create) may create.
      const allowed = this.rules.upsertAllowed({ create: req.operation === 'create', disabled: this.s.disableUpsert });
      if (!allowed) throw badRequest(`encryption key ${JSON.stringify(name)} not found and upsert is not permitted`);
      const hasContext = !!this.rules.upsertContext(body, items?.[0]);
      const upsertBody: Body = this.rules.upsertDefaults({
        type: this.rules.upsertType(body),
        derived: this.rules.upsertDerived(hasContext),
        convergent_encryption: this.rules.upsertConvergent(body),
      });
      await this.s.create(name, upsertBody);
      k = this.rules.keyInUse(name, this.s.keys.get(name))!;
    } else {
      if (this.rules.encryptRefusesExisting(this.s.disableUpsert))
        throw badRequest('upsert is disabled: encrypt is not permitted');
      if (body.type !== undefined) this.rules.checkEncryptType(k.type, body.type);
    }
    await this.s.autoRotate(k);
    const key = k;
    if (!this.rules.encrypts(key)) throw badRequest(`key type ${key.type} does not support encryption`);
    const one = (item: Body) => {
      const plaintext = b64(item, 'plaintext');
      if (plaintext === undefined && item.plaintext !== '' && this.rules.required('encrypt', 'plaintext'))
        throw missing('encrypt', 'plaintext');
      if (plaintext && plaintext.length > this.rules.maxPlaintextBytes)
        throw badRequest('plaintext is larger than this service accepts');
      const v = encryptionVersion(this.op, key, int(item, 'key_version', keyVersion), 'encrypt');
      const ad = b64(item, 'associated_data');
      return {
        ciphertext: encryptRaw(this.op, key, v, plaintext ?? Buffer.alloc(0), item, ad),
        key_version: v.version,
      };
    };
    const batch = this.rules.encryptBatch(items, body) as Body[] | undefined;
    if (batch) return runBatch(batch, this.rules, partial, (item) => one(this.item('encrypt', item, batch)), 'encrypt');
    return { data: one(this.item('encrypt', body, undefined)) };
  }

  private async decrypt(name: string, body: Body): Promise<EngineResponse> {
    const items = this.batch('decrypt', body);
    const partial = this.partialCode(body);
    this.require('decrypt', 'ciphertext', body.ciphertext !== undefined, items);
    const k = await this.s.key(name);
    const one = (item: Body) => {
      if (item.ciphertext === undefined && !this.rules.required('decrypt', 'ciphertext')) return { plaintext: '' };
      const pt = decryptRaw(this.op, k, item.ciphertext, item, b64(item, 'associated_data'));
      return { plaintext: pt.toString(this.rules.plaintextEncoding) };
    };
    if (items)
      return runBatch(
        this.rules.batchItems(body, items) as Body[],
        this.rules,
        partial,
        (item) => one(this.item('decrypt', item, items)),
        'decrypt',
      );
    return { data: one(this.item('decrypt', body, undefined)) };
  }

  private async rewrap(name: string, body: Body): Promise<EngineResponse> {
    const items = this.batch('rewrap', body);
    this.partialCode(body);
    this.require('rewrap', 'ciphertext', body.ciphertext !== undefined, items);
    const k = await this.s.key(name);
    const keyVersion = int(body, 'key_version', 0);
    const one = (item: Body) => {
      const given = item.ciphertext !== undefined || this.rules.required('rewrap', 'ciphertext');
      const pt = given ? decryptRaw(this.op, k, item.ciphertext, item, undefined) : Buffer.alloc(0);
      const previous = given ? parseVersioned(this.op, item.ciphertext, 'ciphertext').version : k.latestVersion;
      const v = encryptionVersion(this.op, k, this.rules.rewrapVersion({ item, keyVersion, previous }), 'rewrap');
      const out: Record<string, unknown> = {
        ciphertext: encryptRaw(this.op, k, v, pt, item, undefined),
        key_version: v.version,
      };
      if (this.rules.rewrapShowsPlaintext) out.plaintext = pt.toString('base64');
      return out;
    };
    return this.eachItem('rewrap', body, items, one);
  }

  private async datakey(kind: string, name: string, body: Body): Promise<EngineResponse> {
    if (kind !== 'plaintext' && kind !== 'wrapped') throw badRequest('datakey type must be plaintext or wrapped');
    const requested = int(body, 'bits', this.rules.datakeyDefaultBits);
    this.rules.checkDatakeyBits(requested);
    const bits = this.rules.datakeyBits(requested);
    if (bits <= 0 || bits % 8 !== 0 || bits > 4096) throw badRequest('invalid bits');
    const k = await this.s.key(name);
    if (!this.rules.encrypts(k)) throw badRequest(`key type ${k.type} does not support encryption`);
    const raw = randomBytes(bits / 8);
    const v = encryptionVersion(this.op, k, int(body, 'key_version', 0), 'datakey');
    const ciphertext = encryptRaw(this.op, k, v, raw, this.item('datakey', body, undefined), undefined);
    const data: Record<string, unknown> = { ciphertext, key_version: v.version };
    if (this.rules.datakeyShowsPlaintext(kind)) data.plaintext = raw.toString('base64');
    return { data };
  }

  private random(urlParts: string[], body: Body): EngineResponse {
    let source = str(body, 'source') || 'platform';
    let bytes = int(body, 'bytes', this.rules.randomDefaultBytes);
    for (const part of this.rules.randomUrlParts(urlParts)) {
      if (/^\d+$/.test(part)) bytes = Number(part);
      else source = part;
    }
    if (!['platform', 'seal', 'all'].includes(source)) throw badRequest('source must be platform, seal or all');
    this.rules.checkRandomSource(source);
    if (bytes < 1 || bytes > 128 * 1024) throw badRequest('bytes must be between 1 and 131072');
    const format = str(body, 'format') || this.rules.randomDefaultFormat;
    if (format !== 'hex' && format !== 'base64') throw badRequest('format must be hex or base64');
    const out = randomBytes(this.rules.randomLength(bytes));
    const useHex = this.rules.randomUsesHex(format);
    return { data: { random_bytes: useHex ? this.rules.randomHex(out.toString('hex')) : out.toString('base64') } };
  }

  private hash(urlAlg: string | undefined, body: Body): EngineResponse {
    const input = b64(body, 'input');
    this.require('hash', 'input', input !== undefined || body.input === '', undefined);
    const alg = this.rules.hashUrlAlgorithm(urlAlg) ?? (str(body, 'algorithm') || this.rules.hashDefaultAlgorithm);
    const format = this.rules.hashFormat(body);
    if (format !== 'hex' && format !== 'base64') throw badRequest('format must be hex or base64');
    const sum = createHash(this.rules.hashDigest(alg))
      .update(input ?? Buffer.alloc(0))
      .digest();
    return { data: { sum: format === 'hex' ? this.rules.hashHex(sum.toString('hex')) : sum.toString('base64') } };
  }

  private async hmac(name: string, urlAlg: string | undefined, body: Body): Promise<EngineResponse> {
    const items = this.batch('hmac', body);
    this.require('hmac', 'input', body.input !== undefined, items);
    const k = await this.s.key(name);
    const alg =
      this.rules.hmacUrlAlgorithm(urlAlg) ?? (str(body, 'algorithm') || str(body, 'hash_algorithm') || 'sha2-256');
    hashName(alg);
    const keyVersion = int(body, 'key_version', 0);
    const itemAlg = items ? this.rules.batchHashAlgorithm('hmac', alg) : alg;
    const itemVersion = items ? this.rules.batchKeyVersion('hmac', keyVersion) : keyVersion;
    return this.eachItem('hmac', body, items, (item) => hmacItem(this.op, k, item, itemAlg, itemVersion));
  }

  private async sign(name: string, urlAlg: string | undefined, body: Body): Promise<EngineResponse> {
    const items = this.batch('sign', body);
    this.require('sign', 'input', body.input !== undefined, items);
    const k = await this.s.key(name);
    const given = signOptions(this.op, body, urlAlg);
    const batch = items !== undefined;
    const opts = batch
      ? { ...given, hashAlgorithm: this.rules.batchHashAlgorithm('sign', given.hashAlgorithm) }
      : given;
    const requested = int(body, 'key_version', 0);
    const keyVersion = batch ? this.rules.batchKeyVersion('sign', requested) : requested;
    return this.eachItem('sign', body, items, (item) => signItem(this.op, k, item, opts, keyVersion, batch));
  }

  private async verify(name: string, urlAlg: string | undefined, body: Body): Promise<EngineResponse> {
    const items = this.batch('verify', body);
    const k = await this.s.key(name);
    const opts = signOptions(this.op, body, urlAlg, 'verify');
    opts.signatureAlgorithm = this.rules.verifySignatureAlgorithm(opts.signatureAlgorithm);
    if (items) {
      const objects = items.filter((i): i is Body => i !== null && typeof i === 'object');
      const withSig = objects.some((i) => i.signature !== undefined && i.signature !== '');
      const withHmac = objects.some((i) => i.hmac !== undefined && i.hmac !== '');
      this.rules.checkVerifyBatchModes(withSig, withHmac);
    }
    const hasSig = body.signature !== undefined && body.signature !== '';
    const hasHmac = body.hmac !== undefined && body.hmac !== '';
    if (!items && hasSig && hasHmac) throw badRequest('exactly one of signature or hmac is required');
    this.require('verify', 'signature or hmac', hasSig || hasHmac, items);
    this.require('verify', 'input', body.input !== undefined, items);
    return this.eachItem('verify', body, items, (item) => {
      const mode = this.rules.verifiesHmac(item) ? 'hmac' : 'signature';
      if (mode === 'signature' && (item.signature === undefined || item.signature === '')) {
        if (this.rules.required('verify', 'signature or hmac')) throw badRequest('signature or hmac is required');
        return { valid: false };
      }
      return verifyItem(this.op, k, item, opts, mode);
    });
  }

  private async cmac(name: string, urlLength: string | undefined, body: Body): Promise<EngineResponse> {
    const items = this.batch('cmac', body);
    this.require('cmac', 'input', body.input !== undefined, items);
    const k = await this.s.key(name);
    let length = this.rules.cmacBodyLength(int(body, 'mac_length', 0));
    const url = this.rules.cmacUrlLength(urlLength);
    if (url !== undefined) {
      if (!/^\d+$/.test(url)) throw badRequest('url_mac_length must be an integer');
      length = Number(url);
      if (length === 0) throw badRequest('url_mac_length must be at least 1');
    }
    const keyVersion = int(body, 'key_version', 0);
    return this.eachItem('cmac', body, items, (item) => cmacItem(this.op, k, item, length, keyVersion));
  }
}
