/**
 * `sys/` and `auth/token/` routes of the reference: the request they see (SysContext), and the
 * dispatch to the routes of sys/: mounts.ts (health, mounts, auth methods, namespaces),
 * policies.ts (ACL and password policies), leases.ts, tokens.ts (auth/token), reference.ts (the
 * reference-only clock and settings), cors.ts (sys/config/cors). Extra sys routes from engines (locked users, the release
 * area's) register in sys/extensions.ts.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { EngineResponse } from './engine.js';
import type { Method, SecretsCore } from './core.js';
import type { TokenEntry } from './tokens.js';
import { SvcError, badRequest } from './errors.js';
import { corsRoutes } from './sys/cors.js';
import { sysExtensions } from './sys/extensions.js';
import { leaseRoutes } from './sys/leases.js';
import { mountRoutes } from './sys/mounts.js';
import { policyRoutes } from './sys/policies.js';
import { referenceRoutes } from './sys/reference.js';
import { tokenRoutes } from './sys/tokens.js';

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

/** Every route, the engines' extensions first; the first whose pattern matches serves the request (the patterns do not overlap). */
const routes: SysRoute[] = [
  ...sysExtensions,
  ...mountRoutes,
  ...policyRoutes,
  ...leaseRoutes,
  ...referenceRoutes,
  ...tokenRoutes,
  ...corsRoutes,
];

export async function handleSys(ctx: SysContext): Promise<EngineResponse> {
  for (const route of routes) {
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
  throw ctx.core.rules.unknownSysPath();
}
