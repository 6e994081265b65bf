/**
 * The per-item cryptographic operations: encrypt, decrypt, HMAC, sign, verify, CMAC. Each takes
 * one (batch) item and returns its result fields or throws SvcError; the batch runner turns a
 * throw into that item's `error`.
 */
import {
  constants,
  createCipheriv,
  createDecipheriv,
  createHash,
  createHmac,
  privateDecrypt,
  publicEncrypt,
  sign as nodeSign,
  timingSafeEqual,
  verify as nodeVerify,
  type KeyObject,
} from 'node:crypto';
import { badRequest } from '../../errors.js';
import { aesCmac } from './cmac.js';
import { signDigest, verifyDigest } from './ecdsa-raw.js';
import {
  derive,
  ed25519FromSeed,
  ed25519RawPublic,
  ed25519Seed,
  typeInfo,
  type KeyVersion,
  type NamedKey,
} from './keys.js';
import {
  decryptionVersion,
  encryptionVersion,
  formatVersioned,
  hashName,
  type OpContext,
  parseVersioned,
  tooOldToVerify,
} from './outputs.js';
import { b64, bool, int, str, type Body } from './params.js';
import { pkcs1SignDigest, pkcs1VerifyDigest, pssSaltLength, pssSignDigest, pssVerifyDigest } from './rsa-raw.js';

function context(ctx: OpContext, k: NamedKey, item: Body): Buffer | undefined {
  const c = ctx.rules.contextBytes(item);
  if (k.derived) ctx.rules.checkDerivationContext(c);
  return c;
}

function nonceOf(ctx: OpContext, k: NamedKey, item: Body): Buffer | undefined {
  const n = b64(item, 'nonce');
  ctx.rules.checkNonce(n);
  if (n && !ctx.rules.nonceAllowed(k)) throw badRequest('provided nonce not allowed for this key');
  return n;
}

function aeadKey(k: NamedKey, v: KeyVersion, ctxBytes: Buffer | undefined): Buffer {
  const key = v.key!;
  return k.derived && ctxBytes ? derive(key, ctxBytes) : key;
}

