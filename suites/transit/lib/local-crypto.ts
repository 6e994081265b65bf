/**
 * The suite's own cryptography, independent of the target: local AEAD decryption, signature
 * verification, HMAC and hash recomputation, CMAC, and the BYOK wrapping the import expects.
 */
import {
  constants,
  createCipheriv,
  createDecipheriv,
  createPrivateKey,
  createPublicKey,
  privateDecrypt,
  publicEncrypt,
  randomBytes,
  verify as nodeVerify,
  type KeyObject,
} from 'node:crypto';

export const HASH: Record<string, string> = {
  sha1: 'sha1',
  'sha2-224': 'sha224',
  'sha2-256': 'sha256',
  'sha2-384': 'sha384',
  'sha2-512': 'sha512',
  'sha3-224': 'sha3-224',
  'sha3-256': 'sha3-256',
  'sha3-384': 'sha3-384',
  'sha3-512': 'sha3-512',
};

const CIPHERS: Record<string, string> = {
  'aes128-gcm96': 'aes-128-gcm',
  'aes256-gcm96': 'aes-256-gcm',
  'chacha20-poly1305': 'chacha20-poly1305',
};

/** Decrypts `nonce(12) | ciphertext | tag(16)`; throws when authentication fails. */
export function aeadOpen(type: string, key: Buffer, blob: Buffer, aad?: Buffer): Buffer {
  const d = createDecipheriv(CIPHERS[type]!, key, blob.subarray(0, 12), {
    authTagLength: 16,
  } as never) as import('node:crypto').DecipherGCM;
  if (aad) d.setAAD(aad);
  d.setAuthTag(blob.subarray(blob.length - 16));
  return Buffer.concat([d.update(blob.subarray(12, blob.length - 16)), d.final()]);
}

export function aeadSeal(type: string, key: Buffer, plaintext: Buffer): Buffer {
  const nonce = randomBytes(12);
  const c = createCipheriv(CIPHERS[type]!, key, nonce, {
    authTagLength: 16,
  } as never) as import('node:crypto').CipherGCM;
  const ct = Buffer.concat([c.update(plaintext), c.final()]);
  return Buffer.concat([nonce, ct, c.getAuthTag()]);
}

/** Public keys as reads and exports show them: PEM, or base64 of the raw 32-byte ed25519 key. */
export function publicKeyFrom(value: string): KeyObject {
  if (value.includes('-----BEGIN')) return createPublicKey(value);
  const raw = Buffer.from(value, 'base64');
  return createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: raw.toString('base64url') }, format: 'jwk' });
}

/** Private keys as exports show them: PEM, or base64 of an ed25519 seed (32) or seed+public (64). */
export function privateKeyFrom(value: string): KeyObject {
  if (value.includes('-----BEGIN')) return createPrivateKey(value);
  const raw = Buffer.from(value, 'base64');
  const seed = raw.subarray(0, 32);
  return createPrivateKey({
    key: Buffer.concat([Buffer.from('302e020100300506032b657004220420', 'hex'), seed]),
    format: 'der',
    type: 'pkcs8',
  });
}

export interface SigOptions {
  hash?: string;
  pss?: boolean;
  dsaEncoding?: 'der' | 'ieee-p1363';
}

/** Verifies a signature of `message` the way a relying party would. */
export function verifyLocally(key: KeyObject, message: Buffer, sig: Buffer, opts: SigOptions = {}): boolean {
  const type = key.asymmetricKeyType;
  if (type === 'ed25519') return nodeVerify(null, message, key, sig);
  const hash = HASH[opts.hash ?? 'sha2-256']!;
  if (type === 'ec') return nodeVerify(hash, message, { key, dsaEncoding: opts.dsaEncoding ?? 'der' }, sig);
  return nodeVerify(
    hash,
    message,
    {
      key,
      padding: opts.pss === false ? constants.RSA_PKCS1_PADDING : constants.RSA_PKCS1_PSS_PADDING,
      saltLength: constants.RSA_PSS_SALTLEN_AUTO,
    },
    sig,
  );
}

/**
 * BYOK import payload: an ephemeral AES-256 key wrapped with RSA-OAEP under the target's wrapping
 * key, followed by the material wrapped with AES key wrap with padding (RFC 5649).
 */
export function byokWrap(material: Buffer, wrappingKeyPem: string, oaepHash = 'sha256'): string {
  const aes = randomBytes(32);
  const head = publicEncrypt(
    { key: createPublicKey(wrappingKeyPem), padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash },
    aes,
  );
  const kwp = createCipheriv('id-aes256-wrap-pad', aes, Buffer.from('a65959a6', 'hex'));
  return Buffer.concat([head, kwp.update(material), kwp.final()]).toString('base64');
}

/** Inverse of byokWrap with a private RSA key (checks byok-export). */
export function byokUnwrap(blob: Buffer, rsaPrivate: KeyObject, oaepHash = 'sha256'): Buffer {
  const size = rsaPrivate.asymmetricKeyDetails!.modulusLength! / 8;
  const aes = privateDecrypt(
    { key: rsaPrivate, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash },
    blob.subarray(0, size),
  );
  const d = createDecipheriv('id-aes256-wrap-pad', aes, Buffer.from('a65959a6', 'hex'));
  return Buffer.concat([d.update(blob.subarray(size)), d.final()]);
}

/**
 * AES-CMAC written as a CBC-MAC over the padded message with the last block masked by K1/K2
 * (NIST SP 800-38B), using AES-CBC with a zero IV: a construction independent of the target's.
 */
export function cmacLocal(key: Buffer, msg: Buffer): Buffer {
  const cipher = `aes-${key.length * 8}-cbc`;
  const enc = (block: Buffer) => {
    const c = createCipheriv(cipher, key, Buffer.alloc(16));
    c.setAutoPadding(false);
    return c.update(block);
  };
  const dbl = (b: Buffer) => {
    let n = BigInt(`0x${b.toString('hex')}`) << 1n;
    const carry = n >> 128n;
    n &= (1n << 128n) - 1n;
    if (carry) n ^= 0x87n;
    return Buffer.from(n.toString(16).padStart(32, '0'), 'hex');
  };
  const k1 = dbl(enc(Buffer.alloc(16)));
  const k2 = dbl(k1);
  const full = msg.length > 0 && msg.length % 16 === 0;
  const padded = full
    ? Buffer.from(msg)
    : Buffer.concat([msg, Buffer.from([0x80]), Buffer.alloc(15 - (msg.length % 16))]);
  const mask = full ? k1 : k2;
  const lastStart = padded.length - 16;
  for (let i = 0; i < 16; i++) padded[lastStart + i]! ^= mask[i]!;
  const c = createCipheriv(cipher, key, Buffer.alloc(16));
  c.setAutoPadding(false);
  const out = c.update(padded);
  return out.subarray(out.length - 16);
}

/** aeadOpen, or undefined when the blob does not open with the key (another key, another layout). */
export function aeadTryOpen(type: string, key: Buffer, blob: Buffer, aad?: Buffer): Buffer | undefined {
  try {
    return aeadOpen(type, key, blob, aad);
  } catch {
    return undefined;
  }
}
