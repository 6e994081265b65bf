/** What every part of the engine shares: the config, directory sessions, password generation. */
import type { FaultName, VariantName } from '../../../switch-names.js';
import type { EngineContext } from '../../engine.js';
import { badRequest, SvcError } from '../../errors.js';
import { defaultPassword } from '../../password-policies.js';
import { DEFAULT_LENGTH, userAttr, type DirectoryConfig } from './config.js';
import { DirectoryError, withSession, type Session } from './directory.js';

export class Shared {
  config: DirectoryConfig | undefined;

  constructor(readonly ctx: EngineContext) {}

  fault(name: FaultName): boolean {
    return this.ctx.faults.has(name);
  }

  /** A legal variant of this engine (variants.ts), by its full name (`ldap.<what>`). */
  variant(name: VariantName): boolean {
    return this.ctx.variants.has(name);
  }

  requireConfig(): DirectoryConfig {
    if (!this.config) throw badRequest('the directory engine is not configured: write ldap config first');
    return this.config;
  }

  userAttr(): string {
    return userAttr(this.requireConfig(), this.fault('ldap.config-userattr-default-uid'));
  }

  /** Runs `fn` on a bound session; directory failures become 500 with a credential-free message. */
  async withDirectory<T>(fn: (s: Session) => Promise<T>): Promise<T> {
    const cfg = this.requireConfig();
    try {
      return await withSession(cfg, { noFailover: this.fault('ldap.url-no-failover') }, fn);
    } catch (err) {
      if (err instanceof SvcError) throw err;
      if (err instanceof DirectoryError) throw new SvcError(500, [`directory: ${err.message}`]);
      throw new SvcError(500, [`directory: ${err instanceof Error ? err.constructor.name : 'error'}`]);
    }
  }

  /** Password generation rules 2-4 of the configuration section. */
  generatePassword(): string {
    const cfg = this.requireConfig();
    if (cfg.passwordPolicy && !this.fault('ldap.policy-ignored')) {
      try {
        return this.ctx.passwordPolicies.generate(cfg.passwordPolicy);
      } catch (err) {
        throw badRequest(`cannot generate a password: ${(err as Error).message}`);
      }
    }
    const fallback = this.fault('ldap.default-length-32') ? 32 : DEFAULT_LENGTH;
    const length = cfg.length !== undefined && !this.fault('ldap.length-ignored') ? cfg.length : fallback;
    return defaultPassword(length);
  }

  now(): number {
    return this.ctx.clock.now();
  }
}

export function stringField(body: Record<string, unknown>, key: string): string | undefined {
  const v = body[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') throw badRequest(`${key} must be a string`);
  return v;
}

export function boolField(body: Record<string, unknown>, key: string): boolean | undefined {
  const v = body[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v === 'boolean') return v;
  if (v === 'true' || v === 'false') return v === 'true';
  throw badRequest(`${key} must be a boolean`);
}
