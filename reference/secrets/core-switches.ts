/**
 * The one place every switch of the secrets core (core-faults.ts, core-variants.ts, and the auth
 * token variants of engines/userpass/variants.ts) takes effect:
 * - behavioural switches replace one rule of core-rules.ts (`withSwitches`);
 * - wire-level switches rewrite the answer in the server's one response layer (wire.ts,
 *   `rewriteWith`): envelope fields, status codes, content type, error body, headers.
 */
import { createHash, randomUUID } from 'node:crypto';
import type { Faults } from '../faults.js';
import type { FaultName, VariantName } from '../switch-names.js';
import { rewriteWith, withSwitches } from '../switches.js';
import type { Variants } from '../variants.js';
import { type Policy, capabilitiesFor } from './acl.js';
import { type CoreRules, coreRules } from './core-rules.js';
import { secretEngines } from './engines/index.js';
import { PermissionDenied } from './errors.js';
import { rfc3339 } from './timestamps.js';
import { type Rewrite, type Wire, errorsOf } from './wire.js';

type RuleTable<N extends string> = { [K in N]?: (documented: CoreRules) => Partial<CoreRules> };
type WireTable<N extends string> = { [K in N]?: Rewrite };

const faultRules: RuleTable<FaultName> = {
  'core.no-default-secret-mount': () => ({ defaultSecretMount: 'kv/' }),
  'core.nested-mount-rejected': () => ({
    mountPathProblem: (path) =>
      path.slice(0, -1).includes('/') && !path.includes('auth/') ? 'mount paths must be one segment' : undefined,
  }),
  'core.mount-conflict-allowed': () => ({ mountConflict: () => undefined }),
  'core.mount-unknown-type-accepted': (d) => ({
    engineFor: (type, kind) => d.engineFor(type, kind) ?? secretEngines.kv,
  }),
  'core.mount-enable-no-op': () => ({ enablesMount: false }),
  'core.auth-enable-no-op': () => ({ enablesAuthMethod: false }),
  'core.unmount-ignored': () => ({ unmountRemoves: false }),
  'core.mount-read-options-missing': () => ({ mountReadOptions: () => null }),
  'core.mounts-list-no-slash': () => ({ mountListKey: (path) => path.replace(/\/$/, '') }),
  'core.policy-read-missing': () => ({ storedPolicy: () => undefined }),
  'core.policy-missing-accepted': () => ({ policyRequired: false }),
  'core.existence-check-ignored': () => ({ existenceCheck: false }),
  'core.list-verb-rejected': (d) => ({
    methodRefused: (method, viaVerb) => (method === 'LIST' && viaVerb ? true : d.methodRefused(method, viaVerb)),
  }),
  'core.put-rejected': (d) => ({
    methodRefused: (method, viaVerb) => (method === 'PUT' ? true : d.methodRefused(method, viaVerb)),
  }),
  'core.list-query-ignored': () => ({ listQuery: () => false }),
  'core.empty-list-200': () => ({ emptyListNotFound: false }),
  'core.invalid-json-accepted': () => ({ invalidJson: () => ({}) }),
  'core.body-array-accepted': () => ({ bodyValue: (value) => (Array.isArray(value) ? { ...value } : value) }),
  'core.content-type-required': (d) => ({
    contentTypeProblem: (contentType) =>
      contentType === '' ? 'missing Content-Type' : d.contentTypeProblem(contentType),
  }),
  'core.v1-prefix-ignored': () => ({ versionPrefix: /^\/v\d+\// }),
  'core.trailing-period-accepted': () => ({ pathServed: () => true }),
  'core.unknown-path-204': () => ({ unmountedPath: () => ({ status: 204 }) }),
  'core.help-ignored': () => ({ helpRequested: () => false }),
  'core.help-absolute-paths': () => ({ helpPath: (_relative, fullPath) => `/v1/${fullPath}` }),
  'core.help-unrestricted': () => ({ helpChecksPermission: false }),
  'core.namespace-header-ignored': () => ({ namespaceFromHeader: () => '' }),
  'core.request-header-not-enforced': () => ({ requestHeaderRequired: () => false }),
  'core.request-size-unlimited': () => ({ maxRequestBytes: () => Number.POSITIVE_INFINITY }),
  'auth.bearer-ignored': () => ({ bearerTokens: false }),
  'auth.missing-token-accepted': () => ({ withoutToken: (root) => root() }),
  'auth.invalid-token-accepted': () => ({ unknownToken: (root) => root() }),
  'auth.acl-deny-ignored': () => ({
    capabilities: (policies, path) => capabilitiesIgnoringDeny(policies, path),
  }),
};

const variantRules: RuleTable<VariantName> = {
  'core.non-json-content-type-refused': (d) => ({
    contentTypeProblem: (contentType) =>
      contentType !== '' && !/json/i.test(contentType)
        ? `request bodies are JSON; Content-Type ${contentType.split(';')[0]} is not accepted`
        : d.contentTypeProblem(contentType),
  }),
  'core.help-without-permission-check': () => ({ helpChecksPermission: false }),
  'core.list-query-lenient': (d) => ({
    listQuery: (value) => d.listQuery(value) || (value !== null && ['1', 't', 'T', 'TRUE', 'True'].includes(value)),
  }),
  'core.mounts-list-extras': () => ({ mountListing: withSystemMounts }),
  'core.list-only-get-405': () => ({ listOnlyRefusesGet: true }),
  'core.list-keys-unordered': () => ({ listKeys: (keys) => [...keys].reverse() }),
  'core.timestamps-nanoseconds': () => ({ timestamp: (ms) => rfc3339(ms, true) }),
  // What a token answer carries (auth area): the upstream product's further fields, and no
  // `entity_id` at all for a token without an entity.
  'auth.token-fields-extra': (d) => ({
    tokenFields: (entry, fields, extras) => d.tokenFields(entry, { ...extras, ...fields }, extras),
  }),
  'auth.token-entity-absent': (d) => ({
    tokenFields: (entry, fields, extras) => {
      const out = d.tokenFields(entry, fields, extras);
      if (!entry.entityId) delete out.entity_id;
      return out;
    },
  }),
};

/** The envelope of an answer, when the answer is one the core built. */
const envelopeOf = (w: Wire): Record<string, unknown> | undefined =>
  w.kind === 'envelope' && w.body !== undefined ? (w.body as Record<string, unknown>) : undefined;
const withEnvelope =
  (change: (body: Record<string, unknown>, w: Wire) => void): Rewrite =>
  (w) => {
    const body = envelopeOf(w);
    if (!body) return w;
    const out = { ...body };
    change(out, w);
    return { ...w, body: out };
  };
const unleased = (change: (body: Record<string, unknown>) => void) =>
  withEnvelope((body, w) => {
    if (!w.leased) change(body);
  });
const errorStatus =
  (from: number, to: number): Rewrite =>
  (w) =>
    w.kind === 'error' && w.status === from ? { ...w, status: to } : w;
/** Operations' answers (envelopes and raw bodies) that carry a body. */
const answered = (w: Wire) => (w.kind === 'envelope' || w.kind === 'raw') && w.body !== undefined;

const variantWire: WireTable<VariantName> = {
  // Before the envelope variants, so the warning envelope is shaped like every other.
  'core.no-content-as-200-with-warnings': (w) =>
    w.kind === 'envelope' && w.status === 204 && w.body === undefined
      ? {
          ...w,
          status: 200,
          body: {
            request_id: randomUUID(),
            lease_id: '',
            renewable: false,
            lease_duration: 0,
            data: null,
            wrap_info: null,
            warnings: [
              'the operation succeeded; this reference variant answers 200 with a warning where 204 is documented',
            ],
            auth: null,
          },
        }
      : w,
  'core.warnings-empty-array': withEnvelope((body) => {
    if (body.warnings === null) body.warnings = [];
  }),
  'core.envelope-nulls-omitted': withEnvelope((body) => {
    for (const key of ['wrap_info', 'warnings', 'auth']) if (body[key] === null) delete body[key];
  }),
  'core.envelope-extra-fields': withEnvelope((body) => {
    body.mount_type ??= '';
    body.mount_running_plugin_version = '';
    body.headers = null;
  }),
  'core.forbidden-as-404': (w) =>
    w.kind === 'error' && w.error instanceof PermissionDenied ? { ...w, status: 404 } : w,
  'core.error-texts-wrapped': (w) => {
    const errors = errorsOf(w);
    if ((w.kind !== 'error' && w.kind !== 'too-large') || !Array.isArray(errors)) return w;
    return { ...w, body: { errors: errors.map((m) => `1 error occurred:\n\t* ${m}\n\n`) } };
  },
  'core.content-type-charset': (w) =>
    w.body === undefined ? w : { ...w, headers: { ...w.headers, 'Content-Type': 'application/json; charset=utf-8' } },
};

const faultWire: WireTable<FaultName> = {
  'core.request-id-not-uuid': withEnvelope((body) => {
    body.request_id = `req-${Date.now()}`;
  }),
  'core.lease-id-null': unleased((body) => {
    body.lease_id = null;
  }),
  'core.renewable-string': unleased((body) => {
    body.renewable = 'false';
  }),
  'core.lease-duration-nonzero': unleased((body) => {
    body.lease_duration = 3600;
  }),
  'core.warnings-empty-string': withEnvelope((body) => {
    if (body.warnings === null) body.warnings = '';
  }),
  'core.success-200-empty': (w) =>
    w.kind === 'envelope' && w.status === 204 && w.body === undefined ? { ...w, status: 200 } : w,
  'core.envelope-not-object': (w) => (answered(w) ? { ...w, body: [w.body] } : w),
  'core.content-type-not-json': (w) => (answered(w) ? { ...w, headers: { 'Content-Type': 'text/plain' } } : w),
  'core.method-405-as-404': errorStatus(405, 404),
  'core.bad-request-as-500': errorStatus(400, 500),
  'core.forbidden-as-401': errorStatus(403, 401),
  'core.errors-not-array': (w) => {
    const errors = errorsOf(w);
    return w.kind === 'error' && Array.isArray(errors) ? { ...w, body: { errors: errors.join('; ') } } : w;
  },
};

/** The core's rules with the active switches applied. */
export function coreRulesFor(faults: Faults, variants: Variants): CoreRules {
  return withSwitches(withSwitches(coreRules, variants, variantRules), faults, faultRules);
}

/** The core's one response rewriter: legal variants first, then faults. */
export function coreWire(faults: Faults, variants: Variants): Rewrite {
  const legal = rewriteWith(variants, variantWire);
  const broken = rewriteWith(faults, faultWire);
  return (w) => broken(legal(w));
}

// ---- replacements too long to write inline ----

function capabilitiesIgnoringDeny(policies: Policy[], path: string) {
  return capabilitiesFor(policies, path, true);
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
