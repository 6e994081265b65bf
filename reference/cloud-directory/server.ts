/**
 * The simulated cloud: one HTTPS listener that speaks the real cloud's three APIs, told apart by
 * path as the real hosts tell them apart by name (login.ts: the token endpoint and discovery;
 * graph.ts: the directory, under /v1.0; arm.ts: the resource manager, everything else), with a CA
 * of its own (tls.ts) whose certificate file it hands to the run. The reference's cloud engine
 * manages it, the cloud suite reads it, and the upstream engine, its host names pointed here,
 * calls it. `GET /health` (the simulation's own) tells its clock and ids.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Clock } from '../clock.js';
import type { Faults } from '../faults.js';
import { Variants } from '../variants.js';
import { serveArm } from './arm.js';
import { serveGraph } from './graph.js';
import { apiError, HttpError, send, tokenError } from './http.js';
import { serveLogin } from './login.js';
import { ResourceManager } from './resources.js';
import { DirectoryError, DirectoryStore } from './store.js';
import { directoryRulesWith } from './switches.js';
import { cloudTls } from './tls.js';
import { AUDIENCE, type Resource } from './well-known.js';

export interface CloudDirectorySeed {
  tenantId?: string;
  subscriptionId?: string;
  rootClientId?: string;
  rootClientSecret?: string;
  roleNames?: string[];
  groupNames?: string[];
  /** The resource group runs create their scopes in. */
  resourceGroup?: string;
}

export interface CloudEndpoints {
  login: string;
  graph: string;
  management: string;
}

export interface RunningCloudDirectory {
  /** `https://host:port`: every endpoint of the simulation. */
  addr: string;
  endpoints: CloudEndpoints;
  /** The CA (PEM) that signed the simulation's certificate, and a file holding it. */
  ca: string;
  caFile: string;
  close(): Promise<void>;
  rootClientId: string;
  rootClientSecret: string;
  tenantId: string;
  subscriptionId: string;
  /** The name of the cloud environment this directory stands for (the public cloud). */
  environment: string;
  /** The name of an environment the simulation has no directory for. */
  otherEnvironment: string;
  /** Seeded resources a suite may name in roles, and the resource group for its scopes. */
  fixtures: { roleNames: string[]; groupNames: string[]; applicationObjectId: string; resourceGroup: string };
  /** Direct access for in-process checks (tests of the directory itself). */
  store: DirectoryStore;
  arm: ResourceManager;
}

const DEFAULT_ROLES = ['Reader', 'Contributor', 'Storage Blob Data Reader'];
/**
 * Environment names: the documents name none (only that the public cloud is the default); these
 * follow the upstream product's names as the documents rename them (Azure -> Cloud).
 */
export const PUBLIC_ENVIRONMENT = 'CloudPublicCloud';
export const OTHER_ENVIRONMENT = 'CloudUSGovernmentCloud';
/** Sign-in audiences in the documents' names (the upstream product's `AzureAD...` renamed). */
export const DOCUMENT_AUDIENCES = [
  'CloudADMyOrg',
  'CloudADMultipleOrgs',
  'CloudADandPersonalAccount',
  'PersonalAccount',
];
/** The real cloud's host names, in the certificate for clients whose hosts file points them here. */
export const PUBLIC_HOSTS = ['login.microsoftonline.com', 'graph.microsoft.com', 'management.azure.com'];
const DEFAULT_GROUPS = ['svc-readers', 'svc-operators'];
const DEFAULT_RESOURCE_GROUP = 'svc-conformance';

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
    resourceGroup: str('resourceGroup'),
  };
}

