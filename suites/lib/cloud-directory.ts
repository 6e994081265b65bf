// size: one client of the real cloud's three APIs (tokens, Graph, resource manager), kept whole so its requests read in one place
/**
 * The cloud suite's reader of the cloud the engine manages, through the real cloud's APIs only, so
 * a vendor's run against a real tenant reads exactly what a run against the simulation reads:
 * - the token endpoint: `POST {login}/{tenant}/oauth2/v2.0/token`, form-encoded client credentials,
 *   one token per resource (`scope=<resource>/.default`);
 * - Microsoft Graph v1.0: applications, service principals, their password credentials, groups
 *   and members, app role grants, directory deleted items (`$filter=appId eq '...'`);
 * - the resource manager: role definitions, role assignments under their scope (fields under
 *   `properties`), the run's scopes (resources it creates in the named resource group), each with
 *   its `api-version`.
 * Requests go through a `Transport` (HTTPS trusting the run's CA by default), so a test can record
 * exactly what is sent (tests/harness/cloud-reader.test.ts).
 */
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { rootCertificates } from 'node:tls';

export interface CloudReaderSettings {
  loginEndpoint: string;
  graphEndpoint: string;
  managementEndpoint: string;
  graphScope: string;
  managementScope: string;
  tenantId: string;
  subscriptionId?: string;
  /** The reading application. */
  clientId: string;
  clientSecret: string;
  /** The resource group whose resources are the run's scopes. */
  resourceGroup?: string;
}

export interface HttpRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
}
export interface HttpAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}
export type Transport = (req: HttpRequest) => Promise<HttpAnswer>;

const TIMEOUT_MS = 15_000;

/** HTTPS (or HTTP) with node's client, trusting the system's CAs and `ca` (PEM) besides. */
export function httpsTransport(ca?: string): Transport {
  const trust = ca ? [...rootCertificates, ca] : undefined;
  return (r) =>
    new Promise((resolve, reject) => {
      const u = new URL(r.url);
      const send = u.protocol === 'http:' ? httpRequest : httpsRequest;
      const req = send(
        u,
        { method: r.method, headers: r.headers, timeout: TIMEOUT_MS, ...(trust ? { ca: trust } : {}) },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () =>
            resolve({
              status: res.statusCode ?? 0,
              headers: Object.fromEntries(Object.entries(res.headers).map(([k, v]) => [k, String(v)])),
              body: Buffer.concat(chunks).toString('utf8'),
            }),
          );
          res.on('error', reject);
        },
      );
      req.on('timeout', () => req.destroy(new Error(`no answer from ${u.origin} within ${TIMEOUT_MS} ms`)));
      req.on('error', reject);
      req.end(r.body);
    });
}

/** An OData string literal: the value in single quotes, a quote inside doubled. */
export const odataString = (v: string) => `'${v.replace(/'/g, "''")}'`;

/** The resource manager's API versions the reader uses (both generally available). */
export const API_VERSIONS = { authorization: '2022-04-01', resources: '2021-04-01', identities: '2023-01-31' };

/** The Graph application permissions an engine's own application needs (see createApp). */
export const ENGINE_GRAPH_PERMISSIONS = ['Application.ReadWrite.All', 'Group.Read.All', 'GroupMember.ReadWrite.All'];
const GRAPH_APP_ID = '00000003-0000-0000-c000-000000000000';

export interface PasswordCredentialView {
  keyId: string;
  endDateTime: string;
  displayName: string | null;
}
export interface App {
  id: string;
  appId: string;
  displayName: string;
  signInAudience: string;
  tags: string[];
  passwordCredentials: PasswordCredentialView[];
}
export interface Sp {
  id: string;
  appId: string;
  passwordCredentials?: PasswordCredentialView[];
}
export interface Assignment {
  id: string;
  name: string;
  scope: string;
  roleDefinitionId: string;
  principalId: string;
}
export interface RoleDef {
  id: string;
  name: string;
  roleName: string;
}
export interface GroupView {
  id: string;
  displayName: string;
}

/** A call the cloud refused: its status and its error code, never the request. */
export class CloudCallError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

type ArmAssignment = {
  id: string;
  name: string;
  properties: { scope: string; roleDefinitionId: string; principalId: string };
};

/** Two role definition ids name the same definition when their names (last segments) match. */
export const sameDefinition = (a: string, b: string) =>
  a.split('/').pop()!.toLowerCase() === b.split('/').pop()!.toLowerCase();

export class CloudReader {
  private readonly tokens = new Map<string, string>();
  private location: string | undefined;
  /** The cloud's time as the last answer's `Date` header told it. */
  private lastDate: number | undefined;

  constructor(
    readonly settings: CloudReaderSettings,
    private readonly transport: Transport,
  ) {}

