/**
 * sys/config/cors, as the real product has it (the documents name only its effect: with CORS
 * enabled a disallowed origin answers 403). POST or PUT `{allowed_origins, allowed_headers}`
 * enables it, GET reads it, DELETE turns it off. The origin check itself is in server.ts.
 */
import { badRequest, methodNotAllowed } from '../errors.js';
import type { SysRoute } from '../sys.js';
import { requireCap } from './helpers.js';

/** A list of strings given as a list or as one comma-separated string. */
function strings(value: unknown, field: string): string[] {
  if (value === undefined || value === null) return [];
  const items = typeof value === 'string' ? value.split(',') : value;
  if (!Array.isArray(items) || items.some((v) => typeof v !== 'string'))
    throw badRequest(`field "${field}" must be a list of strings`);
  return (items as string[]).map((v) => v.trim()).filter(Boolean);
}

export const corsRoutes: SysRoute[] = [
  {
    pattern: /^sys\/config\/cors$/,
    async handle(ctx) {
      const cors = ctx.core.cors;
      switch (ctx.method) {
        case 'GET':
          requireCap(ctx, 'read');
          return {
            data: {
              enabled: cors.enabled,
              allowed_origins: cors.enabled ? [...cors.allowedOrigins] : [],
              allowed_headers: cors.enabled ? [...cors.allowedHeaders] : [],
            },
          };
        case 'POST':
        case 'PUT': {
          requireCap(ctx, 'update');
          const origins = strings(ctx.body.allowed_origins, 'allowed_origins');
          if (!origins.length) throw badRequest('at least one origin or the wildcard must be provided');
          cors.allowedOrigins = origins;
          cors.allowedHeaders = strings(ctx.body.allowed_headers, 'allowed_headers');
          cors.enabled = true;
          return {};
        }
        case 'DELETE':
          requireCap(ctx, 'delete');
          cors.enabled = false;
          cors.allowedOrigins = [];
          cors.allowedHeaders = [];
          return {};
        default:
          throw methodNotAllowed();
      }
    },
  },
];
