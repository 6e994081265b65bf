/**
 * The reference job scheduler: the jobs HTTP API of jobs-service.md on node:http, with the action
 * stream on `ws`. Errors are plain text (as the real scheduler writes them); every malformed
 * request is a 4xx. This file wires the parts: the rules (rules.ts, with the switches of
 * switches/ applied), the store, the routes (routes/*.ts, one module per group of endpoints, each
 * route declaring its method, path, body and permission), the router (router.ts: matching, body
 * parsing, the ACL check) and the one response function (http.ts).
 *
 * Reference-only controls (not part of the jobs API):
 * - Holding a deployment active: register a service job whose group has an update block and whose
 *   job Meta has `"ref.hold-deployment": "true"`; its deployment stays `running` (so scaling it
 *   answers 400) until a newer version or a stop cancels it. Without the key a deployment turns
 *   `successful` once its allocations have run for the group's MinHealthyTime on the clock.
 * - POST /v1/reference/clock {"advance": seconds}: moves the scheduler's own clock, not the secrets
 *   service's (allocations start 1 s after placement, batch tasks exit 5 s after starting,
 *   periodic launches follow the clock).
 * - POST /v1/reference/acl/tokens {"Name", "Type": "client"|"management",
 *   "Namespaces": {"<namespace or glob>": {"Policy": "read"|"write"|"scale"|"deny",
 *   "Capabilities": ["read-job", ...]}}} -> {AccessorID, SecretID, ...}: creates a token (needs
 *   the management token when ACLs are enabled); DELETE /v1/reference/acl/tokens/:accessor
 *   revokes one. Tokens travel in X-Sched-Token or
 *   Authorization: Bearer.
 * - PUT|POST /v1/system/gc (the real scheduler's forced garbage collection, also at
 *   /v1/reference/gc): removes stopped jobs whose allocations finished, and finished children.
 * - Namespaces come into being when a job is first registered in them.
 */
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Clock } from '../clock.js';
import type { Faults } from '../faults.js';
import { Variants } from '../variants.js';
import { AclStore, type AclToken } from './acl.js';
import { ActionStreams } from './actions.js';
import { forbidden, SchedError } from './errors.js';
import { block, type Ctx, readBody, refusalWire, replyWire, requestTarget, responder } from './http.js';
import { actionRoutes, actionUpgrade } from './routes/action.js';
import { allocationRoutes } from './routes/allocations.js';
import { controlRoutes } from './routes/control.js';
import type { Deps } from './routes/deps.js';
import { dispatchRoutes } from './routes/dispatch.js';
import { jobRoutes } from './routes/jobs.js';
import { schedulingRoutes } from './routes/scheduling.js';
import { versionRoutes } from './routes/versions.js';
import { Guard, Router } from './router.js';
import { Store } from './store.js';
import type { SchedulerDelays } from './delays.js';
import { schedulerRules, schedulerWire } from './switches/index.js';

export interface SchedulerControl {
  store: Store;
  acl: AclStore;
  /** Moves the scheduler's clock forward (milliseconds). */
  advance(ms: number): Promise<void>;
  createToken(input: {
    Name?: string;
    Type?: 'client' | 'management';
    Namespaces?: Record<string, { Policy?: string; Capabilities?: string[] }>;
  }): AclToken;
  gc(): number;
}

export async function startScheduler(opts: {
  port?: number;
  host?: string;
  clock: Clock;
  faults: Faults;
  variants?: Variants;
  aclEnabled?: boolean;
  managementToken?: string;
  /** How long its work takes after it answered (delays.ts; defaults: DEFAULT_DELAYS). */
  delays?: SchedulerDelays;
}): Promise<{ addr: string; close(): Promise<void>; control: SchedulerControl }> {
  const { clock } = opts;
  const variants = opts.variants ?? new Variants();
  const rules = schedulerRules(opts.faults, variants);
  const aclEnabled = opts.aclEnabled ?? false;
  if (aclEnabled && !opts.managementToken) throw new Error('aclEnabled needs a managementToken');
  const store = new Store(clock, rules, opts.delays);
  const acl = new AclStore(opts.managementToken);
  const streams = new ActionStreams(rules);
  const guard = new Guard(acl, aclEnabled, rules);
  const deps: Deps = { store, acl, aclEnabled, guard, clock, rules };
  // The first route whose path matches decides: the routes on a bare job ID (jobRoutes) come last.
  const router = new Router(
    [
      ...versionRoutes(deps),
      ...allocationRoutes(deps),
      ...schedulingRoutes(deps),
      ...dispatchRoutes(deps),
      ...actionRoutes(),
      ...controlRoutes(deps),
      ...jobRoutes(deps),
    ],
    guard,
    rules,
  );
  const send = responder(store, schedulerWire(opts.faults, variants));

  const resolveToken = (headers: IncomingMessage['headers']): AclToken | null => {
    const bearer = /^Bearer\s+(.+)$/i.exec(String(headers.authorization ?? ''))?.[1];
    const secret = String(headers['x-sched-token'] ?? headers['x-nomad-token'] ?? bearer ?? '').trim();
    if (!aclEnabled) return null;
    if (!secret) return { AccessorID: 'anonymous', SecretID: '', Name: 'anonymous', Type: 'client', Namespaces: {} };
    const t = acl.lookup(secret);
    if (!t) throw forbidden('ACL token not found');
    return t;
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    try {
      const { url, path } = requestTarget(req);
      const rawBody = await readBody(req);
      const ctx: Ctx = {
        req,
        res,
        method: req.method ?? 'GET',
        path,
        query: url.searchParams,
        namespace: url.searchParams.get('namespace') || rules.defaultNamespace,
        token: resolveToken(req.headers),
        rawBody,
      };
      if (ctx.method === 'GET') await block(store, url.searchParams);
      send(res, replyWire(await router.route(ctx)));
    } catch (err) {
      if (err instanceof SchedError) send(res, refusalWire(err));
      else {
        console.error('[scheduler] unexpected error:', (err as Error).message);
        send(res, { status: 500, body: 'internal error', contentType: 'text/plain; charset=utf-8', headers: {} });
      }
    }
  };

  const server = http.createServer((req, res) => void handle(req, res));
  server.requestTimeout = 30_000;
  server.headersTimeout = 15_000;
  server.keepAliveTimeout = 5_000;
  server.on('upgrade', actionUpgrade(deps, streams, resolveToken));
  server.on('clientError', (_err, socket) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
    else socket.destroy();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;

  const controlApi: SchedulerControl = {
    store,
    acl,
    advance: (ms) => clock.advance(ms),
    createToken: (input) => acl.create(input),
    gc: () => store.gc(),
  };

  return {
    addr: `http://${host}:${address.port}`,
    control: controlApi,
    close: async () => {
      for (const e of store.jobs.values()) e.cancelPeriodic?.();
      streams.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
