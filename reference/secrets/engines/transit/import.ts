/**
 * Key import of the transit engine (transit document: Key management > wrapping_key, Import key,
 * Import key version): material wrapped with the engine's RSA wrapping key (BYOK, byok.ts).
 */
import { generateKeyPair, randomBytes, type KeyObject } from 'node:crypto';
import { promisify } from 'node:util';
import type { EngineResponse } from '../../engine.js';
import { badRequest } from '../../errors.js';
import { parsePrivate, parsePublicPem, unwrap } from './byok.js';
import type { ImportCall } from './key-rules.js';
import type { KeyVersion } from './keys.js';
import type { TransitRules } from './rules.js';
import { b64, bool, int, str, type Body } from './params.js';
import type { Routes, Shared } from './shared.js';
import { KEY_TYPES } from './types.js';

const genPair = promisify(generateKeyPair);

/** The wrapping key, and keys and key versions imported under it. */
export class KeyImport {
  private readonly rules: TransitRules;
  private wrappingKey?: Promise<{ privateKey: KeyObject; publicKey: KeyObject }>;

  constructor(private readonly s: Shared) {
    this.rules = s.rules;
  }

  routes(): Routes {
    return [
      ['wrapping_key', (c) => (c.seg.length === 1 && c.req.method === 'GET' ? this.wrappingKeyRead() : undefined)],
      ['keys/import', (c) => (c.post ? this.importKey(c.seg[1]!, c.body) : undefined)],
      ['keys/import_version', (c) => (c.post ? this.importVersion(c.seg[1]!, c.body) : undefined)],
    ];
  }

  /** wrapping_key: the public half of the wrapping key. */
  private async wrappingKeyRead(): Promise<EngineResponse> {
    const wk = await this.wrapping();
    return { data: { public_key: wk.publicKey.export({ format: 'pem', type: 'spki' }).toString() } };
  }

  private wrapping(): Promise<{ privateKey: KeyObject; publicKey: KeyObject }> {
    this.wrappingKey ??= genPair('rsa', { modulusLength: this.rules.wrappingKeyBits });
    return this.wrappingKey;
  }

  /** Unwraps an import ciphertext and turns it into version material for `type`. */
  private async importMaterial(
    type: string,
    body: Body,
    call: ImportCall,
  ): Promise<Pick<KeyVersion, 'key' | 'privateKey' | 'publicKey'>> {
    const info = KEY_TYPES[type]!;
    const ciphertext = b64(body, 'ciphertext');
    const publicPem = str(body, 'public_key');
    if (!ciphertext && !publicPem) return this.rules.missingImportMaterial(type);
    if (ciphertext) {
      const oaep = this.rules.importHashFunction(str(body, 'hash_function'), call);
      const wk = await this.wrapping();
      let material: Buffer;
      try {
        material = unwrap(ciphertext, wk.privateKey, oaep);
      } catch {
        return this.rules.unwrapRefused(type);
      }
      if (info.kind === 'aead' || info.kind === 'cmac') {
        const key = this.rules.importedKey(material, info.bytes!);
        if (key.length !== info.bytes)
          throw badRequest(`imported key material must be ${info.bytes} bytes for ${type}`);
        return { key };
      }
      if (info.kind === 'hmac') {
        if (material.length < 32 || material.length > 512)
          throw badRequest('imported hmac key must be between 32 and 512 bytes');
        return { key: material };
      }
      let privateKey: KeyObject;
      try {
        privateKey = parsePrivate(material);
      } catch {
        throw badRequest('imported key material is not a PKCS#8 private key');
      }
      checkAsymmetricType(type, privateKey);
      return { privateKey, publicKey: this.rules.derivedPublicKey(privateKey) };
    }
    if (info.kind !== 'rsa' && info.kind !== 'ecdsa' && info.kind !== 'ed25519')
      throw badRequest('public_key import needs an asymmetric key type');
    let publicKey: KeyObject;
    try {
      publicKey = parsePublicPem(publicPem);
    } catch {
      throw badRequest('public_key is not a valid PEM public key');
    }
    checkAsymmetricType(type, publicKey);
    return this.rules.publicKeyImport(type, publicKey);
  }

  private async importKey(name: string, body: Body): Promise<EngineResponse> {
    return this.s.locked(name, async () => {
      if (this.s.keys.has(name))
        throw badRequest('the import path cannot be used with an existing key; use import_version');
      const type = this.rules.importType(body);
      const info = KEY_TYPES[type]!;
      const k = this.s.newKey(name, type, body, 'import');
      this.rules.checkImportContext(k.derived, b64(body, 'context'));
      k.imported = true;
      k.allowRotation = bool(body, 'allow_rotation');
      k.autoRotatePeriod = this.rules.importedAutoRotatePeriod(k.autoRotatePeriod, k.allowRotation);
      this.rules.importFlags(k);
      const material = await this.importMaterial(type, body, 'import');
      if (info.kind === 'hmac') k.keySize = material.key!.length;
      const now = this.s.ctx.clock.now();
      k.versions.set(1, { version: 1, createdAt: now, hmacKey: randomBytes(32), ...material });
      k.latestVersion = 1;
      k.lastRotatedAt = now;
      this.s.keys.set(name, k);
      return { data: this.s.view(k) };
    });
  }

  private async importVersion(name: string, body: Body): Promise<EngineResponse> {
    return this.s.locked(name, async () => {
      const k = await this.s.key(name);
      // Missing or invalid data is refused as such (400) before the key's state is judged.
      b64(body, 'ciphertext');
      str(body, 'public_key');
      if (body.hash_function !== undefined) this.rules.importHashFunction(str(body, 'hash_function'), 'import_version');
      if (body.version !== undefined && int(body, 'version', 0) < 1) throw badRequest('version must be 1 or more');
      this.rules.checkImportVersionImported(k);
      this.rules.checkImportVersionNotRotated(k);
      const material = this.rules.importedVersionMaterial(await this.importMaterial(k.type, body, 'import_version'), k);
      const requested = int(body, 'version', 0);
      const now = this.s.ctx.clock.now();
      const latest = k.versions.get(k.latestVersion);
      const completesLatest = !!material.privateKey && !!latest && !latest.privateKey;
      const target = this.rules.importVersionTarget(requested, k.latestVersion, completesLatest);
      if (target) {
        const v = k.versions.get(target);
        if (!v) throw badRequest('version to update does not exist');
        if (v.publicKey && material.privateKey) {
          const same = v.publicKey
            .export({ format: 'der', type: 'spki' })
            .equals(material.publicKey!.export({ format: 'der', type: 'spki' }));
          if (!same) throw badRequest('the private key does not match the public key of that version');
        }
        Object.assign(v, material);
      } else {
        const version = k.latestVersion + 1;
        k.versions.set(version, { version, createdAt: now, hmacKey: randomBytes(32), ...material });
        k.latestVersion = version;
      }
      return { data: this.s.view(k) };
    });
  }
}

function checkAsymmetricType(type: string, key: KeyObject): void {
  const info = KEY_TYPES[type]!;
  const t = key.asymmetricKeyType;
  const ok =
    (info.kind === 'rsa' && t === 'rsa' && key.asymmetricKeyDetails?.modulusLength === info.modulusLength) ||
    (info.kind === 'ecdsa' &&
      t === 'ec' &&
      key.asymmetricKeyDetails?.namedCurve ===
        { 'P-256': 'prime256v1', 'P-384': 'secp384r1', 'P-521': 'secp521r1' }[info.namedCurve!]) ||
    (info.kind === 'ed25519' && t === 'ed25519');
  if (!ok) throw badRequest(`imported key does not match type ${type}`);
}