  private trim = (s: string) => s.replace(/\/+$/, '');

  // --- the token endpoint -------------------------------------------------------------------

  private tokenRequest(clientId: string, clientSecret: string, scope: string, tenantId = this.settings.tenantId) {
    return this.transport({
      method: 'POST',
      url: `${this.trim(this.settings.loginEndpoint)}/${encodeURIComponent(tenantId)}/oauth2/v2.0/token`,
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
      body: new URLSearchParams({
        client_id: clientId,
        client_secret: clientSecret,
        grant_type: 'client_credentials',
        scope,
      }).toString(),
    });
  }

  /** The status of a client-credentials grant for the directory with these credentials (200: they authenticate). */
  async loginStatus(clientId: string, clientSecret: string, tenantId?: string): Promise<number> {
    return (await this.tokenRequest(clientId, clientSecret, this.settings.graphScope, tenantId)).status;
  }

  private async token(resource: 'graph' | 'management', fresh = false): Promise<string> {
    const cached = this.tokens.get(resource);
    if (cached && !fresh) return cached;
    const scope = resource === 'graph' ? this.settings.graphScope : this.settings.managementScope;
    const res = await this.tokenRequest(this.settings.clientId, this.settings.clientSecret, scope);
    const body = parse(res.body) as { access_token?: string } | undefined;
    if (res.status !== 200 || !body?.access_token)
      throw new CloudCallError(
        res.status,
        'token',
        `the token endpoint refused the reading application's credentials (status ${res.status}; settings cloud.readerClientId / cloud.rootClientId)`,
      );
    this.tokens.set(resource, body.access_token);
    return body.access_token;
  }

  // --- one call -------------------------------------------------------------------------------

