/** sys/health, sys/mounts, sys/auth and sys/namespaces: the service's health, its mounts, auth methods and namespaces. */
import { badRequest, methodNotAllowed, notFound } from '../errors.js';
import type { SecretsCore } from '../core.js';
import type { SysContext, SysRoute } from '../sys.js';
import { capFor, listOnly, nsPrefix, objects, requireCap, str, stringMaps } from './helpers.js';

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
  return core.rules.mountListing(out, kind, core.options.clock.now());
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

export const mountRoutes: SysRoute[] = [
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
    pattern: /^sys\/namespaces\/?$/,
    async handle(ctx) {
      requireCap(ctx, 'list');
      listOnly(ctx);
      const prefix = nsPrefix(ctx);
      const keys = [...ctx.core.namespaces]
        // The namespace itself (the root is '') is not its own child.
        .filter((n) => n.length > prefix.length && n.startsWith(prefix) && !n.slice(prefix.length).includes('/'))
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
        // Its child namespaces go with it.
        for (const n of [...ctx.core.namespaces])
          if (n === name || n.startsWith(`${name}/`)) ctx.core.namespaces.delete(n);
        return {};
      }
      throw methodNotAllowed();
    },
  },
];
