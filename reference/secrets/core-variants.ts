/** Legal variants of the core area (see reference/variants.ts): behaviours the documents allow. */
import { variantsOf } from '../variants.js';

const v = variantsOf(['core']);
const CORE = 'secrets-service-core.md';

export const variants = [
  v(
    'core.non-json-content-type-refused',
    'secrets-service-core.md, Endpoints > Conventions 3: "Request and response bodies are JSON. The service ... does not require it [Content-Type] on requests" (a missing type is fine; a body declared as another type may be refused)',
    'A request body sent with an explicit Content-Type that is not JSON (text/plain, form data) is refused with 400 instead of being parsed as JSON.',
    { suites: ['core', 'robustness'] },
  ),
  v(
    'core.forbidden-as-404',
    `${CORE}, Errors: 404 "Invalid path, or no permission to see a path (used to avoid leaking state)"`,
    "A path the token's policies do not grant answers 404 (not 403), so the path's existence does not leak.",
    { suites: ['core', 'kv', 'auth'] },
  ),
  v(
    'core.help-without-permission-check',
    `${CORE}, Endpoints > Conventions 6: "If permitted, the response has help" (silent on what happens otherwise)`,
    'Help (?help=1) is answered to any valid token, whatever its policies: help text is not secret (the upstream product always allows help).',
    { assumptions: ['core.help.requires-permission'] },
  ),
  v(
    'core.envelope-extra-fields',
    `${CORE}, Response envelope: "Top-level fields that appear" (the list does not close the object)`,
    'The envelope carries top-level fields the documents do not list (mount_type, mount_running_plugin_version, headers).',
    { suites: ['core', 'kv', 'auth'] },
  ),
  v(
    'core.envelope-nulls-omitted',
    `${CORE}, Response envelope: fields "that appear" (wrap_info, warnings, auth are "object or null"; none is promised on every answer)`,
    'wrap_info, warnings and auth are left out of the envelope when they would be null.',
    { suites: ['core', 'kv', 'auth'] },
  ),
  v(
    'core.warnings-empty-array',
    `${CORE}, Response envelope: warnings "array or null"`,
    'An answer without warnings carries warnings: [] instead of null.',
    { suites: ['core', 'kv'] },
  ),
  v(
    'core.error-texts-wrapped',
    `${CORE}, Errors: "{errors: [<message>, ...]}" (the messages' wording is not given)`,
    'Error messages use other wording: each is wrapped the way the upstream product joins errors ("1 error occurred:\\n\\t* ...").',
    { suites: ['core', 'kv', 'auth'] },
  ),
  v(
    'core.list-query-lenient',
    `${CORE}, Endpoints > Conventions 2: "GET with query the service list=true" (other spellings of true are not excluded)`,
    'GET ?list= accepts every boolean spelling the upstream product parses (1, t, TRUE, True) as LIST.',
    { suites: ['core', 'kv'] },
  ),
  v(
    'core.mounts-list-extras',
    `${CORE}, What the service does 3 (mount listing shape not shown; catalogue core.mounts.list is an assumption)`,
    'GET sys/mounts and sys/auth also list the system mounts (sys/, cubbyhole/, identity/) and give each mount more fields (uuid, local, seal_wrap, plugin_version ...), as the upstream product does.',
    { suites: ['core', 'auth'] },
  ),
  v(
    'core.no-content-as-200-with-warnings',
    `${CORE}, Endpoints > Conventions 9: "an operation documented as 204 can return 200 when warnings arise"`,
    'Operations without a payload answer 200 with an envelope carrying a warning instead of 204.',
    { suites: ['core', 'kv', 'auth'] },
  ),
  v(
    'core.content-type-charset',
    `${CORE}, Endpoints > Conventions 3: "The service sets Content-Type on responses" (parameters not excluded)`,
    'JSON answers are labelled application/json; charset=utf-8.',
  ),
  v(
    'core.list-only-get-405',
    `${CORE}, Endpoints > Conventions 2 (LIST is GET with list=true) and Errors: 405 "Method not supported on the path"`,
    'A list-only path (sys/policies/acl, sys/policies/password, sys/namespaces) answers 405 to a GET without list=true.',
  ),
  v(
    'core.list-keys-unordered',
    `${CORE}, Endpoints > Conventions 2 and Key-value engine: a list "returns the keys under the path" (no order promised)`,
    'LIST answers its keys in another order than sorted (reversed).',
    { suites: ['core', 'kv'] },
  ),
  v(
    'core.timestamps-nanoseconds',
    `${CORE}, "RFC 3339 timestamp" (precision not given)`,
    'Timestamps of token and lease lookups carry nanoseconds (RFC 3339 with 9 fractional digits), as the upstream product writes them.',
    { suites: ['auth'] },
  ),
];
