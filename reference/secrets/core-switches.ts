/**
 * Every behavioural switch of the secrets core, declared once where it takes effect: each replaces
 * one or more rules of core-rules.ts (see reference/switches.ts). The core's wire-level switches
 * (envelope, status codes, content type, error body, headers) are in core-wire-switches.ts; the
 * switches of the core rules the auth suite checks (token transport, ACLs, token answers) in
 * core-auth-switches.ts.
 * Variants come first, so a fault replaces the rule as a variant left it. The table imports no
 * rule (core.ts applies it to core-rules.ts), so the catalogue loads without the engines.
 */
import { createHash, randomUUID } from 'node:crypto';
import { switchesOf } from '../switches.js';
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
      contentTypeProblem: (contentType, method) =>
        contentType !== '' && !/json/i.test(contentType)
          ? `request bodies are JSON; Content-Type ${contentType.split(';')[0]} is not accepted`
          : d.contentTypeProblem(contentType, method),
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
      listQuery: (value, route) =>
        d.listQuery(value, route) || (value !== null && ['1', 't', 'T', 'TRUE', 'True'].includes(value)),
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
  variant('core.no-existence-check', {
    allows: `${CORE}, Endpoints > Conventions 1: "engines may run an existence check to decide create versus update"`,
    description:
      'The key-value engine runs no existence check: every POST/PUT is an update, so a create-only policy cannot write and an update-only one can create.',
    statements: ['doc.core.conventions.existence-check'],
    replace: () => ({ existenceCheck: (engineType) => engineType !== 'kv' }),
  }),
  variant('core.mounts-listed-unordered', {
    allows: `${CORE}, What the service does 3 (the mount listing is not shown; no order is given)`,
    description: 'GET sys/mounts and sys/auth list the mounts newest first instead of in mount order.',
    suites: ['core', 'auth', 'release'],
    replace: (d) => ({
      mountListing: (listed, kind) => Object.fromEntries(Object.entries(d.mountListing(listed, kind)).reverse()),
    }),
  }),
  variant('core.lease-ids-opaque', {
    allows: `${CORE}, Response envelope: lease_id "string | Lease identifier" (no format given)`,
    description:
      'Lease ids are opaque random identifiers (a UUID), not the request path followed by a random part as the upstream product writes them.',
    statements: ['doc.core.envelope.lease-id'],
    suites: ['core', 'release'],
    replace: () => ({ leaseId: () => randomUUID() }),
  }),
  variant('core.timestamps-nanoseconds', {
    allows: `${CORE}, "RFC 3339 timestamp" (precision not given)`,
    description:
      'Timestamps of token and lease lookups carry nanoseconds (RFC 3339 with 9 fractional digits), as the upstream product writes them.',
    suites: ['auth'],
    replace: () => ({ timestamp: (ms) => rfc3339(ms, true) }),
  }),
  // --- faults ---
  fault('core.v1-prefix-ignored', {
    breaks: 'core.routes.v1-prefix',
    statements: ['doc.core.routes.v1-only', 'doc.core.versioning.v1-only'],
    description: 'Any /vN/ prefix is served like /v1/.',
    replace: () => ({ versionPrefix: /^\/v\d+\// }),
  }),
  fault('core.no-default-secret-mount', {
    breaks: 'core.mounts.secret-default',
    statements: ['doc.core.mounts.secret-default'],
    description: 'The default key-value engine is mounted at kv/ instead of secret/.',
    replace: () => ({ defaultSecretMount: 'kv/' }),
  }),
  fault('core.nested-mount-rejected', {
    breaks: 'core.mounts.any-path',
    statements: ['doc.core.mounts.any-path'],
    description: 'Mount paths with more than one segment are refused.',
    replace: () => ({
      mountPathProblem: (path) =>
        path.slice(0, -1).includes('/') && !path.includes('auth/') ? 'mount paths must be one segment' : undefined,
    }),
  }),
  fault('core.mount-enable-no-op', {
    breaks: 'core.mounts.enable',
    statements: ['doc.core.mounts.at-paths'],
    description: 'POST sys/mounts/<path> answers 204 but mounts nothing.',
    replace: () => ({ enablesMount: false }),
  }),
  fault('core.mount-conflict-allowed', {
    breaks: 'core.mounts.enable-conflict-400',
    statements: ['doc.core.mounts.at-paths'],
    description: 'Mounting over a path in use replaces the mount instead of answering 400.',
    replace: () => ({ mountConflict: () => undefined }),
  }),
  fault('core.mount-unknown-type-accepted', {
    breaks: 'core.mounts.unknown-type-400',
    statements: ['doc.core.mounts.at-paths'],
    description: 'An unknown engine type is mounted as a key-value engine.',
    replace: (d) => ({
      engineFor: (type, kind) => d.engineFor(type, kind) ?? d.engineFor('kv', 'secret'),
    }),
  }),
  fault('core.mount-read-options-missing', {
    breaks: 'core.mounts.read',
    statements: ['doc.core.mounts.at-paths'],
    description: 'GET sys/mounts/<path> reports options null.',
    replace: () => ({ mountReadOptions: () => null }),
  }),
  fault('core.unmount-ignored', {
    breaks: 'core.mounts.disable',
    statements: ['doc.core.mounts.at-paths'],
    description: 'DELETE sys/mounts/<path> answers 204 but keeps the mount.',
    replace: () => ({ unmountRemoves: false }),
  }),
  fault('core.mounts-list-no-slash', {
    breaks: 'core.mounts.list',
    statements: ['doc.core.mounts.at-paths'],
    description: 'sys/mounts keys lack the trailing slash.',
    replace: () => ({ mountListKey: (path) => path.replace(/\/$/, '') }),
  }),
  fault('core.auth-enable-no-op', {
    breaks: 'core.auth.methods-mounted',
    statements: ['doc.core.mounts.auth-at-paths'],
    description: 'POST sys/auth/<path> answers 204 but enables nothing.',
    replace: () => ({ enablesAuthMethod: false }),
  }),
  fault('core.policy-read-missing', {
    breaks: 'core.acl.policy-crud',
    statements: ['doc.core.auth.acl-policies'],
    description: 'A written ACL policy reads back as 404.',
    replace: () => ({ storedPolicy: () => undefined }),
  }),
  fault('core.policy-missing-accepted', {
    breaks: 'core.acl.policy-missing-400',
    statements: ['doc.core.auth.acl-policies'],
    description: 'An ACL policy write without a policy field is stored as an empty policy.',
    replace: () => ({ policyRequired: false }),
  }),
  fault('core.existence-check-inverted', {
    breaks: 'core.acl.existence-check',
    statements: ['doc.core.conventions.existence-check', 'doc.core.conventions.existence-check-acl'],
    description:
      'The existence check answers the wrong way round: a write to an existing path is a create, to a new path an update.',
    replace: () => ({ writeUpdates: (exists) => !exists }),
  }),
  fault('core.create-grants-update', {
    breaks: 'core.acl.existence-check',
    statements: ['doc.core.auth.acl-existence-check'],
    description:
      'The ACL lets the create capability update too, so a create-only policy overwrites existing secrets (the existence check does not tell them apart).',
    replace: (d) => ({
      capabilities: (policies, path) => {
        const caps = d.capabilities(policies, path);
        if (caps.has('create')) caps.add('update');
        return caps;
      },
    }),
  }),
  fault('core.list-verb-rejected', {
    breaks: 'core.verbs.supported',
    statements: ['doc.core.conventions.verbs'],
    description: 'The LIST verb answers 405 (only ?list=true works).',
    replace: (d) => ({
      methodRefused: (method, viaVerb) => (method === 'LIST' && viaVerb ? true : d.methodRefused(method, viaVerb)),
    }),
  }),
  fault('core.put-rejected', {
    breaks: 'core.verbs.put-post-synonyms',
    statements: ['doc.core.conventions.put-post-synonyms'],
    description: 'PUT answers 405 where POST works.',
    replace: (d) => ({
      methodRefused: (method, viaVerb) => (method === 'PUT' ? true : d.methodRefused(method, viaVerb)),
    }),
  }),
  fault('core.list-query-ignored', {
    breaks: 'core.list.verb-equals-query',
    statements: ['doc.core.conventions.list-query'],
    description: 'GET ?list=true is served as a plain read.',
    suites: ['core', 'kv'],
    replace: () => ({ listQuery: () => false }),
  }),
  fault('core.empty-list-200', {
    breaks: 'core.list.empty-404',
    statements: ['doc.core.conventions.list-empty-404', 'doc.core.errors.status-404-empty-list'],
    description: 'A LIST with no results answers 200 with empty keys.',
    suites: ['core', 'kv'],
    replace: () => ({ emptyListNotFound: () => false }),
  }),
  fault('core.invalid-json-accepted', {
    breaks: 'core.json.request-body',
    statements: ['doc.core.conventions.json-requests'],
    description: 'A body that is not valid JSON is treated as {}.',
    replace: () => ({ invalidJson: () => ({}) }),
  }),
  fault('core.body-array-accepted', {
    breaks: 'core.json.body-must-be-object',
    statements: ['doc.core.conventions.json-requests'],
    description: 'A JSON array body is accepted as an object keyed by index.',
    replace: () => ({ bodyValue: (value) => (Array.isArray(value) ? { ...value } : value) }),
  }),
  fault('core.content-type-required', {
    breaks: 'core.content-type.not-required',
    statements: ['doc.core.conventions.content-type-not-required'],
    description: 'A body without a Content-Type header is rejected with 400.',
    replace: (d) => ({
      contentTypeProblem: (contentType, method) =>
        contentType === '' ? 'missing Content-Type' : d.contentTypeProblem(contentType, method),
    }),
  }),
  fault('core.trailing-period-accepted', {
    breaks: 'core.path.trailing-period-404',
    statements: ['doc.core.conventions.trailing-period-404', 'doc.core.errors.trailing-period-404'],
    description: 'A path ending in a period is served.',
    replace: () => ({ pathServed: () => true }),
  }),
  fault('core.unknown-path-204', {
    breaks: 'core.path.unknown-404',
    statements: ['doc.core.errors.status-404-invalid-path'],
    description: 'A path no mount serves answers 204.',
    replace: () => ({ unmountedPath: () => ({ status: 204 }) }),
  }),
  fault('core.help-ignored', {
    breaks: 'core.help.help-and-openapi',
    statements: ['doc.core.conventions.help-any-url'],
    description: '?help=1 is ignored and the operation runs.',
    replace: () => ({ helpRequested: () => false }),
  }),
  fault('core.help-absolute-paths', {
    breaks: 'core.help.openapi-relative-paths',
    statements: ['doc.core.conventions.help-relative-paths'],
    description: 'The help OpenAPI paths are absolute /v1/ paths.',
    replace: () => ({ helpPath: (_relative, fullPath) => `/v1/${fullPath}` }),
  }),
  fault('core.help-root-paths', {
    breaks: 'core.help.openapi-paths-resolve',
    statements: ['doc.core.conventions.help-relative-paths'],
    description:
      'The help OpenAPI paths are written from the API root (/secret/data/<key>), not relative to the queried path.',
    replace: () => ({ helpPath: (_relative, fullPath) => `/${fullPath}` }),
  }),
  fault('core.help-unrestricted', {
    breaks: 'core.help.requires-permission',
    statements: ['doc.core.conventions.help-if-permitted'],
    description: 'Help is returned to a token without access to the path.',
    replace: () => ({ helpChecksPermission: false }),
  }),
  fault('core.namespace-header-ignored', {
    breaks: 'core.namespace.header-equals-path-prefix',
    statements: ['doc.core.conventions.namespace-path', 'doc.core.auth.namespace-header'],
    description: 'The X-Svc-Namespace header is ignored.',
    replace: () => ({ namespaceFromHeader: () => '' }),
  }),
  fault('core.request-header-not-enforced', {
    breaks: 'core.request-header.required-when-configured',
    statements: ['doc.core.conventions.request-header'],
    description: 'require_request_header is configured but requests without X-Svc-Request are served.',
    replace: () => ({ requestHeaderRequired: () => false }),
  }),
  fault('core.request-size-unlimited', {
    breaks: 'core.limits.request-size',
    statements: ['doc.core.limits.request-size', 'doc.transit.limits.request-size'],
    description: 'Bodies over the maximum request size are accepted.',
    replace: () => ({ maxRequestBytes: () => Number.POSITIVE_INFINITY }),
  }),
  fault('core.unprefixed-routes-served', {
    breaks: 'core.routes.v1-prefix',
    statements: ['doc.core.routes.v1-prefix', 'doc.core.versioning.v1-routes', 'doc.transit.versioning.v1-paths'],
    description: 'Routes are also served without the /v1/ prefix ({base_url}/sys/mounts answers like /v1/sys/mounts).',
    replace: () => ({ versionPrefix: /^\/(?:v1\/)?/ }),
  }),
  fault('core.default-mount-listed-generic', {
    breaks: 'core.mounts.secret-default',
    statements: ['doc.core.mounts.secret-kv'],
    description: 'sys/mounts lists the default key-value mount secret/ under the legacy type name generic, not kv.',
    replace: (d) => ({
      mountListing: (listed, kind) => {
        const out = d.mountListing(listed, kind);
        const entry = out['secret/'] as Record<string, unknown> | undefined;
        return entry ? { ...out, 'secret/': { ...entry, type: 'generic' } } : out;
      },
    }),
  }),
  fault('core.namespace-path-unserved', {
    breaks: 'core.namespace.header-equals-path-prefix',
    statements: ['doc.core.conventions.namespace-full-path'],
    description: 'A path that starts with a namespace (instead of the header naming it) answers 404.',
    replace: () => ({ namespacedPathServed: false }),
  }),
  fault('core.cors-origin-unchecked', {
    breaks: 'core.errors.status-403-cors',
    statements: ['doc.core.errors.status-403-cors'],
    description: 'With CORS enabled, a request from an origin outside the allowed list is served.',
    replace: () => ({ corsOriginAllowed: () => true }),
  }),
  fault('core.request-size-1mb', {
    breaks: 'core.limits.request-size',
    statements: ['doc.core.limits.request-size', 'doc.transit.limits.request-size'],
    description:
      'The maximum request size is 1 MiB whatever the listener is configured to (a request of a few MB is refused).',
    replace: (d) => ({ maxRequestBytes: (configured) => Math.min(d.maxRequestBytes(configured), 1024 * 1024) }),
  }),
];

// ---- replacements too long to write inline ----

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
