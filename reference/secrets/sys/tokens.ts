/** auth/token: creating, looking up and revoking tokens. */
import type { TokenEntry } from '../tokens.js';
import { badRequest } from '../errors.js';
import { parseDuration } from '../duration.js';
import type { SysContext, SysRoute } from '../sys.js';
import { nsPrefix, requireCap, str, stringMaps, timestamp } from './helpers.js';

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

export const tokenRoutes: SysRoute[] = [
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