export async function startCloudDirectory(opts: {
  port?: number;
  host?: string;
  clock: Clock;
  faults: Faults;
  variants?: Variants;
  seed?: unknown;
  /** Sign-in audiences of applications, the default first (default: the documents' names). */
  audiences?: string[];
  /** Names besides the listening address the certificate is for (default: the public hosts and localhost). */
  hostNames?: string[];
}): Promise<RunningCloudDirectory> {
  // Without an explicit seed, CLOUD_DIRECTORY_SEED (JSON) makes a standalone reference reproducible,
  // so a suite run against it can be given the same root credentials.
  const seed = parseSeed(
    opts.seed ?? (process.env.CLOUD_DIRECTORY_SEED ? JSON.parse(process.env.CLOUD_DIRECTORY_SEED) : undefined),
  );
  const clock = opts.clock;
  const now = () => clock.now();
  const store = new DirectoryStore(
    clock,
    seed.tenantId ?? randomUUID(),
    { audiences: opts.audiences ?? DOCUMENT_AUDIENCES },
    directoryRulesWith(opts.faults, opts.variants ?? new Variants()),
  );
  const arm = new ResourceManager(clock, store, seed.subscriptionId ?? randomUUID());

  const root = store.createApplication({ displayName: 'svc-engine-root', appId: seed.rootClientId });
  const rootSp = store.createServicePrincipal(root.appId);
  const rootClientSecret = store.addPassword(
    root,
    { displayName: 'seeded' },
    { secret: seed.rootClientSecret },
  ).secretText;
  store.grantGraph(rootSp.id, [
    'Application.ReadWrite.All',
    'AppRoleAssignment.ReadWrite.All',
    'Directory.Read.All',
    'Group.Read.All',
    'GroupMember.ReadWrite.All',
  ]);
  const roleNames = seed.roleNames ?? DEFAULT_ROLES;
  for (const name of new Set([...roleNames, 'Owner', 'User Access Administrator']))
    arm.addRoleDefinition(name, `${name} (seeded)`);
  arm.createRoleAssignment(null, arm.subscriptionScope, randomUUID(), {
    roleDefinitionId: arm.roleDefinitionByName('Owner')!.id,
    principalId: rootSp.id,
  });
  const groupNames = seed.groupNames ?? DEFAULT_GROUPS;
  for (const name of groupNames) store.addGroup(name);
  const resourceGroup = seed.resourceGroup ?? DEFAULT_RESOURCE_GROUP;
  arm.addResourceGroup(resourceGroup, 'westeurope');
  const existing = store.createApplication({ displayName: 'svc-existing-app' });
  store.createServicePrincipal(existing.appId);

  /** The application a bearer token for `resource` names, or a 401 in the API's words. */
  const authenticate = (req: IncomingMessage, resource: Resource): ReturnType<DirectoryStore['caller']> & object => {
    const header = req.headers.authorization;
    const m = typeof header === 'string' ? /^Bearer\s+(\S+)$/.exec(header.trim()) : null;
    const app = m ? store.caller(m[1]!, resource) : undefined;
    if (!app)
      throw new HttpError(
        401,
        'InvalidAuthenticationToken',
        m
          ? `The access token is invalid, expired, or not for the audience '${AUDIENCE[resource]}'.`
          : 'Access token is empty.',
      );
    return app;
  };

  async function route(req: IncomingMessage, res: ServerResponse): Promise<'login' | 'api'> {
    // Parsed as a path (never as a host): clients may join a scope to the host with '//'.
    const url = new URL(`https://directory${req.url ?? '/'}`);
    const parts = url.pathname.split('/').filter(Boolean).map(decodeURIComponent);
    const origin = `https://${req.headers.host ?? 'localhost'}`;
    if (req.method === 'GET' && url.pathname === '/health') {
      send(res, now, 200, {
        status: 'ok',
        now: new Date(now()).toISOString(),
        tenantId: store.tenantId,
        subscriptionId: arm.subscriptionId,
      });
      return 'api';
    }
    if (parts[0] !== 'v1.0' && (await serveLogin(store, now, req, res, parts, url.searchParams))) return 'login';
    if (parts[0] === 'v1.0') {
      await serveGraph(store, now, authenticate(req, 'graph'), req, res, parts.slice(1), url.searchParams, origin);
      return 'api';
    }
    await serveArm(arm, now, authenticate(req, 'management'), req, res, url.pathname, url.searchParams);
    return 'api';
  }

  const host = opts.host ?? '127.0.0.1';
  const tls = await cloudTls([host, 'localhost', ...(opts.hostNames ?? PUBLIC_HOSTS)]);
  const dir = mkdtempSync(join(tmpdir(), 'cloud-directory-'));
  const caFile = join(dir, 'ca.pem');
  writeFileSync(caFile, tls.ca);

  const server = createServer(
    { cert: tls.cert, key: tls.key, requestTimeout: 30_000, headersTimeout: 15_000 },
    (req, res) => {
      route(req, res).catch((err: unknown) => {
        if (res.headersSent) return res.destroy();
        const isLogin = /\/oauth2\/v2\.0\/token$/.test(req.url?.split('?')[0] ?? '');
        if (err instanceof DirectoryError) return isLogin ? tokenError(res, now, err) : apiError(res, now, err);
        // Never echo the request: it may carry a client secret.
        console.error('[cloud-directory] internal error:', (err as Error).message);
        apiError(res, now, new DirectoryError(500, 'InternalServerError', 'internal error'));
      });
    },
  );
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const addr = `https://${host.includes(':') ? `[${host}]` : host}:${port}`;

  return {
    addr,
    endpoints: { login: addr, graph: addr, management: addr },
    ca: tls.ca,
    caFile,
    rootClientId: root.appId,
    rootClientSecret,
    tenantId: store.tenantId,
    subscriptionId: arm.subscriptionId,
    environment: PUBLIC_ENVIRONMENT,
    otherEnvironment: OTHER_ENVIRONMENT,
    fixtures: {
      roleNames: [...roleNames],
      groupNames: [...groupNames],
      applicationObjectId: existing.id,
      resourceGroup,
    },
    store,
    arm,
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
