/**
 * The named key model: versions with their material, the flags, and the view a read returns.
 * Asymmetric generation uses the async generateKeyPair so RSA-4096 never blocks the event loop.
 */
import { createPrivateKey, createPublicKey, generateKeyPair, hkdfSync, randomBytes, type KeyObject } from 'node:crypto';
import { promisify } from 'node:util';
import { KEY_TYPES, type TypeInfo } from './types.js';

const genPair = promisify(generateKeyPair);

export interface KeyVersion {
  version: number;
  /** ms since epoch (reference clock). */
  createdAt: number;
  /** Symmetric material (aead, hmac, cmac). */
  key?: Buffer;
  privateKey?: KeyObject;
  publicKey?: KeyObject;
  /** The second key every type carries for HMAC. */
  hmacKey: Buffer;
  certificateChain?: string;
}

export interface NamedKey {
  name: string;
  type: string;
  derived: boolean;
  convergent: boolean;
  exportable: boolean;
  allowPlaintextBackup: boolean;
  deletionAllowed: boolean;
  minDecryptionVersion: number;
  minEncryptionVersion: number;
  minAvailableVersion: number;
  latestVersion: number;
  /** Seconds; 0 disables. */
  autoRotatePeriod: number;
  /** ms since epoch of the last rotation (or creation). */
  lastRotatedAt: number;
  imported: boolean;
  allowRotation: boolean;
  rotatedInService: boolean;
  /** hmac type only: size in bytes. */
  keySize: number;
  versions: Map<number, KeyVersion>;
}

export function typeInfo(k: NamedKey): TypeInfo {
  return KEY_TYPES[k.type]!;
}

/** Fresh material for one version of a key type. `symBytes` overrides the symmetric size (rules.newVersionBytes). */
export async function generateMaterial(
  type: string,
  symBytes?: number,
): Promise<Pick<KeyVersion, 'key' | 'privateKey' | 'publicKey'>> {
  const info = KEY_TYPES[type]!;
  switch (info.kind) {
    case 'aead':
    case 'cmac':
      return { key: randomBytes(symBytes ?? info.bytes!) };
    case 'hmac':
      return { key: randomBytes(symBytes ?? 32) };
    case 'ed25519': {
      const { privateKey, publicKey } = await genPair('ed25519');
      return { privateKey, publicKey };
    }
    case 'ecdsa': {
      const { privateKey, publicKey } = await genPair('ec', { namedCurve: info.namedCurve! });
      return { privateKey, publicKey };
    }
    case 'rsa': {
      const { privateKey, publicKey } = await genPair('rsa', { modulusLength: info.modulusLength! });
      return { privateKey, publicKey };
    }
    default:
      throw new Error(`cannot generate ${type}`);
  }
}

const ED25519_PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

export function ed25519FromSeed(seed: Buffer): { privateKey: KeyObject; publicKey: KeyObject } {
  const privateKey = createPrivateKey({
    key: Buffer.concat([ED25519_PKCS8_PREFIX, seed]),
    format: 'der',
    type: 'pkcs8',
  });
  return { privateKey, publicKey: createPublicKey(privateKey) };
}

export function ed25519Seed(privateKey: KeyObject): Buffer {
  return Buffer.from(privateKey.export({ format: 'jwk' }).d!, 'base64url');
}

export function ed25519RawPublic(publicKey: KeyObject): Buffer {
  return Buffer.from(publicKey.export({ format: 'jwk' }).x!, 'base64url');
}

/** Key derivation for derived keys: HKDF-SHA256 with the context as info. */
export function derive(key: Buffer, context: Buffer, length = key.length): Buffer {
  return Buffer.from(hkdfSync('sha256', key, Buffer.alloc(0), context, length));
}

