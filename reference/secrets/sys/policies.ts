/** sys/policies/acl and sys/policies/password: ACL policies and password policies (with generate). */
import { parsePolicy } from '../acl.js';
import { badRequest, methodNotAllowed, notFound } from '../errors.js';
import { generateFromPolicy, parsePasswordPolicy } from '../password-policies.js';
import type { SysRoute } from '../sys.js';
import { capFor, listOnly, requireCap, str } from './helpers.js';

export const policyRoutes: SysRoute[] = [
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
        const p = ctx.core.rules.storedPolicy(ctx.core.policies, name, ctx.core.options.clock.now());
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
        if (ctx.core.rules.deletesPolicy) ctx.core.policies.delete(name);
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
];
