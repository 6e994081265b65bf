/**
 * The simulated cloud directory: a small JSON API on loopback that the reference's cloud
 * credentials engine manages and that suites read to verify the engine's real effects.
 *
 * Routes (all JSON; errors are `{error: {code, message}}`):
 *   GET    /health                                  status and the directory's clock
 *   POST   /:tenant/oauth2/v2.0/token               client credentials grant (client_id, client_secret; JSON or form)
 *   GET    /me                                      the calling application
 *   GET    /applications[?appId=&displayName=]      POST /applications {displayName, signInAudience?, tags?, directoryAdmin?}
 *   GET    /applications/:id                        DELETE /applications/:id (to deleted items)
 *   POST   /applications/:id/addPassword            {displayName?, endDateTime?} -> {keyId, secretText, endDateTime, ...}
 *   POST   /applications/:id/removePassword         {keyId}
 *   GET    /servicePrincipals[?appId=]              POST /servicePrincipals {appId}
 *   GET    /servicePrincipals/:id                   DELETE /servicePrincipals/:id (to deleted items)
 *   GET    /servicePrincipals/:id/memberOf          groups the principal belongs to
 *   GET    /directory/deletedItems[/:id]            DELETE /directory/deletedItems/:id (permanent)
 *   GET    /roleDefinitions[?roleName=&id=]         GET /roleDefinitions/:name
 *   GET    /roleAssignments[?principalId=&scope=]   PUT /roleAssignments/:name {roleDefinitionId, principalId, scope}
 *   GET    /roleAssignments/:name                   DELETE /roleAssignments/:name
 *   GET    /groups[?displayName=]                   GET /groups/:id
 *   GET    /groups/:id/members                      POST /groups/:id/members {id}   DELETE /groups/:id/members/:memberId
 * Everything but /health and the token endpoint needs `Authorization: Bearer <access token>`;
 * changes and reads other than /me need an application with directory rights (the root one).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import type { Clock } from '../clock.js';
import type { Faults } from '../faults.js';
import { BodyTimeout, BodyTooLarge, readBody } from '../http-body.js';
import { DirectoryError, DirectoryStore, applicationView, type Application } from './store.js';

export interface CloudDirectorySeed {
  tenantId?: string;
  subscriptionId?: string;
  rootClientId?: string;
  rootClientSecret?: string;
  roleNames?: string[];
  groupNames?: string[];
}

export interface RunningCloudDirectory {
  addr: string;
  close(): Promise<void>;
  rootClientId: string;
  rootClientSecret: string;
  tenantId: string;
  subscriptionId: string;
  /** Seeded resources a suite may name in roles. */
  fixtures: { roleNames: string[]; groupNames: string[]; applicationObjectId: string };
  /** Direct access for in-process checks (tests of the directory itself). */
  store: DirectoryStore;
}

const DEFAULT_ROLES = ['Reader', 'Contributor', 'Storage Blob Data Reader'];
const DEFAULT_GROUPS = ['svc-readers', 'svc-operators'];
const MAX_BODY = 1024 * 1024;
const BODY_TIMEOUT_MS = 30_000;

function parseSeed(seed: unknown): CloudDirectorySeed {
  if (seed === undefined || seed === null) return {};
  if (typeof seed !== 'object' || Array.isArray(seed)) throw new TypeError('cloud directory seed must be an object');
  const s = seed as Record<string, unknown>;
  const str = (k: string) => (typeof s[k] === 'string' && s[k] ? (s[k] as string) : undefined);
  const list = (k: string) =>
    Array.isArray(s[k]) ? (s[k] as unknown[]).filter((v): v is string => typeof v === 'string') : undefined;
  return {
    tenantId: str('tenantId'),
    subscriptionId: str('subscriptionId'),
    rootClientId: str('rootClientId'),
    rootClientSecret: str('rootClientSecret'),
    roleNames: list('roleNames'),
    groupNames: list('groupNames'),
  };
}

class HttpError extends DirectoryError {}

