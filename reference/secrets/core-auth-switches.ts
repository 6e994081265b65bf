/**
 * The switches of the core rules the auth suite checks (secrets-service-core.md, Authentication):
 * token transport, ACL evaluation and what a token answer carries. Each replaces rules of
 * core-rules.ts (see reference/switches.ts); core.ts applies this table after core-switches.ts.
 * Variants come first, so a fault replaces the rule as a variant left it.
 */
import { switchesOf } from '../switches.js';
import { type Capability, type PathRule, type Policy, segmentsMatch } from './acl.js';
import type { CoreRules } from './core-rules.js';

const { fault, variant } = switchesOf<CoreRules>(['auth']);
const CORE = 'secrets-service-core.md';
/** How long a stale cache serves what it holds. */
const STALE_MS = 2000;
/** The capabilities as the rules left them, with `more` added wherever `has` is granted. */
const grantsAlso = (d: CoreRules, has: Capability, more: Capability): Partial<CoreRules> => ({
  capabilities: (policies, path, now) => {
    const caps = d.capabilities(policies, path, now);
    if (caps.has(has)) caps.add(more);
    return caps;
  },
});
/** The policies with every rule rewritten by `change` (rules it maps to undefined are dropped). */
const rewritten = (policies: Policy[], change: (rule: PathRule) => PathRule | undefined): Policy[] =>
  policies.map((p) => ({ ...p, rules: p.rules.flatMap((r) => change(r) ?? []) }));

