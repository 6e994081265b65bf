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
import { HttpError, readJson, send } from './http.js';
import { serveResource } from './resources.js';
import { directoryRulesWith } from './switches.js';
import { Variants } from '../variants.js';
import { DirectoryError, DirectoryStore, type Application } from './store.js';

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
  /** The name of the cloud environment this directory stands for (the public cloud). */
  environment: string;
  /** The name of an environment the simulation has no directory for. */
  otherEnvironment: string;
  /** Seeded resources a suite may name in roles. */
  fixtures: { roleNames: string[]; groupNames: string[]; applicationObjectId: string };
  /** Direct access for in-process checks (tests of the directory itself). */
  store: DirectoryStore;
}

const DEFAULT_ROLES = ['Reader', 'Contributor', 'Storage Blob Data Reader'];
/**
 * Environment names: the documents name none (only that the public cloud is the default); these
 * follow the upstream product's names as the documents rename them (Azure -> Cloud).
 */
export const PUBLIC_ENVIRONMENT = 'CloudPublicCloud';
export const OTHER_ENVIRONMENT = 'CloudUSGovernmentCloud';
const DEFAULT_GROUPS = ['svc-readers', 'svc-operators'];

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
  const store = new DirectoryStore(
    opts.clock,
    seed.tenantId ?? randomUUID(),
    seed.subscriptionId ?? randomUUID(),
    directoryRulesWith(opts.faults, opts.variants ?? new Variants()),
  );

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
    return serveResource(store, req, res, { method, parts, query: q, pathname: url.pathname });
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
    environment: PUBLIC_ENVIRONMENT,
    otherEnvironment: OTHER_ENVIRONMENT,
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
