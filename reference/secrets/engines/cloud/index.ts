// size: the engine's one model class (configuration, rotate-root, roles, credentials), each part calling its named rules; the directory work is in credentials.ts and principals.ts
/**
 * Cloud credentials engine of the reference (default mount `cloud`). Its effects are real: it
 * logs in to the simulated cloud (`ctx.settings.cloudEndpoints`) with the configured
 * client credentials and creates applications, service principals, secrets, role assignments and
 * group memberships there, and removes them when leases end. The rules it follows are named in
 * rules.ts; the switches (switches.ts) replace some of them, so this file never asks which is on.
 */
import { randomUUID } from 'node:crypto';
import type { Engine, EngineContext, EngineFactory, EngineRequest, EngineResponse } from '../../engine.js';
import { SvcError, badRequest, methodNotAllowed, unsupportedPath } from '../../errors.js';
import { DirectoryCallError, DirectoryClient, odata, orMissing, remote } from './directory-client.js';
import { parseGroupItems, type GroupItem, type RoleItem } from './roles.js';
import {
  CONFIG_FIELDS,
  ENV_OF,
  type CloudRules,
  type EffectiveConfig,
  type RoleEntry,
  type StoredConfig,
} from './rules.js';
import { type CredentialsState, issueCredentials } from './credentials.js';
import { persistApp, removePrincipal, resolveGroups, resolveRoles } from './principals.js';
import { cloudRulesWith } from './switches/index.js';

/** How long the old root secret stays in use after rotate-root when the swap is deferred. */
const DEFERRED_SWAP_MS = 1500;
/** How long rotate-root waits for the directory to accept its new secret before dropping the old ones. */
const PROOF_MS = 10_000;

class CloudEngine implements Engine {
  private config: StoredConfig | undefined;
  private readonly roles = new Map<string, RoleEntry>();
  /** The pending swap of a deferred root secret swap. */
  private swapTimer: NodeJS.Timeout | undefined;
  /** When rotate-root last generated a secret (the engine's clock), for its propagation. */
  private rotatedAt: number | undefined;
  /** The role written last (a new role must not take anything from it). */
  private lastWritten: string | undefined;
  /** The configuration before the last write or delete, and when that was (the engine's clock). */
  private configChange: { previous: StoredConfig | undefined; at: number } = { previous: undefined, at: -Infinity };
  /** The login the engine keeps after its configuration was deleted (none: rules.credentialsAfterDelete). */
  private retainedLogin: StoredConfig | undefined;
  /** The role names before the last role write or delete, and when that was. */
  private namesChange: { previous: string[]; at: number } = { previous: [], at: -Infinity };
  /** Each role as it was before its last write, and when that was. */
  private readonly roleChanges = new Map<string, { previous: RoleEntry | undefined; at: number }>();
  /** What credentials remember across leases (the secrets added to applications, each role's latest principal). */
  private readonly credentialsState: CredentialsState = { addedSecrets: new Map(), latestPrincipal: new Map() };

  constructor(
    private readonly ctx: EngineContext,
    private readonly rules: CloudRules,
  ) {}

  async close(): Promise<void> {
    if (this.swapTimer) clearTimeout(this.swapTimer);
  }

  async exists(path: string): Promise<boolean> {
    if (path === 'config') return this.config !== undefined;
    const m = /^roles\/(.+)$/.exec(path);
    if (m) return this.roles.has(m[1]!);
    return true;
  }

  async handle(req: EngineRequest): Promise<EngineResponse> {
    try {
      return await this.route(req);
    } catch (err) {
      throw err instanceof SvcError ? this.rules.error(err) : err;
    }
  }

  private async route(req: EngineRequest): Promise<EngineResponse> {
    const { path, method } = req;
    const write = method === 'POST' || method === 'PUT';
    if (path === 'config') {
      if (method === 'GET') return this.readConfig();
      if (write) return this.writeConfig(req.body);
      if (method === 'DELETE') return this.deleteConfig();
      throw methodNotAllowed();
    }
    if (path === 'rotate-root') {
      if (write) return this.rotateRoot(req.body);
      throw methodNotAllowed();
    }
    if (path === 'roles') {
      if (method === 'LIST') return { data: { keys: this.rules.listRoles(this.roleNames()) } };
      throw methodNotAllowed();
    }
    let m = /^roles\/([^/]+)$/.exec(path);
    if (m) {
      const name = m[1]!;
      if (method === 'GET') return this.readRole(name);
      if (write) return this.writeRole(name, req.body);
      if (method === 'DELETE') return this.deleteRole(name);
      if (method === 'LIST') return { data: { keys: [] } };
      throw methodNotAllowed();
    }
    m = /^creds\/([^/]+)$/.exec(path);
    if (m) {
      if (method === 'GET') return this.creds(m[1]!);
      throw methodNotAllowed();
    }
    throw unsupportedPath();
  }

