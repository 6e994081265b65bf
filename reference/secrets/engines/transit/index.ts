/**
 * The encryption engine (transit): named keys with versions and real cryptography from node:crypto.
 * Routing lives here; key material handling in keys.ts, per-item operations in ops.ts, batches in
 * batch.ts, BYOK wrapping in byok.ts, CSR and chains in certs.ts. The documents' rules are named in
 * rules.ts and reached through `this.rules` (ops.ts: `ctx.rules`); the faults and variants replace
 * them in one table, switches/, so nothing here asks which switch is on.
 */
import { createHash, generateKeyPair, randomBytes, type KeyObject } from 'node:crypto';
import { promisify } from 'node:util';
import type { Engine, EngineContext, EngineFactory, EngineRequest, EngineResponse } from '../../engine.js';
import { badRequest, methodNotAllowed, notFound, unsupportedPath } from '../../errors.js';
import { runBatch } from './batch.js';
import { OAEP_HASHES, parsePrivate, parsePublicPem, unwrap, wrap } from './byok.js';
import { checkChain, createCsr, x509lib } from './certs.js';
import {
  deserialize,
  ed25519RawPublic,
  ed25519Seed,
  generateMaterial,
  publicKeyString,
  serialize,
  typeInfo,
  type KeyVersion,
  type NamedKey,
} from './keys.js';
import {
  cmacItem,
  decryptRaw,
  encryptRaw,
  encryptionVersion,
  hashName,
  hmacItem,
  parseVersioned,
  signItem,
  signOptions,
  verifyItem,
  type OpContext,
} from './ops.js';
import { b64, batchInput, bool, checkFields, duration, int, str, type Body } from './params.js';
import { KEY_TYPES } from './types.js';
import type { TransitRules } from './rules.js';
import { transitRulesFor } from './switches/index.js';

const genPair = promisify(generateKeyPair);

class TransitEngine implements Engine {
  private readonly keys = new Map<string, NamedKey>();
  private readonly locks = new Map<string, Promise<unknown>>();
  private disableUpsert = false;
  private cacheSize = 0;
  private wrappingKey?: Promise<{ privateKey: KeyObject; publicKey: KeyObject }>;
  private readonly op: OpContext;
  /** The documents' rules, with this reference's switches applied (switches/). */
  private readonly rules: TransitRules;

  constructor(private readonly ctx: EngineContext) {
    const prefix = typeof ctx.settings.transitOutputPrefix === 'string' ? ctx.settings.transitOutputPrefix : 'svc';
    this.rules = transitRulesFor(ctx.faults, ctx.variants);
    this.op = { prefix, rules: this.rules };
    // Loading the X.509 library takes seconds on a busy machine: start it now, not on the first CSR.
    x509lib().catch((err: unknown) => ctx.log(`transit: X.509 library not loaded: ${(err as Error).message}`));
  }

  // ------------------------------------------------------------------ existence and locking

  async exists(path: string): Promise<boolean> {
    const seg = path.split('/');
    if (seg[0] === 'encrypt' && seg.length === 2) {
      // With upsert disabled the write is an update, so the caller's create capability is irrelevant.
      if (this.rules.encryptIsUpdate(this.disableUpsert)) return true;
      return this.keys.has(seg[1]!);
    }
    if (seg[0] === 'keys' && seg.length === 2) return this.keys.has(seg[1]!);
    return true;
  }

  /** Serialises mutations of one key name (creation awaits generation, which yields). */
  private async locked<T>(name: string, fn: () => Promise<T>): Promise<T> {
    const prev = this.locks.get(name) ?? Promise.resolve();
    const run = prev.catch(() => undefined).then(fn);
    this.locks.set(name, run);
    try {
      return await run;
    } finally {
      if (this.locks.get(name) === run) this.locks.delete(name);
    }
  }

  private async key(name: string): Promise<NamedKey> {
    const k = this.keys.get(name);
    if (!k) throw this.rules.missingKey(name);
    await this.autoRotate(k);
    return k;
  }

  /** Rotation is due once auto_rotate_period has elapsed since the last rotation (reference clock). */
  private async autoRotate(k: NamedKey): Promise<void> {
    if (!this.rules.autoRotates(k)) return;
    if (this.ctx.clock.now() - k.lastRotatedAt < k.autoRotatePeriod * 1000) return;
    await this.locked(k.name, async () => {
      if (this.ctx.clock.now() - k.lastRotatedAt >= k.autoRotatePeriod * 1000) await this.rotate(k);
    });
  }

