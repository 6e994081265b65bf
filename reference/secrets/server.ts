/**
 * The reference secrets service: routing, token transport, ACLs with the existence check,
 * namespaces, mounts, the envelope and error body, LIST (verb and query), help, leases and the
 * controllable clock. Engines plug in through `engine.ts`.
 */
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse, type Server } from 'node:http';
import { createServer as createNetServer, type AddressInfo, type Server as NetServer } from 'node:net';
import { createServer as createTlsServer } from 'node:tls';
import { randomUUID } from 'node:crypto';
import type { Clock } from '../clock.js';
import type { Faults } from '../faults.js';
import { Variants } from '../variants.js';
import { DEFAULT_POLICY_SOURCE, capabilitiesFor, parsePolicy, type Capability, type Policy } from './acl.js';
import type { Engine, EngineContext, EngineRequest, EngineResponse, Operation, ReferenceSettings } from './engine.js';
import { secretEngines, authMethods } from './engines/index.js';
import { SvcError, badRequest, forbidden, permissionDenied, unsupportedPath } from './errors.js';
import {
  errorMessages,
  errorStatus,
  jsonHeaders,
  listKeys,
  listRequested,
  noContentBody,
  shapeEnvelope,
} from './core-edges.js';
import { BodyTooLarge, readBody, sendEmpty, sendJson } from './http-util.js';
import { LeaseManager } from './leases.js';
import { ListVerbSocket, LIST_MARKER_HEADER } from './list-verb.js';
import { PasswordPolicies } from './password-policies.js';
import { TokenStore, type TokenEntry } from './tokens.js';
import { handleSys, type SysContext } from './sys.js';
import { afterLogin } from './release/index.js';

export interface SecretsServerOptions {
  port?: number;
  host?: string;
  rootToken: string;
  clock: Clock;
  faults: Faults;
  /** Legal variants switched on (none: the documents' plainest reading). */
  variants?: Variants;
  settings: ReferenceSettings;
  /** Maximum request body in bytes (the document's default is 32 MB). */
  maxRequestBytes?: number;
  /** When true every request must carry the X-Svc-Request header. */
  requireRequestHeader?: boolean;
  /** Serve HTTPS with this certificate and key (PEM). */
  tls?: { cert: string; key: string };
  log?: (message: string) => void;
}

export interface Mount {
  /** Full path with trailing slash, namespace prefix included. */
  path: string;
  type: string;
  kind: 'secret' | 'auth';
  options: Record<string, string>;
  accessor: string;
  engine: Engine;
  description: string;
}

export type Method = EngineRequest['method'];

const TOKEN_HEADER = 'x-svc-token';
const NAMESPACE_HEADER = 'x-svc-namespace';
const REQUEST_HEADER = 'x-svc-request';

export class SecretsCore {
  readonly tokens: TokenStore;
  readonly leases: LeaseManager;
  readonly passwordPolicies = new PasswordPolicies();
  readonly policies = new Map<string, Policy>();
  readonly mounts = new Map<string, Mount>();
  readonly namespaces = new Set<string>(['']);
  private defaultPolicy: Policy | undefined;

  constructor(readonly options: SecretsServerOptions) {
    this.tokens = new TokenStore(options.clock, options.variants);
    this.leases = new LeaseManager(options.clock, this.log);
    this.tokens.create({
      id: options.rootToken,
      policies: ['root'],
      displayName: 'root',
      path: 'auth/token/root',
      entityId: '',
    });
  }

  readonly log = (message: string): void => {
    (this.options.log ?? ((m: string) => console.error(`[reference] ${m}`)))(message);
  };

  get faults(): Faults {
    return this.options.faults;
  }

  get variants(): Variants {
    return this.options.variants ?? new Variants();
  }

  async init(): Promise<void> {
    this.defaultPolicy = await parsePolicy('default', DEFAULT_POLICY_SOURCE);
    await this.mount(
      this.faults.has('core.no-default-secret-mount') ? 'kv/' : 'secret/',
      'kv',
      'secret',
      { version: '2' },
      'key-value secrets',
    );
    await this.mount('auth/token/', 'token', 'auth', {}, 'token based credentials');
  }

  engineContext(path: string, options: Record<string, string>): EngineContext {
    return {
      clock: this.options.clock,
      faults: this.options.faults,
      variants: this.variants,
      leases: this.leases,
      passwordPolicies: this.passwordPolicies,
      tokens: this.tokens,
      mountPath: path,
      options,
      settings: this.options.settings,
      log: this.log,
    };
  }

