/**
 * Cloud credentials engine of the reference (default mount `cloud`). Its effects are real: it
 * logs in to the simulated cloud directory (`ctx.settings.cloudDirectoryAddr`) with the configured
 * client credentials and creates applications, service principals, secrets, role assignments and
 * group memberships there, and removes them when leases end. The rules it follows are named in
 * rules.ts; the switches (switches.ts) replace some of them, so this file never asks which is on.
 */
import { randomUUID } from 'node:crypto';
import type { Engine, EngineContext, EngineFactory, EngineRequest, EngineResponse } from '../../engine.js';
import { SvcError, badRequest, methodNotAllowed, unsupportedPath } from '../../errors.js';
import { parseDuration } from '../../duration.js';
import { DirectoryCallError, DirectoryClient, orMissing } from './directory-client.js';
import { parseBool, parseGroupItems, parseTags, type GroupItem, type RoleItem } from './roles.js';
import {
  CONFIG_FIELDS,
  ENV_OF,
  type CloudRules,
  type EffectiveConfig,
  type Principal,
  type ResolvedGroup,
  type ResolvedRole,
  type RoleEntry,
  type StoredConfig,
} from './rules.js';
import { cloudRulesWith } from './switches.js';

/** How long the old root secret stays in use after rotate-root when the swap is deferred. */
const DEFERRED_SWAP_MS = 1500;
/** Generated principals' secrets live far longer than any lease; the lease's end removes them. */
const SP_SECRET_SECONDS = 10 * 365 * 86400;

function remote(err: unknown): never {
  if (err instanceof DirectoryCallError) throw new SvcError(502, [`cloud directory: ${err.code}: ${err.message}`]);
  throw err;
}

