/**
 * Every behavioural switch of the directory engine, declared once where it takes effect: each
 * replaces one or more rules of rules.ts (see reference/switches.ts). The switches that only change
 * the shape of an answer are in answer-switches.ts. Faults come first, so a variant wraps the rule
 * a fault left.
 */
import type { Faults } from '../../../faults.js';
import { rulesWith, switchesOf } from '../../../switches.js';
import type { Variants } from '../../../variants.js';
import { badRequest, forbidden } from '../../errors.js';
import { documentedRules, type LdapRules } from './rules.js';

const { fault, variant } = switchesOf<LdapRules>(['ldap']);
const DOC = 'secrets-service-core.md';

export const ldapSwitches = [
  // --- faults ---
  // Faults: configuration and passwords.
  fault('ldap.config-both-length-policy-accepted', {
    breaks: 'ldap.password.both-rejected',
    description: 'A config setting both length and password_policy is accepted.',
    replace: () => ({ lengthAndPolicyExclusive: false }),
  }),
  fault('ldap.config-bindpass-readable', {
    breaks: 'ldap.config.bindpass-write-only',
    description: 'GET /ldap/config returns the bind password.',
    replace: (d) => ({ configRead: (cfg) => ({ ...d.configRead(cfg), bindpass: cfg.bindpass }) }),
  }),
  fault('ldap.config-policy-checked-on-save', {
    breaks: 'ldap.password.policy-not-checked-on-save',
    description: 'Saving a config that names a missing password policy is rejected.',
    replace: () => ({ policyCheckedOnSave: true }),
  }),
  fault('ldap.config-userattr-default-uid', {
    breaks: 'ldap.config.userattr-default',
    description: 'The openldap schema searches by uid instead of cn when userattr is not set.',
    replace: () => ({ defaultUserAttr: () => 'uid' }),
  }),
  fault('ldap.url-no-failover', {
    breaks: 'ldap.config.url-failover',
    description: 'Only the first URL of the list is tried.',
    replace: () => ({ urlsToTry: (urls) => urls.slice(0, 1) }),
  }),
  fault('ldap.length-ignored', {
    breaks: 'ldap.password.length',
    description: 'The configured length is ignored; passwords keep the default length.',
    replace: (d) => ({ passwordLength: () => d.passwordLength(undefined) }),
  }),
  fault('ldap.default-length-32', {
    breaks: 'ldap.config.length-default',
    description: 'Without length or policy passwords are 32 characters instead of 64.',
    replace: (d) => ({
      passwordLength: (configured) => (configured !== undefined ? d.passwordLength(configured) : 32),
    }),
  }),
  fault('ldap.policy-ignored', {
    breaks: 'ldap.password.policy',
    description: 'The configured password policy is ignored; the default generator is used.',
    replace: () => ({ usesPasswordPolicy: () => false }),
  }),
  fault('ldap.rotate-root-not-applied', {
    breaks: 'ldap.rotate-root.changes-bind-password',
    description: 'rotate-root stores a new bind password without changing it in the directory.',
    replace: () => ({ rotateRootChangesDirectory: false }),
  }),
  // Faults: static roles.
  fault('ldap.static-rotation-period-4s-accepted', {
    breaks: 'ldap.static.rotation-period-minimum',
    description: 'A rotation_period of 4 seconds is accepted.',
    replace: () => ({ minRotationPeriod: 4 }),
  }),
  fault('ldap.static-username-mutable', {
    breaks: 'ldap.static.immutable-identity',
    description: 'A static role update may change its username.',
    replace: () => ({ staticIdentityImmutable: false }),
  }),
  fault('ldap.static-missing-entry-accepted', {
    breaks: 'ldap.static.username-must-exist',
    description: 'A static role for a user absent from the directory is accepted.',
    replace: () => ({ staticEntryMustExist: false }),
  }),
  fault('ldap.static-dn-ignored', {
    breaks: 'ldap.static.dn-precedence',
    description: 'The dn field is ignored and the username searched instead.',
    replace: () => ({ staticLookupDn: () => undefined }),
  }),
  fault('ldap.static-import-not-rotated', {
    breaks: 'ldap.static.import-rotation',
    description: 'Creating a static role does not rotate the password although skip_import_rotation is false.',
    replace: () => ({ skipImportRotation: () => true }),
  }),
  fault('ldap.static-skip-import-ignored', {
    breaks: 'ldap.static.skip-import-rotation',
    description: 'skip_import_rotation=true still rotates the password on creation.',
    replace: () => ({ skipImportRotation: () => false }),
  }),
  fault('ldap.static-config-skip-default-ignored', {
    breaks: 'ldap.static.skip-import-config-default',
    description: 'skip_static_role_import_rotation of the config is not used as the role default.',
    replace: (d) => ({
      skipImportRotation: (role) => d.skipImportRotation(role, false),
    }),
  }),
  fault('ldap.static-no-scheduled-rotation', {
    breaks: 'ldap.static.scheduled-rotation',
    description: 'Static passwords are never rotated when rotation_period elapses.',
    replace: () => ({ scheduledRotation: false }),
  }),
  fault('ldap.rotate-role-not-applied', {
    breaks: 'ldap.static.rotate-role',
    description: 'rotate-role changes the stored password without changing it in the directory.',
    replace: () => ({ rotateRoleChangesDirectory: false }),
  }),
  fault('ldap.static-last-password-missing', {
    breaks: 'ldap.static.rotate-role',
    description: 'static-cred does not report last_password after a rotation.',
    replace: () => ({ reportsLastPassword: false }),
  }),
  fault('ldap.static-ttl-is-period', {
    breaks: 'ldap.static.ttl-until-rotation',
    description: 'static-cred ttl is always the full rotation_period, not the time left.',
    replace: () => ({ staticCredTtl: (_left, period) => period }),
  }),
  // Faults: dynamic roles and templates.
  fault('ldap.dynamic-creation-continues', {
    breaks: 'ldap.dynamic.creation-stops-at-error',
    description: 'Creation LDIF keeps running entries after the first error.',
    replace: () => ({ creationStopsAtError: false }),
  }),
  fault('ldap.dynamic-no-rollback', {
    breaks: 'ldap.dynamic.rollback-runs',
    description: 'rollback_ldif is not run after a creation error.',
    replace: () => ({ rollbackRuns: false }),
  }),
  fault('ldap.dynamic-rollback-stops', {
    breaks: 'ldap.dynamic.rollback-continues',
    description: 'rollback_ldif stops at its first error.',
    replace: () => ({ rollbackStopsAtError: true }),
  }),
  fault('ldap.dynamic-deletion-stops', {
    breaks: 'ldap.dynamic.deletion-continues',
    description: 'deletion_ldif stops at its first error.',
    replace: () => ({ deletionStopsAtError: true }),
  }),
  fault('ldap.dynamic-revoke-keeps-account', {
    breaks: 'ldap.dynamic.revoke-deletes',
    description: 'Revoking or expiring a dynamic lease does not run deletion_ldif.',
    replace: () => ({ revokeDeletes: false }),
  }),
  fault('ldap.dynamic-update-replaces', {
    breaks: 'ldap.dynamic.partial-update',
    description: 'POST on an existing role drops the keys not sent.',
    replace: () => ({ partialUpdate: false }),
  }),
  fault('ldap.dynamic-empty-string-kept', {
    breaks: 'ldap.dynamic.empty-string-deletes',
    description: 'A key sent as an empty string keeps its previous value instead of being deleted.',
    replace: () => ({ emptyStringDeletes: false }),
  }),
  fault('ldap.dynamic-base64-not-decoded', {
    breaks: 'ldap.dynamic.base64-ldif',
    description: 'Base64 LDIF is stored and returned encoded.',
    replace: () => ({ decodeLdif: (text) => text }),
  }),
  fault('ldap.dynamic-max-ttl-ignored', {
    breaks: 'ldap.dynamic.max-ttl',
    description: 'The dynamic lease ignores the role max_ttl.',
    replace: (d) => ({
      dynamicMaxTtl: (_role, systemMax) => d.dynamicMaxTtl(undefined, systemMax),
    }),
  }),
  fault('ldap.dynamic-default-ttl-ignored', {
    breaks: 'ldap.dynamic.default-ttl',
    description: 'The dynamic lease ignores the role default_ttl.',
    replace: (d) => ({
      dynamicDefaultTtl: (_role, systemDefault) => d.dynamicDefaultTtl(undefined, systemDefault),
    }),
  }),
  fault('ldap.template-truncate-off-by-one', {
    breaks: 'ldap.template.fn-truncate',
    description: 'truncate N keeps N+1 characters.',
    replace: () => ({ truncate: (s, n) => s.slice(0, n + 1) }),
  }),
  fault('ldap.template-display-name-missing', {
    breaks: 'ldap.template.fields',
    description: 'The .DisplayName field is rendered empty.',
    replace: () => ({ displayName: () => '' }),
  }),
  fault('ldap.template-utf16le-in-username', {
    breaks: 'ldap.template.utf16le-ldif-only',
    description: 'utf16le is accepted in username templates.',
    replace: () => ({ utf16leIn: () => true }),
  }),
  fault('ldap.username-template-default-wrong', {
    breaks: 'ldap.dynamic.username-template-default',
    description: 'The default username template omits the role name.',
    replace: () => ({
      defaultUsernameTemplate: 'v_{{.DisplayName}}_{{random 10}}_{{unix_time}}',
    }),
  }),
  // Faults: library sets.
  fault('ldap.library-account-existence-unchecked', {
    breaks: 'ldap.library.accounts-must-exist',
    description: 'A library set may name accounts absent from the directory.',
    replace: () => ({ libraryAccountsMustExist: false }),
  }),
  fault('ldap.library-account-in-two-sets', {
    breaks: 'ldap.library.one-set-only',
    description: 'An account may belong to two sets.',
    replace: () => ({ accountInOneSetOnly: false }),
  }),
  fault('ldap.library-checkout-ttl-uncapped', {
    breaks: 'ldap.library.checkout-ttl-capped',
    description: 'A requested check-out ttl above the set ttl is not capped.',
    replace: () => ({ checkoutTtlCapped: false }),
  }),
  fault('ldap.library-checkout-none-available-200', {
    breaks: 'ldap.library.checkout-none-available-400',
    description: 'Check-out with no free account lends an already checked-out account.',
    replace: (d) => ({
      pickFreeAccount: (accounts, isFree) => d.pickFreeAccount(accounts, isFree) ?? accounts[0],
    }),
  }),
  fault('ldap.library-checkin-not-enforced', {
    breaks: 'ldap.library.checkin-unauthorized',
    description: 'Any caller may check in an account.',
    replace: () => ({ checkInEnforced: () => false }),
  }),
  fault('ldap.library-enforcement-always-on', {
    breaks: 'ldap.library.checkin-disabled-enforcement',
    description: 'disable_check_in_enforcement is ignored.',
    replace: (d) => ({
      checkInEnforced: (_disable, manage) => d.checkInEnforced(false, manage),
    }),
  }),
  fault('ldap.library-manage-checkin-enforced', {
    breaks: 'ldap.library.checkin-manage',
    description: 'The manage path applies the borrower check.',
    replace: (d) => ({ checkInEnforced: (disable) => d.checkInEnforced(disable, false) }),
  }),
  fault('ldap.library-expiry-keeps-checkout', {
    breaks: 'ldap.library.ttl-expiry-checkin',
    description: 'An expired check-out stays checked out.',
    replace: () => ({ expiryChecksIn: false }),
  }),
  fault('ldap.library-checkin-no-rotation', {
    breaks: 'ldap.library.checkin-rotates',
    description: 'Check-in does not rotate the account password.',
    replace: () => ({ checkInRotates: false }),
  }),
  fault('ldap.library-checkin-lists-available', {
    breaks: 'ldap.library.checkin-available',
    description: 'Check-in lists accounts that were already available.',
    replace: () => ({ checkInListsAvailable: true }),
  }),
  fault('ldap.library-renew-past-max-ttl', {
    breaks: 'ldap.library.renew-max-ttl',
    description: 'Check-out leases can be renewed past max_ttl.',
    replace: () => ({ renewCap: () => undefined }),
  }),
  fault('ldap.library-checkout-password-stale', {
    breaks: 'ldap.library.checkout',
    description: 'Check-out returns a password that does not open the account.',
    replace: () => ({ checkoutPassword: (password) => `${password}x` }),
  }),
  fault('ldap.library-status-no-borrower', {
    breaks: 'ldap.library.status',
    description: 'status omits the borrower of a checked-out account.',
    replace: () => ({
      borrowerStatus: () => ({ available: false, borrower_client_token: '', borrower_entity_id: '' }),
    }),
  }),
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
];

/** The engine's rules with the replacements of the switches that are on. */
export function ldapRulesFor(faults: Faults, variants: Variants): LdapRules {
  return rulesWith(documentedRules, { faults, variants }, ldapSwitches);
}