async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  let text: string;
  try {
    text = (await readBody(req, MAX_BODY, BODY_TIMEOUT_MS)).toString('utf8');
  } catch (err) {
    if (err instanceof BodyTooLarge) throw new HttpError(413, 'Request_EntityTooLarge', 'request body too large');
    if (err instanceof BodyTimeout) throw new HttpError(408, 'Request_Timeout', 'request body timed out');
    throw err;
  }
  if (!text.trim()) return {};
  const type = String(req.headers['content-type'] ?? '');
  if (type.includes('application/x-www-form-urlencoded')) return Object.fromEntries(new URLSearchParams(text));
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new HttpError(400, 'Request_BadRequest', 'body is not valid JSON');
  }
  if (!value || typeof value !== 'object' || Array.isArray(value))
    throw new HttpError(400, 'Request_BadRequest', 'body must be a JSON object');
  return value as Record<string, unknown>;
}

function send(res: ServerResponse, status: number, body?: unknown): void {
  if (body === undefined) {
    res.writeHead(status);
    res.end();
    return;
  }
  const text = JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
}

function requireString(body: Record<string, unknown>, key: string): string {
  const v = body[key];
  if (typeof v !== 'string' || !v)
    throw new HttpError(400, 'Request_BadRequest', `"${key}" is required and must be a string`);
  return v;
}

