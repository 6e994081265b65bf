/**
 * The reference secrets service's HTTP side: routing, token transport, ACLs with the existence
 * check, namespaces, the envelope and error body, LIST (verb and query), help; the listener (HTTP or
 * TLS). Its state (mounts, tokens, policies, leases, the rules) is the SecretsCore of core.ts.
 * Engines plug in through `engine.ts`.
 */
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse, type Server } from 'node:http';
import { createServer as createNetServer, type AddressInfo, type Server as NetServer } from 'node:net';
import { createServer as createTlsServer } from 'node:tls';
import { randomUUID } from 'node:crypto';
import { type EngineRequest, type EngineResponse, operationFor } from './engine.js';
import { SvcError, badRequest, forbidden, permissionDenied, unsupportedPath } from './errors.js';
import type { CoreRules, Route } from './core-rules.js';
import { BodyTooLarge, readBody } from '../http-body.js';
import { type Wire, send } from './wire.js';
import { ListVerbSocket, LIST_MARKER_HEADER } from './list-verb.js';
import type { TokenEntry } from './tokens.js';
import { handleSys, type SysContext } from './sys.js';
import { afterLogin } from './release/index.js';

import { type Method, type Mount, SecretsCore, type SecretsServerOptions } from './core.js';
const TOKEN_HEADER = 'x-svc-token';
const NAMESPACE_HEADER = 'x-svc-namespace';
const REQUEST_HEADER = 'x-svc-request';
/** How long a request's body may take to arrive. */
const BODY_TIMEOUT_MS = 30_000;

interface Parsed {
  method: Method;
  fullPath: string;
  query: URLSearchParams;
  help: boolean;
}

function requestMethod(
  req: IncomingMessage,
  query: URLSearchParams,
  rules: CoreRules,
  route: Route,
): Method | undefined {
  const marker = req.headers[LIST_MARKER_HEADER];
  const raw = (typeof marker === 'string' && marker === 'LIST' ? 'LIST' : (req.method ?? '')).toUpperCase();
  if (raw === 'GET' && rules.listQuery(query.get('list'), route)) return 'LIST';
  if (raw === 'GET' || raw === 'POST' || raw === 'PUT' || raw === 'DELETE' || raw === 'LIST') return raw;
  return undefined;
}

/** The kind of route a path (after the version prefix) goes to. */
function routeOf(core: SecretsCore, rawPath: string): Route {
  const { rest } = core.splitNamespace(rawPath.replace(/\/+$/, ''));
  if (rest === 'sys' || rest.startsWith('sys/')) return 'sys';
  return rest.startsWith('auth/') ? 'auth' : 'engine';
}

/** The client token of a request and where it came from (the token header or `Authorization: Bearer`). */
function tokenFrom(
  req: IncomingMessage,
  rules: CoreRules,
  method: Method,
): { id: string; viaHeader: boolean } | undefined {
  const header = req.headers[TOKEN_HEADER];
  if (typeof header === 'string' && header) return { id: header, viaHeader: true };
  const auth = req.headers.authorization;
  if (typeof auth === 'string' && rules.bearerTokens && rules.bearerOn(method)) {
    const m = /^Bearer\s+(.+)$/i.exec(auth.trim());
    if (m) return { id: m[1]!.trim(), viaHeader: false };
  }
  return undefined;
}

/** The identity a request is served with (errors are thrown by the rules: refused). */
function identityOf(
  core: SecretsCore,
  sent: { id: string; viaHeader: boolean } | undefined,
  method: Method,
): TokenEntry | undefined {
  const rules = core.rules;
  const rootToken = () => core.tokens.lookup(core.options.rootToken);
  if (!sent) return rules.withoutToken(rootToken, method);
  const entry = core.tokens.lookup(sent.id);
  if (!entry) return rules.unknownToken(rootToken);
  return sent.viaHeader ? rules.headerToken(entry, rootToken) : entry;
}

/** With CORS enabled, a request from an origin outside the allowed list is refused (Errors: 403). */
function checkOrigin(core: SecretsCore, req: IncomingMessage): void {
  const origin = req.headers.origin;
  if (!core.cors.enabled || typeof origin !== 'string' || !origin) return;
  if (!core.rules.corsOriginAllowed(origin, core.cors.allowedOrigins)) throw forbidden('origin not allowed');
}

