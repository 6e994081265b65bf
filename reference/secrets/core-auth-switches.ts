/**
 * The switches of the core rules the auth suite checks (secrets-service-core.md, Authentication):
 * token transport, ACL evaluation and what a token answer carries. Each replaces rules of
 * core-rules.ts (see reference/switches.ts); core.ts applies this table after core-switches.ts.
 * Variants come first, so a fault replaces the rule as a variant left it.
 */
import { switchesOf } from '../switches.js';
import type { Capability, Policy } from './acl.js';
import type { CoreRules } from './core-rules.js';

const { fault, variant } = switchesOf<CoreRules>(['auth']);
const CORE = 'secrets-service-core.md';

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

/** Every capability but deny: what a fault that grants too much hands out. */
function everything(): Set<Capability> {
  return new Set<Capability>(['create', 'read', 'update', 'delete', 'list', 'patch']);
}
