/**
 * What every data operation's output and input share: the context of the per-item operations, the
 * versioned strings (`<prefix>:v<n>:<base64>`), hash names, and the key version an output uses or
 * an input names (within min_encryption_version and min_decryption_version).
 */
import { badRequest } from '../../errors.js';
import type { DataOp } from './data-rules.js';
import type { KeyVersion, NamedKey } from './keys.js';
import type { TransitRules } from './rules.js';
import { HASHES } from './types.js';

export interface OpContext {
  /** The output prefix (`svc` unless the settings name another). */
  prefix: string;
  /** The engine's rules (rules.ts, with this reference's switches applied). */
  rules: TransitRules;
}

/** Verify below min_decryption_version: an error, or valid false where the rules say so. */
export function tooOldToVerify(ctx: OpContext, k: NamedKey, version: number): boolean {
  return ctx.rules.tooOldVerification === 'invalid' && !ctx.rules.allowsVersion(k, version);
}

export function formatVersioned(ctx: OpContext, version: number, data: Buffer, k?: NamedKey): string {
  void k;
  return `${ctx.prefix}:v${ctx.rules.shownVersion(version)}:${data.toString('base64')}`;
}

export function parseVersioned(ctx: OpContext, value: unknown, field: string): { version: number; data: Buffer } {
  if (typeof value !== 'string' || value === '') throw badRequest(`missing ${field}`);
  const m = /^([^:]+):v(\d+):(.*)$/s.exec(value);
  if (!m || m[1] !== ctx.prefix) throw badRequest(`invalid ${field}: no prefix`);
  const version = Number(m[2]);
  if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(m[3]!)) throw badRequest(`invalid ${field}: could not decode`);
  return { version, data: Buffer.from(m[3]!, m[3]!.includes('-') || m[3]!.includes('_') ? 'base64url' : 'base64') };
}

export function hashName(alg: string): string {
  const h = HASHES[alg];
  if (!h) throw badRequest(`unsupported hash algorithm ${JSON.stringify(alg.slice(0, 32))}`);
  return h;
}

/**
 * The version `op` uses for a new output: key_version or the latest, never below
 * min_encryption_version (and for an HMAC never below min_decryption_version).
 */
export function encryptionVersion(ctx: OpContext, k: NamedKey, requested: number, op: DataOp): KeyVersion {
  if (requested < 0) throw badRequest('key_version cannot be negative');
  const ver = ctx.rules.versionFor(op, k, requested, ctx.rules.outputVersion(k, requested));
  if (ver > k.latestVersion) throw badRequest('requested version for encryption is higher than the latest key version');
  ctx.rules.checkMinEncryption(k, ver, op);
  if (op === 'hmac' && !ctx.rules.hmacVersionUsable(k, ver))
    throw badRequest('key version is below min_decryption_version: its HMAC key is not usable');
  const v = k.versions.get(ver);
  if (!v) throw badRequest('requested key version has been trimmed or does not exist');
  return v;
}

/** The version named by an input string, checked against min_decryption_version. */
export function decryptionVersion(ctx: OpContext, k: NamedKey, version: number): KeyVersion {
  if (!ctx.rules.allowsVersion(k, version))
    throw badRequest('ciphertext or signature version is disallowed by policy (too old)');
  if (version > k.latestVersion || version < 1) throw badRequest('invalid key version');
  const v = k.versions.get(version);
  if (!v) throw badRequest('key version has been trimmed or does not exist');
  return v;
}
