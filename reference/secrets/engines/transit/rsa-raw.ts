/**
 * RSA signatures over an already computed digest (prehashed input, hash_algorithm none).
 * node:crypto's sign() always hashes, so PSS encoding (RFC 8017 section 9.1) and the PKCS#1 v1.5
 * DigestInfo are built here and the raw RSA operation is done with privateEncrypt/publicDecrypt.
 */
import { constants, createHash, privateEncrypt, publicDecrypt, randomBytes, type KeyObject } from 'node:crypto';
import { DIGEST_INFO } from './types.js';

function modBits(key: KeyObject): number {
  return key.asymmetricKeyDetails?.modulusLength ?? 2048;
}

function mgf1(seed: Buffer, len: number, hash: string): Buffer {
  const out: Buffer[] = [];
  let total = 0;
  for (let c = 0; total < len; c++) {
    const ctr = Buffer.alloc(4);
    ctr.writeUInt32BE(c);
    const h = createHash(hash).update(seed).update(ctr).digest();
    out.push(h);
    total += h.length;
  }
  return Buffer.concat(out).subarray(0, len);
}

/** Salt length for signing: 'auto' is the maximum (what PSS signers commonly use), 'hash' the digest size. */
export function pssSaltLength(salt: string, key: KeyObject, hashLen: number): number {
  const emLen = Math.ceil((modBits(key) - 1) / 8);
  const max = emLen - hashLen - 2;
  if (salt === 'auto' || salt === '') return max;
  if (salt === 'hash') return hashLen;
  const n = Number(salt);
  if (!Number.isInteger(n) || n < 0 || n > max) throw new RangeError('invalid salt_length');
  return n;
}

export function pssSignDigest(key: KeyObject, digest: Buffer, hash: string, saltLen: number): Buffer {
  const bits = modBits(key);
  const emBits = bits - 1;
  const emLen = Math.ceil(emBits / 8);
  const hLen = digest.length;
  const salt = randomBytes(saltLen);
  const H = createHash(hash).update(Buffer.alloc(8)).update(digest).update(salt).digest();
  const db = Buffer.concat([Buffer.alloc(emLen - saltLen - hLen - 2), Buffer.from([1]), salt]);
  const mask = mgf1(H, emLen - hLen - 1, hash);
  for (let i = 0; i < db.length; i++) db[i]! ^= mask[i]!;
  db[0]! &= 0xff >> (8 * emLen - emBits);
  let em = Buffer.concat([db, H, Buffer.from([0xbc])]);
  const k = Math.ceil(bits / 8);
  if (em.length < k) em = Buffer.concat([Buffer.alloc(k - em.length), em]);
  return privateEncrypt({ key, padding: constants.RSA_NO_PADDING }, em);
}

/** Verifies with any salt length when `saltLen` is undefined (auto). */
export function pssVerifyDigest(key: KeyObject, digest: Buffer, sig: Buffer, hash: string, saltLen?: number): boolean {
  const bits = modBits(key);
  const emBits = bits - 1;
  const emLen = Math.ceil(emBits / 8);
  const hLen = digest.length;
  let em: Buffer;
  try {
    em = publicDecrypt({ key, padding: constants.RSA_NO_PADDING }, sig);
  } catch {
    return false;
  }
  em = em.subarray(em.length - emLen);
  if (em[em.length - 1] !== 0xbc) return false;
  const db = Buffer.from(em.subarray(0, emLen - hLen - 1));
  const H = em.subarray(emLen - hLen - 1, emLen - 1);
  const mask = mgf1(H, db.length, hash);
  for (let i = 0; i < db.length; i++) db[i]! ^= mask[i]!;
  db[0]! &= 0xff >> (8 * emLen - emBits);
  const one = db.indexOf(1);
  if (one < 0 || db.subarray(0, one).some((b) => b !== 0)) return false;
  const salt = db.subarray(one + 1);
  if (saltLen !== undefined && salt.length !== saltLen) return false;
  const H2 = createHash(hash).update(Buffer.alloc(8)).update(digest).update(salt).digest();
  return H2.equals(H);
}

/** PKCS#1 v1.5 over a digest; with `hash` undefined the input is signed without a DigestInfo (hash none). */
export function pkcs1SignDigest(key: KeyObject, digest: Buffer, hash?: string): Buffer {
  const data = hash ? Buffer.concat([Buffer.from(DIGEST_INFO[hash]!, 'hex'), digest]) : digest;
  return privateEncrypt({ key, padding: constants.RSA_PKCS1_PADDING }, data);
}

export function pkcs1VerifyDigest(key: KeyObject, digest: Buffer, sig: Buffer, hash?: string): boolean {
  const data = hash ? Buffer.concat([Buffer.from(DIGEST_INFO[hash]!, 'hex'), digest]) : digest;
  try {
    return publicDecrypt({ key, padding: constants.RSA_PKCS1_PADDING }, sig).equals(data);
  } catch {
    return false;
  }
}