  help(path: string): string {
    return `## cloud credentials engine: ${path || '/'}\n\nConfigure with \`config\`, define roles under \`roles/\`, read credentials from \`creds/:name\`.`;
  }

  // --- configuration -----------------------------------------------------------------------

  /** Stored values with the CLOUD_* environment variables laid over them. */
  private effective(): EffectiveConfig {
    const stored = this.config ?? this.retainedLogin;
    const env = this.rules.environment(this.ctx.environment());
    const out = {} as EffectiveConfig;
    for (const field of CONFIG_FIELDS) out[field] = env[ENV_OF[field]] || stored?.[field] || '';
    return out;
  }

  private readConfig(): EngineResponse {
    const since = this.ctx.clock.now() - this.configChange.at;
    return { data: this.rules.configRead(this.rules.configToRead(this.config, this.configChange.previous, since)) };
  }

  private writeConfig(body: Record<string, unknown>): EngineResponse {
    const next: StoredConfig = this.config
      ? { ...this.config }
      : {
          subscription_id: '',
          tenant_id: '',
          client_id: '',
          client_secret: '',
          environment: '',
          root_password_ttl: this.rules.rootPasswordTtlDefault,
        };
    for (const field of CONFIG_FIELDS) {
      const v = body[field];
      if (v === undefined || v === null) continue;
      if (typeof v !== 'string') throw badRequest(`${field} must be a string`);
      next[field] = v;
      // A client secret written by hand is no longer one rotate-root generated.
      if (field === 'client_secret') next.rotated = false;
    }
    if (body.root_password_ttl !== undefined && body.root_password_ttl !== null && body.root_password_ttl !== '') {
      let ttl: number;
      try {
        ttl = this.rules.rootPasswordTtlOf(body.root_password_ttl);
      } catch {
        throw badRequest('root_password_ttl must be a duration (seconds or a string such as "182d")');
      }
      if (ttl <= 0) throw badRequest('root_password_ttl must be positive');
      next.root_password_ttl = ttl;
    }
    this.rules.checkIdsAtWrite(next, this.rules.environment(this.ctx.environment()));
    this.configChange = { previous: this.config, at: this.ctx.clock.now() };
    this.config = this.rules.configAfterWrite(this.config, next, body);
    this.retainedLogin = undefined;
    return this.rules.configWriteResponse(next);
  }

  private deleteConfig(): EngineResponse {
    this.configChange = { previous: this.config, at: this.ctx.clock.now() };
    this.retainedLogin = this.rules.credentialsAfterDelete(this.config);
    this.config = this.rules.configAfterDelete(this.config);
    return {};
  }

  /**
   * A client of the directory, logged in with the configuration in use. After rotate-root the
   * engine may fail to authenticate while the new secret propagates (`rules.rootPropagationMs`);
   * rotate-root's own calls (`rotating`) are not subject to that.
   */
  private async client(opts: { rotating?: boolean } = {}): Promise<DirectoryClient> {
    if (!this.config && !this.retainedLogin && !this.ctx.environment().CLOUD_CLIENT_ID)
      throw badRequest('the cloud engine is not configured (write cloud config first)');
    const c = this.effective();
    this.rules.checkIdsAtUse(c);
    const since = this.rotatedAt === undefined ? Infinity : this.ctx.clock.now() - this.rotatedAt;
    if (!opts.rotating && since < this.rules.rootPropagationMs)
      throw new SvcError(500, [
        'failed to authenticate to the cloud directory: the rotated client secret is propagating',
      ]);
    if (!this.ctx.settings.cloudEndpoints)
      throw new SvcError(500, ['no cloud directory is configured for this service']);
    const endpoints = this.rules.directoryFor(c.environment, this.ctx.settings);
    if (!endpoints)
      return remote(
        new DirectoryCallError(0, 'unreachable', `no directory of environment '${c.environment}' is reachable`),
      );
    const ca = this.ctx.settings.cloudCa;
    const tenantId = c.tenant_id || (await this.rules.tenantWhenMissing(endpoints, ca));
    if (!tenantId || !c.client_id || !c.client_secret)
      throw badRequest('tenant_id, client_id and client_secret are needed to reach the cloud directory');
    try {
      return await DirectoryClient.login({
        endpoints,
        ca,
        tenantId,
        clientId: c.client_id,
        clientSecret: c.client_secret,
      });
    } catch (err) {
      return remote(err);
    }
  }

