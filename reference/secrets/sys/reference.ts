/**
 * sys/reference: the reference-only controls (its clock, its listener settings, the environment one
 * mount's engine sees), not part of the documents.
 */
import { advanceProblem, MAX_ADVANCE_SECONDS } from '../../clock.js';
import { badRequest, forbidden } from '../errors.js';
import type { SysRoute } from '../sys.js';
import { nsPrefix } from './helpers.js';

export const referenceRoutes: SysRoute[] = [
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
    // The environment one mount's engine sees, standing for a service started with these variables
    // (the cloud engine's CLOUD_* precedence): {mount, variables} replaces the reference's own
    // environment for that mount until it is unmounted. Only the names are answered (values may be secrets).
    pattern: /^sys\/reference\/environment$/,
    async handle(ctx) {
      if (!ctx.token?.root) throw forbidden();
      if (ctx.method !== 'POST' && ctx.method !== 'PUT') throw badRequest('write {mount, variables}');
      const { mount, variables } = ctx.body as { mount?: unknown; variables?: unknown };
      if (typeof mount !== 'string' || !mount) throw badRequest('mount must name a mount path');
      if (!variables || typeof variables !== 'object' || Array.isArray(variables))
        throw badRequest('variables must be an object of strings');
      const vars: Record<string, string> = {};
      for (const [k, v] of Object.entries(variables)) {
        if (typeof v !== 'string') throw badRequest(`variables.${k} must be a string`);
        vars[k] = v;
      }
      const path = `${nsPrefix(ctx)}${mount}`.replace(/^\/+/, '').replace(/\/*$/, '/');
      if (!ctx.core.mounts.has(path)) throw badRequest(`no mount at ${mount}`);
      ctx.core.mountEnvironments.set(path, vars);
      return { data: { mount: path, names: Object.keys(vars).sort() } };
    },
  },
];
