import { lookupTable } from '../../../lookup-table.js';

/** The key types of the engine and what each supports. */
export type KeyKind = 'aead' | 'ed25519' | 'ecdsa' | 'rsa' | 'hmac' | 'cmac' | 'managed';

export interface TypeInfo {
  kind: KeyKind;
  /** Symmetric key length in bytes (aead, cmac). */
  bytes?: number;
  /** Node cipher name (aead). */
  cipher?: 'aes-128-gcm' | 'aes-256-gcm' | 'chacha20-poly1305';
  namedCurve?: 'P-256' | 'P-384' | 'P-521';
  modulusLength?: number;
  encryption: boolean;
  decryption: boolean;
  derivation: boolean;
  signing: boolean;
  /** Enterprise capability the type needs, if any. */
  capability?: 'cmac' | 'managed-keys';
}

export const KEY_TYPES: Record<string, TypeInfo> = lookupTable({
  'aes128-gcm96': {
    kind: 'aead',
    bytes: 16,
    cipher: 'aes-128-gcm',
    encryption: true,
    decryption: true,
    derivation: true,
    signing: false,
  },
  'aes256-gcm96': {
    kind: 'aead',
    bytes: 32,
    cipher: 'aes-256-gcm',
    encryption: true,
    decryption: true,
    derivation: true,
    signing: false,
  },
  'chacha20-poly1305': {
    kind: 'aead',
    bytes: 32,
    cipher: 'chacha20-poly1305',
    encryption: true,
    decryption: true,
    derivation: true,
    signing: false,
  },
  ed25519: { kind: 'ed25519', encryption: false, decryption: false, derivation: true, signing: true },
  'ecdsa-p256': {
    kind: 'ecdsa',
    namedCurve: 'P-256',
    encryption: false,
    decryption: false,
    derivation: false,
    signing: true,
  },
  'ecdsa-p384': {
    kind: 'ecdsa',
    namedCurve: 'P-384',
    encryption: false,
    decryption: false,
    derivation: false,
    signing: true,
  },
  'ecdsa-p521': {
    kind: 'ecdsa',
    namedCurve: 'P-521',
    encryption: false,
    decryption: false,
    derivation: false,
    signing: true,
  },
  'rsa-2048': {
    kind: 'rsa',
    modulusLength: 2048,
    encryption: true,
    decryption: true,
    derivation: false,
    signing: true,
  },
  'rsa-3072': {
    kind: 'rsa',
    modulusLength: 3072,
    encryption: true,
    decryption: true,
    derivation: false,
    signing: true,
  },
  'rsa-4096': {
    kind: 'rsa',
    modulusLength: 4096,
    encryption: true,
    decryption: true,
    derivation: false,
    signing: true,
  },
  hmac: { kind: 'hmac', encryption: false, decryption: false, derivation: false, signing: false },
  'aes128-cmac': {
    kind: 'cmac',
    bytes: 16,
    encryption: false,
    decryption: false,
    derivation: false,
    signing: false,
    capability: 'cmac',
  },
  'aes256-cmac': {
    kind: 'cmac',
    bytes: 32,
    encryption: false,
    decryption: false,
    derivation: false,
    signing: false,
    capability: 'cmac',
  },
  managed_key: {
    kind: 'managed',
    encryption: false,
    decryption: false,
    derivation: false,
    signing: false,
    capability: 'managed-keys',
  },
});

/** Hash names of the document mapped to node:crypto names. */
export const HASHES: Record<string, string> = lookupTable({
  sha1: 'sha1',
  'sha2-224': 'sha224',
  'sha2-256': 'sha256',
  'sha2-384': 'sha384',
  'sha2-512': 'sha512',
  'sha3-224': 'sha3-224',
  'sha3-256': 'sha3-256',
  'sha3-384': 'sha3-384',
  'sha3-512': 'sha3-512',
});

/** DER DigestInfo prefixes (RFC 8017 section 9.2 note 1) for PKCS#1 v1.5 over a prehashed input. */
export const DIGEST_INFO: Record<string, string> = lookupTable({
  sha1: '3021300906052b0e03021a05000414',
  sha224: '302d300d06096086480165030402040500041c',
  sha256: '3031300d060960864801650304020105000420',
  sha384: '3041300d060960864801650304020205000430',
  sha512: '3051300d060960864801650304020305000440',
  'sha3-224': '302d300d06096086480165030402070500041c',
  'sha3-256': '3031300d060960864801650304020805000420',
  'sha3-384': '3041300d060960864801650304020905000430',
  'sha3-512': '3051300d060960864801650304020a05000440',
});