  // --- rotate-root -------------------------------------------------------------------------

  private async rotateRoot(body: Record<string, unknown>): Promise<EngineResponse> {
    this.rules.checkRotateRootBody(body);
    if (!this.config) throw badRequest('the cloud engine is not configured');
    if (!this.rules.generatesRootSecret) return {};
    const client = await this.client({ rotating: true });
    const clientId = this.effective().client_id;
    const now = this.ctx.clock.now();
    const ttl = this.config.root_password_ttl;
    try {
      const apps = await client.graphList<{
        id: string;
        passwordCredentials: { keyId: string; displayName?: string | null }[];
      }>(`/applications?$filter=${encodeURIComponent(`appId eq ${odata(clientId)}`)}`);
      if (apps.length !== 1)
        throw badRequest(
          apps.length ? 'multiple applications found for client_id' : 'no application found for client_id',
        );
      const app = apps[0]!;
      const added = await client.graph<{ keyId: string; secretText: string }>(
        'POST',
        `/applications/${app.id}/addPassword`,
        { passwordCredential: { displayName: `svc-root-${randomUUID()}`, ...this.rules.rootSecretExpiry(now, ttl) } },
      );
      this.rotatedAt = this.ctx.clock.now();
      if (this.rules.rootSwap === 'deferred') {
        // Keep using the old secret and swap (dropping the old ones) later.
        this.scheduleSwap(app, added);
        return {};
      }
      this.config = { ...this.config, client_secret: added.secretText, rotated: true };
      // Prove the new secret before dropping the old ones, so a failed rotation never locks us out
      // (waiting while the directory propagates it).
      const fresh = await this.provenClient();
      for (const keyId of this.rules.oldRootSecrets(app.passwordCredentials, added.keyId))
        await orMissing(() => fresh.graph('POST', `/applications/${app.id}/removePassword`, { keyId }));
      return this.rules.rotateRootResponse(added.secretText);
    } catch (err) {
      return remote(err);
    }
  }

  /** A client logged in with the configured secret, retried for up to 10 s while the directory refuses it (propagation). */
  private async provenClient(): Promise<DirectoryClient> {
    const until = Date.now() + PROOF_MS;
    for (;;) {
      try {
        return await this.client({ rotating: true });
      } catch (err) {
        if (!(err instanceof SvcError && err.status === 502) || Date.now() >= until) throw err;
        await new Promise((r) => setTimeout(r, 250));
      }
    }
  }

  private scheduleSwap(
    app: { id: string; passwordCredentials: { keyId: string }[] },
    added: { keyId: string; secretText: string },
  ): void {
    if (this.swapTimer) clearTimeout(this.swapTimer);
    this.swapTimer = setTimeout(() => {
      this.swapTimer = undefined;
      if (!this.config) return;
      this.config = { ...this.config, client_secret: added.secretText, rotated: true };
      void (async () => {
        const fresh = await this.provenClient();
        for (const cred of app.passwordCredentials) {
          if (cred.keyId !== added.keyId)
            await orMissing(() => fresh.graph('POST', `/applications/${app.id}/removePassword`, { keyId: cred.keyId }));
        }
      })().catch((err) => this.ctx.log(`cloud: deferred root secret swap failed: ${(err as Error).message}`));
    }, DEFERRED_SWAP_MS);
    this.swapTimer.unref();
  }

  // --- roles -------------------------------------------------------------------------------

  private readRole(name: string): EngineResponse {
    const r = this.roles.get(name);
    if (!r) throw new SvcError(404, []);
    return {
      data: {
        cloud_roles: r.cloud_roles,
        cloud_groups: r.cloud_groups,
        application_object_id: r.application_object_id,
        persist_app: r.persist_app,
        ttl: r.ttl,
        max_ttl: r.max_ttl,
        permanently_delete: r.permanently_delete,
        sign_in_audience: r.sign_in_audience,
        tags: r.tags,
      },
    };
  }

