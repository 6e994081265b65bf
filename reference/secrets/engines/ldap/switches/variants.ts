/**
 * The legal variants of the directory engine that change a rule of ../rules.ts: behaviours the
 * documents allow where they are silent or vague (each names the passage in `allows`).
 */
import { switchesOf } from '../../../../switches.js';
import { badRequest, forbidden } from '../../../errors.js';
import type { LdapRules } from '../rules.js';

const { variant } = switchesOf<LdapRules>(['ldap']);
const DOC = 'secrets-service-core.md';

export const variantSwitches = [
  // --- legal variants ---
  // Legal variants that change a rule.
  variant('ldap.status-entity-id-omitted', {
    allows: `${DOC} Directory engine: library set: "when unavailable, borrower_client_token and borrower_entity_id" — a token without an entity has no entity id to show`,
    description:
      'the status of an account checked out by a token without an entity (the root token) has no borrower_entity_id (the real product)',
    replace: (d) => ({
      borrowerStatus: (co) =>
        co.entityId === '' ? { available: false, borrower_client_token: co.accessor } : d.borrowerStatus(co),
    }),
  }),
  variant('ldap.static-dn-as-written', {
    allows: `${DOC} Directory engine: static role: the read response has dn; dn is what was written ("If given takes precedence"), the document does not say the searched DN is stored`,
    description:
      'static-role and static-cred reads show the dn as written: empty when the role was created with username only (the real product)',
    replace: () => ({ staticShownDn: (_found, written) => written }),
  }),
  variant('ldap.last-rotation-subsecond', {
    allows: `${DOC} Directory engine: static role: last_svc_rotation is an "RFC 3339 timestamp"; its precision is not shown`,
    description: 'last_svc_rotation carries fractional seconds',
    replace: () => ({ lastRotationTime: (ms) => new Date(ms).toISOString() }),
  }),
  variant('ldap.dynamic-names-no-slashes', {
    allows: `${DOC} Directory engine: static role and library set names may contain slashes; for dynamic role names the document says nothing`,
    description: 'a dynamic role name containing a slash is refused with 400',
    replace: () => ({
      checkDynamicRoleName: (name) => {
        if (name.includes('/')) throw badRequest('dynamic role names cannot contain "/"');
      },
    }),
  }),
  variant('ldap.checkin-unauthorized-403', {
    allows: `${DOC} States and transitions: check-in by a caller not authorized gives an "Error response" (no status named)`,
    description:
      'a check-in by a caller who did not check the account out answers 403 permission denied instead of 400',
    replace: () => ({ unauthorizedCheckIn: (message) => forbidden(message) }),
  }),
  variant('ldap.static-cred-before-rotation-error', {
    allows: `${DOC} Directory engine: static role: with skip_import_rotation "password reads fail to supply it until the first rotation" (error or no password)`,
    description:
      'static-cred of a role whose password was never rotated answers 400 instead of a read without password',
    replace: () => ({
      credBeforeFirstRotation: () => {
        throw badRequest('the password of this role is not known until its first rotation');
      },
    }),
  }),
  variant('ldap.static-identity-change-ignored', {
    allows: `${DOC} Directory engine: static role: username and dn "cannot change after creation"; whether an update naming others is refused or ignored is not said`,
    description: 'an update naming another username or dn is answered 204 and ignored (the role keeps its entry)',
    replace: () => ({ identityChangeRefused: () => undefined }),
  }),
  variant('ldap.static-skip-import-update-refused', {
    allows: `${DOC} Directory engine: static role: skip_import_rotation applies "Only on creation"; whether an update sending it is refused or ignored is not said`,
    description: 'an update of an existing static role sending skip_import_rotation is refused with 400',
    replace: () => ({
      skipImportOnUpdate: () => badRequest('skip_import_rotation can only be set when the role is created'),
    }),
  }),
  variant('ldap.static-update-requires-fields', {
    allows: `${DOC} Directory engine: static role: username and rotation_period are "Required: yes"; whether an update of an existing role may omit them is not said`,
    description:
      'an update of an existing static role must send username and rotation_period again: one omitting either is refused with 400',
    assumptions: ['ldap.static.update-keeps-omitted'],
    replace: () => ({ staticUpdateMayOmit: false }),
  }),
  variant('ldap.checkout-ttl-zero-unlimited', {
    allows: `${DOC} Endpoints > Directory engine: check-out ttl "0 unlimited"; whether the set's ttl still caps an unlimited request is not said`,
    description: "a check-out asking for ttl 0 has no per-check-out limit: its lease lasts until the set's max_ttl",
    replace: () => ({ unlimitedCheckoutTtl: () => 0 }),
  }),
  variant('ldap.dynamic-max-ttl-above-system-refused', {
    allows: `${DOC} Directory engine: dynamic role: max_ttl "may be shorter than it, never longer" (refusing a longer one keeps the rule)`,
    description: 'a dynamic role whose max_ttl exceeds the system maximum is refused with 400',
    replace: () => ({ maxTtlAboveSystemRefused: true }),
  }),
  variant('ldap.truncate-sha256-whole-text', {
    allows: `${DOC} Template language: truncate_sha256: "the SHA-256 of the cut text" (the text being cut, or what is cut off)`,
    description: 'truncate_sha256 ends with the first 8 characters of the SHA-256 of the whole input',
    replace: () => ({ truncateSha256Of: (input) => input }),
  }),
  variant('ldap.template-times-earlier', {
    allows: `${DOC} Template language: "The time fields may be slightly earlier than the lease's own values"`,
    description: "the template time fields are taken 2 seconds before the lease's issue and expiry times",
    replace: (d) => ({ templateTimes: (i, e) => d.templateTimes(i - 2000, e - 2000) }),
  }),
];
