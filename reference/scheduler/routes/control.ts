/**
 * Reference-only controls (not part of the jobs API; see server.ts): the clock, ACL tokens, and
 * forced garbage collection (also the real scheduler's PUT /v1/system/gc).
 */
import { advanceProblem } from '../../clock.js';
import { badRequest, forbidden, methodNotAllowed, notFound } from '../errors.js';
import { type Ctx, jsonBody, type Reply } from '../http.js';
import type { Route } from '../router.js';
import type { Deps } from './deps.js';

const TOKENS = '/v1/reference/acl/tokens';

export function controlRoutes(d: Deps): Route[] {
  const { store, acl, aclEnabled, clock, rules } = d;
  const management = (ctx: Ctx) => {
    if (aclEnabled && ctx.token?.Type !== 'management') throw forbidden();
  };

  const control = async (ctx: Ctx): Promise<Reply> => {
    const path = ctx.path;
    if (ctx.method === 'DELETE' && path.startsWith(`${TOKENS}/`)) {
      management(ctx);
      if (!acl.revoke(decodeURIComponent(path.slice(`${TOKENS}/`.length)))) throw notFound('token not found');
      return { body: {} };
    }
    if (!(ctx.method === 'POST' || ctx.method === 'PUT')) throw methodNotAllowed();
    if (path === '/v1/reference/clock') {
      const body = jsonBody(ctx);
      const s = body.advance;
      if (typeof s !== 'number' || !Number.isFinite(s) || s < 0)
        throw badRequest('advance must be a non-negative number of seconds');
      // Checked before moving: a refused move leaves the time as it was.
      const problem = advanceProblem(clock.now(), s * 1000);
      if (problem) throw badRequest(problem);
      await clock.advance(s * 1000);
      return { body: { now: clock.now() } };
    }
    management(ctx);
    if (path === TOKENS) return { body: acl.create(jsonBody(ctx)) };
    if (path === '/v1/reference/gc' || path === '/v1/system/gc') {
      // Variant: the real scheduler only queues a forced collection; it happens after the answer.
      if (rules.gcQueued) {
        // Rule gcQueued: the collection runs delays.gcMs (delays.ts) after the answer.
        clock.at(clock.now() + store.delays.gcMs, () => {
          store.gc();
        });
        return { body: {} };
      }
      return { body: { Removed: store.gc() } };
    }
    throw notFound('Invalid URL');
  };

  return [{ method: 'ANY', path: /^\/v1\/(reference\/.*|system\/gc)$/, handle: (ctx) => control(ctx) }];
}