  private async writeRole(name: string, body: Record<string, unknown>): Promise<EngineResponse> {
    if (!this.config) throw badRequest('the cloud engine is not configured (write cloud config first)');
    const prev = this.roles.get(name);
    const lastWritten = this.lastWritten === undefined ? undefined : this.roles.get(this.lastWritten);
    const role: RoleEntry = prev ? this.rules.roleToUpdate(prev, lastWritten) : this.rules.roleDefaults(lastWritten);

    const duration = (field: 'ttl' | 'max_ttl'): number | undefined => {
      const v = body[field];
      if (v === undefined || v === null) return undefined;
      try {
        return field === 'ttl' ? this.rules.ttlOf(v) : this.rules.maxTtlOf(v);
      } catch {
        throw badRequest(`${field} must be a duration (seconds or a string such as "1h")`);
      }
    };
    role.ttl = duration('ttl') ?? role.ttl;
    role.max_ttl = duration('max_ttl') ?? role.max_ttl;
    this.rules.checkTtlWithinMax(role.ttl, role.max_ttl);
    if (body.permanently_delete !== undefined)
      role.permanently_delete = this.rules.boolOf('permanently_delete', body.permanently_delete);
    if (body.persist_app !== undefined) role.persist_app = this.rules.boolOf('persist_app', body.persist_app);
    if (body.sign_in_audience !== undefined && body.sign_in_audience !== '') {
      role.sign_in_audience = this.rules.signInAudience(body.sign_in_audience);
    }
    if (body.tags !== undefined) role.tags = this.rules.tagsOf(body.tags);
    if (body.application_object_id !== undefined) {
      if (typeof body.application_object_id !== 'string') throw badRequest('application_object_id must be a string');
      role.application_object_id = body.application_object_id;
    }
    let roleItems: RoleItem[] | undefined;
    let groupItems: GroupItem[] | undefined;
    if (body.cloud_roles !== undefined) {
      roleItems = this.rules.roleItems(
        this.rules.jsonArray('cloud_roles', body.cloud_roles),
        () => this.effective().subscription_id,
      );
    }
    if (body.cloud_groups !== undefined)
      groupItems = parseGroupItems(this.rules.jsonArray('cloud_groups', body.cloud_groups));

    const userApp = role.application_object_id && role.application_object_id !== role.managed?.appObjectId;
    this.rules.checkAppObjectPermanentlyDelete(Boolean(userApp), role.permanently_delete, body);

    const client = await this.client();
    try {
      if (role.application_object_id && role.application_object_id !== role.managed?.appObjectId) {
        const app = await orMissing(() =>
          client.graph<{ appId: string }>('GET', `/applications/${encodeURIComponent(role.application_object_id)}`),
        );
        if (!app)
          this.rules.missingApplication(
            `no application found for application_object_id '${role.application_object_id}'`,
          );
        role.application_id = app?.appId ?? '';
      }
      if (roleItems)
        role.cloud_roles = await resolveRoles(this.rules, client, roleItems, this.effective().subscription_id);
      if (groupItems) role.cloud_groups = await resolveGroups(this.rules, client, groupItems);
      const usable = role.application_object_id || role.cloud_roles.length > 0 || role.cloud_groups.length > 0;
      this.rules.checkUsable(Boolean(usable));
      if (this.rules.persistApp(role) && !(role.application_object_id && !role.managed)) {
        await persistApp(this.rules, client, name, role);
      }
    } catch (err) {
      return remote(err);
    }
    const now = this.ctx.clock.now();
    this.namesChange = { previous: [...this.roles.keys()], at: now };
    this.roleChanges.set(name, { previous: prev, at: now });
    this.rules.storeRole(this.roles, name, role);
    this.lastWritten = name;
    return {};
  }

  private async deleteRole(name: string): Promise<EngineResponse> {
    const role = this.roles.get(name);
    if (role?.managed && this.rules.roleDeleteRemovesApp) {
      const client = await this.client();
      try {
        await removePrincipal(this.rules, client, role.managed, role.permanently_delete);
      } catch (err) {
        return remote(err);
      }
    }
    this.namesChange = { previous: [...this.roles.keys()], at: this.ctx.clock.now() };
    this.roleChanges.delete(name);
    this.roles.delete(name);
    return {};
  }

  // --- credentials -------------------------------------------------------------------------

  /** The role names a LIST sees (rules.rolesToList). */
  private roleNames(): string[] {
    const since = this.ctx.clock.now() - this.namesChange.at;
    return this.rules.rolesToList([...this.roles.keys()], this.namesChange.previous, since);
  }

  private async creds(name: string): Promise<EngineResponse> {
    const stored = this.roles.get(name);
    if (!stored) throw this.rules.unknownRole(name);
    const change = this.roleChanges.get(name);
    const role = change
      ? this.rules.roleForCredentials(stored, change.previous, this.ctx.clock.now() - change.at)
      : stored;
    const deps = { rules: this.rules, ctx: this.ctx, client: () => this.client(), state: this.credentialsState };
    return issueCredentials(deps, name, role);
  }
}

export const factory: EngineFactory = (ctx) => new CloudEngine(ctx, cloudRulesWith(ctx.faults, ctx.variants));
