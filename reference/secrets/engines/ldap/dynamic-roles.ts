/** Dynamic roles: accounts created from LDIF templates for the life of a lease. */
import type { LeaseSpec, TokenInfo } from '../../engine.js';
import { badRequest, notFound, SvcError } from '../../errors.js';
import { LdifError, parseLdif, type LdifRecord } from './ldif.js';
import { listLevel } from './names.js';
import { runLdif } from './directory.js';
import { stringField, type Shared } from './shared.js';
import { parseTemplate, render, TemplateError } from './template.js';
import { templateFunctions } from './template-functions.js';

interface DynamicRole {
  creation_ldif: string;
  deletion_ldif: string;
  rollback_ldif?: string;
  username_template?: string;
  default_ttl?: number;
  max_ttl?: number;
}

const LDIF_KEYS = ['creation_ldif', 'deletion_ldif', 'rollback_ldif'] as const;

export class DynamicRoles {
  private readonly roles = new Map<string, DynamicRole>();

  constructor(private readonly s: Shared) {}

  has(name: string): boolean {
    return this.roles.has(name);
  }

  list(prefix: string): { keys: string[] } {
    return { keys: listLevel(this.roles.keys(), prefix) };
  }

  read(name: string): Record<string, unknown> {
    const r = this.roles.get(name);
    if (!r) throw notFound(`role "${name}" not found`);
    return {
      creation_ldif: r.creation_ldif,
      deletion_ldif: r.deletion_ldif,
      rollback_ldif: r.rollback_ldif ?? '',
      username_template: r.username_template ?? '',
      default_ttl: r.default_ttl ?? 0,
      max_ttl: r.max_ttl ?? 0,
    };
  }

  delete(name: string): void {
    if (this.s.rules.dynamicDeleteRemoves) this.roles.delete(name);
  }

  private ldifFns(now = () => this.s.now()) {
    const { utf16leIn, truncate, truncateSha256Of } = this.s.rules;
    return this.s.rules.templateFunctions(
      templateFunctions({ now, ldif: utf16leIn('ldif'), truncate, truncateSha256Of }),
      'ldif',
    );
  }

  private usernameFns(now = () => this.s.now()) {
    const { utf16leIn, truncate, truncateSha256Of } = this.s.rules;
    return this.s.rules.templateFunctions(
      templateFunctions({ now, ldif: utf16leIn('username'), truncate, truncateSha256Of }),
      'username',
    );
  }

  write(name: string, body: Record<string, unknown>): void {
    const existing = this.roles.get(name);
    const rules = this.s.rules;
    const role = {} as DynamicRole;
    if (existing && rules.partialUpdate)
      for (const [key, value] of Object.entries(existing))
        if (rules.partialUpdateKeeps(key)) (role as unknown as Record<string, unknown>)[key] = value;
    for (const key of [...LDIF_KEYS, 'username_template'] as const) {
      const v = stringField(body, key);
      if (v === undefined) continue;
      if (v === '') {
        if (rules.emptyStringDeletes && rules.emptyStringDeletesKey(key)) delete role[key];
        continue;
      }
      role[key] = key !== 'username_template' ? rules.decodeLdif(v, key) : v;
    }
    for (const key of ['default_ttl', 'max_ttl'] as const) {
      const v = body[key];
      if (v === undefined || v === null) continue;
      if (v === '') {
        if (rules.emptyStringDeletes && rules.emptyStringDeletesKey(key)) delete role[key];
        continue;
      }
      try {
        role[key] = rules.dynamicTtl(key, v);
      } catch {
        throw badRequest(`${key} must be a duration`);
      }
    }
    for (const key of rules.dynamicRequired) if (!role[key]) throw badRequest(`${key} is required`);
    if (role.default_ttl && role.max_ttl && role.default_ttl > role.max_ttl)
      throw badRequest('default_ttl cannot be greater than max_ttl');
    if (rules.maxTtlAboveSystemRefused && role.max_ttl && role.max_ttl > this.s.ctx.settings.maxLeaseTtl)
      throw badRequest('max_ttl cannot be greater than the system maximum lease TTL');
    for (const key of LDIF_KEYS) {
      const t = role[key];
      if (!t) continue;
      try {
        parseTemplate(rules.templateSource(t, 'ldif'), this.ldifFns());
      } catch (err) {
        throw badRequest(`${key}: invalid template: ${(err as Error).message}`);
      }
    }
    if (role.username_template) {
      try {
        parseTemplate(rules.templateSource(role.username_template, 'username'), this.usernameFns());
      } catch (err) {
        throw badRequest(`username_template: invalid template: ${(err as Error).message}`);
      }
    }
    this.roles.set(name, role);
  }

