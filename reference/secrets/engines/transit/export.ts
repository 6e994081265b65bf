/**
 * Export, backup and certificates of the transit engine (transit document: Key management > Export
 * key, Secure export (byok-export), backup and restore, csr and set-certificate).
 */
import type { EngineResponse } from '../../engine.js';
import { badRequest } from '../../errors.js';
import { wrap } from './byok.js';
import { checkChain, createCsr, x509lib } from './certs.js';
import {
  deserialize,
  ed25519RawPublic,
  ed25519Seed,
  publicKeyString,
  serialize,
  typeInfo,
  type KeyVersion,
  type NamedKey,
} from './keys.js';
import type { TransitRules } from './rules.js';
import { bool, str, type Body } from './params.js';
import type { Call, Routes, Shared } from './shared.js';

/** Key material out of the engine (export, byok-export, backup), back in (restore), and certificates. */
export class KeyExport {
  private readonly rules: TransitRules;

  constructor(private readonly s: Shared) {
    this.rules = s.rules;
    // Loading the X.509 library takes seconds on a busy machine: start it now, not on the first CSR.
    x509lib().catch((err: unknown) => s.ctx.log(`transit: X.509 library not loaded: ${(err as Error).message}`));
  }

  routes(): Routes {
    return [
      ['export', (c) => (this.exportPath(c) ? this.exportKey(c.seg[1]!, c.seg[2]!, c.seg[3]) : undefined)],
      ['byok-export', (c) => (this.exportPath(c) ? this.byokExport(c.seg[1]!, c.seg[2]!, c.seg[3]) : undefined)],
      ['backup', (c) => (c.seg.length === 2 && c.req.method === 'GET' ? this.backup(c.seg[1]!) : undefined)],
      ['restore', (c) => (c.seg.length <= 2 && c.post ? this.restore(c.seg[1], c.body) : undefined)],
      ['keys/csr', (c) => (c.post ? this.csr(c.seg[1]!, c.body) : undefined)],
      ['keys/set-certificate', (c) => (c.post ? this.setCertificate(c.seg[1]!, c.body) : undefined)],
    ];
  }

  /** export/:key_type/:name(/:version) and byok-export/:destination/:source(/:version), read with GET. */
  private exportPath({ req, seg }: Call): boolean {
    return (seg.length === 3 || seg.length === 4) && req.method === 'GET';
  }

  private versionsFor(k: NamedKey, version: string | undefined, call: 'export' | 'byok'): KeyVersion[] {
    const all = [...k.versions.values()].sort((x, y) => x.version - y.version);
    if (version === undefined || version === '') return this.rules.omittedVersions(all, k, call);
    if (version === 'latest') return this.rules.latestVersions(all, k, call);
    if (!/^\d+$/.test(version)) throw badRequest('version must be a number or latest');
    const n = Number(version);
    const v = this.rules.exportVersion(k, n);
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
        return this.rules.chainExport(v.certificateChain);
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
    const k = await this.s.key(name);
    if (this.rules.exportNeedsExportable(keyType)) this.rules.checkExportable(k, keyType);
    const keys: Record<string, string> = {};
    for (const v of this.versionsFor(k, version, 'export')) {
      const value = this.rules.exportedValue(keyType, v, this.exportValue(k, v, keyType));
      if (value !== undefined) keys[String(v.version)] = value;
    }
    if (keyType === 'certificate-chain' && Object.keys(keys).length === 0)
      throw badRequest('no certificate chain is set for the requested versions');
    return { data: { name: k.name, type: k.type, keys } };
  }

  private async byokExport(destination: string, source: string, version: string | undefined): Promise<EngineResponse> {
    const destPublic = this.rules.byokDestination(await this.s.key(destination));
    const k = await this.s.key(source);
    this.rules.checkExportable(k, 'byok');
    const keys: Record<string, string> = {};
    for (const v of this.versionsFor(k, version, 'byok')) {
      const material = v.key ?? v.privateKey?.export({ format: 'der', type: 'pkcs8' });
      if (!material) continue;
      keys[String(v.version)] = wrap(this.rules.byokMaterial(material), destPublic, 'sha256').toString('base64');
    }
    return { data: { name: k.name, type: k.type, keys } };
  }

  private async backup(name: string): Promise<EngineResponse> {
    const k = await this.s.key(name);
    this.rules.checkBackupExportable(k);
    this.rules.checkBackupPlaintext(k);
    return { data: { backup: serialize(this.rules.backupCopy(k)) } };
  }

  private async restore(nameArg: string | undefined, body: Body): Promise<EngineResponse> {
    const backup = str(body, 'backup');
    if (!backup) return this.rules.restoreWithoutBackup();
    let k: NamedKey;
    try {
      k = deserialize(backup);
    } catch {
      throw badRequest('backup is not a valid backup of this engine');
    }
    const name = this.rules.restoreName(nameArg, body, k.name);
    const force = bool(body, 'force');
    return this.s.locked(name, async () => {
      this.rules.checkRestoreTarget(name, this.s.keys.has(name), force);
      k.name = name;
      this.s.keys.set(name, k);
      return {};
    });
  }

  private async csr(name: string, body: Body): Promise<EngineResponse> {
    const k = await this.s.key(name);
    const info = typeInfo(k);
    if (!info.signing) throw badRequest('key type does not support CSR creation');
    const v = this.certVersion(k, this.rules.certificateVersion(str(body, 'version'), 'csr'));
    if (!v.privateKey || !v.publicKey) throw badRequest('key version has no private key');
    const template = this.rules.csrTemplate(body);
    const pair = await this.rules.csrKeyPair(k, v);
    const pem = await createCsr(info.kind, info.namedCurve, pair.privateKey!, pair.publicKey!, template);
    return { data: { name: k.name, version: this.rules.csrAnswerVersion(v.version), csr: pem } };
  }

  private certVersion(k: NamedKey, version: string): KeyVersion {
    if (version === '' || version === 'latest') return k.versions.get(k.latestVersion)!;
    if (!/^\d+$/.test(version)) throw badRequest('version must be a number or latest');
    const v = k.versions.get(Number(version));
    if (!v) throw badRequest('version does not exist');
    return v;
  }

  private async setCertificate(name: string, body: Body): Promise<EngineResponse> {
    return this.s.locked(name, async () => {
      const k = await this.s.key(name);
      if (!typeInfo(k).signing) throw badRequest('key type does not support certificates');
      const chain = str(body, 'certificate_chain');
      const v = this.certVersion(k, this.rules.certificateVersion(str(body, 'version'), 'set-certificate'));
      if (!chain) return this.rules.missingChain(v);
      if (!v.publicKey) throw badRequest('key version has no public key');
      const stored = await checkChain(chain, v.publicKey);
      this.rules.storeChain(v, stored);
      return {};
    });
  }
}
