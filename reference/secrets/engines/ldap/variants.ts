/** Legal variants of the ldap area (see reference/variants.ts): behaviours the documents allow. */
import { variantsOf } from '../../../variants.js';

const v = variantsOf(['ldap']);
const DOC = 'secrets-service-core.md';

export const variants = [
  v(
    'ldap.status-entity-id-omitted',
    `${DOC} Directory engine: library set: "when unavailable, borrower_client_token and borrower_entity_id" — a token without an entity has no entity id to show`,
    'the status of an account checked out by a token without an entity (the root token) has no borrower_entity_id (the real product)',
  ),
  v(
    'ldap.static-dn-as-written',
    `${DOC} Directory engine: static role: the read response has dn; dn is what was written ("If given takes precedence"), the document does not say the searched DN is stored`,
    'static-role and static-cred reads show the dn as written: empty when the role was created with username only (the real product)',
  ),
  v(
    'ldap.read-durations-as-strings',
    `${DOC} Directory engine: library ttl/max_ttl are "duration" and dynamic default_ttl/max_ttl "string or integer"; the read format is not shown`,
    'library and dynamic role reads give ttl, max_ttl and default_ttl as duration strings (1h0m0s)',
  ),
  v(
    'ldap.config-read-documented-only',
    `${DOC} Directory engine: configuration: "Read response data fields" lists binddn ... url`,
    'the config read has only the listed fields (no userdn, userattr, upndomain, timeouts, password_policy, ...)',
  ),
  v(
    'ldap.static-read-documented-only',
    `${DOC} Directory engine: static role: "Read response data: dn, last_svc_rotation, rotation_period, username"`,
    'the static role read has only the listed fields (no skip_import_rotation)',
  ),
  v(
    'ldap.last-rotation-subsecond',
    `${DOC} Directory engine: static role: last_svc_rotation is an "RFC 3339 timestamp"; its precision is not shown`,
    'last_svc_rotation carries fractional seconds',
  ),
  v(
    'ldap.dynamic-names-no-slashes',
    `${DOC} Directory engine: static role and library set names may contain slashes; for dynamic role names the document says nothing`,
    'a dynamic role name containing a slash is refused with 400',
  ),
  v(
    'ldap.checkin-unauthorized-403',
    `${DOC} States and transitions: check-in by a caller not authorized gives an "Error response" (no status named)`,
    'a check-in by a caller who did not check the account out answers 403 permission denied instead of 400',
  ),
  v(
    'ldap.static-cred-before-rotation-error',
    `${DOC} Directory engine: static role: with skip_import_rotation "password reads fail to supply it until the first rotation" (error or no password)`,
    'static-cred of a role whose password was never rotated answers 400 instead of a read without password',
  ),
  v(
    'ldap.missing-object-read-400',
    `${DOC} Errors: 400 is "invalid request", 404 "invalid path"; the status of a read of a role or set that does not exist is not named`,
    'reads of a static role, static-cred, dynamic role or library set that does not exist answer 400 instead of 404',
  ),
  v(
    'ldap.lists-unsorted',
    `${DOC} Endpoints > Directory engine: LIST answers "array of role names" / "top-level set names"; no order is given`,
    'LIST of static roles, dynamic roles and library sets answers the names in reverse order instead of sorted',
  ),
  v(
    'ldap.error-texts-multierror',
    `${DOC} Errors: the body is {errors: [<message>, ...]}; the texts are not specified`,
    'error messages are worded as the real product words them: "1 error occurred:\\n\\t* <message>\\n\\n"',
  ),
];