class CloudEngine implements Engine {
  private config: StoredConfig | undefined;
  private readonly roles = new Map<string, RoleEntry>();
  /** The pending swap of a deferred root secret swap. */
  private swapTimer: NodeJS.Timeout | undefined;

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
      if (write) return this.rotateRoot();
      throw methodNotAllowed();
    }
    if (path === 'roles') {
      if (method === 'LIST') return { data: { keys: [...this.roles.keys()].sort() } };
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
    const stored = this.config;
    const env = this.rules.environment(this.ctx.settings.env);
    const out = {} as EffectiveConfig;
    for (const field of CONFIG_FIELDS) out[field] = env[ENV_OF[field]] || stored?.[field] || '';
    return out;
  }

  private readConfig(): EngineResponse {
    return { data: this.rules.configRead(this.config) };
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
    }
    if (body.root_password_ttl !== undefined && body.root_password_ttl !== null && body.root_password_ttl !== '') {
      let ttl: number;
      try {
        ttl = parseDuration(body.root_password_ttl);
      } catch {
        throw badRequest('root_password_ttl must be a duration (seconds or a string such as "182d")');
      }
      if (ttl <= 0) throw badRequest('root_password_ttl must be positive');
      next.root_password_ttl = ttl;
    }
    this.rules.checkIdsAtWrite(next, this.rules.environment(this.ctx.settings.env));
    this.config = next;
    return this.rules.configWriteResponse(next);
  }

  private deleteConfig(): EngineResponse {
    this.config = this.rules.configAfterDelete(this.config);
    return {};
  }

  private async client(): Promise<DirectoryClient> {
    const addr = this.ctx.settings.cloudDirectoryAddr;
    if (!addr) throw new SvcError(500, ['no cloud directory is configured for this service']);
    if (!this.config && !this.ctx.settings.env.CLOUD_CLIENT_ID)
      throw badRequest('the cloud engine is not configured (write cloud config first)');
    const c = this.effective();
    this.rules.checkIdsAtUse(c);
    if (!c.tenant_id || !c.client_id || !c.client_secret)
      throw badRequest('tenant_id, client_id and client_secret are needed to reach the cloud directory');
    try {
      return await DirectoryClient.login({
        addr,
        tenantId: c.tenant_id,
        clientId: c.client_id,
        clientSecret: c.client_secret,
      });
    } catch (err) {
      return remote(err);
    }
  }

  // --- rotate-root -------------------------------------------------------------------------

  private async rotateRoot(): Promise<EngineResponse> {
    if (!this.config) throw badRequest('the cloud engine is not configured');
    const client = await this.client();
    const clientId = this.effective().client_id;
    const now = this.ctx.clock.now();
    const ttl = this.config.root_password_ttl || this.rules.rootPasswordTtlDefault;
    try {
      const apps = await client.list<{ id: string; passwordCredentials: { keyId: string }[] }>(
        `/applications?appId=${encodeURIComponent(clientId)}`,
      );
      if (apps.length !== 1)
        throw badRequest(
          apps.length ? 'multiple applications found for client_id' : 'no application found for client_id',
        );
      const app = apps[0]!;
      const added = await client.request<{ keyId: string; secretText: string }>(
        'POST',
        `/applications/${app.id}/addPassword`,
        {
          displayName: `svc-root-${randomUUID()}`,
          ...this.rules.rootSecretExpiry(now, ttl),
        },
      );
      if (this.rules.rootSwap === 'deferred') {
        // Keep using the old secret and swap (dropping the old ones) later.
        this.scheduleSwap(app, added);
        return {};
      }
      this.config = { ...this.config, client_secret: added.secretText };
      // Prove the new secret before dropping the old ones, so a failed rotation never locks us out.
      const fresh = await this.client();
      for (const keyId of this.rules.oldRootSecrets(app.passwordCredentials, added.keyId))
        await orMissing(() => fresh.request('POST', `/applications/${app.id}/removePassword`, { keyId }));
      return this.rules.rotateRootResponse(added.secretText);
    } catch (err) {
      return remote(err);
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
      this.config = { ...this.config, client_secret: added.secretText };
      void (async () => {
        const fresh = await this.client();
        for (const cred of app.passwordCredentials) {
          if (cred.keyId !== added.keyId)
            await orMissing(() =>
              fresh.request('POST', `/applications/${app.id}/removePassword`, { keyId: cred.keyId }),
            );
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
    const role: RoleEntry = prev
      ? { ...prev, cloud_roles: [...prev.cloud_roles], cloud_groups: [...prev.cloud_groups], tags: [...prev.tags] }
      : {
          cloud_roles: [],
          cloud_groups: [],
          application_object_id: '',
          application_id: '',
          persist_app: false,
          ttl: 0,
          max_ttl: 0,
          permanently_delete: false,
          sign_in_audience: '',
          tags: [],
        };

    const duration = (field: string): number | undefined => {
      const v = body[field];
      if (v === undefined || v === null) return undefined;
      try {
        return parseDuration(v);
      } catch {
        throw badRequest(`${field} must be a duration (seconds or a string such as "1h")`);
      }
    };
    role.ttl = duration('ttl') ?? role.ttl;
    role.max_ttl = duration('max_ttl') ?? role.max_ttl;
    if (role.max_ttl > 0 && role.ttl > role.max_ttl) throw badRequest('ttl cannot be greater than max_ttl');
    if (body.permanently_delete !== undefined)
      role.permanently_delete = parseBool('permanently_delete', body.permanently_delete);
    if (body.persist_app !== undefined) role.persist_app = parseBool('persist_app', body.persist_app);
    if (body.sign_in_audience !== undefined && body.sign_in_audience !== '') {
      role.sign_in_audience = this.rules.signInAudience(body.sign_in_audience);
    }
    if (body.tags !== undefined) role.tags = parseTags(body.tags);
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
    this.rules.checkAppObjectPermanentlyDelete(Boolean(userApp), role.permanently_delete);

    const client = await this.client();
    try {
      if (role.application_object_id && role.application_object_id !== role.managed?.appObjectId) {
        const app = await orMissing(() =>
          client.request<{ appId: string }>('GET', `/applications/${encodeURIComponent(role.application_object_id)}`),
        );
        if (!app) {
          throw this.rules.missingApplication(
            `no application found for application_object_id '${role.application_object_id}'`,
          );
        }
        role.application_id = app.appId;
      }
      if (roleItems) role.cloud_roles = await this.resolveRoles(client, roleItems);
      if (groupItems) role.cloud_groups = await this.resolveGroups(client, groupItems);
      const usable = role.application_object_id || role.cloud_roles.length > 0 || role.cloud_groups.length > 0;
      this.rules.checkUsable(Boolean(usable));
      if (this.rules.persistApp(role) && !(role.application_object_id && !role.managed)) {
        await this.persistApp(client, name, role);
      }
    } catch (err) {
      return remote(err);
    }
    this.roles.set(name, role);
    return {};
  }

  private async resolveRoles(client: DirectoryClient, items: RoleItem[]): Promise<ResolvedRole[]> {
    type Def = { id: string; roleName: string };
    const out: ResolvedRole[] = [];
    const seen = new Set<string>();
    for (const item of items) {
      let def: Def | undefined;
      if (item.role_id) {
        def =
          (await client.list<Def>(`/roleDefinitions?id=${encodeURIComponent(item.role_id)}`))[0] ??
          (await orMissing(() => client.request<Def>('GET', `/roleDefinitions/${encodeURIComponent(item.role_id!)}`)));
        if (!def) this.rules.missingResource(`no role found for role_id: '${item.role_id}'`);
      } else {
        const defs = await client.list<Def>(`/roleDefinitions?roleName=${encodeURIComponent(item.role_name!)}`);
        if (defs.length > 1)
          throw badRequest(`multiple matches found for role_name: '${item.role_name}'; specify role_id instead`);
        def = defs[0];
        if (!def) this.rules.missingResource(`no role found for role_name: '${item.role_name}'`);
      }
      const resolved = def
        ? { role_name: def.roleName, role_id: def.id, scope: item.scope }
        : { role_name: item.role_name ?? '', role_id: item.role_id ?? '', scope: item.scope };
      const key = `${resolved.role_id}||${resolved.scope}`;
      if (seen.has(key)) throw badRequest(`duplicate role_id and scope: '${resolved.role_id}', '${resolved.scope}'`);
      seen.add(key);
      out.push(resolved);
    }
    return out;
  }

  private async resolveGroups(client: DirectoryClient, items: GroupItem[]): Promise<ResolvedGroup[]> {
    type G = { id: string; displayName: string };
    const out: ResolvedGroup[] = [];
    for (const item of items) {
      let g: G | undefined;
      if (item.object_id) {
        g = await orMissing(() => client.request<G>('GET', `/groups/${encodeURIComponent(item.object_id!)}`));
        if (!g) this.rules.missingResource(`no group found for object_id: '${item.object_id}'`);
      } else {
        const list = await client.list<G>(`/groups?displayName=${encodeURIComponent(item.group_name!)}`);
        if (list.length > 1)
          throw badRequest(`multiple matches found for group_name: '${item.group_name}'; specify object_id instead`);
        g = list[0];
        if (!g) this.rules.missingResource(`no group found for group_name: '${item.group_name}'`);
      }
      if (!g) continue;
      if (out.some((o) => o.object_id === g!.id)) throw badRequest(`duplicate object_id '${g.id}'`);
      out.push({ group_name: g.displayName, object_id: g.id });
    }
    return out;
  }

  private async deleteRole(name: string): Promise<EngineResponse> {
    const role = this.roles.get(name);
    if (role?.managed) {
      const client = await this.client();
      try {
        await this.removePrincipal(client, role.managed, role.permanently_delete);
      } catch (err) {
        return remote(err);
      }
    }
    this.roles.delete(name);
    return {};
  }

  // --- principals --------------------------------------------------------------------------

  /** Creates application + principal with the role's assignments and memberships; undoes partial work on failure. */
  private async createPrincipal(client: DirectoryClient, roleName: string, role: RoleEntry): Promise<Principal> {
    const app = await client.request<{ id: string; appId: string }>('POST', '/applications', {
      displayName: `svc-${roleName}-${randomUUID().slice(0, 8)}`,
      ...(role.sign_in_audience ? { signInAudience: role.sign_in_audience } : {}),
      tags: this.rules.applicationTags(role),
    });
    const principal: Principal = {
      appObjectId: app.id,
      appId: app.appId,
      spObjectId: '',
      assignmentNames: [],
      groupIds: [],
    };
    try {
      const sp = await client.request<{ id: string }>('POST', '/servicePrincipals', { appId: app.appId });
      principal.spObjectId = sp.id;
      for (const r of this.rules.assignmentsOf(role)) {
        const assignment = randomUUID();
        await client.request('PUT', `/roleAssignments/${assignment}`, {
          roleDefinitionId: r.role_id,
          principalId: sp.id,
          scope: r.scope,
        });
        principal.assignmentNames.push(assignment);
      }
      for (const g of this.rules.groupsOf(role)) {
        await client.request('POST', `/groups/${g.object_id}/members`, { id: sp.id });
        principal.groupIds.push(g.object_id);
      }
      return principal;
    } catch (err) {
      await this.removePrincipal(client, principal, true).catch(() => {});
      throw err;
    }
  }

  private async removePrincipal(client: DirectoryClient, p: Principal, permanently: boolean): Promise<void> {
    if (this.rules.revokeRemovesAssignments) {
      for (const a of p.assignmentNames) await orMissing(() => client.request('DELETE', `/roleAssignments/${a}`));
      if (p.spObjectId)
        for (const g of p.groupIds)
          await orMissing(() => client.request('DELETE', `/groups/${g}/members/${p.spObjectId}`));
    }
    if (!this.rules.revokeRemovesPrincipal) return;
    const permanent = this.rules.permanentDelete(permanently);
    if (p.spObjectId) {
      await orMissing(() => client.request('DELETE', `/servicePrincipals/${p.spObjectId}`));
      if (permanent) await orMissing(() => client.request('DELETE', `/directory/deletedItems/${p.spObjectId}`));
    }
    await client.request('DELETE', `/applications/${p.appObjectId}`);
    if (permanent) await orMissing(() => client.request('DELETE', `/directory/deletedItems/${p.appObjectId}`));
  }

  private async persistApp(client: DirectoryClient, roleName: string, role: RoleEntry): Promise<void> {
    if (role.managed) {
      // Role changed: re-apply assignments and memberships on the kept principal.
      const old = role.managed;
      for (const a of old.assignmentNames) await orMissing(() => client.request('DELETE', `/roleAssignments/${a}`));
      for (const g of old.groupIds)
        await orMissing(() => client.request('DELETE', `/groups/${g}/members/${old.spObjectId}`));
      const next: Principal = { ...old, assignmentNames: [], groupIds: [] };
      for (const r of role.cloud_roles) {
        const assignment = randomUUID();
        await client.request('PUT', `/roleAssignments/${assignment}`, {
          roleDefinitionId: r.role_id,
          principalId: old.spObjectId,
          scope: r.scope,
        });
        next.assignmentNames.push(assignment);
      }
      for (const g of role.cloud_groups) {
        await client.request('POST', `/groups/${g.object_id}/members`, { id: old.spObjectId });
        next.groupIds.push(g.object_id);
      }
      role.managed = next;
      return;
    }
    role.managed = await this.createPrincipal(client, roleName, role);
    role.application_object_id = role.managed.appObjectId;
    role.application_id = role.managed.appId;
  }

  // --- credentials -------------------------------------------------------------------------

  private leaseTimes(role: RoleEntry): { ttl: number; maxTtl: number } {
    const roleTtl = this.rules.roleTtl(role);
    const roleMaxTtl = this.rules.roleMaxTtl(role);
    const ttl = roleTtl > 0 ? roleTtl : this.ctx.settings.defaultLeaseTtl;
    const maxTtl = roleMaxTtl > 0 ? roleMaxTtl : this.ctx.settings.maxLeaseTtl;
    return { ttl: maxTtl > 0 ? Math.min(ttl, maxTtl) : ttl, maxTtl };
  }

  private async creds(name: string): Promise<EngineResponse> {
    const role = this.roles.get(name);
    if (!role) throw this.rules.unknownRole(name);
    const client = await this.client();
    const { ttl, maxTtl } = this.leaseTimes(role);
    const endDateTime = new Date(this.ctx.clock.now() + SP_SECRET_SECONDS * 1000).toISOString();
    const renew = async (increment: number) => {
      const roleTtl = this.rules.roleTtl(role);
      return roleTtl > 0 ? roleTtl : increment;
    };
    const staticApp = this.rules.staticApplication(role);
    try {
      if (staticApp) {
        const added = await client.request<{ keyId: string; secretText: string }>(
          'POST',
          `/applications/${staticApp}/addPassword`,
          { displayName: `svc-${name}-${randomUUID().slice(0, 8)}`, endDateTime },
        );
        return {
          data: {
            client_id: role.application_id,
            client_secret: this.rules.returnedSecret(added.secretText),
          },
          lease: {
            ttl,
            maxTtl,
            renewable: true,
            renew,
            revoke: async () => {
              if (!this.rules.revokeRemovesAddedSecret) return;
              const c = await this.client();
              await orMissing(() =>
                c.request('POST', `/applications/${staticApp}/removePassword`, { keyId: added.keyId }),
              );
            },
          },
        };
      }
      const principal = await this.createPrincipal(client, name, role);
      const added = await client.request<{ secretText: string }>(
        'POST',
        `/applications/${principal.appObjectId}/addPassword`,
        { displayName: 'svc-generated', endDateTime },
      );
      const permanently = role.permanently_delete;
      return {
        data: {
          client_id: principal.appId,
          client_secret: this.rules.returnedSecret(added.secretText),
        },
        lease: {
          ttl,
          maxTtl,
          renewable: true,
          renew,
          revoke: async () => this.removePrincipal(await this.client(), principal, permanently),
        },
      };
    } catch (err) {
      return remote(err);
    }
  }
}

export const factory: EngineFactory = (ctx) => new CloudEngine(ctx, cloudRulesWith(ctx.faults, ctx.variants));
