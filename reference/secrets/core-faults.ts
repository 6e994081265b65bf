/** Fault switches of the secrets core: each breaks one catalogued core rule (spec/catalogue/core.yaml). */
import { faultsOf } from '../faults.js';

const core = faultsOf(['core']);

export const faults = [
  core('core.v1-prefix-ignored', 'core.routes.v1-prefix', 'Any /vN/ prefix is served like /v1/.'),
  core(
    'core.no-default-secret-mount',
    'core.mounts.secret-default',
    'The default key-value engine is mounted at kv/ instead of secret/.',
  ),
  core('core.nested-mount-rejected', 'core.mounts.any-path', 'Mount paths with more than one segment are refused.'),
  core('core.mount-enable-no-op', 'core.mounts.enable', 'POST sys/mounts/<path> answers 204 but mounts nothing.'),
  core(
    'core.mount-conflict-allowed',
    'core.mounts.enable-conflict-400',
    'Mounting over a path in use replaces the mount instead of answering 400.',
  ),
  core(
    'core.mount-unknown-type-accepted',
    'core.mounts.unknown-type-400',
    'An unknown engine type is mounted as a key-value engine.',
  ),
  core('core.mount-read-options-missing', 'core.mounts.read', 'GET sys/mounts/<path> reports options null.'),
  core('core.unmount-ignored', 'core.mounts.disable', 'DELETE sys/mounts/<path> answers 204 but keeps the mount.'),
  core('core.mounts-list-no-slash', 'core.mounts.list', 'sys/mounts keys lack the trailing slash.'),
  core('core.auth-enable-no-op', 'core.auth.methods-mounted', 'POST sys/auth/<path> answers 204 but enables nothing.'),
  core('core.policy-read-missing', 'core.acl.policy-crud', 'A written ACL policy reads back as 404.'),
  core(
    'core.policy-missing-accepted',
    'core.acl.policy-missing-400',
    'An ACL policy write without a policy field is stored as an empty policy.',
  ),
  core(
    'core.existence-check-ignored',
    'core.acl.existence-check',
    'Every POST/PUT is treated as update, so a create-only policy cannot create.',
  ),
  core('core.envelope-not-object', 'core.envelope.json', 'Successful JSON answers are wrapped in an array.'),
  core('core.request-id-not-uuid', 'core.envelope.request-id-uuid', 'request_id is not a UUID.'),
  core('core.lease-id-null', 'core.envelope.lease-id-empty', 'lease_id is null instead of "" without a lease.'),
  core('core.lease-duration-nonzero', 'core.envelope.lease-duration-zero', 'lease_duration is 3600 without a lease.'),
  core('core.renewable-string', 'core.envelope.renewable-boolean', 'renewable is the string "false".'),
  core('core.warnings-empty-string', 'core.envelope.field-types', 'warnings is "" instead of null or an array.'),
  core('core.list-verb-rejected', 'core.verbs.supported', 'The LIST verb answers 405 (only ?list=true works).'),
  core('core.put-rejected', 'core.verbs.put-post-synonyms', 'PUT answers 405 where POST works.'),
  core('core.list-query-ignored', 'core.list.verb-equals-query', 'GET ?list=true is served as a plain read.', {
    suites: ['core', 'kv'],
  }),
  core('core.empty-list-200', 'core.list.empty-404', 'A LIST with no results answers 200 with empty keys.', {
    suites: ['core', 'kv'],
  }),
  core('core.invalid-json-accepted', 'core.json.request-body', 'A body that is not valid JSON is treated as {}.'),
  core(
    'core.body-array-accepted',
    'core.json.body-must-be-object',
    'A JSON array body is accepted as an object keyed by index.',
  ),
  core('core.content-type-not-json', 'core.content-type.set-on-responses', 'JSON responses are labelled text/plain.'),
  core(
    'core.content-type-required',
    'core.content-type.not-required',
    'A body without a Content-Type header is rejected with 400.',
  ),
  core('core.trailing-period-accepted', 'core.path.trailing-period-404', 'A path ending in a period is served.'),
  core('core.unknown-path-204', 'core.path.unknown-404', 'A path no mount serves answers 204.'),
  core('core.help-ignored', 'core.help.help-and-openapi', '?help=1 is ignored and the operation runs.'),
  core(
    'core.help-absolute-paths',
    'core.help.openapi-relative-paths',
    'The help OpenAPI paths are absolute /v1/ paths.',
  ),
  core(
    'core.help-unrestricted',
    'core.help.requires-permission',
    'Help is returned to a token without access to the path.',
  ),
  core(
    'core.namespace-header-ignored',
    'core.namespace.header-equals-path-prefix',
    'The X-Svc-Namespace header is ignored.',
  ),
  core(
    'core.request-header-not-enforced',
    'core.request-header.required-when-configured',
    'require_request_header is configured but requests without X-Svc-Request are served.',
  ),
  core(
    'core.success-200-empty',
    'core.success.200-or-204',
    'Operations without a body answer 200 with an empty body instead of 204.',
  ),
  core(
    'core.errors-not-array',
    'core.errors.body-errors-array',
    'Error bodies carry errors as one string instead of an array.',
  ),
  core('core.bad-request-as-500', 'core.errors.status-400', 'Invalid requests answer 500 instead of 400.'),
  core('core.forbidden-as-401', 'core.errors.status-403', 'Permission failures answer 401 instead of 403.'),
  core('core.method-405-as-404', 'core.method.unsupported-405', 'An unsupported method answers 404 instead of 405.'),
  core('core.request-size-unlimited', 'core.limits.request-size', 'Bodies over the maximum request size are accepted.'),
  // Token transport and ACL evaluation live in the core but are the auth suite's rules.
  core('auth.bearer-ignored', 'auth.token.bearer', 'A token sent as Authorization: Bearer is ignored.', {
    suites: ['auth'],
  }),
  core('auth.missing-token-accepted', 'auth.token.required', 'A request without a token is served as root.', {
    suites: ['auth'],
  }),
  core('auth.invalid-token-accepted', 'auth.token.invalid-refused', 'An unknown token is served as root.', {
    suites: ['auth'],
  }),
  core('auth.acl-deny-ignored', 'auth.acl.deny', 'A deny capability does not override other grants.', {
    suites: ['auth'],
  }),
];
