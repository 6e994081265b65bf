/**
 * The secrets core's rules as the documents state them (secrets-service-core.md), one named rule
 * each: the server (server.ts), the sys routes (sys.ts) and the token store (tokens.ts) call
 * `rules.x(...)`. Fault switches and legal variants replace single rules in core-switches.ts.
 */
import type { Capability, Policy } from './acl.js';
import { capabilitiesFor } from './acl.js';
import type { EngineFactory, EngineResponse } from './engine.js';
import type { Method } from './core.js';
import { authMethods, secretEngines } from './engines/index.js';
import { type SvcError, badRequest, forbidden, unsupportedPath } from './errors.js';
import { rfc3339 } from './timestamps.js';
import type { TokenEntry, TokenFields } from './tokens.js';

/** The kind of route a request goes to: the sys/ routes, an auth method (auth/...), or a secrets engine. */
export type Route = 'sys' | 'auth' | 'engine';

export interface CoreRules {
  // Mounts
  /** Where the default key-value engine is mounted. */
  defaultSecretMount: string;
  /** Why a mount path cannot be used by itself (undefined: it can). */
  mountPathProblem(path: string): string | undefined;
  /** The mounted path a new mount at `path` would overlap (undefined: none). */
  mountConflict(path: string, mounted: string[]): string | undefined;
  /** The engine of a mount type (undefined: unknown type, refused). */
  engineFor(type: string, kind: 'secret' | 'auth'): EngineFactory | undefined;
  /** Whether enabling a secrets engine mounts it. */
  enablesMount: boolean;
  /** Whether enabling an auth method mounts it. */
  enablesAuthMethod: boolean;
  /** Whether disabling a mount removes it. */
  unmountRemoves: boolean;
  /** The options a mount read reports. */
  mountReadOptions(options: Record<string, string>): Record<string, string> | null;
  /** The key a mount is listed under in sys/mounts and sys/auth. */
  mountListKey(path: string): string;
  /** The mount listing as answered (now: when it is read). */
  mountListing(listed: Record<string, unknown>, kind: 'secret' | 'auth', now?: number): Record<string, unknown>;

  // ACL policies and tokens
  /** The capabilities policies grant on a path (now: when it is asked). */
  capabilities(policies: Policy[], path: string, now?: number): Set<Capability>;
  /** The capability an engine path needs for an operation (`viaQuery`: a LIST sent as GET ?list=true). */
  aclOperation(operation: Capability, viaQuery: boolean): Capability;
  /** A stored ACL policy as a read finds it (now: when it reads). */
  storedPolicy(policies: Map<string, Policy>, name: string, now?: number): Policy | undefined;
  /** Whether DELETE sys/policies/acl/<name> removes the policy. */
  deletesPolicy: boolean;
  /** Whether an ACL policy write needs its `policy` field. */
  policyRequired: boolean;
  /**
   * Whether POST/PUT ask an engine of this type whether the path exists (create versus update).
   * Transit's upsert is defined by the create capability, so only the engines whose documents are
   * silent may skip it.
   */
  existenceCheck(engineType: string): boolean;
  /** Whether a write is an update, given whether the engine's existence check found the path. */
  writeUpdates(exists: boolean): boolean;
  /** Whether `Authorization: Bearer` carries a token. */
  bearerTokens: boolean;
  /** Whether `Authorization: Bearer` carries the token of a request with this method. */
  bearerOn(method: Method): boolean;
  /** Whether the login endpoints of auth methods are served without a client token. */
  loginWithoutToken: boolean;
  /** The token of a request without one (the documented answer: refused). */
  withoutToken(root: () => TokenEntry | undefined, method?: Method): TokenEntry | undefined;
  /** The token of a request with an unknown one (the documented answer: refused). */
  unknownToken(root: () => TokenEntry | undefined): TokenEntry | undefined;
  /** The identity a known token sent in the X-Svc-Token header serves the request with (its own). */
  headerToken(entry: TokenEntry, root: () => TokenEntry | undefined): TokenEntry | undefined;
  /** A token's auth block or lookup data, given the upstream product's further fields. */
  tokenFields: TokenFields;