/** Paths reachable without a token. */
function isUnauthenticated(rest: string, core: SecretsCore): boolean {
  if (rest === 'sys/health' || rest === 'sys/seal-status') return true;
  const mount = core.findMount(rest);
  if (mount?.kind === 'auth' && mount.type !== 'token') {
    const sub = rest.slice(mount.path.length);
    return core.rules.loginWithoutToken && (sub.startsWith('login/') || sub === 'login');
  }
  return false;
}

/** The answer to an operation's result: the envelope around it, or its raw body. */
function envelope(
  core: SecretsCore,
  mount: Mount | undefined,
  result: EngineResponse,
  requestPath: string,
  method: Method,
): Wire {
  if (result.rawBody !== undefined)
    return { kind: 'raw', status: result.status ?? 200, body: result.rawBody, headers: {} };
  const body: Record<string, unknown> = {
    request_id: randomUUID(),
    lease_id: '',
    renewable: false,
    lease_duration: 0,
    data: result.data ?? null,
    wrap_info: null,
    warnings: result.warnings?.length ? result.warnings : null,
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
  const leased = !!result.lease;
  return status === 204
    ? { kind: 'envelope', status, headers: {}, leased, method }
    : { kind: 'envelope', status, body, headers: {}, leased, method };
}

function helpFor(rules: CoreRules, rest: string, mount: Mount | undefined): unknown {
  const help =
    mount?.engine.help?.(rest.slice(mount.path.length)) ??
    `## ${rest}\n\nHelp for this path of the reference implementation.`;
  return {
    help,
    openapi: {
      openapi: '3.0.2',
      info: { title: 'reference', version: '1.13' },
      paths: {
        [rules.helpPath(mount ? rest.slice(mount.path.length) : rest, rest)]: { description: help.split('\n')[0] },
      },
    },
  };
}

/** The answer to one request, before the response layer rewrites it (errors are thrown). */
export async function handleRequest(core: SecretsCore, req: IncomingMessage): Promise<Wire> {
  const rules = core.rules;
  const url = new URL(req.url ?? '/', 'http://reference');
  const query = url.searchParams;
  const versioned = rules.versionPrefix.test(url.pathname);
  const route = versioned ? routeOf(core, url.pathname.replace(rules.versionPrefix, '')) : 'engine';
  const method = requestMethod(req, query, rules, route);
  if (rules.requestHeaderRequired(!!core.options.requireRequestHeader, method) && !req.headers[REQUEST_HEADER]) {
    throw new SvcError(412, ["missing 'X-Svc-Request' header"]);
  }
  if (!versioned) throw unsupportedPath();
  checkOrigin(core, req);
  if (!method) throw new SvcError(405, ['unsupported operation']);
  const viaVerb = !!req.headers[LIST_MARKER_HEADER];
  if (rules.methodRefused(method, viaVerb) || !rules.verbServed(method, route, viaVerb))
    throw new SvcError(405, ['unsupported operation']);
  const rawPath = decodeURIComponent(url.pathname.replace(rules.versionPrefix, ''));
  if (!rules.pathServed(rawPath, method)) throw unsupportedPath();
  const nsHeader = rules.namespaceFromHeader(req.headers[NAMESPACE_HEADER] as string | undefined, method);
  if (!nsHeader && !rules.namespacedPathServed && core.splitNamespace(rawPath).namespace) throw unsupportedPath();
  const fullPath = (nsHeader ? `${nsHeader}/${rawPath}` : rawPath).replace(/\/+$/, '');
  const parsed: Parsed = {
    method,
    fullPath,
    query,
    help: rules.helpRequested(query, route),
  };

  const limit = rules.maxRequestBytes(core.options.maxRequestBytes ?? 32 * 1024 * 1024);
  const body = await readBody(req, limit, BODY_TIMEOUT_MS);
  let json: Record<string, unknown> = {};
  if (body.length && method !== 'GET' && method !== 'LIST') {
    const contentType = String(req.headers['content-type'] ?? '');
    const problem = rules.contentTypeProblem(contentType, method);
    if (problem) throw badRequest(problem);
    const looksJson =
      contentType === '' || contentType.includes('json') || /^\s*[{[]/.test(body.toString('utf8', 0, 16));
    if (looksJson) {
      let value: unknown;
      try {
        value = JSON.parse(body.toString('utf8'));
      } catch {
        value = rules.invalidJson();
      }
      value = rules.bodyValue(value);
      if (value === null || typeof value !== 'object' || Array.isArray(value))
        throw badRequest('failed to parse JSON input: body must be a JSON object');
      json = value as Record<string, unknown>;
    }
  }

  const { namespace, rest } = core.splitNamespace(parsed.fullPath, nsHeader);
  const token = isUnauthenticated(rest, core) ? undefined : identityOf(core, tokenFrom(req, rules, method), method);

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
    if (
      rules.helpChecksPermission &&
      token &&
      !core.can(token, 'read', parsed.fullPath) &&
      !core.can(token, 'list', parsed.fullPath) &&
      !core.can(token, 'update', parsed.fullPath)
    )
      throw permissionDenied();
    return {
      kind: 'help',
      status: 200,
      body: helpFor(rules, parsed.fullPath, core.findMount(parsed.fullPath)),
      headers: {},
    };
  }

  if (rest.startsWith('sys/') || rest === 'sys' || rest.startsWith('auth/token/') || rest.startsWith('identity/')) {
    const result = await handleSys(ctx);
    return answer(core, undefined, result, parsed.fullPath, method);
  }

  const mount = core.findMount(parsed.fullPath);
  if (!mount) return { kind: 'empty', status: rules.unmountedPath().status ?? 204, headers: {} };
  const sub = `${parsed.fullPath}/`.slice(mount.path.length).replace(/\/+$/, '');
  const exists =
    (method === 'POST' || method === 'PUT') && rules.existenceCheck(mount.type)
      ? rules.writeUpdates((await mount.engine.exists?.(sub)) ?? true)
      : true;
  const operation = operationFor(method, exists);
  // An engine may authorise a path against another (the default is the path itself).
  const aclSub = mount.engine.aclPath?.(sub) ?? sub;
  const aclPath = aclSub === sub ? parsed.fullPath : mount.path + aclSub;
  const needed = rules.aclOperation(operation, method === 'LIST' && !viaVerb);
  if (token && !core.can(token, needed, aclPath)) throw permissionDenied((await mount.engine.exists?.(sub)) ?? true);
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
  return answer(core, mount, result, parsed.fullPath, method);
}

function answer(
  core: SecretsCore,
  mount: Mount | undefined,
  result: EngineResponse,
  fullPath: string,
  method: Method,
): Wire {
  if (method === 'LIST') {
    const keys = (result.data as { keys?: unknown[] } | undefined)?.keys;
    const route: Route = !mount ? 'sys' : mount.kind === 'auth' ? 'auth' : 'engine';
    if (!result.rawBody && (!Array.isArray(keys) || keys.length === 0) && core.rules.emptyListNotFound(route))
      return { kind: 'list-empty', status: 404, body: { errors: [] }, headers: {} };
    if (Array.isArray(keys))
      result = { ...result, data: { ...(result.data as object), keys: core.rules.listKeys(keys) } };
  }
  return envelope(core, mount, result, fullPath, method);
}

/** The answer to a request that failed. */
function failure(core: SecretsCore, err: unknown): Wire {
  if (err instanceof SvcError)
    return { kind: 'error', status: err.status, body: { errors: err.messages }, headers: {}, error: err };
  if (err instanceof BodyTooLarge)
    return {
      kind: 'too-large',
      status: 413,
      body: { errors: ['http: request body too large'] },
      headers: { Connection: 'close' },
    };
  core.log(`internal error: ${(err as Error).stack ?? String(err)}`);
  return { kind: 'internal', status: 500, body: { errors: ['internal error'] }, headers: {} };
}

/** Serves one request: its answer (or failure) passes through the one response layer, then is written. */
export async function serve(core: SecretsCore, req: IncomingMessage, res: ServerResponse): Promise<void> {
  let w: Wire;
  try {
    w = await handleRequest(core, req);
  } catch (err) {
    w = failure(core, err);
  }
  send(res, core.wire(withCorsHeaders(core, req, w)));
}

/** An answer to an allowed origin names it, as a browser needs (the real product's CORS headers). */
function withCorsHeaders(core: SecretsCore, req: IncomingMessage, w: Wire): Wire {
  const origin = req.headers.origin;
  if (!core.cors.enabled || typeof origin !== 'string' || w.status === 403) return w;
  return { ...w, headers: { ...w.headers, 'Access-Control-Allow-Origin': origin, Vary: 'Origin' } };
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
    void serve(core, req, res);
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