export const coreAuthSwitches = [
  // --- legal variants ---
  // What a token answer carries (auth area): the upstream product's further fields, and no
  // `entity_id` at all for a token without an entity.
  variant('auth.token-fields-extra', {
    allows: `${CORE}, Authentication 3: "a login that creates a token returns it as JSON" (the other fields are not listed)`,
    description:
      "Login and token-create auth blocks and token lookups carry the upstream product's further fields (num_uses, mfa_requirement, identity_policies, explicit_max_ttl, issue_time, ...).",
    suites: ['auth'],
    replace: (d) => ({
      tokenFields: (entry, fields, extras) => d.tokenFields(entry, { ...extras, ...fields }, extras),
    }),
  }),
  variant('auth.token-entity-absent', {
    allows: `${CORE}, Authentication 3 ("Login endpoint shapes of the individual methods: not shown") and 5 ("the entity or token that checked out": a token need not have an entity)`,
    description:
      'A token without an entity (root, auth/token/create) carries no entity_id field at all in its auth block and lookup, instead of "".',
    suites: ['auth'],
    replace: (d) => ({
      tokenFields: (entry, fields, extras) => {
        const out = d.tokenFields(entry, fields, extras);
        if (!entry.entityId) delete out.entity_id;
        return out;
      },
    }),
  }),
  // --- faults ---
  // Token transport and ACL evaluation live in the core but are the auth suite's rules.
  fault('auth.bearer-ignored', {
    breaks: 'auth.token.bearer',
    statements: ['doc.core.auth.token-bearer'],
    description: 'A token sent as Authorization: Bearer is ignored.',
    suites: ['auth'],
    replace: () => ({ bearerTokens: false }),
  }),
  fault('auth.missing-token-accepted', {
    breaks: 'auth.token.required',
    statements: ['doc.core.auth.token-needed'],
    description: 'A request without a token is served as root.',
    suites: ['auth'],
    replace: () => ({ withoutToken: (root) => root() }),
  }),
  fault('auth.invalid-token-accepted', {
    breaks: 'auth.token.invalid-refused',
    statements: ['doc.core.errors.status-403-credentials'],
    description: 'An unknown token is served as root.',
    suites: ['auth'],
    replace: () => ({ unknownToken: (root) => root() }),
  }),
  fault('auth.acl-deny-ignored', {
    breaks: 'auth.acl.deny',
    statements: [
      'doc.core.auth.acl-capabilities',
      'doc.transit.auth.hash-suffix-deny',
      'doc.transit.sign.sha1-deny',
      'doc.transit.verify.sha1-deny',
    ],
    description: 'A deny capability does not override other grants.',
    suites: ['auth'],
    replace: (d) => ({
      capabilities: (policies, path) => d.capabilities(policies.map(withoutDenyRules), path),
    }),
  }),
  fault('auth.acl-unmatched-path-allowed', {
    breaks: 'auth.acl.no-permission',
    statements: ['doc.core.auth.acl-policies'],
    description:
      "A path no rule of the token's policies names is allowed (the ACL refuses only what a rule matches without the capability).",
    suites: ['auth'],
    replace: (d) => ({
      capabilities: (policies, path) => {
        const caps = d.capabilities(policies, path);
        const matched = caps.size > 0 || d.capabilities(policies.map(withoutDenyRules), path).size > 0;
        return matched || policies.some((p) => p.rules.some((r) => r.capabilities.has('deny'))) ? caps : everything();
      },
    }),
  }),
  fault('auth.acl-any-capability-grants-all', {
    breaks: 'auth.acl.capability-per-path',
    statements: ['doc.core.auth.acl-per-path'],
    description: 'Any capability a policy grants on a path allows every operation there (read lets the token write).',
    suites: ['auth'],
    replace: (d) => ({
      capabilities: (policies, path) => {
        const caps = d.capabilities(policies, path);
        return caps.size ? everything() : caps;
      },
    }),
  }),
  fault('auth.token-header-served-as-root', {
    breaks: 'auth.token.header',
    statements: ['doc.core.auth.token-header'],
    description:
      'A valid non-root token sent in the token header is served with the root identity (the header is only checked for a known token).',
    suites: ['auth'],
    replace: () => ({ headerToken: (entry, root) => (entry.root ? entry : root()) }),
  }),
  // Every capability on its own, every path form (Authentication 4).
  fault('auth.acl-update-grants-delete', {
    breaks: 'auth.acl.capability-per-path',
    statements: ['doc.core.auth.acl-capability-others', 'doc.core.auth.acl-capability-update'],
    description:
      'A policy granting update on a path lets the token delete there too (delete is not checked on its own).',
    suites: ['auth'],
    replace: (d) => grantsAlso(d, 'update', 'delete'),
  }),
  fault('auth.acl-read-grants-list', {
    breaks: 'auth.acl.capability-per-path',
    statements: ['doc.core.auth.acl-capability-others'],
    description: 'A policy granting read on a path lets the token list there too.',
    suites: ['auth'],
    replace: (d) => grantsAlso(d, 'read', 'list'),
  }),
  fault('auth.acl-list-query-checks-read', {
    breaks: 'auth.acl.capability-per-path',
    statements: ['doc.core.auth.acl-capability-others', 'doc.core.conventions.list-query'],
    description:
      'A LIST sent as GET ?list=true to an engine path is authorised against read instead of list (the LIST verb checks list).',
    suites: ['auth'],
    replace: (d) => ({
      aclOperation: (operation, viaQuery) =>
        viaQuery && operation === 'list' ? 'read' : d.aclOperation(operation, viaQuery),
    }),
  }),
  fault('auth.acl-exact-path-as-prefix', {
    breaks: 'auth.acl.capability-per-path',
    statements: ['doc.core.auth.acl-per-path'],
    description:
      'A policy path without a glob is matched as a prefix: a rule for secret/data/app also grants secret/data/app2 and secret/data/app/x.',
    suites: ['auth'],
    replace: (d) => ({
      capabilities: (policies, path, now) =>
        d.capabilities(
          rewritten(policies, (r) => (r.pattern.endsWith('*') ? r : { ...r, pattern: `${r.pattern}*` })),
          path,
          now,
        ),
    }),
  }),
  fault('auth.acl-path-case-insensitive', {
    breaks: 'auth.acl.capability-per-path',
    statements: ['doc.core.auth.acl-per-path'],
    description: 'Policy paths are matched without regard to case: a rule for secret/data/App grants secret/data/app.',
    suites: ['auth'],
    replace: (d) => ({
      capabilities: (policies, path, now) =>
        d.capabilities(
          rewritten(policies, (r) => ({ ...r, pattern: r.pattern.toLowerCase() })),
          path.toLowerCase(),
          now,
        ),
    }),
  }),
  fault('auth.acl-plus-spans-segments', {
    breaks: 'auth.acl.path-patterns',
    statements: ['doc.core.auth.acl-per-path'],
    description: 'A `+` segment of a policy path matches one or more path segments (secret/+/x grants secret/a/b/x).',
    suites: ['auth'],
    replace: (d) => ({
      capabilities: (policies, path, now) =>
        d.capabilities(
          rewritten(policies, (r) =>
            r.pattern.includes('+') && plusSpans(r.pattern).test(path) ? { ...r, pattern: path } : r,
          ),
          path,
          now,
        ),
    }),
  }),
  fault('auth.acl-union-of-matches', {
    breaks: 'auth.acl.path-patterns',
    statements: ['doc.core.auth.acl-per-path'],
    description:
      'Every rule matching a path grants its capabilities (their union), instead of the most specific one deciding: a glob granting update overrides an exact path granting read only.',
    suites: ['auth'],
    replace: () => ({ capabilities: (policies, path) => unionOfMatches(policies, path) }),
  }),
  fault('auth.acl-deny-on-glob-ignored', {
    breaks: 'auth.acl.deny',
    statements: ['doc.core.auth.acl-capabilities'],
    description: 'deny is honoured on exact policy paths only; a deny on a glob path (secret/data/app/*) is dropped.',
    suites: ['auth'],
    replace: (d) => ({
      capabilities: (policies, path, now) =>
        d.capabilities(
          rewritten(policies, (r) => (r.capabilities.has('deny') && r.pattern.endsWith('*') ? undefined : r)),
          path,
          now,
        ),
    }),
  }),
  fault('auth.acl-decisions-cached', {
    breaks: 'auth.acl.no-permission',
    statements: ['doc.core.auth.acl-policies'],
    description:
      'ACL decisions are cached per token policies and path for 2 seconds: right after a policy is rewritten to take a grant away, the token still gets in.',
    suites: ['auth'],
    replace: (d) => {
      const cache = new Map<string, { caps: Set<Capability>; at: number }>();
      return {
        capabilities: (policies, path, now = Date.now()) => {
          const key = `${policies.map((p) => p.name).join(',')}|${path}`;
          const hit = cache.get(key);
          if (hit && now - hit.at < STALE_MS) return new Set(hit.caps);
          const caps = d.capabilities(policies, path, now);
          cache.set(key, { caps: new Set(caps), at: now });
          return caps;
        },
      };
    },
  }),
  // Token transport on every method.
  fault('auth.bearer-ignored-on-writes', {
    breaks: 'auth.token.bearer',
    statements: ['doc.core.auth.token-bearer'],
    description:
      'A token sent as Authorization: Bearer is honoured on GET and LIST only; writes and deletes are sent as without a token.',
    suites: ['auth'],
    replace: (d) => ({ bearerOn: (method) => (method === 'GET' || method === 'LIST') && d.bearerOn(method) }),
  }),
  fault('auth.missing-token-list-served', {
    breaks: 'auth.token.required',
    statements: ['doc.core.auth.token-needed'],
    description: 'A LIST without a token is served as root (other verbs without a token are refused).',
    suites: ['auth'],
    replace: (d) => ({ withoutToken: (root, method) => (method === 'LIST' ? root() : d.withoutToken(root, method)) }),
  }),
  fault('auth.login-needs-token', {
    breaks: 'auth.login.unauthenticated',
    statements: ['doc.core.auth.login-no-auth'],
    description: 'Login endpoints demand a client token like every other path.',
    suites: ['auth'],
    replace: () => ({ loginWithoutToken: false }),
  }),
];

// ---- replacements too long to write inline ----

/** A policy without its rules that deny: what is left grants as if no deny were written. */
function withoutDenyRules(policy: Policy): Policy {
  return { ...policy, rules: policy.rules.filter((rule) => !rule.capabilities.has('deny')) };
}

/** A policy path as a pattern whose `+` segments match one or more segments. */
function plusSpans(pattern: string): RegExp {
  const glob = pattern.endsWith('*');
  const body = (glob ? pattern.slice(0, -1) : pattern)
    .split('/')
    .map((seg) => (seg === '+' ? '[^/]+(?:/[^/]+)*' : seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${body}${glob ? '.*' : ''}$`);
}

/** The union of the capabilities of every rule that matches `path` (a deny still refuses all). */
function unionOfMatches(policies: Policy[], path: string): Set<Capability> {
  const caps = new Set<Capability>();
  for (const p of policies)
    for (const r of p.rules) if (segmentsMatch(r.pattern, path)) for (const c of r.capabilities) caps.add(c);
  return caps.has('deny') ? new Set() : caps;
}

/** Every capability but deny: what a fault that grants too much hands out. */
function everything(): Set<Capability> {
  return new Set<Capability>(['create', 'read', 'update', 'delete', 'list', 'patch']);
}