  async mount(
    path: string,
    type: string,
    kind: 'secret' | 'auth',
    options: Record<string, string>,
    description = '',
  ): Promise<Mount> {
    const normalized = path.replace(/^\/+/, '').replace(/\/*$/, '/');
    if (
      this.faults.has('core.nested-mount-rejected') &&
      normalized.slice(0, -1).includes('/') &&
      !normalized.includes('auth/')
    )
      throw badRequest('mount paths must be one segment');
    const allowConflict = this.faults.has('core.mount-conflict-allowed');
    if (this.mounts.has(normalized) && !allowConflict) throw badRequest(`path is already in use at ${normalized}`);
    for (const existing of this.mounts.keys()) {
      if (!allowConflict && (normalized.startsWith(existing) || existing.startsWith(normalized))) {
        throw badRequest(`path is already in use at ${existing}`);
      }
    }
    let engine: Engine;
    if (type === 'token') {
      engine = {
        handle: async () => {
          throw unsupportedPath();
        },
      };
    } else {
      const factory =
        (kind === 'auth' ? authMethods : secretEngines)[type] ??
        (this.faults.has('core.mount-unknown-type-accepted') ? secretEngines.kv : undefined);
      if (!factory) throw badRequest(`plugin not found in the catalog: ${type}`);
      engine = await factory(this.engineContext(normalized, options));
    }
    const mount: Mount = {
      path: normalized,
      type,
      kind,
      options,
      accessor: `${type}_${randomUUID().slice(0, 8)}`,
      engine,
      description,
    };
    this.mounts.set(normalized, mount);
    return mount;
  }

  async unmount(path: string): Promise<boolean> {
    const normalized = path.replace(/^\/+/, '').replace(/\/*$/, '/');
    const mount = this.mounts.get(normalized);
    if (!mount) return false;
    if (this.faults.has('core.unmount-ignored')) return true;
    this.mounts.delete(normalized);
    await this.leases.revokePrefix(normalized);
    await mount.engine.close?.();
    return true;
  }

  /** The mount whose path is the longest prefix of `fullPath`. */
  findMount(fullPath: string): Mount | undefined {
    let best: Mount | undefined;
    for (const mount of this.mounts.values()) {
      if (`${fullPath}/`.startsWith(mount.path) && (!best || mount.path.length > best.path.length)) best = mount;
    }
    return best;
  }

  /** Splits a full path into its namespace (longest known prefix) and the rest. */
  splitNamespace(fullPath: string): { namespace: string; rest: string } {
    let ns = '';
    for (const candidate of this.namespaces) {
      if (candidate && (fullPath === candidate || fullPath.startsWith(`${candidate}/`)) && candidate.length > ns.length)
        ns = candidate;
    }
    return { namespace: ns, rest: ns ? fullPath.slice(ns.length + 1) : fullPath };
  }

  policiesOf(token: TokenEntry): Policy[] {
    const list: Policy[] = [];
    if (this.defaultPolicy && !token.policies.includes('no-default-policy')) list.push(this.defaultPolicy);
    for (const name of token.policies) {
      const p = this.policies.get(name);
      if (p) list.push(p);
    }
    return list;
  }

  can(token: TokenEntry, capability: Capability, fullPath: string): boolean {
    if (token.root) return true;
    return capabilitiesFor(this.policiesOf(token), fullPath, this.faults.has('auth.acl-deny-ignored')).has(capability);
  }

  async close(): Promise<void> {
    await this.leases.closeAll();
    for (const mount of this.mounts.values()) await mount.engine.close?.();
  }
}

interface Parsed {
  method: Method;
  fullPath: string;
  query: URLSearchParams;
  help: boolean;
}

function requestMethod(req: IncomingMessage, query: URLSearchParams, variants: Variants): Method | undefined {
  const marker = req.headers[LIST_MARKER_HEADER];
  const raw = (typeof marker === 'string' && marker === 'LIST' ? 'LIST' : (req.method ?? '')).toUpperCase();
  if (raw === 'GET' && listRequested(query.get('list'), variants)) return 'LIST';
  if (raw === 'GET' || raw === 'POST' || raw === 'PUT' || raw === 'DELETE' || raw === 'LIST') return raw;
  return undefined;
}

function tokenFrom(req: IncomingMessage, faults: Faults): string | undefined {
  const header = req.headers[TOKEN_HEADER];
  if (typeof header === 'string' && header) return header;
  const auth = req.headers.authorization;
  if (typeof auth === 'string' && !faults.has('auth.bearer-ignored')) {
    const m = /^Bearer\s+(.+)$/i.exec(auth.trim());
    if (m) return m[1]!.trim();
  }
  return undefined;
}

/** Paths reachable without a token. */
function isUnauthenticated(rest: string, core: SecretsCore): boolean {
  if (rest === 'sys/health' || rest === 'sys/seal-status') return true;
  const mount = core.findMount(rest);
  if (mount?.kind === 'auth' && mount.type !== 'token') {
    const sub = rest.slice(mount.path.length);
    return sub.startsWith('login/') || sub === 'login';
  }
  return false;
}

function operationFor(method: Method, exists: boolean): Operation {
  switch (method) {
    case 'GET':
      return 'read';
    case 'LIST':
      return 'list';
    case 'DELETE':
      return 'delete';
    default:
      return exists ? 'update' : 'create';
  }
}

function envelope(
  core: SecretsCore,
  mount: Mount | undefined,
  result: EngineResponse,
  requestPath: string,
): { status: number; body?: unknown } {
  if (result.rawBody !== undefined) return { status: result.status ?? 200, body: result.rawBody };
  const body: Record<string, unknown> = {
    request_id: core.faults.has('core.request-id-not-uuid') ? `req-${Date.now()}` : randomUUID(),
    lease_id: core.faults.has('core.lease-id-null') ? null : '',
    renewable: core.faults.has('core.renewable-string') ? 'false' : false,
    lease_duration: core.faults.has('core.lease-duration-nonzero') ? 3600 : 0,
    data: result.data ?? null,
    wrap_info: null,
    warnings: result.warnings?.length ? result.warnings : core.faults.has('core.warnings-empty-string') ? '' : null,
    auth: result.auth ?? null,
  };
  if (mount) body.mount_type = mount.type;
  if (result.lease) {
    const lease = core.leases.create(requestPath, result.lease);
    body.lease_id = lease.id;
    body.renewable = result.lease.renewable;
    body.lease_duration = Number.isFinite(lease.expiresAt) ? Math.round((lease.expiresAt - lease.issuedAt) / 1000) : 0;
  }
  const hasContent = result.data !== undefined || result.lease || result.auth || result.warnings?.length;
  const status = result.status ?? (hasContent ? 200 : 204);
  return status === 204 ? { status } : { status, body: shapeEnvelope(body, core.variants) };
}

function helpFor(rest: string, mount: Mount | undefined): unknown {
  const help =
    mount?.engine.help?.(rest.slice(mount.path.length)) ??
    `## ${rest}\n\nHelp for this path of the reference implementation.`;
  return {
    help,
    openapi: {
      openapi: '3.0.2',
      info: { title: 'reference', version: '1.13' },
      paths: { [`/${mount ? rest.slice(mount.path.length) : rest}`]: { description: help.split('\n')[0] } },
    },
  };
}

export async function handleRequest(core: SecretsCore, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://reference');
  const query = url.searchParams;
  const method =
    core.faults.has('core.list-query-ignored') && req.method === 'GET' && !req.headers[LIST_MARKER_HEADER]
      ? 'GET'
      : requestMethod(req, query, core.variants);
  if (
    core.options.requireRequestHeader &&
    !req.headers[REQUEST_HEADER] &&
    !core.faults.has('core.request-header-not-enforced')
  ) {
    throw new SvcError(412, ["missing 'X-Svc-Request' header"]);
  }
  if (
    !url.pathname.startsWith('/v1/') &&
    !(core.faults.has('core.v1-prefix-ignored') && /^\/v\d+\//.test(url.pathname))
  )
    throw unsupportedPath();
  if (!method) throw new SvcError(405, ['unsupported operation']);
  if (method === 'PUT' && core.faults.has('core.put-rejected')) throw new SvcError(405, ['unsupported operation']);
  if (method === 'LIST' && req.headers[LIST_MARKER_HEADER] && core.faults.has('core.list-verb-rejected'))
    throw new SvcError(405, ['unsupported operation']);
  const rawPath = decodeURIComponent(url.pathname.replace(/^\/v\d+\//, ''));
  if (rawPath.endsWith('.') && !core.faults.has('core.trailing-period-accepted')) throw unsupportedPath();
  const nsHeader = core.faults.has('core.namespace-header-ignored')
    ? ''
    : ((req.headers[NAMESPACE_HEADER] as string | undefined)?.replace(/^\/+|\/+$/g, '') ?? '');
  const fullPath = (nsHeader ? `${nsHeader}/${rawPath}` : rawPath).replace(/\/+$/, '');
  const parsed: Parsed = {
    method,
    fullPath,
    query,
    help: query.has('help') && query.get('help') !== '0' && !core.faults.has('core.help-ignored'),
  };

  const body = await readBody(
    req,
    core.faults.has('core.request-size-unlimited') ? Infinity : (core.options.maxRequestBytes ?? 32 * 1024 * 1024),
  );
  let json: Record<string, unknown> = {};
  if (body.length && method !== 'GET' && method !== 'LIST') {
    const contentType = String(req.headers['content-type'] ?? '');
    if (contentType === '' && core.faults.has('core.content-type-required')) throw badRequest('missing Content-Type');
    if (contentType !== '' && !/json/i.test(contentType) && core.variants.has('core.non-json-content-type-refused'))
      throw badRequest(`request bodies are JSON; Content-Type ${contentType.split(';')[0]} is not accepted`);
    const looksJson =
      contentType === '' || contentType.includes('json') || /^\s*[{[]/.test(body.toString('utf8', 0, 16));
    if (looksJson) {
      let value: unknown;
      try {
        value = JSON.parse(body.toString('utf8'));
      } catch {
        if (!core.faults.has('core.invalid-json-accepted'))
          throw badRequest('failed to parse JSON input: invalid JSON body');
        value = {};
      }
      if (Array.isArray(value) && core.faults.has('core.body-array-accepted')) value = { ...value };
      if (value === null || typeof value !== 'object' || Array.isArray(value))
        throw badRequest('failed to parse JSON input: body must be a JSON object');
      json = value as Record<string, unknown>;
    }
  }

  const { namespace, rest } = core.splitNamespace(parsed.fullPath);
  const tokenId = tokenFrom(req, core.faults);
  let token: TokenEntry | undefined;
  if (!isUnauthenticated(rest, core)) {
    const rootToken = () => core.tokens.lookup(core.options.rootToken);
    if (!tokenId) {
      if (!core.faults.has('auth.missing-token-accepted')) throw forbidden('permission denied');
      token = rootToken();
    } else {
      token = core.tokens.lookup(tokenId) ?? (core.faults.has('auth.invalid-token-accepted') ? rootToken() : undefined);
      if (!token) throw forbidden('permission denied', 'invalid token');
    }
  }

  const ctx: SysContext = {
    core,
    method,
    rest,
    namespace,
    fullPath: parsed.fullPath,
    query,
    body: json,
    rawBody: body,
    token,
    headers: req.headers,
  };
  if (parsed.help) {
    const checked =
      !core.variants.has('core.help-without-permission-check') && !core.faults.has('core.help-unrestricted');
    if (
      checked &&
      token &&
      !core.can(token, 'read', parsed.fullPath) &&
      !core.can(token, 'list', parsed.fullPath) &&
      !core.can(token, 'update', parsed.fullPath)
    )
      throw permissionDenied();
    const help = helpFor(parsed.fullPath, core.findMount(parsed.fullPath)) as {
      openapi: { paths: Record<string, unknown> };
    };
    if (core.faults.has('core.help-absolute-paths'))
      help.openapi.paths = Object.fromEntries(
        Object.values(help.openapi.paths).map((v) => [`/v1/${parsed.fullPath}`, v]),
      );
    sendJson(res, 200, help, jsonHeaders(core.variants));
    return;
  }

  if (rest.startsWith('sys/') || rest === 'sys' || rest.startsWith('auth/token/') || rest.startsWith('identity/')) {
    const result = await handleSys(ctx);
    return answer(core, res, undefined, result, parsed.fullPath, method);
  }

  const mount = core.findMount(parsed.fullPath);
  if (!mount && core.faults.has('core.unknown-path-204')) return sendEmpty(res, 204);
  if (!mount) throw unsupportedPath();
  const sub = `${parsed.fullPath}/`.slice(mount.path.length).replace(/\/+$/, '');
  const exists =
    (method === 'POST' || method === 'PUT') && !core.faults.has('core.existence-check-ignored')
      ? ((await mount.engine.exists?.(sub)) ?? true)
      : true;
  const operation = operationFor(method, exists);
  if (token && !core.can(token, operation, parsed.fullPath)) throw permissionDenied();
  const engineReq: EngineRequest = {
    operation,
    method,
    path: sub,
    body: json,
    rawBody: body,
    query,
    headers: req.headers,
    token: token ?? { id: '', accessor: '', entityId: '', displayName: '', policies: [], root: false },
    can: (capability, path) => !!token && core.can(token, capability, mount.path + path),
  };
  const result = await mount.engine.handle(engineReq);
  if (mount.kind === 'auth' && result.auth) await afterLogin(core, namespace, result);
  return answer(core, res, mount, result, parsed.fullPath, method);
}

function answer(
  core: SecretsCore,
  res: ServerResponse,
  mount: Mount | undefined,
  result: EngineResponse,
  fullPath: string,
  method: Method,
): void {
  if (method === 'LIST') {
    const keys = (result.data as { keys?: unknown[] } | undefined)?.keys;
    if (!result.rawBody && (!Array.isArray(keys) || keys.length === 0) && !core.faults.has('core.empty-list-200')) {
      sendJson(res, 404, { errors: [] }, jsonHeaders(core.variants));
      return;
    }
    if (Array.isArray(keys))
      result = { ...result, data: { ...(result.data as object), keys: listKeys(keys, core.variants) } };
  }
  const out = envelope(core, mount, result, fullPath);
  const withWarning = out.status === 204 ? noContentBody(core.variants) : undefined;
  if (withWarning) sendJson(res, 200, withWarning, jsonHeaders(core.variants));
  else if (out.status === 204) sendEmpty(res, core.faults.has('core.success-200-empty') ? 200 : 204);
  else
    sendJson(
      res,
      out.status,
      core.faults.has('core.envelope-not-object') ? [out.body] : out.body,
      core.faults.has('core.content-type-not-json') ? { 'Content-Type': 'text/plain' } : jsonHeaders(core.variants),
    );
}

export interface RunningSecretsServer {
  addr: string;
  core: SecretsCore;
  close(): Promise<void>;
}

export async function startSecretsServer(options: SecretsServerOptions): Promise<RunningSecretsServer> {
  const core = new SecretsCore(options);
  await core.init();
  const http: Server = createHttpServer({ requestTimeout: 60_000, headersTimeout: 30_000 }, (req, res) => {
    handleRequest(core, req, res).catch((err: unknown) => {
      if (err instanceof SvcError) {
        // Fault switches that break the error conventions all live here, where every error is written.
        // Legal variants of the error conventions (core-edges.ts) apply first.
        const legal = errorStatus(err, core.variants);
        const status =
          core.faults.has('core.method-405-as-404') && legal === 405
            ? 404
            : core.faults.has('core.bad-request-as-500') && legal === 400
              ? 500
              : core.faults.has('core.forbidden-as-401') && legal === 403
                ? 401
                : legal;
        const messages = errorMessages(err.messages, core.variants);
        sendJson(
          res,
          status,
          core.faults.has('core.errors-not-array') ? { errors: messages.join('; ') } : { errors: messages },
          jsonHeaders(core.variants),
        );
      } else if (err instanceof BodyTooLarge) {
        sendJson(
          res,
          413,
          { errors: errorMessages(['http: request body too large'], core.variants) },
          { Connection: 'close', ...jsonHeaders(core.variants) },
        );
      } else {
        core.log(`internal error: ${(err as Error).stack ?? String(err)}`);
        sendJson(res, 500, { errors: ['internal error'] }, jsonHeaders(core.variants));
      }
    });
  });
  http.keepAliveTimeout = 5_000;
  const net: NetServer = options.tls
    ? createTlsServer({ cert: options.tls.cert, key: options.tls.key }, (socket) => {
        http.emit('connection', new ListVerbSocket(socket as unknown as import('node:net').Socket));
      })
    : createNetServer((socket) => {
        http.emit('connection', new ListVerbSocket(socket));
      });
  await new Promise<void>((resolve, reject) => {
    net.once('error', reject);
    net.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const address = net.address() as AddressInfo;
  const sockets = new Set<import('node:net').Socket>();
  net.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  return {
    addr: `${options.tls ? 'https' : 'http'}://${options.host ?? '127.0.0.1'}:${address.port}`,
    core,
    async close() {
      await new Promise<void>((resolve) => {
        net.close(() => resolve());
        for (const s of sockets) s.destroy();
      });
      http.close();
      await core.close();
    },
  };
}
