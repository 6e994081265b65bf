/**
 * Every behavioural switch of the secrets core, declared once where it takes effect: each replaces
 * one or more rules of core-rules.ts (see reference/switches.ts). The core's wire-level switches
 * (envelope, status codes, content type, error body, headers) are in core-wire-switches.ts.
 * Variants come first, so a fault replaces the rule as a variant left it. The table imports no
 * rule (core.ts applies it to core-rules.ts), so the catalogue loads without the engines.
 */
import { createHash } from 'node:crypto';
import { switchesOf } from '../switches.js';
import type { Policy } from './acl.js';
import type { CoreRules } from './core-rules.js';
import { rfc3339 } from './timestamps.js';

const { fault, variant } = switchesOf<CoreRules>(['core']);
const CORE = 'secrets-service-core.md';

export const coreSwitches = [
  // --- legal variants ---
  variant('core.non-json-content-type-refused', {
    allows:
      'secrets-service-core.md, Endpoints > Conventions 3: "Request and response bodies are JSON. The service ... does not require it [Content-Type] on requests" (a missing type is fine; a body declared as another type may be refused)',
    description:
      'A request body sent with an explicit Content-Type that is not JSON (text/plain, form data) is refused with 400 instead of being parsed as JSON.',
    suites: ['core', 'robustness'],
    replace: (d) => ({
      contentTypeProblem: (contentType) =>
        contentType !== '' && !/json/i.test(contentType)
          ? `request bodies are JSON; Content-Type ${contentType.split(';')[0]} is not accepted`
          : d.contentTypeProblem(contentType),
    }),
  }),
  variant('core.help-without-permission-check', {
    allows: `${CORE}, Endpoints > Conventions 6: "If permitted, the response has help" (silent on what happens otherwise)`,
    description:
      'Help (?help=1) is answered to any valid token, whatever its policies: help text is not secret (the upstream product always allows help).',
    assumptions: ['core.help.requires-permission'],
    replace: () => ({ helpChecksPermission: false }),
  }),
  variant('core.list-query-lenient', {
    allows: `${CORE}, Endpoints > Conventions 2: "GET with query the service list=true" (other spellings of true are not excluded)`,
    description: 'GET ?list= accepts every boolean spelling the upstream product parses (1, t, TRUE, True) as LIST.',
    suites: ['core', 'kv'],
    replace: (d) => ({
      listQuery: (value) => d.listQuery(value) || (value !== null && ['1', 't', 'T', 'TRUE', 'True'].includes(value)),
    }),
  }),
  variant('core.mounts-list-extras', {
    allows: `${CORE}, What the service does 3 (mount listing shape not shown; catalogue core.mounts.list is an assumption)`,
    description:
      'GET sys/mounts and sys/auth also list the system mounts (sys/, cubbyhole/, identity/) and give each mount more fields (uuid, local, seal_wrap, plugin_version ...), as the upstream product does.',
    suites: ['core', 'auth'],
    replace: () => ({ mountListing: withSystemMounts }),
  }),
  variant('core.list-only-get-405', {
    allows: `${CORE}, Endpoints > Conventions 2 (LIST is GET with list=true) and Errors: 405 "Method not supported on the path"`,
    description:
      'A list-only path (sys/policies/acl, sys/policies/password, sys/namespaces) answers 405 to a GET without list=true.',
    replace: () => ({ listOnlyRefusesGet: true }),
  }),
  variant('core.list-keys-unordered', {
    allows: `${CORE}, Endpoints > Conventions 2 and Key-value engine: a list "returns the keys under the path" (no order promised)`,
    description: 'LIST answers its keys in another order than sorted (reversed).',
    suites: ['core', 'kv'],
    replace: () => ({ listKeys: (keys) => [...keys].reverse() }),
  }),
  variant('core.timestamps-nanoseconds', {
    allows: `${CORE}, "RFC 3339 timestamp" (precision not given)`,
    description:
      'Timestamps of token and lease lookups carry nanoseconds (RFC 3339 with 9 fractional digits), as the upstream product writes them.',
    suites: ['auth'],
    replace: () => ({ timestamp: (ms) => rfc3339(ms, true) }),
  }),
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
  fault('core.v1-prefix-ignored', {
    breaks: 'core.routes.v1-prefix',
    statements: ['doc.transit.versioning.v1-paths'],
    description: 'Any /vN/ prefix is served like /v1/.',
    replace: () => ({ versionPrefix: /^\/v\d+\// }),
  }),
  fault('core.no-default-secret-mount', {
    breaks: 'core.mounts.secret-default',
    description: 'The default key-value engine is mounted at kv/ instead of secret/.',
    replace: () => ({ defaultSecretMount: 'kv/' }),
  }),
  fault('core.nested-mount-rejected', {
    breaks: 'core.mounts.any-path',
    description: 'Mount paths with more than one segment are refused.',
    replace: () => ({
      mountPathProblem: (path) =>
        path.slice(0, -1).includes('/') && !path.includes('auth/') ? 'mount paths must be one segment' : undefined,
    }),
  }),
  fault('core.mount-enable-no-op', {
    breaks: 'core.mounts.enable',
    description: 'POST sys/mounts/<path> answers 204 but mounts nothing.',
    replace: () => ({ enablesMount: false }),
  }),
  fault('core.mount-conflict-allowed', {
    breaks: 'core.mounts.enable-conflict-400',
    description: 'Mounting over a path in use replaces the mount instead of answering 400.',
    replace: () => ({ mountConflict: () => undefined }),
  }),
  fault('core.mount-unknown-type-accepted', {
    breaks: 'core.mounts.unknown-type-400',
    description: 'An unknown engine type is mounted as a key-value engine.',
    replace: (d) => ({
      engineFor: (type, kind) => d.engineFor(type, kind) ?? d.engineFor('kv', 'secret'),
    }),
  }),
  fault('core.mount-read-options-missing', {
    breaks: 'core.mounts.read',
    description: 'GET sys/mounts/<path> reports options null.',
    replace: () => ({ mountReadOptions: () => null }),
  }),
  fault('core.unmount-ignored', {
    breaks: 'core.mounts.disable',
    description: 'DELETE sys/mounts/<path> answers 204 but keeps the mount.',
    replace: () => ({ unmountRemoves: false }),
  }),
  fault('core.mounts-list-no-slash', {
    breaks: 'core.mounts.list',
    description: 'sys/mounts keys lack the trailing slash.',
    replace: () => ({ mountListKey: (path) => path.replace(/\/$/, '') }),
  }),
  fault('core.auth-enable-no-op', {
    breaks: 'core.auth.methods-mounted',
    description: 'POST sys/auth/<path> answers 204 but enables nothing.',
    replace: () => ({ enablesAuthMethod: false }),
  }),
  fault('core.policy-read-missing', {
    breaks: 'core.acl.policy-crud',
    description: 'A written ACL policy reads back as 404.',
    replace: () => ({ storedPolicy: () => undefined }),
  }),
  fault('core.policy-missing-accepted', {
    breaks: 'core.acl.policy-missing-400',
    description: 'An ACL policy write without a policy field is stored as an empty policy.',
    replace: () => ({ policyRequired: false }),
  }),
  fault('core.existence-check-ignored', {
    breaks: 'core.acl.existence-check',
    description: 'Every POST/PUT is treated as update, so a create-only policy cannot create.',
    replace: () => ({ existenceCheck: false }),
  }),
  fault('core.list-verb-rejected', {
    breaks: 'core.verbs.supported',
    description: 'The LIST verb answers 405 (only ?list=true works).',
    replace: (d) => ({
      methodRefused: (method, viaVerb) => (method === 'LIST' && viaVerb ? true : d.methodRefused(method, viaVerb)),
    }),
  }),
  fault('core.put-rejected', {
    breaks: 'core.verbs.put-post-synonyms',
    description: 'PUT answers 405 where POST works.',
    replace: (d) => ({
      methodRefused: (method, viaVerb) => (method === 'PUT' ? true : d.methodRefused(method, viaVerb)),
    }),
  }),
  fault('core.list-query-ignored', {
    breaks: 'core.list.verb-equals-query',
    description: 'GET ?list=true is served as a plain read.',
    suites: ['core', 'kv'],
    replace: () => ({ listQuery: () => false }),
  }),
  fault('core.empty-list-200', {
    breaks: 'core.list.empty-404',
    description: 'A LIST with no results answers 200 with empty keys.',
    suites: ['core', 'kv'],
    replace: () => ({ emptyListNotFound: false }),
  }),
  fault('core.invalid-json-accepted', {
    breaks: 'core.json.request-body',
    description: 'A body that is not valid JSON is treated as {}.',
    replace: () => ({ invalidJson: () => ({}) }),
  }),
  fault('core.body-array-accepted', {
    breaks: 'core.json.body-must-be-object',
    description: 'A JSON array body is accepted as an object keyed by index.',
    replace: () => ({ bodyValue: (value) => (Array.isArray(value) ? { ...value } : value) }),
  }),
  fault('core.content-type-required', {
    breaks: 'core.content-type.not-required',
    description: 'A body without a Content-Type header is rejected with 400.',
    replace: (d) => ({
      contentTypeProblem: (contentType) =>
        contentType === '' ? 'missing Content-Type' : d.contentTypeProblem(contentType),
    }),
  }),
  fault('core.trailing-period-accepted', {
    breaks: 'core.path.trailing-period-404',
    description: 'A path ending in a period is served.',
    replace: () => ({ pathServed: () => true }),
  }),
  fault('core.unknown-path-204', {
    breaks: 'core.path.unknown-404',
    description: 'A path no mount serves answers 204.',
    replace: () => ({ unmountedPath: () => ({ status: 204 }) }),
  }),
  fault('core.help-ignored', {
    breaks: 'core.help.help-and-openapi',
    description: '?help=1 is ignored and the operation runs.',
    replace: () => ({ helpRequested: () => false }),
  }),
  fault('core.help-absolute-paths', {
    breaks: 'core.help.openapi-relative-paths',
    description: 'The help OpenAPI paths are absolute /v1/ paths.',
    replace: () => ({ helpPath: (_relative, fullPath) => `/v1/${fullPath}` }),
  }),
  fault('core.help-unrestricted', {
    breaks: 'core.help.requires-permission',
    description: 'Help is returned to a token without access to the path.',
    replace: () => ({ helpChecksPermission: false }),
  }),
  fault('core.namespace-header-ignored', {
    breaks: 'core.namespace.header-equals-path-prefix',
    description: 'The X-Svc-Namespace header is ignored.',
    replace: () => ({ namespaceFromHeader: () => '' }),
  }),
  fault('core.request-header-not-enforced', {
    breaks: 'core.request-header.required-when-configured',
    description: 'require_request_header is configured but requests without X-Svc-Request are served.',
    replace: () => ({ requestHeaderRequired: () => false }),
  }),
  fault('core.request-size-unlimited', {
    breaks: 'core.limits.request-size',
    description: 'Bodies over the maximum request size are accepted.',
    replace: () => ({ maxRequestBytes: () => Number.POSITIVE_INFINITY }),
  }),
  // Token transport and ACL evaluation live in the core but are the auth suite's rules.
  fault('auth.bearer-ignored', {
    breaks: 'auth.token.bearer',
    description: 'A token sent as Authorization: Bearer is ignored.',
    suites: ['auth'],
    replace: () => ({ bearerTokens: false }),
  }),
  fault('auth.missing-token-accepted', {
    breaks: 'auth.token.required',
    description: 'A request without a token is served as root.',
    suites: ['auth'],
    replace: () => ({ withoutToken: (root) => root() }),
  }),
  fault('auth.invalid-token-accepted', {
    breaks: 'auth.token.invalid-refused',
    description: 'An unknown token is served as root.',
    suites: ['auth'],
    replace: () => ({ unknownToken: (root) => root() }),
  }),
  fault('auth.acl-deny-ignored', {
    breaks: 'auth.acl.deny',
    statements: ['doc.transit.auth.hash-suffix-deny', 'doc.transit.sign.sha1-deny', 'doc.transit.verify.sha1-deny'],
    description: 'A deny capability does not override other grants.',
    suites: ['auth'],
    replace: (d) => ({
      capabilities: (policies, path) => d.capabilities(policies.map(withoutDenyRules), path),
    }),
  }),
];

// ---- replacements too long to write inline ----

/** A policy without its rules that deny: what is left grants as if no deny were written. */
function withoutDenyRules(policy: Policy): Policy {
  return { ...policy, rules: policy.rules.filter((rule) => !rule.capabilities.has('deny')) };
}

/** A mount's uuid, the same in every listing (a listing that changes by itself is not a listing). */
function stableUuid(path: string): string {
  const h = createHash('sha256').update(path).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/**
 * The upstream product's mount listing: the system mounts besides the user's, and more fields on
 * every entry. The mounts themselves are not served by the reference (only listed).
 */
function withSystemMounts(listed: Record<string, unknown>, kind: 'secret' | 'auth'): Record<string, unknown> {
  const system: Record<string, unknown> =
    kind === 'secret'
      ? {
          'cubbyhole/': { type: 'cubbyhole', description: 'per-token private secret storage' },
          'identity/': { type: 'identity', description: 'identity store' },
          'sys/': { type: 'system', description: 'system endpoints used for control, policy and debugging' },
        }
      : {};
  const out: Record<string, unknown> = {};
  for (const [path, entry] of Object.entries({ ...system, ...listed })) {
    out[path] = {
      accessor: `${(entry as { type: string }).type}_00000000`,
      options: null,
      config: { default_lease_ttl: 0, max_lease_ttl: 0, force_no_cache: false },
      ...(entry as object),
      uuid: stableUuid(path),
      local: false,
      seal_wrap: false,
      external_entropy_access: false,
      plugin_version: '',
      running_plugin_version: `v1.13.10+builtin`,
      running_sha256: '',
      deprecation_status: 'supported',
    };
  }
  return out;
}