  private renderLdif(template: string | undefined, data: Record<string, unknown>, issuedAt: number): LdifRecord[] {
    if (!template) return [];
    try {
      return parseLdif(
        render(
          this.s.rules.templateSource(template, 'ldif'),
          data,
          this.ldifFns(() => issuedAt),
          { pipedValueLast: this.s.rules.pipedValueLast },
        ),
      );
    } catch (err) {
      if (err instanceof TemplateError || err instanceof LdifError) throw badRequest(`invalid LDIF: ${err.message}`);
      throw err;
    }
  }

  async creds(name: string, token: TokenInfo): Promise<{ data: Record<string, unknown>; lease: LeaseSpec }> {
    const role = this.roles.get(name);
    if (!role) throw badRequest(`role "${name}" not found`);
    const settings = this.s.ctx.settings;
    const systemMax = settings.maxLeaseTtl;
    const rules = this.s.rules;
    const maxTtl = rules.dynamicMaxTtl(role.max_ttl, systemMax);
    const wantTtl = rules.dynamicDefaultTtl(role.default_ttl, settings.defaultLeaseTtl);
    const ttl = Math.min(wantTtl, maxTtl);
    const issuedAt = this.s.now();

    const usernameTemplate = rules.usernameTemplate(
      role.username_template && rules.templateSource(role.username_template, 'username'),
      rules.defaultUsernameTemplate,
    );
    let username: string;
    try {
      username = render(
        usernameTemplate,
        { RoleName: rules.usernameRoleName(name), DisplayName: rules.displayName(token.displayName, 'username') },
        this.usernameFns(() => issuedAt),
        { pipedValueLast: rules.pipedValueLast },
      );
    } catch (err) {
      throw badRequest(`username_template: ${(err as Error).message}`);
    }
    const password = this.s.generatePassword('dynamic');
    const expiresAt = issuedAt + ttl * 1000;
    const data = {
      Username: rules.ldifUsername(username),
      Password: rules.ldifPassword(password),
      RoleName: rules.ldifRoleName(name),
      DisplayName: rules.displayName(token.displayName, 'ldif'),
      ...rules.templateTimes(issuedAt, expiresAt),
    };
    const creation = rules.ldifOrder(this.renderLdif(role.creation_ldif, data, issuedAt), 'creation_ldif');
    const deletion = rules.ldifOrder(this.renderLdif(role.deletion_ldif, data, issuedAt), 'deletion_ldif');
    const rollback = rules.ldifOrder(this.renderLdif(role.rollback_ldif, data, issuedAt), 'rollback_ldif');

    const applied = await this.s.withDirectory(async (session) => {
      const created = await runLdif(session, creation, rules.creationStopsAtError);
      if (!created.errors.length) return created.applied;
      if (rollback.length && rules.rollbackRuns) {
        await runLdif(session, rollback, rules.rollbackStopsAtError);
      }
      throw new SvcError(500, [
        `creation LDIF failed (${created.errors[0]}); rollback ${rollback.length ? 'ran' : 'not configured'}`,
      ]);
    });

    const revoke = async () => {
      if (!rules.revokeDeletes) return;
      await this.s.withDirectory((session) => runLdif(session, deletion, rules.deletionStopsAtError));
    };
    return {
      data: { distinguished_names: applied, username, password },
      lease: { ttl, maxTtl, renewable: true, revoke, renew: async (inc) => inc || ttl },
    };
  }
}