  // ------------------------------------------------------------------ routing

  /** Routes the request; the answer and any error leave through the rules (the one response point). */
  async handle(req: EngineRequest): Promise<EngineResponse> {
    const seg = req.path.split('/').filter((s) => s !== '');
    let res: EngineResponse;
    try {
      this.refuseAlgorithms(seg, req.body);
      res = await this.route(req, seg);
    } catch (err) {
      throw this.rules.failure(err);
    }
    return this.rules.answer({ method: req.method, seg, res });
  }

  /** Hash algorithms the service does not offer (the document's list is "not shown"). */
  private refuseAlgorithms(seg: string[], body: Body): void {
    const [head, a, b] = seg;
    const named = [head === 'hash' ? a : b, body.algorithm, body.hash_algorithm].filter(
      (x): x is string => typeof x === 'string',
    );
    const refused = this.rules.refusedHash(head, named);
    if (refused) throw badRequest(`unsupported hash algorithm ${JSON.stringify(refused)}`);
  }

  private async route(req: EngineRequest, seg: string[]): Promise<EngineResponse> {
    const [head, a, b, c] = seg;
    const m = req.method;
    const body = req.body;
    const post = m === 'POST' || m === 'PUT';
    if (post && body) {
      try {
        checkFields(body);
      } catch (err) {
        throw this.rules.wrongFieldType(err, seg);
      }
    }
    switch (head) {
      case 'keys':
        if (seg.length === 1) {
          if (m === 'LIST' || (m === 'GET' && req.query.get('list') === 'true')) return this.list();
          throw methodNotAllowed();
        }
        if (seg.length === 2) {
          if (m === 'GET') {
            if (!this.keys.has(a!)) throw notFound();
            return { data: this.view(await this.key(a!)) };
          }
          if (post) return this.create(a!, body);
          if (m === 'DELETE') return this.delete(a!);
          throw methodNotAllowed();
        }
        if (seg.length === 3 && post) {
          switch (b) {
            case 'config':
              return this.config(a!, body);
            case 'rotate':
              return this.rotateRoute(a!, body);
            case 'import':
              return this.importKey(a!, body);
            case 'import_version':
              return this.importVersion(a!, body);
            case 'trim':
              return this.trim(a!, body);
            case 'csr':
              return this.csr(a!, body);
            case 'set-certificate':
              return this.setCertificate(a!, body);
          }
        }
        break;
      case 'wrapping_key':
        if (seg.length === 1 && m === 'GET') {
          const wk = await this.wrapping();
          return { data: { public_key: wk.publicKey.export({ format: 'pem', type: 'spki' }).toString() } };
        }
        break;
      case 'export':
        if ((seg.length === 3 || seg.length === 4) && m === 'GET') return this.exportKey(a!, b!, c);
        break;
      case 'byok-export':
        if ((seg.length === 3 || seg.length === 4) && m === 'GET') return this.byokExport(a!, b!, c);
        break;
      case 'backup':
        if (seg.length === 2 && m === 'GET') return this.backup(a!);
        break;
      case 'restore':
        if (seg.length <= 2 && post) return this.restore(a, body);
        break;
      case 'config':
        if (seg.length === 2 && a === 'keys') {
          if (post) {
            this.disableUpsert = bool(body, 'disable_upsert', this.disableUpsert);
            return { data: { disable_upsert: this.readDisableUpsert() } };
          }
          if (m === 'GET') return { data: { disable_upsert: this.readDisableUpsert() } };
        }
        break;
      case 'cache-config':
        if (seg.length === 1) {
          if (post) {
            const size = int(body, 'size', 0);
            this.rules.checkCacheSize(size);
            this.cacheSize = size;
            return {
              warnings: ['cache configurations will be applied when this backend is restarted'],
              data: { size },
            };
          }
          if (m === 'GET') return { data: { size: this.rules.cacheSizeRead(this.cacheSize) } };
        }
        break;
      case 'encrypt':
        if (seg.length === 2 && post) return this.encrypt(a!, req);
        break;
      case 'decrypt':
        if (seg.length === 2 && post) return this.decrypt(a!, body);
        break;
      case 'rewrap':
        if (seg.length === 2 && post) return this.rewrap(a!, body);
        break;
      case 'datakey':
        if (seg.length === 3 && post) return this.datakey(a!, b!, body);
        break;
      case 'random':
        if (seg.length <= 3 && post) return this.random(seg.slice(1), body);
        break;
      case 'hash':
        if (seg.length <= 2 && post) return this.hash(a, body);
        break;
      case 'hmac':
        if ((seg.length === 2 || seg.length === 3) && post) return this.hmac(a!, b, body);
        break;
      case 'sign':
        if ((seg.length === 2 || seg.length === 3) && post) return this.sign(a!, b, body);
        break;
      case 'verify':
        if ((seg.length === 2 || seg.length === 3) && post) return this.verify(a!, b, body);
        break;
      case 'cmac':
        if ((seg.length === 2 || seg.length === 3) && post) return this.cmac(a!, b, body);
        break;
    }
    throw unsupportedPath();
  }