  // Requests
  /** The path prefix the service serves (the API version); what it matches is cut off the path. */
  versionPrefix: RegExp;
  /** Whether a request without X-Svc-Request is refused, given the listener setting. */
  requestHeaderRequired(configured: boolean, method?: Method): boolean;
  /** Whether a `list` query value asks for LIST, on a route of this kind. */
  listQuery(value: string | null, route: Route): boolean;
  /** Whether a method the service knows is refused (`viaVerb`: LIST sent as the verb). */
  methodRefused(method: Method, viaVerb: boolean): boolean;
  /** Whether a route of this kind serves the verb (every route serves every verb it has an operation for). */
  verbServed(method: Method, route: Route, viaVerb: boolean): boolean;
  /** Whether a path (after the version prefix) can be served, asked with this method. */
  pathServed(path: string, method?: Method): boolean;
  /** The namespace the X-Svc-Namespace header names, on a request with this method. */
  namespaceFromHeader(header: string | undefined, method?: Method): string;
  /**
   * The namespace a full path is in: the longest known namespace it starts with ('' for the root),
   * whether the path came whole or as the X-Svc-Namespace header (`header`) followed by the request path.
   */
  namespaceOf(fullPath: string, known: readonly string[], header: string): string;
  /** Whether a path that starts with a namespace (instead of the header naming it) is served in it. */
  namespacedPathServed: boolean;
  /** Whether a request from `origin` is allowed while CORS is enabled with `allowed` origins. */
  corsOriginAllowed(origin: string, allowed: readonly string[]): boolean;
  /** Whether the query asks for help, on a route of this kind. */
  helpRequested(query: URLSearchParams, route?: Route): boolean;
  /** Whether help needs a capability on the path. */
  helpChecksPermission: boolean;
  /** The OpenAPI path of a help answer. */
  helpPath(relative: string, fullPath: string): string;
  /** The request size limit, given the configured one. */
  maxRequestBytes(configured: number): number;
  /** Why a body's Content-Type is refused, on a request with this method (undefined: it is not). */
  contentTypeProblem(contentType: string, method?: Method): string | undefined;
  /** The body of a request whose JSON does not parse (the documented answer: refused). */
  invalidJson(): unknown;
  /** A parsed JSON body before it must be an object. */
  bodyValue(value: unknown): unknown;
  /** The answer for a path no mount serves (the documented answer: 404). */
  unmountedPath(): EngineResponse;
  /** The refusal of a sys/ path no route serves (the documented answer: 404, an invalid path). */
  unknownSysPath(): SvcError;

  // Answers
  /** Whether a LIST without keys answers 404, on a route of this kind. */
  emptyListNotFound(route: Route): boolean;
  /** The keys of a LIST answer. */
  listKeys(keys: unknown[]): unknown[];
  /** Whether a GET on a list-only path is refused (405). */
  listOnlyRefusesGet: boolean;
  /** An RFC 3339 timestamp of a token or lease lookup. */
  timestamp(ms: number): string;
  /** The id of a new lease created by a request to `requestPath` (the real product's shape: path and a random part). */
  leaseId(requestPath: string, random: string): string;
}

export const coreRules: CoreRules = {
  defaultSecretMount: 'secret/',
  mountPathProblem: () => undefined,
  mountConflict: (path, mounted) =>
    mounted.includes(path) ? path : mounted.find((m) => path.startsWith(m) || m.startsWith(path)),
  engineFor: (type, kind) => (kind === 'auth' ? authMethods : secretEngines)[type],
  enablesMount: true,
  enablesAuthMethod: true,
  unmountRemoves: true,
  mountReadOptions: (options) => options,
  mountListKey: (path) => path,
  mountListing: (listed) => listed,

  capabilities: (policies, path) => capabilitiesFor(policies, path),
  aclOperation: (operation) => operation,
  storedPolicy: (policies, name) => policies.get(name),
  deletesPolicy: true,
  policyRequired: true,
  existenceCheck: () => true,
  writeUpdates: (exists) => exists,
  bearerTokens: true,
  bearerOn: () => true,
  loginWithoutToken: true,
  withoutToken: () => {
    throw forbidden('permission denied');
  },
  unknownToken: () => {
    throw forbidden('permission denied', 'invalid token');
  },
  headerToken: (entry) => entry,
  tokenFields: (_entry, fields) => ({ ...fields }),

  versionPrefix: /^\/v1\//,
  requestHeaderRequired: (configured) => configured,
  listQuery: (value) => value === 'true',
  methodRefused: () => false,
  verbServed: () => true,
  pathServed: (path) => !path.endsWith('.'),
  namespaceFromHeader: (header) => header?.replace(/^\/+|\/+$/g, '') ?? '',
  namespaceOf: (fullPath, known) =>
    known.reduce(
      (ns, candidate) =>
        candidate && (fullPath === candidate || fullPath.startsWith(`${candidate}/`)) && candidate.length > ns.length
          ? candidate
          : ns,
      '',
    ),
  namespacedPathServed: true,
  corsOriginAllowed: (origin, allowed) => allowed.includes('*') || allowed.includes(origin),
  helpRequested: (query) => query.has('help') && query.get('help') !== '0',
  helpChecksPermission: true,
  helpPath: (relative) => `/${relative}`,
  maxRequestBytes: (configured) => configured,
  contentTypeProblem: () => undefined,
  invalidJson: () => {
    throw badRequest('failed to parse JSON input: invalid JSON body');
  },
  bodyValue: (value) => value,
  unmountedPath: () => {
    throw unsupportedPath();
  },
  unknownSysPath: () => unsupportedPath(),

  emptyListNotFound: () => true,
  listKeys: (keys) => keys,
  listOnlyRefusesGet: false,
  timestamp: (ms) => rfc3339(ms, false),
  leaseId: (requestPath, random) => `${requestPath.replace(/\/+$/, '')}/${random}`,
};