/** Public key as a read shows it: PEM (SPKI) for RSA and ECDSA, base64 raw for ed25519. */
export function publicKeyString(type: string, publicKey: KeyObject): string {
  if (KEY_TYPES[type]!.kind === 'ed25519') return ed25519RawPublic(publicKey).toString('base64');
  return publicKey.export({ format: 'pem', type: 'spki' }).toString();
}

/** The key read (Named key table). */
export function readView(k: NamedKey): Record<string, unknown> {
  const info = typeInfo(k);
  const keys: Record<string, unknown> = {};
  for (const v of [...k.versions.values()].sort((a, b) => a.version - b.version)) {
    const created = Math.floor(v.createdAt / 1000);
    if (v.publicKey) {
      keys[String(v.version)] = {
        public_key: publicKeyString(k.type, v.publicKey),
        creation_time: new Date(v.createdAt).toISOString(),
        ...(v.certificateChain ? { certificate_chain: v.certificateChain } : {}),
      };
    } else {
      keys[String(v.version)] = created;
    }
  }
  const view: Record<string, unknown> = {
    name: k.name,
    type: k.type,
    deletion_allowed: k.deletionAllowed,
    derived: k.derived,
    exportable: k.exportable,
    allow_plaintext_backup: k.allowPlaintextBackup,
    keys,
    min_decryption_version: k.minDecryptionVersion,
    min_encryption_version: k.minEncryptionVersion,
    min_available_version: k.minAvailableVersion,
    latest_version: k.latestVersion,
    supports_encryption: info.encryption,
    supports_decryption: info.decryption,
    supports_derivation: info.derivation,
    supports_signing: info.signing,
    imported: k.imported,
    convergent_encryption: k.convergent,
    auto_rotate_period: k.autoRotatePeriod,
    ...(k.type === 'hmac' ? { key_size: k.keySize } : {}),
  };
  return view;
}

// ---------------------------------------------------------------- backup format

interface SerialVersion {
  version: number;
  created_at: number;
  key?: string;
  private_key?: string;
  public_key?: string;
  hmac_key: string;
  certificate_chain?: string;
}

export function serialize(k: NamedKey): string {
  const versions: SerialVersion[] = [...k.versions.values()].map((v) => ({
    version: v.version,
    created_at: v.createdAt,
    key: v.key?.toString('base64'),
    private_key: v.privateKey?.export({ format: 'der', type: 'pkcs8' }).toString('base64'),
    public_key: v.publicKey?.export({ format: 'der', type: 'spki' }).toString('base64'),
    hmac_key: v.hmacKey.toString('base64'),
    certificate_chain: v.certificateChain,
  }));
  const policy = { ...k, versions };
  return Buffer.from(JSON.stringify({ policy, format: 'svc-transit-backup-1' })).toString('base64');
}

export function deserialize(backup: string): NamedKey {
  const parsed = JSON.parse(Buffer.from(backup, 'base64').toString('utf8')) as {
    policy?: Record<string, unknown>;
    format?: string;
  };
  if (parsed.format !== 'svc-transit-backup-1' || !parsed.policy) throw new Error('not a backup');
  const p = parsed.policy as unknown as Omit<NamedKey, 'versions'> & { versions: SerialVersion[] };
  if (!KEY_TYPES[p.type] || !Array.isArray(p.versions)) throw new Error('not a backup');
  const versions = new Map<number, KeyVersion>();
  for (const v of p.versions) {
    versions.set(v.version, {
      version: v.version,
      createdAt: v.created_at,
      key: v.key ? Buffer.from(v.key, 'base64') : undefined,
      privateKey: v.private_key
        ? createPrivateKey({ key: Buffer.from(v.private_key, 'base64'), format: 'der', type: 'pkcs8' })
        : undefined,
      publicKey: v.public_key
        ? createPublicKey({ key: Buffer.from(v.public_key, 'base64'), format: 'der', type: 'spki' })
        : undefined,
      hmacKey: Buffer.from(v.hmac_key, 'base64'),
      certificateChain: v.certificate_chain,
    });
  }
  return { ...p, versions };
}
