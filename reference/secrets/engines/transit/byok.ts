/**
 * Bring-your-own-key wrapping: an ephemeral AES-256 key wrapped with RSA-OAEP (the mount's 4096-bit
 * wrapping key, or a destination key for byok-export), followed by the key material wrapped with
 * that AES key using AES key wrap with padding (RFC 5649).
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
  type KeyObject,
} from 'node:crypto';
import { lookupTable } from '../../../lookup-table.js';

/** RFC 5649 alternative initial value. */
const KWP_IV = Buffer.from('a65959a6', 'hex');

export const OAEP_HASHES: Record<string, string> = lookupTable({
  SHA1: 'sha1',
  SHA224: 'sha224',
  SHA256: 'sha256',
  SHA384: 'sha384',
  SHA512: 'sha512',
});

export function wrap(material: Buffer, rsaPublic: KeyObject, oaepHash = 'sha256'): Buffer {
  const aes = randomBytes(32);
  const wrappedKey = publicEncrypt({ key: rsaPublic, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash }, aes);
  const c = createCipheriv('id-aes256-wrap-pad', aes, KWP_IV);
  return Buffer.concat([wrappedKey, c.update(material), c.final()]);
}

/** Throws on any failure; the caller turns it into a 400 without details (no oracle). */
export function unwrap(blob: Buffer, rsaPrivate: KeyObject, oaepHash: string): Buffer {
  const size = (rsaPrivate.asymmetricKeyDetails?.modulusLength ?? 4096) / 8;
  if (blob.length <= size) throw new Error('ciphertext too short');
  const aes = privateDecrypt(
    { key: rsaPrivate, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash },
    blob.subarray(0, size),
  );
  if (aes.length !== 32) throw new Error('wrapped key is not AES-256');
  const d = createDecipheriv('id-aes256-wrap-pad', aes, KWP_IV);
  return Buffer.concat([d.update(blob.subarray(size)), d.final()]);
}

/** Asymmetric material is PKCS#8 DER. */
export function parsePrivate(material: Buffer): KeyObject {
  return createPrivateKey({ key: material, format: 'der', type: 'pkcs8' });
}

export function parsePublicPem(pem: string): KeyObject {
  return createPublicKey(pem);
}
