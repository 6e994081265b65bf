/**
 * The core's switches about the documented alternative forms on every route, nested namespaces,
 * boundaries, and reads of sys/ state right after a change (secrets-service-core.md, Endpoints >
 * Conventions, Errors, Limits, Authentication 4 and 7). Each replaces rules of core-rules.ts (see
 * reference/switches.ts); core.ts applies this table after core-switches.ts and
 * core-auth-switches.ts. A cache fault keeps its state in the closure of its replacement.
 */
import { switchesOf } from '../switches.js';
import type { Policy } from './acl.js';
import type { CoreRules } from './core-rules.js';
import { badRequest } from './errors.js';

const { fault } = switchesOf<CoreRules>(['core']);

/** How long a stale cache serves what it holds. */
const STALE_MS = 2000;
const refusesVerb = (
  d: CoreRules,
  refused: (method: string, route: string, viaVerb: boolean) => boolean,
): Partial<CoreRules> => ({
  verbServed: (method, route, viaVerb) => !refused(method, route, viaVerb) && d.verbServed(method, route, viaVerb),
});

export const coreRouteSwitches = [
  // --- every verb on every kind of route ---
  fault('core.put-refused-on-sys', {
    breaks: 'core.verbs.put-post-synonyms',
    statements: ['doc.core.conventions.put-post-synonyms', 'doc.core.conventions.verb-put'],
    description: 'PUT answers 405 on the sys/ routes (POST works there; PUT works on engines).',
    replace: (d) => refusesVerb(d, (method, route) => method === 'PUT' && route === 'sys'),
  }),
  fault('core.put-refused-on-auth', {
    breaks: 'core.verbs.put-post-synonyms',
    statements: ['doc.core.conventions.put-post-synonyms', 'doc.core.conventions.verb-put'],
    description: 'PUT answers 405 on the routes of auth methods (auth/...), where POST works.',
    replace: (d) => refusesVerb(d, (method, route) => method === 'PUT' && route === 'auth'),
  }),
  fault('core.post-refused-on-auth', {
    breaks: 'core.verbs.supported',
    statements: ['doc.core.conventions.verb-post'],
    description: 'POST answers 405 on the routes of auth methods (auth/...), where PUT works.',
    replace: (d) => refusesVerb(d, (method, route) => method === 'POST' && route === 'auth'),
  }),
  fault('core.list-verb-refused-on-auth', {
    breaks: 'core.verbs.supported',
    statements: ['doc.core.conventions.verb-list'],
    description: 'The LIST verb answers 405 on the routes of auth methods (GET ?list=true still lists there).',
    replace: (d) => refusesVerb(d, (method, route, viaVerb) => method === 'LIST' && viaVerb && route === 'auth'),
  }),
  fault('core.delete-verb-refused-on-auth', {
    breaks: 'core.verbs.supported',
    statements: ['doc.core.conventions.verb-delete'],
    description:
      'DELETE answers 405 on the routes of auth methods (a user of the username/password method cannot be deleted).',
    replace: (d) => refusesVerb(d, (method, route) => method === 'DELETE' && route === 'auth'),
  }),
  fault('core.list-query-ignored-on-sys', {
    breaks: 'core.list.verb-equals-query',
    statements: ['doc.core.conventions.list-query'],
    description:
      'GET ?list=true is served as a plain read on the sys/ routes, which their list-only paths refuse (405); the LIST verb lists there.',
    replace: (d) => ({
      listQuery: (value, route) => route !== 'sys' && d.listQuery(value, route),
      listOnlyRefusesGet: true,
    }),
  }),
  fault('core.list-query-ignored-on-auth', {
    breaks: 'core.list.verb-equals-query',
    statements: ['doc.core.conventions.list-query'],
    description: 'GET ?list=true is served as a plain read on the routes of auth methods (the LIST verb lists there).',
    replace: (d) => ({ listQuery: (value, route) => route !== 'auth' && d.listQuery(value, route) }),
  }),
  fault('core.empty-list-200-on-sys', {
    breaks: 'core.list.empty-404',
    statements: ['doc.core.conventions.list-empty-404', 'doc.core.errors.status-404-empty-list'],
    description: 'A LIST of a sys/ route with no results answers 200 with empty keys (engines answer 404).',
    replace: (d) => ({ emptyListNotFound: (route) => route !== 'sys' && d.emptyListNotFound(route) }),
  }),
  // --- namespaces: nested, and the header on every verb ---
  fault('core.namespace-header-ignored-on-list', {
    breaks: 'core.namespace.header-scopes-request',
    statements: ['doc.core.auth.namespace-header', 'doc.core.conventions.namespace-path'],
    description: 'The X-Svc-Namespace header is ignored on LIST requests (they list the root namespace).',
    replace: (d) => ({
      namespaceFromHeader: (header, method) => (method === 'LIST' ? '' : d.namespaceFromHeader(header, method)),
    }),
  }),
  fault('core.namespace-header-nested-truncated', {
    breaks: 'core.namespace.header-scopes-request',
    statements: ['doc.core.auth.namespace-header', 'doc.core.conventions.namespace-path'],
    description:
      'A nested namespace in the X-Svc-Namespace header (parent/child) is read as its first segment (parent).',
    replace: (d) => ({ namespaceFromHeader: (header, method) => d.namespaceFromHeader(header, method).split('/')[0]! }),
  }),
  fault('core.namespace-path-nested-ignored', {
    breaks: 'core.namespace.header-equals-path-prefix',
    statements: ['doc.core.conventions.namespace-full-path'],
    description:
      'A full path through nested namespaces without the header (parent/child/sys/...) is resolved in the outermost one (parent), the inner prefix taken for a path inside it; through the header it works.',
    replace: (d) => ({
      namespaceOf: (fullPath, known, header) => {
        if (header) return d.namespaceOf(fullPath, known, header);
        const outermost = known.filter((ns) => ns && !ns.includes('/'));
        return d.namespaceOf(fullPath, outermost, header);
      },
    }),
  }),
  // --- general rules on every method and every kind of route ---
  fault('core.request-header-only-on-reads', {
    breaks: 'core.request-header.required-when-configured',
    statements: ['doc.core.conventions.request-header'],
    description:
      'With require_request_header configured, only GET and LIST need X-Svc-Request; writes without it are served.',
    replace: (d) => ({
      requestHeaderRequired: (configured, method) =>
        (method === 'GET' || method === 'LIST') && d.requestHeaderRequired(configured, method),
    }),
  }),
  fault('core.trailing-period-served-on-writes', {
    breaks: 'core.path.trailing-period-404',
    statements: ['doc.core.conventions.trailing-period-404', 'doc.core.errors.trailing-period-404'],
    description: 'A path ending in a period answers 404 to GET but is served to POST, PUT and DELETE.',
    replace: (d) => ({
      pathServed: (path, method) =>
        method === 'POST' || method === 'PUT' || method === 'DELETE' ? true : d.pathServed(path, method),
    }),
  }),
  fault('core.period-inside-name-404', {
    breaks: 'core.path.trailing-period-404',
    statements: ['doc.core.conventions.trailing-period-404'],
    description: 'A path whose last segment holds a period anywhere (app.config), not only at its end, answers 404.',
    replace: (d) => ({
      pathServed: (path, method) => !(path.split('/').pop() ?? '').includes('.') && d.pathServed(path, method),
    }),
  }),
  fault('core.help-ignored-outside-engines', {
    breaks: 'core.help.help-and-openapi',
    statements: ['doc.core.conventions.help-any-url'],
    description:
      '?help=1 is answered on the paths of secrets engines only; on sys/ and auth/ routes the operation runs.',
    replace: (d) => ({ helpRequested: (query, route) => route === 'engine' && d.helpRequested(query, route) }),
  }),
  fault('core.content-type-required-on-put', {
    breaks: 'core.content-type.not-required',
    statements: ['doc.core.conventions.content-type-not-required', 'doc.core.conventions.put-post-synonyms'],
    description: 'A PUT body without a Content-Type header is rejected with 400 (POST without one is accepted).',
    replace: (d) => ({
      contentTypeProblem: (contentType, method) =>
        method === 'PUT' && contentType === '' ? 'missing Content-Type' : d.contentTypeProblem(contentType, method),
    }),
  }),
  fault('core.unknown-sys-path-400', {
    breaks: 'core.path.unknown-404',
    statements: ['doc.core.errors.status-404-invalid-path'],
    description: 'A sys/ path no route serves answers 400 "unsupported sys path" instead of 404.',
    replace: () => ({ unknownSysPath: () => badRequest('unsupported sys path') }),
  }),
  fault('core.request-size-margin', {
    breaks: 'core.limits.request-size',
    statements: ['doc.core.limits.request-size'],
    description:
      'Bodies are refused from 90% of the configured maximum request size on (a body just under the limit is refused).',
    replace: (d) => ({ maxRequestBytes: (configured) => Math.floor(d.maxRequestBytes(configured) * 0.9) }),
  }),
  // --- every capability the documents name ---
  fault('core.create-capability-ignored', {
    breaks: 'core.acl.existence-check',
    statements: ['doc.core.auth.acl-capability-create'],
    description:
      'The create capability grants nothing: a policy granting only create (and read) cannot create a new secret.',
    replace: (d) => ({
      capabilities: (policies, path, now) => {
        const caps = d.capabilities(policies, path, now);
        caps.delete('create');
        return caps;
      },
    }),
  }),
  // --- sys/ state read right after a change ---
  fault('core.policy-read-stale', {
    breaks: 'core.acl.policy-crud',
    statements: ['doc.core.auth.acl-policies'],
    description:
      'An ACL policy read is served from a cache for 2 seconds: right after a policy is rewritten, a read made just before it answers the old text.',
    replace: (d) => {
      const cache = new Map<string, { policy: Policy | undefined; at: number }>();
      return {
        storedPolicy: (policies, name, now = Date.now()) => {
          const hit = cache.get(name);
          if (hit && now - hit.at < STALE_MS) return hit.policy;
          const policy = d.storedPolicy(policies, name, now);
          cache.set(name, { policy, at: now });
          return policy;
        },
      };
    },
  }),
  fault('core.policy-delete-ignored', {
    breaks: 'core.acl.policy-crud',
    statements: ['doc.core.auth.acl-policies', 'doc.core.conventions.verb-delete'],
    description: 'DELETE sys/policies/acl/<name> answers 204 but the policy stays.',
    replace: () => ({ deletesPolicy: false }),
  }),
  fault('core.mounts-list-stale-after-unmount', {
    breaks: 'core.mounts.disable',
    statements: ['doc.core.mounts.at-paths'],
    description:
      'sys/mounts keeps listing an unmounted engine for 2 seconds after a read that listed it (each entry is cached for 2 seconds from when it was last listed; new mounts show at once).',
    replace: (d) => {
      const seen = new Map<string, { entry: unknown; at: number }>();
      return {
        mountListing: (listed, kind, now = Date.now()) => {
          const fresh = d.mountListing(listed, kind, now);
          const out: Record<string, unknown> = { ...fresh };
          for (const [key, { entry, at }] of seen)
            if (key.startsWith(`${kind}:`) && now - at < STALE_MS) out[key.slice(kind.length + 1)] ??= entry;
          for (const [path, entry] of Object.entries(fresh)) seen.set(`${kind}:${path}`, { entry, at: now });
          return out;
        },
      };
    },
  }),
];