  /** The key read (Named key). */
  private view(k: NamedKey): Record<string, unknown> {
    return this.rules.keyRead(k);
  }

  private readDisableUpsert(): boolean {
    return this.rules.disableUpsertRead(this.disableUpsert);
  }

  // ------------------------------------------------------------------ key lifecycle

  private list(): EngineResponse {
    // Map order is creation order.
    return { data: { keys: this.rules.listed([...this.keys.keys()]).sort() } };
  }

  private newKey(name: string, type: string, body: Body): NamedKey {
    const derived = bool(body, 'derived');
    const convergent = bool(body, 'convergent_encryption');
    this.rules.checkConvergent(convergent, derived);
    const info = KEY_TYPES[type]!;
    if (convergent && info.kind !== 'aead') throw badRequest('convergent encryption not supported for this key type');
    if (derived && !info.derivation) throw badRequest('key derivation not supported for this key type');
    const autoRotatePeriod = duration(body, 'auto_rotate_period') ?? 0;
    this.rules.checkAutoRotatePeriod(autoRotatePeriod);
    return {
      name,
      type,
      derived,
      convergent,
      exportable: bool(body, 'exportable'),
      allowPlaintextBackup: bool(body, 'allow_plaintext_backup'),
      deletionAllowed: false,
      minDecryptionVersion: 1,
      minEncryptionVersion: 0,
      minAvailableVersion: 0,
      latestVersion: 0,
      autoRotatePeriod,
      lastRotatedAt: this.ctx.clock.now(),
      imported: false,
      allowRotation: false,
      rotatedInService: false,
      keySize: 0,
      versions: new Map(),
    };
  }

  private keyType(body: Body, field = 'type'): string {
    const type = str(body, field) || this.rules.defaultKeyType;
    const info = KEY_TYPES[type];
    if (!info) throw badRequest(`unknown key type ${JSON.stringify(type.slice(0, 40))}`);
    if (info.kind === 'managed')
      throw badRequest('managed keys are not supported by this service (enterprise capability)');
    return type;
  }

  private async create(name: string, body: Body): Promise<EngineResponse> {
    return this.locked(name, async () => {
      // The type is checked first: an unknown type is refused even when the key already exists.
      const type = this.keyType(body);
      const existing = this.keys.get(name);
      if (existing) return { data: this.view(existing) };
      const k = this.newKey(name, type, body);
      const keySize = int(body, 'key_size', 0);
      if (type === 'hmac') {
        this.rules.checkHmacKeySize(keySize);
        k.keySize = keySize || this.rules.hmacDefaultKeySize;
      } else if (keySize !== 0) {
        throw badRequest('key_size is only valid for hmac keys');
      }
      await this.rotate(k);
      k.rotatedInService = false;
      this.keys.set(name, k);
      return { data: this.view(k) };
    });
  }

  /** Adds a freshly generated version (creation and rotation). */
  private async rotate(k: NamedKey): Promise<void> {
    const material = await generateMaterial(k.type, this.rules.newVersionBytes(k));
    const hmacKey = this.rules.newHmacKey(k.versions.get(k.latestVersion));
    const version = k.latestVersion + 1;
    k.versions.set(version, { version, createdAt: this.ctx.clock.now(), hmacKey, ...material });
    k.latestVersion = version;
    k.lastRotatedAt = this.ctx.clock.now();
    if (version > 1) k.rotatedInService = true;
  }

  private async rotateRoute(name: string, body: Body): Promise<EngineResponse> {
    str(body, 'managed_key_name');
    str(body, 'managed_key_id');
    return this.locked(name, async () => {
      const k = await this.key(name);
      this.rules.checkRotation(k);
      if (
        k.imported &&
        !k.versions.get(k.latestVersion)?.privateKey &&
        typeInfo(k).kind !== 'aead' &&
        typeInfo(k).kind !== 'hmac' &&
        typeInfo(k).kind !== 'cmac'
      ) {
        // A public-only imported key can still rotate: the service generates a full pair.
      }
      await this.rotate(k);
      return { data: this.view(k) };
    });
  }

