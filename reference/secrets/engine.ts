/**
 * The seam between the reference's core (routing, tokens, ACLs, envelope, leases) and its
 * secrets engines. An engine sees paths relative to its mount and returns data; the core builds
 * the envelope, checks ACLs (using `exists` to tell create from update) and writes the response.
 */
import type { Clock } from '../clock.js';
import type { Faults } from '../faults.js';
import type { Variants } from '../variants.js';
import type { LeaseManager } from './leases.js';
import type { PasswordPolicies } from './password-policies.js';
import type { TokenStore } from './tokens.js';

/** The operation after verb mapping: PUT and POST become create or update by existence check. */
export type Operation = 'read' | 'list' | 'create' | 'update' | 'delete';

/** The operation of a request: by its method, and for a write by whether the path exists. */
export function operationFor(method: EngineRequest['method'], exists: boolean): Operation {
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

export interface TokenInfo {
  /** The token's id (the secret value). Engines must never echo it back. */
  id: string;
  accessor: string;
  /** Entity id; tokens created without an entity get a stable one derived from the accessor. */
  entityId: string;
  displayName: string;
  policies: string[];
  /** `true` for the root token. */
  root: boolean;
}

export interface EngineRequest {
  operation: Operation;
  /** The HTTP method as sent (LIST when the verb or `?list=true` was used). */
  method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'LIST';
  /** Path relative to the mount, without leading or trailing slash ('' for the mount root). */
  path: string;
  /** Parsed JSON body ({} when absent). Raw body for engines that need it. */
  body: Record<string, unknown>;
  rawBody: Buffer;
  query: URLSearchParams;
  headers: Record<string, string | string[] | undefined>;
  token: TokenInfo;
  /** Whether the caller's policies grant `capability` on a path of this mount (relative path). */
  can(capability: 'create' | 'read' | 'update' | 'delete' | 'list' | 'sudo', path: string): boolean;
}

export interface LeaseSpec {
  /** Seconds. */
  ttl: number;
  /** Seconds, 0 = no explicit maximum beyond the system maximum. */
  maxTtl?: number;
  renewable: boolean;
  /** Called when the lease is revoked or expires. Errors are logged, not raised. */
  revoke: () => Promise<void>;
  /** Called on renewal with the requested increment (seconds); returns the new ttl (seconds). */
  renew?: (incrementSeconds: number) => Promise<number>;
}

export interface EngineResponse {
  /** Defaults: 200 when `data` or a lease is present, otherwise 204. */
  status?: number;
  data?: unknown;
  /** When present the core creates the lease and fills lease_id/lease_duration/renewable. */
  lease?: LeaseSpec;
  warnings?: string[];
  /** Auth block of a login (see TokenStore.create); the core copies it into the envelope. */
  auth?: Record<string, unknown>;
  /** Replaces the envelope entirely (used by help-like raw answers). */
  rawBody?: unknown;
}

export interface EngineContext {
  clock: Clock;
  faults: Faults;
  /** Legal variants switched on (behaviours the documents allow; see reference/variants.ts). */
  variants: Variants;
  leases: LeaseManager;
  passwordPolicies: PasswordPolicies;
  /** Token store: auth methods create tokens here on login. */
  tokens: TokenStore;
  /** The mount path with trailing slash, namespace prefix included (for example `ns1/ldap/`). */
  mountPath: string;
  /** Engine options given when mounting (for example `{version: "2"}` for kv). */
  options: Record<string, string>;
  /** Reference-wide settings (timing knobs, env overrides, addresses of simulated third parties). */
  settings: ReferenceSettings;
  /**
   * The process environment as this mount's engine sees it: the reference's own (`settings.env`),
   * or the variables `sys/reference/environment` gave the mount, standing for a service started
   * with them (so one reference shows an engine both with and without a variable).
   */
  environment(): Record<string, string | undefined>;
  log(message: string): void;
}

export interface ReferenceSettings {
  /** Environment the reference was started with (cloud engine env overrides read it). */
  env: Record<string, string | undefined>;
  /** The simulated cloud's endpoints (token endpoint, directory, resource manager), when running. */
  cloudEndpoints?: { login: string; graph: string; management: string };
  /** The CA (PEM) of the simulated cloud's certificate. */
  cloudCa?: string;
  /** The name of the cloud environment that directory stands for (the public cloud). */
  cloudEnvironment?: string;
  /** Default and maximum lease TTL of the system, seconds. */
  defaultLeaseTtl: number;
  maxLeaseTtl: number;
  [key: string]: unknown;
}

export interface Engine {
  handle(req: EngineRequest): Promise<EngineResponse>;
  /** Existence check deciding create versus update for POST/PUT; default: treated as update. */
  exists?(path: string): Promise<boolean>;
  /** The path (relative to the mount) the caller's policies are checked against; default: the path itself. */
  aclPath?(path: string): string;
  /** Markdown help for `?help=1` on a path of this mount. */
  help?(path: string): string;
  close?(): Promise<void>;
}

export type EngineFactory = (ctx: EngineContext) => Engine | Promise<Engine>;