  /** One call with a bearer token for `resource`; a 401 gets one new token; 404 gives undefined. */
  private async call<R>(
    resource: 'graph' | 'management',
    method: string,
    url: string,
    body?: unknown,
  ): Promise<R | undefined> {
    const send = async (fresh: boolean) =>
      this.transport({
        method,
        url,
        headers: {
          Authorization: `Bearer ${await this.token(resource, fresh)}`,
          Accept: 'application/json',
          ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    let res = await send(false);
    if (res.status === 401) res = await send(true);
    const date = Date.parse(res.headers.date ?? '');
    if (Number.isFinite(date)) this.lastDate = date;
    if (res.status === 404) return undefined;
    if (res.status >= 400) {
      const err = parse(res.body) as { error?: { code?: string; message?: string } } | undefined;
      throw new CloudCallError(
        res.status,
        err?.error?.code ?? 'error',
        `${method} ${url.split('?')[0]} answered ${res.status}: ${err?.error?.code ?? ''} ${err?.error?.message ?? res.body.slice(0, 200)}`,
      );
    }
    return (parse(res.body) ?? {}) as R;
  }

  private graphUrl(path: string) {
    return `${this.trim(this.settings.graphEndpoint)}/v1.0${path}`;
  }

  graph<R>(method: string, path: string, body?: unknown): Promise<R | undefined> {
    return this.call<R>('graph', method, this.graphUrl(path), body);
  }

  /** Every item of a Graph list, following `@odata.nextLink`. */
  async graphList<R>(path: string): Promise<R[]> {
    const out: R[] = [];
    let url: string | undefined = this.graphUrl(path);
    while (url) {
      const page: { value?: R[]; '@odata.nextLink'?: string } | undefined = await this.call('graph', 'GET', url);
      out.push(...(page?.value ?? []));
      url = page?.['@odata.nextLink'];
    }
    return out;
  }

  private armUrl(path: string, version: string, filter?: string) {
    const query = `${filter ? `$filter=${encodeURIComponent(filter)}&` : ''}api-version=${version}`;
    return `${this.trim(this.settings.managementEndpoint)}/${path.replace(/^\/+/, '')}?${query}`;
  }

  arm<R>(method: string, path: string, version: string, body?: unknown, filter?: string): Promise<R | undefined> {
    return this.call<R>('management', method, this.armUrl(path, version, filter), body);
  }

  private async armList<R>(path: string, filter?: string): Promise<R[]> {
    const out: R[] = [];
    let url: string | undefined = this.armUrl(path, API_VERSIONS.authorization, filter);
    while (url) {
      const page: { value?: R[]; nextLink?: string } | undefined = await this.call('management', 'GET', url);
      out.push(...(page?.value ?? []));
      url = page?.nextLink;
    }
    return out;
  }

  private subscription(): string {
    if (!this.settings.subscriptionId) throw new Error('the cloud settings lack subscriptionId (cloud.subscriptionId)');
    return `/subscriptions/${this.settings.subscriptionId}`;
  }

  // --- the directory --------------------------------------------------------------------------

  appByClientId(appId: string): Promise<App | undefined> {
    return this.graphList<App>(`/applications?$filter=${encodeURIComponent(`appId eq ${odataString(appId)}`)}`).then(
      (l) => l[0],
    );
  }

  spByClientId(appId: string): Promise<Sp | undefined> {
    return this.graphList<Sp>(
      `/servicePrincipals?$filter=${encodeURIComponent(`appId eq ${odataString(appId)}`)}`,
    ).then((l) => l[0]);
  }

  /** The groups the principal is a direct member of. */
  groupsOf(principalId: string): Promise<GroupView[]> {
    return this.graphList<GroupView>(`/servicePrincipals/${encodeURIComponent(principalId)}/memberOf`);
  }

  /** Of `groupIds`, those whose member list names the principal (works after the principal is gone). */
  async groupsListing(principalId: string, groupIds: string[]): Promise<string[]> {
    const out: string[] = [];
    for (const g of groupIds) {
      const members = await this.graphList<{ id: string }>(`/groups/${encodeURIComponent(g)}/members?$select=id`);
      if (members.some((m) => m.id === principalId)) out.push(g);
    }
    return out;
  }

  /** The groups of that display name. */
  groupsNamed(displayName: string): Promise<GroupView[]> {
    return this.graphList<GroupView>(
      `/groups?$filter=${encodeURIComponent(`displayName eq ${odataString(displayName)}`)}`,
    );
  }

  /** Up to `count` groups (for a run that names none). */
  async someGroups(count: number): Promise<GroupView[]> {
    return (
      (await this.graph<{ value?: GroupView[] }>('GET', `/groups?$top=${count}&$select=id,displayName`))?.value ?? []
    );
  }

  /** A deleted application or principal, or undefined when it is not (or no longer) among deleted items. */
  deletedItem(id: string): Promise<{ id: string; '@odata.type'?: string } | undefined> {
    return this.graph('GET', `/directory/deletedItems/${encodeURIComponent(id)}`);
  }

  /** Deletes a deleted item for good (cleanup of what a test left soft-deleted). */
  async purge(id: string): Promise<void> {
    await this.graph('DELETE', `/directory/deletedItems/${encodeURIComponent(id)}`);
  }

  /** Adds a password to an application; returns the secret text. */
  async addAppPassword(appObjectId: string, displayName: string): Promise<string> {
    const cred = await this.graph<{ secretText: string }>(
      'POST',
      `/applications/${encodeURIComponent(appObjectId)}/addPassword`,
      {
        passwordCredential: { displayName },
      },
    );
    if (!cred?.secretText)
      throw new CloudCallError(404, 'Request_ResourceNotFound', `application ${appObjectId} not found`);
    return cred.secretText;
  }

  /**
   * A fresh application with its principal, for application_object_id roles and rotate-root; with
   * `admin`, the rights an engine needs to work with it as its configured client: the Graph
   * permissions of ENGINE_GRAPH_PERMISSIONS and User Access Administrator on the resource group.
   */
  async createApp(
    displayName: string,
    opts: { admin?: boolean; withSecret?: boolean } = {},
  ): Promise<{ app: App; secret?: string }> {
    const app = (await this.graph<App>('POST', '/applications', { displayName }))!;
    const sp = (await this.graph<Sp>('POST', '/servicePrincipals', { appId: app.appId }))!;
    if (opts.admin) {
      const graph = await this.spByClientId(GRAPH_APP_ID);
      const roles = (graph as { appRoles?: { id: string; value: string }[] } | undefined)?.appRoles ?? [];
      for (const value of ENGINE_GRAPH_PERMISSIONS) {
        const role = roles.find((r) => r.value === value);
        if (!graph || !role) throw new Error(`the directory's Graph principal offers no app role ${value}`);
        await this.graph('POST', `/servicePrincipals/${graph.id}/appRoleAssignedTo`, {
          principalId: sp.id,
          resourceId: graph.id,
          appRoleId: role.id,
        });
      }
      await this.assign(sp.id, this.resourceGroupScope(), 'User Access Administrator');
    }
    const secret = opts.withSecret ? await this.addAppPassword(app.id, 'conformance suite') : undefined;
    return { app: (await this.graph<App>('GET', `/applications/${app.id}`)) ?? app, secret };
  }

  /** Removes an application the suite made: its principal's role assignments, the principal and the application, for good. */
  async deleteApp(app: { id: string; appId: string }): Promise<void> {
    const sp = await this.spByClientId(app.appId);
    if (sp) {
      for (const a of await this.assignmentsOf(sp.id)) await this.arm('DELETE', a.id, API_VERSIONS.authorization);
      await this.graph('DELETE', `/servicePrincipals/${sp.id}`);
      await this.purge(sp.id);
    }
    if (await this.graph('GET', `/applications/${app.id}`)) await this.graph('DELETE', `/applications/${app.id}`);
    await this.purge(app.id);
  }

  // --- the resource manager -------------------------------------------------------------------

  private normal(a: ArmAssignment): Assignment {
    return {
      id: a.id,
      name: a.name,
      scope: a.properties.scope,
      roleDefinitionId: a.properties.roleDefinitionId,
      principalId: a.properties.principalId,
    };
  }

  /** Role definitions of the subscription (of that name, when given). */
  async roleDefinitions(roleName?: string): Promise<RoleDef[]> {
    const defs = await this.armList<{ id: string; name: string; properties: { roleName: string } }>(
      `${this.subscription()}/providers/Microsoft.Authorization/roleDefinitions`,
      roleName === undefined ? undefined : `roleName eq ${odataString(roleName)}`,
    );
    return defs.map((d) => ({ id: d.id, name: d.name, roleName: d.properties.roleName }));
  }

  /** Every role assignment of the principal in the subscription, at any scope. */
  async assignmentsOf(principalId: string): Promise<Assignment[]> {
    const list = await this.armList<ArmAssignment>(
      `${this.subscription()}/providers/Microsoft.Authorization/roleAssignments`,
      `principalId eq ${odataString(principalId)}`,
    );
    return list.map((a) => this.normal(a));
  }

  /** Role assignments on exactly `scope`, whoever holds them. */
  async assignmentsAt(scope: string): Promise<Assignment[]> {
    const list = await this.armList<ArmAssignment>(
      `${scope}/providers/Microsoft.Authorization/roleAssignments`,
      'atScope()',
    );
    return list.map((a) => this.normal(a)).filter((a) => a.scope.toLowerCase() === scope.toLowerCase());
  }

  /** Assigns the role definition of that name to a principal at a scope (retrying while the principal propagates). */
  async assign(principalId: string, scope: string, roleName: string): Promise<Assignment> {
    const def = (await this.roleDefinitions(roleName))[0];
    if (!def) throw new Error(`the subscription has no role definition ${roleName}`);
    const name = globalThis.crypto.randomUUID();
    for (let attempt = 0; ; attempt++) {
      try {
        const a = await this.arm<ArmAssignment>(
          'PUT',
          `${scope}/providers/Microsoft.Authorization/roleAssignments/${name}`,
          API_VERSIONS.authorization,
          {
            properties: { roleDefinitionId: def.id, principalId, principalType: 'ServicePrincipal' },
          },
        );
        return this.normal(a!);
      } catch (err) {
        // A principal just created may not have reached the resource manager yet.
        if (!(err instanceof CloudCallError && err.code === 'PrincipalNotFound') || attempt >= 20) throw err;
        await new Promise((r) => setTimeout(r, 1000));
      }
    }
  }

  resourceGroupScope(): string {
    if (!this.settings.resourceGroup) throw new Error('the cloud settings lack resourceGroup (cloud.resourceGroup)');
    return `${this.subscription()}/resourceGroups/${this.settings.resourceGroup}`;
  }

  /** A fresh scope for one test: a user-assigned identity named `name` in the run's resource group. */
  async createScope(name: string): Promise<string> {
    const group = this.resourceGroupScope();
    if (!this.location) {
      const rg = await this.arm<{ location: string }>('GET', group, API_VERSIONS.resources);
      if (!rg) throw new Error(`the resource group ${group} does not exist (cloud.resourceGroup)`);
      this.location = rg.location;
    }
    const scope = `${group}/providers/Microsoft.ManagedIdentity/userAssignedIdentities/${name}`;
    const made = await this.arm<{ id: string }>('PUT', scope, API_VERSIONS.identities, { location: this.location });
    return made?.id ?? scope;
  }

  /** Removes a scope the suite made, and every role assignment left at or below it. */
  async deleteScope(scope: string): Promise<void> {
    const all = await this.armList<ArmAssignment>(`${scope}/providers/Microsoft.Authorization/roleAssignments`);
    for (const a of all.map((x) => this.normal(x)))
      if (a.scope.toLowerCase().startsWith(scope.toLowerCase()))
        await this.arm('DELETE', a.id, API_VERSIONS.authorization);
    await this.arm('DELETE', scope, API_VERSIONS.identities);
  }

  /** The cloud's current time, as its answers date them (a directory read). */
  async now(): Promise<number> {
    await this.graph('GET', `/applications?$top=1&$select=id`);
    if (this.lastDate === undefined) throw new Error('the cloud answered without a Date header');
    return this.lastDate;
  }
}

function parse(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