  private async delete(name: string): Promise<EngineResponse> {
    return this.locked(name, async () => {
      const k = this.keys.get(name);
      if (!k) return {};
      this.rules.checkDeletion(k);
      this.rules.removeKey(this.keys, name);
      return {};
    });
  }

  private async config(name: string, body: Body): Promise<EngineResponse> {
    return this.locked(name, async () => {
      const k = await this.key(name);
      const next = { ...k };
      this.rules.applyDeletionAllowed(next, body);
      if (body.exportable !== undefined) {
        const v = bool(body, 'exportable');
        if (v || !k.exportable || this.rules.disableFlag('exportable')) next.exportable = v;
      }
      if (body.allow_plaintext_backup !== undefined) {
        const v = bool(body, 'allow_plaintext_backup');
        if (v || !k.allowPlaintextBackup || this.rules.disableFlag('allow_plaintext_backup'))
          next.allowPlaintextBackup = v;
      }
      if (body.min_decryption_version !== undefined) next.minDecryptionVersion = int(body, 'min_decryption_version');
      if (body.min_encryption_version !== undefined) next.minEncryptionVersion = int(body, 'min_encryption_version');
      if (next.minDecryptionVersion === 0) next.minDecryptionVersion = 1;
      if (next.minDecryptionVersion < 0 || next.minEncryptionVersion < 0)
        throw badRequest('minimum versions cannot be negative');
      if (next.minDecryptionVersion > k.latestVersion)
        throw badRequest('cannot set min_decryption_version above the latest version');
      if (next.minEncryptionVersion > k.latestVersion)
        throw badRequest('cannot set min_encryption_version above the latest version');
      this.rules.checkMinVersions(next);
      if (next.minAvailableVersion > 0 && next.minDecryptionVersion < next.minAvailableVersion)
        throw badRequest('min_decryption_version cannot be below the trimmed minimum available version');
      const period = duration(body, 'auto_rotate_period');
      this.rules.checkAutoRotatePeriod(period);
      if (period !== undefined) next.autoRotatePeriod = this.rules.autoRotateUpdate(next.autoRotatePeriod, period);
      if (period !== undefined && period > 0 && k.autoRotatePeriod === 0) next.lastRotatedAt = this.ctx.clock.now();
      Object.assign(k, next);
      return { data: this.view(k) };
    });
  }

  private async trim(name: string, body: Body): Promise<EngineResponse> {
    return this.locked(name, async () => {
      const k = await this.key(name);
      if (body.min_available_version === undefined) throw badRequest('missing min_available_version');
      const min = int(body, 'min_available_version');
      this.rules.checkTrim(k, min);
      if (min > k.latestVersion) throw badRequest('minimum available version cannot exceed the latest version');
      this.rules.trimVersions(k, min);
      k.minAvailableVersion = min;
      return { data: this.view(k) };
    });
  }

  // ------------------------------------------------------------------ import (BYOK)

  private wrapping(): Promise<{ privateKey: KeyObject; publicKey: KeyObject }> {
    this.wrappingKey ??= genPair('rsa', { modulusLength: this.rules.wrappingKeyBits });
    return this.wrappingKey;
  }

