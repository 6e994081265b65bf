/**
 * The router of the reference scheduler. Each route declares its method, path, body parsing and the
 * permission it needs (route metadata); the router matches the request, parses the body and makes
 * the ACL check, so every check is made here, against one table (rules.capabilities).
 *
 * Paths: `:name` is one path segment, `*name` one or more characters including slashes (job IDs
 * may hold slashes). The first route whose path matches decides: when none of the routes of that
 * path takes the method, the answer is 405.
 */
import type { AclStore, AclToken } from './acl.js';
import { forbidden, methodNotAllowed, notFound } from './errors.js';
import { type Ctx, jsonBody, type Reply } from './http.js';
import type { Job } from './job.js';
import type { Permission, SchedulerRules } from './rules.js';

/** WRITE: POST or PUT (the scheduler takes either for its writes); ANY: every method. */
export type Method = 'GET' | 'WRITE' | 'DELETE' | 'ANY';

export interface Request {
  params: Record<string, string>;
  /** The parsed JSON body (`{}` when the route declares none). */
  body: Job;
  /** The job of the body, when the route declares `job`. */
  job: Job;
}

export interface Route {
  method: Method;
  path: string | RegExp;
  /** The body: a JSON object, or 'optional-json' where an empty body reads as `{}`. */
  body?: 'json' | 'optional-json';
  /**
   * The job in the body, read before the ACL check: the request's namespace becomes the job's (the
   * namespace checked). A route with `job` parses its body before the check; others after it.
   */
  job?: (ctx: Ctx, body: Job, params: Record<string, string>) => Job;
  /** The permission checked in the request's namespace. */
  acl?: Permission;
  /** namespace=* is checked per namespace by the handler (`Guard.allows`), not up front. */
  aclPerNamespace?: boolean;
  handle(ctx: Ctx, req: Request): Reply | Promise<Reply>;
}

/** The ACL check: the one place a token's capabilities are looked at. */
export class Guard {
  constructor(
    private readonly acl: AclStore,
    private readonly enabled: boolean,
    private readonly rules: SchedulerRules,
  ) {}

  /**
   * Passes when ACLs are off or the token holds any one of the capabilities of the permission
   * `endpoint` (the document's `METHOD /path`) checks.
   */
  allows(token: AclToken | null, endpoint: string, permission: Permission, namespace: string): boolean {
    const checked = this.rules.endpointPermission(endpoint, permission);
    const caps = checked === null ? null : this.rules.capabilities[checked];
    if (!this.enabled || caps === null) return true;
    const ns = this.rules.aclNamespace(namespace, checked!);
    return caps.some((c) => this.acl.allows(token, ns, c));
  }

  check(ctx: Ctx, endpoint: string, permission: Permission, namespace = ctx.namespace): void {
    if (!this.allows(ctx.token, endpoint, permission, namespace)) throw forbidden();
  }
}

/** A route's endpoint as the document's table writes it: `POST /v1/job/:job_id/plan`. */
export function endpointOf(route: Pick<Route, 'method' | 'path'>): string {
  const method = route.method === 'WRITE' ? 'POST' : route.method;
  return `${method} ${String(route.path).replace('*id', ':job_id').replace('/:tag/', '/:tag_name/')}`;
}

const METHODS: Record<Method, (m: string) => boolean> = {
  GET: (m) => m === 'GET',
  WRITE: (m) => m === 'POST' || m === 'PUT',
  DELETE: (m) => m === 'DELETE',
  ANY: () => true,
};

interface Compiled {
  route: Route;
  key: string;
  pattern: RegExp;
  names: string[];
}

function compile(route: Route): Compiled {
  if (route.path instanceof RegExp) return { route, key: String(route.path), pattern: route.path, names: [] };
  const names: string[] = [];
  const source = route.path
    .split('/')
    .map((seg) => {
      if (seg.startsWith(':')) {
        names.push(seg.slice(1));
        return '([^/]+)';
      }
      if (seg.startsWith('*')) {
        names.push(seg.slice(1));
        return '(.+)';
      }
      return seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    })
    .join('/');
  return { route, key: route.path, pattern: new RegExp(`^${source}$`), names };
}

/** A route's name in the rules (parameter-rules.ts RouteKey): `GET /v1/job/*id/versions`. */
export const routeKey = (route: Route): string => `${route.method} ${String(route.path)}`;

export class Router {
  private readonly routes: Compiled[];

  constructor(
    routes: Route[],
    private readonly guard: Guard,
    private readonly rules: SchedulerRules,
  ) {
    this.routes = routes.map(compile);
  }

  async route(ctx: Ctx): Promise<Reply> {
    const first = this.routes.find((r) => r.pattern.test(ctx.path));
    if (!first) throw notFound('Invalid URL');
    const chosen = this.routes.find((r) => r.key === first.key && METHODS[r.route.method](ctx.method));
    if (!chosen) throw methodNotAllowed();
    const { route } = chosen;
    const endpoint = endpointOf(route);
    if (!this.rules.served(endpoint)) throw notFound('Invalid URL');
    const key = routeKey(route);
    ctx.namespace = this.rules.requestNamespace(key, ctx.namespace);
    const match = chosen.pattern.exec(ctx.path)!;
    const params = Object.fromEntries(chosen.names.map((n, i) => [n, match[i + 1]!]));
    const parse = () => (route.body ? jsonBody(ctx, { optional: route.body === 'optional-json' }) : {});
    let body: Job | undefined;
    let job: Job = {};
    if (route.job) {
      body = parse();
      job = route.job(ctx, body, params);
      ctx.namespace = job.Namespace;
    }
    // A broken scheduler (rules.policyOverrideIsAdditional off) takes policy-override instead of the endpoint's own.
    const overriding =
      !this.rules.policyOverrideIsAdditional &&
      (body ??= parse()).PolicyOverride === true &&
      this.guard.allows(ctx.token, endpoint, 'policy-override', ctx.namespace);
    if (route.acl && !overriding && !(route.aclPerNamespace && ctx.namespace === '*'))
      this.guard.check(ctx, endpoint, route.acl);
    body ??= parse();
    const reply = await route.handle(ctx, { params, body, job });
    return { ...reply, body: this.rules.answer(key, this.rules.endpointAnswer(endpoint, reply.body)) };
  }
}
