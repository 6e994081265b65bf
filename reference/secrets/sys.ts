/**
 * `sys/` and `auth/token/` routes of the reference: mounts, auth methods, ACL and password
 * policies, namespaces, leases, tokens, health and the reference-only clock control.
 * Extra sys routes from engines (locked users) register in `sys-extensions.ts`.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { EngineResponse } from './engine.js';
import type { Method, SecretsCore } from './server.js';
import type { TokenEntry } from './tokens.js';
import { parsePolicy, type Capability } from './acl.js';
import { advanceProblem, MAX_ADVANCE_SECONDS } from '../clock.js';
import {
  SvcError,
  badRequest,
  forbidden,
  methodNotAllowed,
  notFound,
  permissionDenied,
  unsupportedPath,
} from './errors.js';
import { generateFromPolicy, parsePasswordPolicy } from './password-policies.js';
import { parseDuration } from './duration.js';
import { sysExtensions } from './sys-extensions.js';

export interface SysContext {
  core: SecretsCore;
  method: Method;
  /** Path after the namespace prefix, e.g. `sys/mounts/foo`. */
  rest: string;
  namespace: string;
  fullPath: string;
  query: URLSearchParams;
  body: Record<string, unknown>;
  rawBody: Buffer;
  token: TokenEntry | undefined;
  headers: IncomingHttpHeaders;
}

export interface SysRoute {
  pattern: RegExp;
  handle(ctx: SysContext, match: RegExpExecArray): Promise<EngineResponse>;
}

function requireCap(ctx: SysContext, cap: Capability, path = ctx.fullPath): void {
  if (ctx.token && !ctx.core.can(ctx.token, cap, path)) throw permissionDenied();
}

/**
 * A path that only lists: the reference serves a plain GET like LIST, unless the rules refuse it
 * as a method the path does not support.
 */
function listOnly(ctx: SysContext): void {
  if (ctx.method === 'GET' && ctx.core.rules.listOnlyRefusesGet) throw methodNotAllowed();
}

/** RFC 3339 for the core's lookups. */
const timestamp = (ctx: SysContext, ms: number) => ctx.core.rules.timestamp(ms);

function capFor(method: Method): Capability {
  switch (method) {
    case 'GET':
      return 'read';
    case 'LIST':
      return 'list';
    case 'DELETE':
      return 'delete';
    default:
      return 'update';
  }
}

const nsPrefix = (ctx: SysContext) => (ctx.namespace ? `${ctx.namespace}/` : '');

/** Fields that hold a JSON object (a map of settings) must be one when present. */
function objects(body: Record<string, unknown>, ...keys: string[]): void {
  for (const key of keys) {
    const v = body[key];
    if (v !== undefined && v !== null && (typeof v !== 'object' || Array.isArray(v)))
      throw badRequest(`field "${key}" must be an object`);
  }
}

/** Maps of strings (mount options, metadata): an object, each value a string, number or boolean. */
function stringMaps(body: Record<string, unknown>, ...keys: string[]): void {
  objects(body, ...keys);
  for (const key of keys) {
    const v = body[key] as Record<string, unknown> | undefined | null;
    if (v && Object.values(v).some((x) => x !== null && typeof x === 'object'))
      throw badRequest(`field "${key}" must map names to strings`);
  }
}

function str(body: Record<string, unknown>, key: string, required = false): string | undefined {
  const v = body[key];
  if (v === undefined || v === null) {
    if (required) throw badRequest(`missing required field "${key}"`);
    return undefined;
  }
  if (typeof v !== 'string') throw badRequest(`field "${key}" must be a string`);
  return v;
}

function mountInfo(core: SecretsCore, ns: string, kind: 'secret' | 'auth'): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const m of core.mounts.values()) {
    if (m.kind !== kind || !m.path.startsWith(ns)) continue;
    const rel = m.path.slice(ns.length);
    if (core.splitNamespace(m.path.replace(/\/$/, '')).namespace !== ns.replace(/\/$/, '')) continue;
    const name = kind === 'auth' ? rel.replace(/^auth\//, '') : rel;
    out[core.rules.mountListKey(name)] = {
      type: m.type,
      accessor: m.accessor,
      description: m.description,
      options: m.options,
      config: { default_lease_ttl: 0, max_lease_ttl: 0 },
    };
  }
  return core.rules.mountListing(out, kind);
}

