/** sys/leases: revoke (and revoke-force, revoke-prefix), renew and lookup of leases. */
import { badRequest } from '../errors.js';
import { parseDuration } from '../duration.js';
import type { SysRoute } from '../sys.js';
import { nsPrefix, requireCap, str, timestamp } from './helpers.js';

export const leaseRoutes: SysRoute[] = [
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
];