  /** Unwraps an import ciphertext and turns it into version material for `type`. */
  private async importMaterial(
    type: string,
    body: Body,
  ): Promise<Pick<KeyVersion, 'key' | 'privateKey' | 'publicKey'>> {
    const info = KEY_TYPES[type]!;
    const ciphertext = b64(body, 'ciphertext');
    const publicPem = str(body, 'public_key');
    if (!ciphertext && !publicPem) throw badRequest('ciphertext or public_key is required');
    if (ciphertext) {
      const hashFn = (str(body, 'hash_function') || 'SHA256').toUpperCase();
      const oaep = OAEP_HASHES[hashFn];
      if (!oaep) throw badRequest('hash_function must be one of SHA1, SHA224, SHA256, SHA384, SHA512');
      const wk = await this.wrapping();
      let material: Buffer;
      try {
        material = unwrap(ciphertext, wk.privateKey, this.rules.importOaepHash(oaep));
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
      const { createPublicKey } = await import('node:crypto');
      return { privateKey, publicKey: createPublicKey(privateKey) };
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
    return this.locked(name, async () => {
      if (this.keys.has(name))
        throw badRequest('the import path cannot be used with an existing key; use import_version');
      const type = str(body, 'type') || 'aes256-gcm96';
      const info = KEY_TYPES[type];
      if (!info || info.kind === 'managed') throw badRequest('unsupported import key type');
      const k = this.newKey(name, type, body);
      if (k.derived && !b64(body, 'context')) throw badRequest('context is required when derived is true');
      k.imported = true;
      k.allowRotation = bool(body, 'allow_rotation');
      const material = await this.importMaterial(type, body);
      if (info.kind === 'hmac') k.keySize = material.key!.length;
      const now = this.ctx.clock.now();
      k.versions.set(1, { version: 1, createdAt: now, hmacKey: randomBytes(32), ...material });
      k.latestVersion = 1;
      k.lastRotatedAt = now;
      this.keys.set(name, k);
      return { data: this.view(k) };
    });
  }

  private async importVersion(name: string, body: Body): Promise<EngineResponse> {
    return this.locked(name, async () => {
      const k = await this.key(name);
      this.rules.checkImportVersionImported(k);
      this.rules.checkImportVersionNotRotated(k);
      const material = this.rules.importedVersionMaterial(await this.importMaterial(k.type, body), k);
      const requested = int(body, 'version', 0);
      const now = this.ctx.clock.now();
      const latest = k.versions.get(k.latestVersion);
      let target = requested;
      if (!target && material.privateKey && latest && !latest.privateKey) target = k.latestVersion;
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
      return { data: this.view(k) };
    });
  }

  // ------------------------------------------------------------------ export, backup, certificates

  private versionsFor(k: NamedKey, version: string | undefined): KeyVersion[] {
    const all = [...k.versions.values()].sort((x, y) => x.version - y.version);
    if (version === undefined || version === '') return all;
    if (version === 'latest') return this.rules.latestVersions(all, k);
    if (!/^\d+$/.test(version)) throw badRequest('version must be a number or latest');
    const n = Number(version);
    const v = k.versions.get(n);
    if (!v || n < k.minAvailableVersion) throw badRequest('version does not exist or was trimmed');
    return [v];
  }

  private exportValue(k: NamedKey, v: KeyVersion, keyType: string): string | undefined {
    const info = typeInfo(k);
    switch (keyType) {
      case 'encryption-key':
        if (!info.encryption) throw badRequest('key type does not support encryption-key export');
        if (info.kind === 'rsa') return v.privateKey?.export({ format: 'pem', type: 'pkcs8' }).toString();
        return v.key!.toString('base64');
      case 'signing-key':
        if (!info.signing) throw badRequest('key type does not support signing-key export');
        if (!v.privateKey) return undefined;
        if (info.kind === 'ed25519')
          return Buffer.concat([ed25519Seed(v.privateKey), ed25519RawPublic(v.publicKey!)]).toString('base64');
        return this.rules.signingKeyExport(k, v);
      case 'hmac-key':
        return (k.type === 'hmac' ? v.key! : v.hmacKey).toString('base64');
      case 'public-key':
        if (!v.publicKey) throw badRequest('key type has no public key');
        return publicKeyString(k.type, v.publicKey);
      case 'certificate-chain':
        return v.certificateChain;
      case 'cmac-key':
        if (info.kind !== 'cmac') throw badRequest('key type does not support cmac-key export');
        return v.key!.toString('base64');
      default:
        throw badRequest('invalid export key type');
    }
  }

  private async exportKey(keyType: string, name: string, version: string | undefined): Promise<EngineResponse> {
    if (!['encryption-key', 'signing-key', 'hmac-key', 'public-key', 'certificate-chain', 'cmac-key'].includes(keyType))
      throw badRequest('invalid export key type');
    const k = await this.key(name);
    const publicOnly = keyType === 'public-key' || keyType === 'certificate-chain';
    if (!publicOnly) this.rules.checkExportable(k);
    const keys: Record<string, string> = {};
    for (const v of this.versionsFor(k, version)) {
      const value = this.exportValue(k, v, keyType);
      if (value !== undefined) keys[String(v.version)] = value;
    }
    if (keyType === 'certificate-chain' && Object.keys(keys).length === 0)
      throw badRequest('no certificate chain is set for the requested versions');
    return { data: { name: k.name, type: k.type, keys } };
  }

  private async byokExport(destination: string, source: string, version: string | undefined): Promise<EngineResponse> {
    const dest = await this.key(destination);
    if (typeInfo(dest).kind !== 'rsa') throw badRequest('destination must be an RSA key');
    const destPublic = dest.versions.get(dest.latestVersion)?.publicKey;
    if (!destPublic) throw badRequest('destination key has no public key');
    const k = await this.key(source);
    this.rules.checkExportable(k);
    const keys: Record<string, string> = {};
    for (const v of this.versionsFor(k, version)) {
      const material = v.key ?? v.privateKey?.export({ format: 'der', type: 'pkcs8' });
      if (!material) continue;
      keys[String(v.version)] = wrap(this.rules.byokMaterial(material), destPublic, 'sha256').toString('base64');
    }
    return { data: { name: k.name, type: k.type, keys } };
  }

  private async backup(name: string): Promise<EngineResponse> {
    const k = await this.key(name);
    this.rules.checkBackupExportable(k);
    this.rules.checkBackupPlaintext(k);
    return { data: { backup: serialize(this.rules.backupCopy(k)) } };
  }

  private async restore(nameArg: string | undefined, body: Body): Promise<EngineResponse> {
    const backup = str(body, 'backup');
    if (!backup) throw badRequest('missing backup');
    let k: NamedKey;
    try {
      k = deserialize(backup);
    } catch {
      throw badRequest('backup is not a valid backup of this engine');
    }
    const name = nameArg || str(body, 'name') || k.name;
    const force = bool(body, 'force');
    return this.locked(name, async () => {
      this.rules.checkRestoreTarget(name, this.keys.has(name), force);
      k.name = name;
      this.keys.set(name, k);
      return {};
    });
  }

  private async csr(name: string, body: Body): Promise<EngineResponse> {
    const k = await this.key(name);
    const info = typeInfo(k);
    if (!info.signing) throw badRequest('key type does not support CSR creation');
    const v = this.certVersion(k, str(body, 'version'));
    if (!v.privateKey || !v.publicKey) throw badRequest('key version has no private key');
    const template = this.rules.csrTemplate(body);
    const pair = await this.rules.csrKeyPair(k, v);
    const pem = await createCsr(info.kind, info.namedCurve, pair.privateKey!, pair.publicKey!, template);
    return { data: { name: k.name, version: String(v.version), csr: pem } };
  }

  private certVersion(k: NamedKey, version: string): KeyVersion {
    if (version === '' || version === 'latest') return k.versions.get(k.latestVersion)!;
    if (!/^\d+$/.test(version)) throw badRequest('version must be a number or latest');
    const v = k.versions.get(Number(version));
    if (!v) throw badRequest('version does not exist');
    return v;
  }

  private async setCertificate(name: string, body: Body): Promise<EngineResponse> {
    return this.locked(name, async () => {
      const k = await this.key(name);
      if (!typeInfo(k).signing) throw badRequest('key type does not support certificates');
      const chain = str(body, 'certificate_chain');
      if (!chain) throw badRequest('certificate_chain is required');
      const v = this.certVersion(k, str(body, 'version'));
      if (!v.publicKey) throw badRequest('key version has no public key');
      const stored = await checkChain(chain, v.publicKey);
      this.rules.storeChain(v, stored);
      return {};
    });
  }

  // ------------------------------------------------------------------ data operations

  private partialCode(body: Body): number | undefined {
    if (body.partial_failure_response_code === undefined || body.partial_failure_response_code === null)
      return undefined;
    const code = int(body, 'partial_failure_response_code');
    if (code < 200 || code > 599) throw badRequest('partial_failure_response_code must be an HTTP status code');
    return code;
  }

  private async encrypt(name: string, req: EngineRequest): Promise<EngineResponse> {
    const body = req.body;
    const items = batchInput(body);
    const partial = this.partialCode(body);
    const keyVersion = int(body, 'key_version', 0);
    if (!items && body.plaintext === undefined) throw badRequest('missing plaintext to encrypt');
    let k = this.keys.get(name);
    if (!k) {
      // Upsert: only a create operation (existence check said missing, caller holds create) may create.
      const allowed = this.rules.upsertAllowed({ create: req.operation === 'create', disabled: this.disableUpsert });
      if (!allowed) throw badRequest(`encryption key ${JSON.stringify(name)} not found and upsert is not permitted`);
      const first = items?.[0] as Body | undefined;
      const hasContext = !!(
        b64(body, 'context') ?? (first && typeof first === 'object' ? b64(first, 'context') : undefined)
      );
      const upsertBody: Body = {
        type: this.rules.upsertType(body),
        derived: this.rules.upsertDerived(hasContext),
        convergent_encryption: body.convergent_encryption,
      };
      await this.create(name, upsertBody);
      k = this.keys.get(name)!;
    }
    await this.autoRotate(k);
    const key = k;
    if (!typeInfo(key).encryption) throw badRequest(`key type ${key.type} does not support encryption`);
    const one = (item: Body, ad: Buffer | undefined) => {
      const plaintext = b64(item, 'plaintext');
      if (plaintext === undefined && item.plaintext !== '') throw badRequest('missing plaintext to encrypt');
      const v = encryptionVersion(this.op, key, int(item, 'key_version', keyVersion));
      return {
        ciphertext: encryptRaw(this.op, key, v, plaintext ?? Buffer.alloc(0), item, ad),
        key_version: v.version,
      };
    };
    const batch = this.rules.encryptBatch(items);
    if (batch) return runBatch(batch, this.rules, partial, (item) => one(item, b64(item, 'associated_data')));
    return { data: one(body, b64(body, 'associated_data')) };
  }

  private async decrypt(name: string, body: Body): Promise<EngineResponse> {
    const items = batchInput(body);
    const partial = this.partialCode(body);
    if (!items && body.ciphertext === undefined) throw badRequest('missing ciphertext to decrypt');
    const k = await this.key(name);
    const one = (item: Body) => {
      const pt = decryptRaw(this.op, k, item.ciphertext, item, b64(item, 'associated_data'));
      return { plaintext: pt.toString(this.rules.plaintextEncoding) };
    };
    if (items) return runBatch(items, this.rules, partial, one);
    return { data: one(body) };
  }

  private async rewrap(name: string, body: Body): Promise<EngineResponse> {
    const items = batchInput(body);
    const partial = this.partialCode(body);
    if (!items && body.ciphertext === undefined) throw badRequest('missing ciphertext to rewrap');
    const k = await this.key(name);
    const keyVersion = int(body, 'key_version', 0);
    const one = (item: Body) => {
      const pt = decryptRaw(this.op, k, item.ciphertext, item, undefined);
      const previous = parseVersioned(this.op, item.ciphertext, 'ciphertext').version;
      const v = encryptionVersion(this.op, k, this.rules.rewrapVersion({ item, keyVersion, previous }));
      return { ciphertext: encryptRaw(this.op, k, v, pt, item, undefined), key_version: v.version };
    };
    if (items) return runBatch(items, this.rules, partial, one, false);
    return { data: one(body) };
  }

  private async datakey(kind: string, name: string, body: Body): Promise<EngineResponse> {
    if (kind !== 'plaintext' && kind !== 'wrapped') throw badRequest('datakey type must be plaintext or wrapped');
    const bits = int(body, 'bits', 256);
    this.rules.checkDatakeyBits(bits);
    if (bits <= 0 || bits % 8 !== 0 || bits > 4096) throw badRequest('invalid bits');
    const k = await this.key(name);
    if (!typeInfo(k).encryption) throw badRequest(`key type ${k.type} does not support encryption`);
    const raw = randomBytes(bits / 8);
    const v = encryptionVersion(this.op, k, int(body, 'key_version', 0));
    const ciphertext = encryptRaw(this.op, k, v, raw, body, undefined);
    const data: Record<string, unknown> = { ciphertext, key_version: v.version };
    if (this.rules.datakeyShowsPlaintext(kind)) data.plaintext = raw.toString('base64');
    return { data };
  }

  private random(urlParts: string[], body: Body): EngineResponse {
    let source = str(body, 'source') || 'platform';
    let bytes = int(body, 'bytes', 32);
    for (const part of urlParts) {
      if (/^\d+$/.test(part)) bytes = Number(part);
      else source = part;
    }
    if (!['platform', 'seal', 'all'].includes(source)) throw badRequest('source must be platform, seal or all');
    this.rules.checkRandomSource(source);
    if (bytes < 1 || bytes > 128 * 1024) throw badRequest('bytes must be between 1 and 131072');
    const format = str(body, 'format') || 'base64';
    if (format !== 'hex' && format !== 'base64') throw badRequest('format must be hex or base64');
    const out = randomBytes(this.rules.randomLength(bytes));
    const useHex = this.rules.randomUsesHex(format);
    return { data: { random_bytes: useHex ? this.rules.randomHex(out.toString('hex')) : out.toString('base64') } };
  }

  private hash(urlAlg: string | undefined, body: Body): EngineResponse {
    const input = b64(body, 'input');
    if (input === undefined && body.input !== '') throw badRequest('missing input to hash');
    const alg = this.rules.hashUrlAlgorithm(urlAlg) ?? (str(body, 'algorithm') || this.rules.hashDefaultAlgorithm);
    const format = this.rules.hashFormat(body);
    if (format !== 'hex' && format !== 'base64') throw badRequest('format must be hex or base64');
    const sum = createHash(hashName(alg))
      .update(input ?? Buffer.alloc(0))
      .digest();
    return { data: { sum: sum.toString(format) } };
  }

  private async hmac(name: string, urlAlg: string | undefined, body: Body): Promise<EngineResponse> {
    const items = batchInput(body);
    if (!items && body.input === undefined) throw badRequest('missing input for HMAC');
    const k = await this.key(name);
    const alg = urlAlg ?? (str(body, 'algorithm') || str(body, 'hash_algorithm') || 'sha2-256');
    hashName(alg);
    const keyVersion = int(body, 'key_version', 0);
    if (items)
      return runBatch(
        items,
        this.rules,
        this.partialCode(body),
        (item) => hmacItem(this.op, k, item, alg, keyVersion),
        false,
      );
    return { data: hmacItem(this.op, k, body, alg, keyVersion) };
  }

  private async sign(name: string, urlAlg: string | undefined, body: Body): Promise<EngineResponse> {
    const items = batchInput(body);
    if (!items && body.input === undefined) throw badRequest('missing input to sign');
    const k = await this.key(name);
    const opts = signOptions(this.op, body, urlAlg);
    const keyVersion = int(body, 'key_version', 0);
    if (items)
      return runBatch(
        items,
        this.rules,
        this.partialCode(body),
        (item) => signItem(this.op, k, item, opts, keyVersion, true),
        false,
      );
    return { data: signItem(this.op, k, body, opts, keyVersion, false) };
  }

  private async verify(name: string, urlAlg: string | undefined, body: Body): Promise<EngineResponse> {
    const items = batchInput(body);
    const k = await this.key(name);
    const opts = signOptions(this.op, body, urlAlg);
    if (items) {
      const objects = items.filter((i): i is Body => i !== null && typeof i === 'object');
      const withSig = objects.some((i) => i.signature !== undefined && i.signature !== '');
      const withHmac = objects.some((i) => i.hmac !== undefined && i.hmac !== '');
      this.rules.checkVerifyBatchModes(withSig, withHmac);
      return runBatch(
        items,
        this.rules,
        this.partialCode(body),
        (item) => {
          const mode = item.hmac !== undefined && item.hmac !== '' ? 'hmac' : 'signature';
          if (mode === 'signature' && (item.signature === undefined || item.signature === ''))
            throw badRequest('signature or hmac is required');
          return verifyItem(this.op, k, item, opts, mode);
        },
        false,
      );
    }
    const hasSig = body.signature !== undefined && body.signature !== '';
    const hasHmac = body.hmac !== undefined && body.hmac !== '';
    if (hasSig === hasHmac) throw badRequest('exactly one of signature or hmac is required');
    if (body.input === undefined) throw badRequest('missing input to verify');
    return { data: verifyItem(this.op, k, body, opts, hasHmac ? 'hmac' : 'signature') };
  }

  private async cmac(name: string, urlLength: string | undefined, body: Body): Promise<EngineResponse> {
    const items = batchInput(body);
    if (!items && body.input === undefined) throw badRequest('missing input for CMAC');
    const k = await this.key(name);
    let length = int(body, 'mac_length', 0);
    const url = this.rules.cmacUrlLength(urlLength);
    if (url !== undefined) {
      if (!/^\d+$/.test(url)) throw badRequest('url_mac_length must be an integer');
      length = Number(url);
      if (length === 0) throw badRequest('url_mac_length must be at least 1');
    }
    const keyVersion = int(body, 'key_version', 0);
    if (items)
      return runBatch(
        items,
        this.rules,
        this.partialCode(body),
        (item) => cmacItem(this.op, k, item, length, keyVersion),
        false,
      );
    return { data: cmacItem(this.op, k, body, length, keyVersion) };
  }

  help(path: string): string {
    return `## transit: ${path || '/'}\n\nThe encryption engine: named keys, encrypt/decrypt/rewrap, datakeys, random, hash, HMAC, sign/verify, CMAC, export, backup and restore, BYOK import.`;
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

export const factory: EngineFactory = (ctx) => new TransitEngine(ctx);