/** The health answer, with the version as the release rules report it (release/rules.ts). */
function healthBody(ctx: SysContext, version: string): Record<string, unknown> {
  const body: Record<string, unknown> = {
    initialized: true,
    sealed: false,
    standby: false,
    version: ctx.core.release.reportedVersion(version),
  };
  return ctx.core.release.healthBody(body, ctx.core.options.clock.now());
}

const routes: SysRoute[] = [
  {
    pattern: /^sys\/health$/,
    async handle(ctx) {
      // The version the reference was started at (--version): release-gated behaviour follows it.
      const version = String(ctx.core.options.settings.version ?? '1.13.10');
      return { rawBody: healthBody(ctx, version) };
    },
  },
  {
    pattern: /^sys\/mounts$/,
    async handle(ctx) {
      requireCap(ctx, 'read');
      if (ctx.method !== 'GET') throw methodNotAllowed();
      return { data: mountInfo(ctx.core, nsPrefix(ctx), 'secret') };
    },
  },
  {
    pattern: /^sys\/mounts\/(.+)$/,
    async handle(ctx, m) {
      const path = nsPrefix(ctx) + m[1]!;
      if (ctx.method === 'POST' || ctx.method === 'PUT') {
        requireCap(ctx, 'update');
        const type = str(ctx.body, 'type', true)!;
        objects(ctx.body, 'config');
        stringMaps(ctx.body, 'options');
        const options = (ctx.body.options ?? {}) as Record<string, unknown>;
        if (typeof options !== 'object' || Array.isArray(options)) throw badRequest('options must be an object');
        const opts: Record<string, string> = {};
        for (const [k, v] of Object.entries(options)) opts[k] = String(v);
        if (['sys', 'auth', 'cubbyhole', 'identity'].includes(m[1]!.split('/')[0]!))
          throw badRequest(`cannot mount at reserved path ${m[1]}`);
        if (!ctx.core.rules.enablesMount) return {};
        await ctx.core.mount(path, type, 'secret', opts, str(ctx.body, 'description') ?? '');
        return {};
      }
      if (ctx.method === 'DELETE') {
        requireCap(ctx, 'delete');
        await ctx.core.unmount(path);
        return {};
      }
      if (ctx.method === 'GET') {
        requireCap(ctx, 'read');
        const mount = ctx.core.mounts.get(path.replace(/\/*$/, '/'));
        if (!mount) throw badRequest(`no mount at ${m[1]}`);
        return {
          data: {
            type: mount.type,
            options: ctx.core.rules.mountReadOptions(mount.options),
            accessor: mount.accessor,
            description: mount.description,
          },
        };
      }
      throw methodNotAllowed();
    },
  },
  {
    pattern: /^sys\/auth$/,
    async handle(ctx) {
      requireCap(ctx, 'read');
      return { data: mountInfo(ctx.core, nsPrefix(ctx), 'auth') };
    },
  },
  {
    pattern: /^sys\/auth\/(.+)$/,
    async handle(ctx, m) {
      requireCap(ctx, 'sudo');
      const path = `${nsPrefix(ctx)}auth/${m[1]}`;
      if (ctx.method === 'POST' || ctx.method === 'PUT') {
        const type = str(ctx.body, 'type', true)!;
        objects(ctx.body, 'config');
        stringMaps(ctx.body, 'options');
        if (!ctx.core.rules.enablesAuthMethod) return {};
        await ctx.core.mount(path, type, 'auth', {}, str(ctx.body, 'description') ?? '');
        return {};
      }
      if (ctx.method === 'DELETE') {
        await ctx.core.unmount(path);
        return {};
      }
      throw methodNotAllowed();
    },
  },
  {
    pattern: /^sys\/policies\/acl\/?$/,
    async handle(ctx) {
      requireCap(ctx, 'list');
      listOnly(ctx);
      if (ctx.method !== 'LIST' && ctx.method !== 'GET') throw methodNotAllowed();
      return { data: { keys: ['default', 'root', ...[...ctx.core.policies.keys()]].sort() } };
    },
  },
  {
    pattern: /^sys\/policies\/acl\/([^/]+)$/,
    async handle(ctx, m) {
      const name = m[1]!;
      requireCap(ctx, capFor(ctx.method));
      if (ctx.method === 'GET') {
        const p = ctx.core.rules.storedPolicy(ctx.core.policies, name);
        if (!p) throw notFound();
        return { data: { name, policy: p.source } };
      }
      if (ctx.method === 'POST' || ctx.method === 'PUT') {
        if (name === 'root' || name === 'default') throw badRequest(`cannot update "${name}" policy`);
        const lax = !ctx.core.rules.policyRequired;
        const source = lax ? (str(ctx.body, 'policy') ?? '') : str(ctx.body, 'policy', true)!;
        try {
          ctx.core.policies.set(name, lax && !source ? { name, source, rules: [] } : await parsePolicy(name, source));
        } catch (err) {
          throw badRequest((err as Error).message);
        }
        return {};
      }
      if (ctx.method === 'DELETE') {
        ctx.core.policies.delete(name);
        return {};
      }
      throw methodNotAllowed();
    },
  },
  {
    pattern: /^sys\/policies\/password\/([^/]+)\/generate$/,
    async handle(ctx, m) {
      requireCap(ctx, 'read');
      const p = ctx.core.passwordPolicies.get(m[1]!);
      if (!p) throw notFound();
      return { data: { password: generateFromPolicy(p) } };
    },
  },
  {
    pattern: /^sys\/policies\/password\/?$/,
    async handle(ctx) {
      requireCap(ctx, 'list');
      listOnly(ctx);
      return { data: { keys: ctx.core.passwordPolicies.names() } };
    },
  },
  {
    pattern: /^sys\/policies\/password\/([^/]+)$/,
    async handle(ctx, m) {
      const name = m[1]!;
      requireCap(ctx, capFor(ctx.method));
      if (ctx.method === 'GET') {
        const p = ctx.core.passwordPolicies.get(name);
        if (!p) throw notFound();
        return { data: { policy: p.source } };
      }
      if (ctx.method === 'POST' || ctx.method === 'PUT') {
        const source = str(ctx.body, 'policy', true)!;
        try {
          ctx.core.passwordPolicies.set(name, await parsePasswordPolicy(source));
        } catch (err) {
          throw badRequest(`invalid password policy: ${(err as Error).message}`);
        }
        return {};
      }
      if (ctx.method === 'DELETE') {
        ctx.core.passwordPolicies.delete(name);
        return {};
      }
      throw methodNotAllowed();
    },
  },
  {
    pattern: /^sys\/namespaces\/?$/,
    async handle(ctx) {
      requireCap(ctx, 'list');
      listOnly(ctx);
      const prefix = nsPrefix(ctx);
      const keys = [...ctx.core.namespaces]
        .filter((n) => n?.startsWith(prefix) && !n.slice(prefix.length).includes('/'))
        .map((n) => `${n.slice(prefix.length)}/`);
      return { data: { keys } };
    },
  },
  {
    pattern: /^sys\/namespaces\/(.+)$/,
    async handle(ctx, m) {
      const name = nsPrefix(ctx) + m[1]!.replace(/\/+$/, '');
      requireCap(ctx, capFor(ctx.method));
      if (ctx.method === 'POST' || ctx.method === 'PUT') {
        if (!/^[A-Za-z0-9_-]+$/.test(m[1]!.replace(/\/+$/, '')))
          throw badRequest('namespace name must be one path segment of letters, digits, - and _');
        stringMaps(ctx.body, 'custom_metadata');
        if (!ctx.core.namespaces.has(name)) {
          ctx.core.namespaces.add(name);
          await ctx.core.mount(`${name}/auth/token/`, 'token', 'auth', {});
        }
        return { data: { path: `${name}/`, id: name } };
      }
      if (ctx.method === 'GET') {
        if (!ctx.core.namespaces.has(name)) throw notFound();
        return { data: { path: `${name}/`, id: name } };
      }
      if (ctx.method === 'DELETE') {
        for (const mount of [...ctx.core.mounts.keys()])
          if (mount.startsWith(`${name}/`)) await ctx.core.unmount(mount);
        ctx.core.namespaces.delete(name);
        return {};
      }
      throw methodNotAllowed();
    },
  },
  {
    pattern: /^sys\/leases\/(revoke|revoke-force)(?:\/(.+))?$/,
    async handle(ctx, m) {
      requireCap(ctx, 'update', `${nsPrefix(ctx)}sys/leases/revoke`);
      const id = m[2] ?? str(ctx.body, 'lease_id') ?? str(ctx.body, 'lease_id', true);
      if (!ctx.core.leases.get(id!)) throw badRequest('invalid lease');
      await ctx.core.leases.revoke(id!);
      return {};
    },
  },
  {
    pattern: /^sys\/leases\/revoke-prefix\/(.+)$/,
    async handle(ctx, m) {
      requireCap(ctx, 'sudo');
      await ctx.core.leases.revokePrefix(m[1]!);
      return {};
    },
  },
  {
    pattern: /^sys\/leases\/renew(?:\/(.+))?$/,
    async handle(ctx, m) {
      const id = m[1] ?? str(ctx.body, 'lease_id', true)!;
      const inc = ctx.body.increment === undefined ? undefined : parseDuration(ctx.body.increment as string | number);
      const lease = await ctx.core.leases.renew(id, inc);
      if (!lease) throw badRequest('lease not found');
      if (!lease.spec.renewable) throw badRequest('lease is not renewable');
      return {
        rawBody: {
          request_id: crypto.randomUUID(),
          lease_id: lease.id,
          renewable: lease.spec.renewable,
          lease_duration: ctx.core.leases.remaining(lease),
          data: null,
          wrap_info: null,
          warnings: null,
          auth: null,
        },
      };
    },
  },
  {
    pattern: /^sys\/leases\/lookup$/,
    async handle(ctx) {
      const id = str(ctx.body, 'lease_id', true)!;
      const lease = ctx.core.leases.get(id);
      if (!lease) throw badRequest('invalid lease');
      return {
        data: {
          id: lease.id,
          issue_time: timestamp(ctx, lease.issuedAt),
          expire_time: Number.isFinite(lease.expiresAt) ? timestamp(ctx, lease.expiresAt) : null,
          ttl: ctx.core.leases.remaining(lease),
          renewable: lease.spec.renewable,
        },
      };
    },
  },
  {
    pattern: /^sys\/reference\/clock$/,
    async handle(ctx) {
      if (!ctx.token?.root) throw forbidden();
      if (ctx.method === 'GET')
        return {
          data: {
            now: new Date(ctx.core.options.clock.now()).toISOString(),
            now_ms: ctx.core.options.clock.now(),
            offset_ms: ctx.core.options.clock.offset(),
          },
        };
      const seconds = Number(ctx.body.advance);
      if (!Number.isFinite(seconds) || seconds < 0)
        throw badRequest('advance must be a non-negative number of seconds');
      if (seconds > MAX_ADVANCE_SECONDS) throw badRequest(`advance must be at most ${MAX_ADVANCE_SECONDS} seconds`);
      // Checked before moving: a refused move leaves the time as it was.
      const problem = advanceProblem(ctx.core.options.clock.now(), seconds * 1000);
      if (problem)
        throw badRequest(
          problem.replace(
            'advance needs a non-negative, finite number',
            'advance must be a non-negative number of seconds',
          ),
        );
      await ctx.core.options.clock.advance(seconds * 1000);
      // Let engine timers that awaited I/O settle before answering.
      await new Promise((r) => setTimeout(r, 20));
      return {
        data: {
          now: new Date(ctx.core.options.clock.now()).toISOString(),
          now_ms: ctx.core.options.clock.now(),
          offset_ms: ctx.core.options.clock.offset(),
        },
      };
    },
  },
  {
    // Reference-only listener settings, so one running reference can show both sides of a rule.
    pattern: /^sys\/reference\/config$/,
    async handle(ctx) {
      if (!ctx.token?.root) throw forbidden();
      const opts = ctx.core.options;
      if (ctx.method === 'POST' || ctx.method === 'PUT') {
        const v = ctx.body.require_request_header;
        if (v !== undefined && typeof v !== 'boolean') throw badRequest('require_request_header must be a boolean');
        if (v !== undefined) opts.requireRequestHeader = v;
      }
      return {
        data: { require_request_header: !!opts.requireRequestHeader, version: String(opts.settings.version ?? '') },
      };
    },
  },
  {
    pattern: /^auth\/token\/create(?:-orphan)?$/,
    async handle(ctx) {
      const caller = ctx.token!;
      requireCap(ctx, 'update', `${nsPrefix(ctx)}auth/token/create`);
      stringMaps(ctx.body, 'meta');
      const policies =
        ctx.body.policies === undefined ? caller.policies.filter((p) => p !== 'root') : ctx.body.policies;
      if (!Array.isArray(policies) || policies.some((p) => typeof p !== 'string'))
        throw badRequest('policies must be a list of strings');
      if (!caller.root && policies.some((p) => !caller.policies.includes(p as string)))
        throw badRequest('child policies must be subset of parent');
      const ttl = ctx.body.ttl === undefined ? 0 : parseDuration(ctx.body.ttl as string | number);
      const displayName = str(ctx.body, 'display_name') ?? '';
      const entry = ctx.core.tokens.create({
        policies: (policies as string[]).length ? (policies as string[]) : ['default'],
        displayName: displayName ? `token-${displayName}` : 'token',
        ttl,
        namespace: ctx.namespace,
        entityId: str(ctx.body, 'entity_alias') ? undefined : '',
        meta: (ctx.body.meta as Record<string, string> | undefined) ?? {},
      });
      return { auth: ctx.core.tokens.authBlock(entry) };
    },
  },
  {
    pattern: /^auth\/token\/lookup-self$/,
    async handle(ctx) {
      const t = ctx.token!;
      return { data: lookupData(ctx, t) };
    },
  },
  {
    pattern: /^auth\/token\/lookup$/,
    async handle(ctx) {
      requireCap(ctx, 'update');
      const t = ctx.core.tokens.lookup(str(ctx.body, 'token', true)!);
      if (!t) throw badRequest('bad token');
      return { data: lookupData(ctx, t) };
    },
  },
  {
    pattern: /^auth\/token\/revoke-self$/,
    async handle(ctx) {
      ctx.core.tokens.revoke(ctx.token!.id);
      return {};
    },
  },
  {
    pattern: /^auth\/token\/revoke$/,
    async handle(ctx) {
      requireCap(ctx, 'update');
      ctx.core.tokens.revoke(str(ctx.body, 'token', true)!);
      return {};
    },
  },
];

function lookupData(ctx: SysContext, t: TokenEntry): Record<string, unknown> {
  const clock = ctx.core.options.clock;
  return ctx.core.tokens.shapeLookup(t, {
    accessor: t.accessor,
    creation_time: Math.floor(t.createdAt / 1000),
    creation_ttl: t.ttl,
    display_name: t.displayName,
    entity_id: t.entityId,
    expire_time: Number.isFinite(t.expiresAt) ? timestamp(ctx, t.expiresAt) : null,
    id: t.id,
    meta: t.meta,
    namespace_path: t.namespace ? `${t.namespace}/` : '',
    path: t.path,
    policies: t.policies,
    ttl: Number.isFinite(t.expiresAt) ? Math.max(0, Math.floor((t.expiresAt - clock.now()) / 1000)) : 0,
    type: 'service',
  });
}

export async function handleSys(ctx: SysContext): Promise<EngineResponse> {
  for (const route of [...sysExtensions, ...routes]) {
    const match = route.pattern.exec(ctx.rest);
    if (match) {
      try {
        return await route.handle(ctx, match);
      } catch (err) {
        if (err instanceof SvcError) throw err;
        throw badRequest((err as Error).message);
      }
    }
  }
  throw unsupportedPath();
}