export async function startCloudDirectory(opts: {
  port?: number;
  host?: string;
  clock: Clock;
  faults: Faults;
  variants?: import('../variants.js').Variants;
  seed?: unknown;
}): Promise<RunningCloudDirectory> {
  // Without an explicit seed, CLOUD_DIRECTORY_SEED (JSON) makes a standalone reference reproducible,
  // so a suite run against it can be given the same root credentials.
  const seed = parseSeed(
    opts.seed ?? (process.env.CLOUD_DIRECTORY_SEED ? JSON.parse(process.env.CLOUD_DIRECTORY_SEED) : undefined),
  );
  const store = new DirectoryStore(opts.clock, seed.tenantId ?? randomUUID(), seed.subscriptionId ?? randomUUID());

  const root = store.createApplication({
    displayName: 'svc-engine-root',
    directoryAdmin: true,
    appId: seed.rootClientId,
  });
  store.createServicePrincipal(root.appId);
  const rootClientSecret = store.addPassword(root.id, { displayName: 'seeded' }, seed.rootClientSecret).secretText;
  const roleNames = seed.roleNames ?? DEFAULT_ROLES;
  for (const name of roleNames) store.addRoleDefinition(name, `${name} (seeded)`);
  const groupNames = seed.groupNames ?? DEFAULT_GROUPS;
  for (const name of groupNames) store.addGroup(name);
  const existing = store.createApplication({ displayName: 'svc-existing-app' });
  store.createServicePrincipal(existing.appId);

  const authenticate = (req: IncomingMessage): Application => {
    const header = req.headers.authorization;
    const m = typeof header === 'string' ? /^Bearer\s+(\S+)$/i.exec(header.trim()) : null;
    const app = m ? store.caller(m[1]!) : undefined;
    if (!app) throw new HttpError(401, 'InvalidAuthenticationToken', 'Access token is missing, invalid or expired.');
    return app;
  };
  const requireAdmin = (app: Application) => {
    if (!app.directoryAdmin)
      throw new HttpError(403, 'Authorization_RequestDenied', 'Insufficient privileges to complete the operation.');
  };

  async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://directory');
    const method = req.method ?? 'GET';
    const parts = url.pathname.split('/').filter(Boolean).map(decodeURIComponent);
    const q = url.searchParams;

    if (method === 'GET' && parts.length === 1 && parts[0] === 'health') {
      return send(res, 200, {
        status: 'ok',
        now: new Date(opts.clock.now()).toISOString(),
        tenantId: store.tenantId,
        subscriptionId: store.subscriptionId,
      });
    }
    if (
      method === 'POST' &&
      parts.length === 4 &&
      parts[1] === 'oauth2' &&
      parts[2] === 'v2.0' &&
      parts[3] === 'token'
    ) {
      const body = await readJson(req);
      if (body.grant_type !== undefined && body.grant_type !== 'client_credentials') {
        return send(res, 400, {
          error: 'unsupported_grant_type',
          error_description: 'only client_credentials is supported',
        });
      }
      if (typeof body.client_id !== 'string' || typeof body.client_secret !== 'string') {
        return send(res, 400, {
          error: 'invalid_request',
          error_description: 'client_id and client_secret are required',
        });
      }
      try {
        const t = store.authenticate(parts[0]!, body.client_id, body.client_secret);
        return send(res, 200, { token_type: 'Bearer', expires_in: t.expiresIn, access_token: t.accessToken });
      } catch (err) {
        if (err instanceof DirectoryError)
          return send(res, err.status, { error: err.code, error_description: err.message });
        throw err;
      }
    }

    const caller = authenticate(req);
    if (method === 'GET' && parts.length === 1 && parts[0] === 'me') {
      const sp = [...store.servicePrincipals.values()].find((s) => s.appId === caller.appId);
      return send(res, 200, {
        appId: caller.appId,
        displayName: caller.displayName,
        servicePrincipalId: sp?.id ?? null,
      });
    }
    requireAdmin(caller);
    const [top, id, sub, subId] = parts;

    switch (top) {
      case 'applications': {
        if (!id) {
          if (method === 'GET') {
            const apps = [...store.applications.values()].filter(
              (a) =>
                (!q.get('appId') || a.appId === q.get('appId')) &&
                (!q.get('displayName') || a.displayName === q.get('displayName')),
            );
            return send(res, 200, { value: apps.map(applicationView) });
          }
          if (method === 'POST') {
            const body = await readJson(req);
            const tags = body.tags === undefined ? [] : body.tags;
            if (!Array.isArray(tags) || tags.some((t) => typeof t !== 'string'))
              throw new HttpError(400, 'Request_BadRequest', '"tags" must be a list of strings');
            const app = store.createApplication({
              displayName: requireString(body, 'displayName'),
              signInAudience: typeof body.signInAudience === 'string' ? body.signInAudience : undefined,
              tags: tags as string[],
              directoryAdmin: body.directoryAdmin === true,
            });
            return send(res, 201, applicationView(app));
          }
          break;
        }
        if (!sub && method === 'GET') return send(res, 200, applicationView(store.application(id)));
        if (!sub && method === 'DELETE') {
          store.deleteApplication(id);
          return send(res, 204);
        }
        if (sub === 'addPassword' && method === 'POST') {
          const body = await readJson(req);
          const cred = (
            body.passwordCredential && typeof body.passwordCredential === 'object' ? body.passwordCredential : body
          ) as Record<string, unknown>;
          const out = store.addPassword(id, {
            displayName: typeof cred.displayName === 'string' ? cred.displayName : undefined,
            endDateTime: typeof cred.endDateTime === 'string' ? cred.endDateTime : undefined,
          });
          const { digest: _d, ...view } = out.credential;
          return send(res, 200, { ...view, secretText: out.secretText });
        }
        if (sub === 'removePassword' && method === 'POST') {
          const body = await readJson(req);
          store.removePassword(id, requireString(body, 'keyId'));
          return send(res, 204);
        }
        break;
      }
      case 'servicePrincipals': {
        if (!id) {
          if (method === 'GET')
            return send(res, 200, {
              value: [...store.servicePrincipals.values()].filter((s) => !q.get('appId') || s.appId === q.get('appId')),
            });
          if (method === 'POST') {
            const body = await readJson(req);
            return send(res, 201, store.createServicePrincipal(requireString(body, 'appId')));
          }
          break;
        }
        if (!sub && method === 'GET') return send(res, 200, store.servicePrincipal(id));
        if (!sub && method === 'DELETE') {
          store.deleteServicePrincipal(id);
          return send(res, 204);
        }
        if (sub === 'memberOf' && method === 'GET') {
          store.servicePrincipal(id);
          const groups = [...store.groups.values()]
            .filter((g) => g.members.has(id))
            .map((g) => ({ id: g.id, displayName: g.displayName }));
          return send(res, 200, { value: groups });
        }
        break;
      }
      case 'directory': {
        if (id !== 'deletedItems') break;
        if (!sub && method === 'GET')
          return send(res, 200, {
            value: [...store.deletedItems.values()].map((d) => ({
              id: d.id,
              kind: d.kind,
              deletedDateTime: d.deletedDateTime,
              displayName: d.object.displayName,
              appId: d.object.appId,
            })),
          });
        if (sub && !subId && method === 'GET') {
          const item = store.deletedItems.get(sub);
          if (!item) throw new HttpError(404, 'Request_ResourceNotFound', `Deleted item '${sub}' does not exist.`);
          return send(res, 200, {
            id: item.id,
            kind: item.kind,
            deletedDateTime: item.deletedDateTime,
            displayName: item.object.displayName,
            appId: item.object.appId,
          });
        }
        if (sub && !subId && method === 'DELETE') {
          store.purgeDeleted(sub);
          return send(res, 204);
        }
        break;
      }
      case 'roleDefinitions': {
        if (!id && method === 'GET') {
          const defs = [...store.roleDefinitions.values()].filter(
            (d) => (!q.get('roleName') || d.roleName === q.get('roleName')) && (!q.get('id') || d.id === q.get('id')),
          );
          return send(res, 200, { value: defs });
        }
        if (id && !sub && method === 'GET') {
          const def = store.roleDefinition(id);
          if (!def)
            throw new HttpError(404, 'RoleDefinitionDoesNotExist', 'The specified role definition does not exist.');
          return send(res, 200, def);
        }
        break;
      }
      case 'roleAssignments': {
        if (!id && method === 'GET') {
          const list = [...store.roleAssignments.values()].filter(
            (a) =>
              (!q.get('principalId') || a.principalId === q.get('principalId')) &&
              (!q.get('scope') || a.scope === q.get('scope')),
          );
          return send(res, 200, { value: list });
        }
        if (id && !sub && method === 'PUT') {
          const body = await readJson(req);
          const a = store.createRoleAssignment(id, {
            roleDefinitionId: requireString(body, 'roleDefinitionId'),
            principalId: requireString(body, 'principalId'),
            scope: requireString(body, 'scope'),
          });
          return send(res, 201, a);
        }
        if (id && !sub && method === 'GET') {
          const a = store.roleAssignments.get(id);
          if (!a) throw new HttpError(404, 'RoleAssignmentNotFound', `Role assignment '${id}' does not exist.`);
          return send(res, 200, a);
        }
        if (id && !sub && method === 'DELETE') return send(res, 200, store.deleteRoleAssignment(id));
        break;
      }
      case 'groups': {
        if (!id && method === 'GET') {
          const list = [...store.groups.values()].filter(
            (g) => !q.get('displayName') || g.displayName === q.get('displayName'),
          );
          return send(res, 200, { value: list.map((g) => ({ id: g.id, displayName: g.displayName })) });
        }
        if (id && !sub && method === 'GET') {
          const g = store.group(id);
          return send(res, 200, { id: g.id, displayName: g.displayName });
        }
        if (id && sub === 'members' && !subId && method === 'GET')
          return send(res, 200, { value: [...store.group(id).members].map((m) => ({ id: m })) });
        if (id && sub === 'members' && !subId && method === 'POST') {
          const body = await readJson(req);
          store.addMember(id, requireString(body, 'id'));
          return send(res, 204);
        }
        if (id && sub === 'members' && subId && method === 'DELETE') {
          store.removeMember(id, subId);
          return send(res, 204);
        }
        break;
      }
      default:
        break;
    }
    throw new HttpError(404, 'Request_UnsupportedQuery', `No route for ${method} ${url.pathname}`);
  }

  const server = createServer({ requestTimeout: 30_000, headersTimeout: 15_000 }, (req, res) => {
    route(req, res).catch((err: unknown) => {
      if (res.headersSent) return res.destroy();
      if (err instanceof DirectoryError)
        return send(res, err.status, { error: { code: err.code, message: err.message } });
      // Never echo the request: it may carry a client secret.
      console.error('[cloud-directory] internal error:', (err as Error).message);
      send(res, 500, { error: { code: 'InternalServerError', message: 'internal error' } });
    });
  });
  server.keepAliveTimeout = 5_000;
  const host = opts.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;

  return {
    addr: `http://${host}:${port}`,
    rootClientId: root.appId,
    rootClientSecret,
    tenantId: store.tenantId,
    subscriptionId: store.subscriptionId,
    fixtures: { roleNames: [...roleNames], groupNames: [...groupNames], applicationObjectId: existing.id },
    store,
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
