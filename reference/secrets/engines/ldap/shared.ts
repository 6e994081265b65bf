/** What every part of the engine shares: the config, directory sessions, password generation. */
import { randomInt } from 'node:crypto';
import type { EngineContext } from '../../engine.js';
import { badRequest, SvcError } from '../../errors.js';
import { defaultPassword } from '../../password-policies.js';
import type { DirectoryConfig } from './config.js';
import { type After, DirectoryError, withSession, type Session } from './directory.js';
import type { LdapRules, PasswordUse } from './rules.js';
import { ldapRulesFor } from './switches/index.js';

export class Shared {
  config: DirectoryConfig | undefined;

  /** The documents' rules, with the replacements of the switches that are on (switches.ts; the answer rewrites: answer-switches.ts). */
  readonly rules: LdapRules;

  constructor(readonly ctx: EngineContext) {
    this.rules = ldapRulesFor(ctx.faults, ctx.variants);
  }

  requireConfig(): DirectoryConfig {
    if (!this.config) throw badRequest('the directory engine is not configured: write ldap config first');
    return this.config;
  }

  userAttr(): string {
    const cfg = this.requireConfig();
    return this.rules.configuredUserAttr(cfg.userattr) || this.rules.defaultUserAttr(cfg.schema);
  }

  /** Where accounts are searched: under userdn. */
  searchBase(): string {
    return this.rules.searchBase(this.requireConfig().userdn);
  }

  /** Timers of the directory's timeouts, on the service's clock. */
  private readonly after: After = (seconds, fn) => this.ctx.clock.at(this.ctx.clock.now() + seconds * 1000, fn);

  /** Runs `fn` on a bound session; directory failures become 500 with a credential-free message. */
  async withDirectory<T>(fn: (s: Session) => Promise<T>): Promise<T> {
    const cfg = this.requireConfig();
    const session = this.rules.session(cfg);
    const settings = { ...session, urls: this.rules.urlsToTry(session.urls) };
    const scope = { searchBase: this.searchBase(), schema: cfg.schema };
    try {
      return await withSession(settings, cfg.bindpass, scope, this.after, fn);
    } catch (err) {
      if (err instanceof SvcError) throw err;
      if (err instanceof DirectoryError) throw new SvcError(500, [`directory: ${err.message}`]);
      throw new SvcError(500, [`directory: ${err instanceof Error ? err.constructor.name : 'error'}`]);
    }
  }

  /** Password generation rules 2-4 of the configuration section. */
  generatePassword(use: PasswordUse): string {
    const cfg = this.requireConfig();
    if (cfg.passwordPolicy && this.rules.usesPasswordPolicy(cfg, use)) {
      try {
        return this.ctx.passwordPolicies.generate(cfg.passwordPolicy);
      } catch (err) {
        if (!this.rules.missingPolicyFallsBack)
          throw badRequest(`cannot generate a password: ${(err as Error).message}`);
      }
    }
    const length = this.rules.passwordLength(cfg.length, use);
    const alphabet = this.rules.passwordAlphabet(cfg.length !== undefined);
    if (!alphabet) return defaultPassword(length);
    return Array.from({ length }, () => alphabet[randomInt(alphabet.length)]).join('');
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