export function encryptRaw(
  ctx: OpContext,
  k: NamedKey,
  v: KeyVersion,
  plaintext: Buffer,
  item: Body,
  ad: Buffer | undefined,
): string {
  const info = typeInfo(k);
  const ctxBytes = context(ctx, k, item);
  const supplied = nonceOf(ctx, k, item);
  if (k.convergent && !supplied && ctx.rules.convergentNeedsNonce(k))
    throw badRequest('a 12-byte nonce is required for convergent encryption');
  if (info.kind === 'rsa') {
    ctx.rules.checkRsaEncryption(v);
    return formatVersioned(
      ctx,
      v.version,
      publicEncrypt({ key: v.publicKey!, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, plaintext),
      k,
    );
  }
  const cipher = ctx.rules.aeadCipher(k);
  if (!cipher) throw badRequest(`key type ${k.type} does not support encryption`);
  const key = aeadKey(k, v, ctxBytes);
  const nonce = ctx.rules.aeadNonce(k, key, plaintext);
  const c = createCipheriv(cipher, key, ctx.rules.sealingNonce(nonce, supplied), {
    authTagLength: 16,
  } as never) as import('node:crypto').CipherGCM;
  const aad = ctx.rules.associatedData(ad);
  if (aad) c.setAAD(aad);
  const ct = Buffer.concat([c.update(plaintext), c.final()]);
  const tag = c.getAuthTag();
  return formatVersioned(ctx, v.version, ctx.rules.sealAead(nonce, ct, tag), k);
}

export function decryptRaw(
  ctx: OpContext,
  k: NamedKey,
  ciphertext: unknown,
  item: Body,
  ad: Buffer | undefined,
): Buffer {
  const info = typeInfo(k);
  const { version, data } = parseVersioned(ctx, ciphertext, 'ciphertext');
  const v = decryptionVersion(ctx, k, version);
  const ctxBytes = context(ctx, k, item);
  const supplied = nonceOf(ctx, k, item);
  if (info.kind === 'rsa') {
    if (!v.privateKey) throw badRequest('key version has no private key');
    try {
      return privateDecrypt({ key: v.privateKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, data);
    } catch {
      throw badRequest('invalid ciphertext: unable to decrypt');
    }
  }
  const cipher = ctx.rules.aeadCipher(k);
  if (!cipher) throw badRequest(`key type ${k.type} does not support decryption`);
  if (data.length < 28) throw badRequest('invalid ciphertext: too short');
  const key = aeadKey(k, v, ctxBytes);
  const { nonce, ct, tag } = ctx.rules.openAead(data);
  const d = createDecipheriv(cipher, key, nonce, {
    authTagLength: 16,
  } as never) as import('node:crypto').DecipherGCM;
  const aad = ctx.rules.associatedData(ctx.rules.openingAssociatedData(ad));
  if (aad) d.setAAD(aad);
  d.setAuthTag(tag);
  return ctx.rules.openedPlaintext(
    ctx.rules.authenticate(d.update(ct), () => d.final()),
    supplied,
  );
}

// ---------------------------------------------------------------- HMAC

export function hmacKeyOf(k: NamedKey, v: KeyVersion): Buffer {
  return k.type === 'hmac' ? v.key! : v.hmacKey;
}

export function hmacItem(
  ctx: OpContext,
  k: NamedKey,
  item: Body,
  algorithm: string,
  keyVersion: number,
): Record<string, unknown> {
  const input = b64(item, 'input');
  if (input === undefined && item.input !== '' && ctx.rules.required('hmac', 'input'))
    throw badRequest('missing input for HMAC');
  ctx.rules.checkHmacSupported(k);
  const v = encryptionVersion(ctx, k, keyVersion, 'hmac');
  const alg = ctx.rules.hmacHash(algorithm);
  const mac = createHmac(alg, hmacKeyOf(k, v))
    .update(input ?? Buffer.alloc(0))
    .digest();
  return { hmac: formatVersioned(ctx, v.version, mac, k), key_version: v.version };
}

function verifyHmacItem(ctx: OpContext, k: NamedKey, item: Body, algorithm: string): Record<string, unknown> {
  const input = b64(item, 'input') ?? Buffer.alloc(0);
  const { version, data } = parseVersioned(ctx, item.hmac, 'hmac');
  const bounds = ctx.rules.verifyingKey(k, 'hmac');
  if (tooOldToVerify(ctx, bounds, version)) return { valid: false };
  const v = decryptionVersion(ctx, bounds, version);
  const mac = createHmac(ctx.rules.hmacVerifyHash(algorithm), hmacKeyOf(k, v)).update(input).digest();
  const valid = mac.length === data.length && timingSafeEqual(mac, data);
  return { valid: ctx.rules.verified(valid) };
}

// ---------------------------------------------------------------- signatures

export interface SignOptions {
  hashAlgorithm: string;
  prehashed: boolean;
  signatureAlgorithm: string;
  marshaling: string;
  saltLength: string;
}

export function signOptions(
  ctx: OpContext,
  body: Body,
  urlAlgorithm: string | undefined,
  op: 'sign' | 'verify' = 'sign',
): SignOptions {
  return {
    hashAlgorithm: ctx.rules.signHashAlgorithm(urlAlgorithm, body, op),
    prehashed: bool(body, 'prehashed'),
    signatureAlgorithm:
      ctx.rules.signatureAlgorithm(str(body, 'signature_algorithm')) || ctx.rules.defaultSignatureAlgorithm,
    marshaling: str(body, 'marshaling_algorithm') || ctx.rules.defaultMarshaling,
    saltLength: str(body, 'salt_length') || ctx.rules.defaultSaltLength(op),
  };
}

interface Signer {
  privateKey?: KeyObject;
  publicKey?: KeyObject;
  publicRaw?: Buffer;
}

function signerFor(ctx: OpContext, k: NamedKey, v: KeyVersion, item: Body): Signer {
  if (typeInfo(k).kind === 'ed25519' && k.derived) {
    const c = b64(item, 'context');
    ctx.rules.checkDerivationContext(c);
    if (!v.privateKey) throw badRequest('key version has no private key');
    const salt = ctx.rules.derivationSalt();
    const pair = ed25519FromSeed(derive(Buffer.concat([ed25519Seed(v.privateKey), salt]), c ?? Buffer.alloc(0), 32));
    return { ...pair, publicRaw: ed25519RawPublic(pair.publicKey) };
  }
  return { privateKey: v.privateKey, publicKey: v.publicKey };
}

function checkRsaOptions(opts: SignOptions, ctx: OpContext): void {
  if (opts.signatureAlgorithm !== 'pss' && opts.signatureAlgorithm !== 'pkcs1v15')
    throw badRequest('unsupported signature_algorithm');
  ctx.rules.checkHashNone(opts);
}

function signBytes(ctx: OpContext, k: NamedKey, signer: Signer, input: Buffer, opts: SignOptions): Buffer {
  const kind = typeInfo(k).kind;
  const key = signer.privateKey;
  if (!key) throw badRequest('key version has no private key: signing is not possible');
  const prehashed = ctx.rules.prehashed(opts.prehashed, input, opts.hashAlgorithm);
  if (kind === 'ed25519') {
    if (opts.prehashed) throw badRequest('prehashed input is not supported for ed25519 keys');
    return nodeSign(null, ctx.rules.ed25519Message(input), key);
  }
  if (kind === 'ecdsa') {
    if (opts.marshaling !== 'asn1' && opts.marshaling !== 'jws') throw badRequest('unsupported marshaling_algorithm');
    const dsaEncoding = opts.marshaling === 'jws' ? 'ieee-p1363' : 'der';
    if (opts.hashAlgorithm === 'none') throw badRequest('hash_algorithm none is only valid for RSA keys');
    hashName(opts.hashAlgorithm); // an unknown algorithm is refused, prehashed or not
    if (prehashed) return signDigest(key, input, dsaEncoding);
    return nodeSign(ctx.rules.signingHash(opts.hashAlgorithm), input, { key, dsaEncoding });
  }
  if (kind === 'rsa') {
    checkRsaOptions(opts, ctx);
    if (opts.hashAlgorithm === 'none') return pkcs1SignDigest(key, input);
    const hash = prehashed
      ? hashName(ctx.rules.prehashedHash(opts.hashAlgorithm))
      : ctx.rules.signingHash(opts.hashAlgorithm);
    const hLen = createHash(hash).digest().length;
    if (prehashed && input.length !== hLen)
      throw badRequest('prehashed input length does not match the hash algorithm');
    if (opts.signatureAlgorithm === 'pkcs1v15') {
      return prehashed
        ? pkcs1SignDigest(key, input, hash)
        : nodeSign(hash, input, { key, padding: constants.RSA_PKCS1_PADDING });
    }
    let salt: number;
    try {
      salt = pssSaltLength(opts.saltLength, key, hLen);
    } catch {
      throw badRequest('invalid salt_length');
    }
    return prehashed
      ? pssSignDigest(key, input, hash, salt)
      : nodeSign(hash, input, { key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: salt });
  }
  throw badRequest(`key type ${k.type} does not support signing`);
}

function verifyBytes(
  ctx: OpContext,
  k: NamedKey,
  signer: Signer,
  input: Buffer,
  sig: Buffer,
  opts: SignOptions,
): boolean {
  const kind = typeInfo(k).kind;
  const key = signer.publicKey;
  if (!key) throw badRequest('key version has no public key');
  ctx.rules.refuseVerifyOption(opts);
  const prehashed = ctx.rules.verifyPrehashed(opts.prehashed);
  if (kind === 'ed25519') {
    if (prehashed) throw badRequest('prehashed input is not supported for ed25519 keys');
    return nodeVerify(null, input, key, sig);
  }
  if (kind === 'ecdsa') {
    if (opts.marshaling !== 'asn1' && opts.marshaling !== 'jws') throw badRequest('unsupported marshaling_algorithm');
    const dsaEncoding = opts.marshaling === 'jws' ? 'ieee-p1363' : 'der';
    const hash = hashName(opts.hashAlgorithm);
    if (prehashed) return verifyDigest(key, input, sig, dsaEncoding);
    return nodeVerify(hash, input, { key, dsaEncoding }, sig);
  }
  if (kind === 'rsa') {
    checkRsaOptions(opts, ctx);
    if (opts.hashAlgorithm === 'none') return pkcs1VerifyDigest(key, input, sig);
    const hash = hashName(opts.hashAlgorithm);
    if (opts.signatureAlgorithm === 'pkcs1v15') {
      return prehashed
        ? pkcs1VerifyDigest(key, input, sig, hash)
        : nodeVerify(hash, input, { key, padding: constants.RSA_PKCS1_PADDING }, sig);
    }
    const hLen = createHash(hash).digest().length;
    const salt =
      opts.saltLength === 'auto'
        ? undefined
        : (() => {
            try {
              return pssSaltLength(opts.saltLength, key, hLen);
            } catch {
              throw badRequest('invalid salt_length');
            }
          })();
    if (prehashed) return pssVerifyDigest(key, input, sig, hash, salt);
    return nodeVerify(
      hash,
      input,
      { key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: salt ?? constants.RSA_PSS_SALTLEN_AUTO },
      sig,
    );
  }
  throw badRequest(`key type ${k.type} does not support signing`);
}

export function signItem(
  ctx: OpContext,
  k: NamedKey,
  item: Body,
  opts: SignOptions,
  keyVersion: number,
  batch: boolean,
): Record<string, unknown> {
  if (!typeInfo(k).signing) throw badRequest(`key type ${k.type} does not support signing`);
  const input = b64(item, 'input');
  if (input === undefined && item.input !== '' && ctx.rules.required('sign', 'input'))
    throw badRequest('missing input to sign');
  const v = encryptionVersion(ctx, k, keyVersion, 'sign');
  const signer = signerFor(ctx, k, v, item);
  const sig = signBytes(ctx, k, signer, input ?? Buffer.alloc(0), opts);
  const out: Record<string, unknown> = { signature: formatVersioned(ctx, v.version, sig, k), key_version: v.version };
  if (signer.publicRaw && ctx.rules.showsPublicKey(batch)) out.publickey = signer.publicRaw.toString('base64');
  return out;
}

export function verifyItem(
  ctx: OpContext,
  k: NamedKey,
  item: Body,
  opts: SignOptions,
  mode: 'signature' | 'hmac',
): Record<string, unknown> {
  if (mode === 'hmac') return verifyHmacItem(ctx, k, item, opts.hashAlgorithm);
  if (!typeInfo(k).signing) throw badRequest(`key type ${k.type} does not support verification`);
  const input = b64(item, 'input') ?? Buffer.alloc(0);
  const { version, data } = parseVersioned(ctx, item.signature, 'signature');
  const bounds = ctx.rules.verifyingKey(k, 'signature');
  if (tooOldToVerify(ctx, bounds, version)) return { valid: false };
  const v = decryptionVersion(ctx, bounds, version);
  const signer = signerFor(ctx, k, v, item);
  const valid = verifyBytes(ctx, k, signer, input, data, opts);
  return { valid: ctx.rules.verified(valid) };
}

// ---------------------------------------------------------------- CMAC

export function cmacItem(
  ctx: OpContext,
  k: NamedKey,
  item: Body,
  macLength: number,
  keyVersion: number,
): Record<string, unknown> {
  if (typeInfo(k).kind !== 'cmac') throw badRequest(`key type ${k.type} does not support CMAC`);
  const input = b64(item, 'input');
  if (input === undefined && item.input !== '' && ctx.rules.required('cmac', 'input'))
    throw badRequest('missing input for CMAC');
  const len = macLength || ctx.rules.cmacBodyLength(int(item, 'mac_length', 16)) || 16;
  ctx.rules.checkMacLength(len);
  const v = encryptionVersion(ctx, k, keyVersion, 'cmac');
  const mac = aesCmac(v.key!, input ?? Buffer.alloc(0)).subarray(0, Math.min(len, 16));
  return { cmac: formatVersioned(ctx, v.version, mac, k), key_version: v.version };
}
