/**
 * The state of the reference secrets service: its mounts (engines), tokens, ACL and password
 * policies, namespaces and leases, with the core's rules as the switches on leave them and the one
 * response layer (wire.ts). server.ts serves HTTP requests against it.
 */
import { randomUUID } from 'node:crypto';
import type { Clock } from '../clock.js';
import type { Faults } from '../faults.js';
import { rulesWith } from '../switches.js';
import { Variants } from '../variants.js';
import { DEFAULT_POLICY_SOURCE, parsePolicy, type Capability, type Policy } from './acl.js';
import type { Engine, EngineContext, EngineRequest, ReferenceSettings } from './engine.js';
import { badRequest, unsupportedPath } from './errors.js';
import { coreRules, type CoreRules } from './core-rules.js';
import { coreAuthSwitches } from './core-auth-switches.js';
import { coreRouteSwitches } from './core-route-switches.js';
import { coreSwitches } from './core-switches.js';
import { coreWire } from './core-wire-switches.js';
import type { Rewrite } from './wire.js';
import { LeaseManager } from './leases.js';
import { PasswordPolicies } from './password-policies.js';
import { TokenStore, type TokenEntry } from './tokens.js';
import type { ReleaseRules } from './release/rules.js';
import { releaseRulesFor } from './release/rules.js';

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

export class SecretsCore {
  readonly tokens: TokenStore;
  readonly leases: LeaseManager;
  readonly passwordPolicies = new PasswordPolicies();
  readonly policies = new Map<string, Policy>();
  readonly mounts = new Map<string, Mount>();
  readonly namespaces = new Set<string>(['']);
  /** The CORS settings of sys/config/cors (off until written, as in the real product). */
  readonly cors: { enabled: boolean; allowedOrigins: string[]; allowedHeaders: string[] } = {
    enabled: false,
    allowedOrigins: [],
    allowedHeaders: [],
  };
  /** Environments given to single mounts (sys/reference/environment): the mount sees these instead of the reference's. */
  readonly mountEnvironments = new Map<string, Record<string, string>>();
  /** The documents' rules of the core, as the switches on leave them (the table of core-switches.ts). */
  readonly rules: CoreRules;
  /** The release area's rules (release/rules.ts). */
  readonly release: ReleaseRules;
  /** The one response layer: every answer passes through it before it is written. */
  readonly wire: Rewrite;
  private defaultPolicy: Policy | undefined;

  constructor(readonly options: SecretsServerOptions) {
    this.rules = rulesWith(coreRules, { faults: options.faults, variants: this.variants }, [
      ...coreSwitches,
      ...coreAuthSwitches,
      ...coreRouteSwitches,
    ]);
    this.release = releaseRulesFor(options.faults, this.variants);
    this.wire = coreWire(options.faults, this.variants);
    this.tokens = new TokenStore(options.clock, this.rules.tokenFields);
    this.leases = new LeaseManager(options.clock, this.log, this.rules.leaseId);
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
    await this.mount(this.rules.defaultSecretMount, 'kv', 'secret', { version: '2' }, 'key-value secrets');
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
      environment: () => this.mountEnvironments.get(path) ?? this.options.settings.env,
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
    const problem = this.rules.mountPathProblem(normalized);
    if (problem) throw badRequest(problem);
    const conflict = this.rules.mountConflict(normalized, [...this.mounts.keys()]);
    if (conflict !== undefined) throw badRequest(`path is already in use at ${conflict}`);
    let engine: Engine;
    if (type === 'token') {
      engine = {
        handle: async () => {
          throw unsupportedPath();
        },
      };
    } else if (this.release.pluginStatus(kind, type) === 'removed') {
      // A built-in plugin removed in 1.13 (Versioning 3): refused, as the real product does.
      if (this.release.removedPluginsRefused(kind))
        throw badRequest(`plugin "${type}" has status "removed" and cannot be enabled`);
      engine = { handle: async () => ({}) };
    } else {
      const factory = this.rules.engineFor(type, kind);
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
    if (!this.rules.unmountRemoves) return true;
    this.mounts.delete(normalized);
    this.mountEnvironments.delete(normalized);
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
  splitNamespace(fullPath: string, header = ''): { namespace: string; rest: string } {
    const ns = this.rules.namespaceOf(fullPath, [...this.namespaces], header);
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
    return this.rules.capabilities(this.policiesOf(token), fullPath, this.options.clock.now()).has(capability);
  }

  async close(): Promise<void> {
    await this.leases.closeAll();
    for (const mount of this.mounts.values()) await mount.engine.close?.();
  }
}
