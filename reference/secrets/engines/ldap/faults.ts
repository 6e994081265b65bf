import { faultsOf } from '../../../faults.js';

const f = faultsOf(['ldap']);

/** Fault switches of the directory engine: each breaks one catalogued rule at the one place it is implemented. */
export const faults = [
  f(
    'ldap.config-both-length-policy-accepted',
    'ldap.password.both-rejected',
    'A config setting both length and password_policy is accepted.',
  ),
  f('ldap.config-bindpass-readable', 'ldap.config.bindpass-write-only', 'GET /ldap/config returns the bind password.'),
  f(
    'ldap.config-policy-checked-on-save',
    'ldap.password.policy-not-checked-on-save',
    'Saving a config that names a missing password policy is rejected.',
  ),
  f(
    'ldap.config-userattr-default-uid',
    'ldap.config.userattr-default',
    'The openldap schema searches by uid instead of cn when userattr is not set.',
  ),
  f('ldap.url-no-failover', 'ldap.config.url-failover', 'Only the first URL of the list is tried.'),
  f(
    'ldap.length-ignored',
    'ldap.password.length',
    'The configured length is ignored; passwords keep the default length.',
  ),
  f(
    'ldap.default-length-32',
    'ldap.config.length-default',
    'Without length or policy passwords are 32 characters instead of 64.',
  ),
  f(
    'ldap.policy-ignored',
    'ldap.password.policy',
    'The configured password policy is ignored; the default generator is used.',
  ),
  f(
    'ldap.rotate-root-not-applied',
    'ldap.rotate-root.changes-bind-password',
    'rotate-root stores a new bind password without changing it in the directory.',
  ),
  f(
    'ldap.static-rotation-period-4s-accepted',
    'ldap.static.rotation-period-minimum',
    'A rotation_period of 4 seconds is accepted.',
  ),
  f('ldap.static-username-mutable', 'ldap.static.immutable-identity', 'A static role update may change its username.'),
  f(
    'ldap.static-missing-entry-accepted',
    'ldap.static.username-must-exist',
    'A static role for a user absent from the directory is accepted.',
  ),
  f(
    'ldap.static-dn-ignored',
    'ldap.static.dn-precedence',
    'The dn field is ignored and the username searched instead.',
  ),
  f(
    'ldap.static-import-not-rotated',
    'ldap.static.import-rotation',
    'Creating a static role does not rotate the password although skip_import_rotation is false.',
  ),
  f(
    'ldap.static-skip-import-ignored',
    'ldap.static.skip-import-rotation',
    'skip_import_rotation=true still rotates the password on creation.',
  ),
  f(
    'ldap.static-config-skip-default-ignored',
    'ldap.static.skip-import-config-default',
    'skip_static_role_import_rotation of the config is not used as the role default.',
  ),
  f(
    'ldap.static-no-scheduled-rotation',
    'ldap.static.scheduled-rotation',
    'Static passwords are never rotated when rotation_period elapses.',
  ),
  f(
    'ldap.rotate-role-not-applied',
    'ldap.static.rotate-role',
    'rotate-role changes the stored password without changing it in the directory.',
  ),
  f(
    'ldap.static-last-password-missing',
    'ldap.static.rotate-role',
    'static-cred does not report last_password after a rotation.',
  ),
  f(
    'ldap.static-ttl-is-period',
    'ldap.static.ttl-until-rotation',
    'static-cred ttl is always the full rotation_period, not the time left.',
  ),
  f(
    'ldap.dynamic-creation-continues',
    'ldap.dynamic.creation-stops-at-error',
    'Creation LDIF keeps running entries after the first error.',
  ),
  f('ldap.dynamic-no-rollback', 'ldap.dynamic.rollback-runs', 'rollback_ldif is not run after a creation error.'),
  f('ldap.dynamic-rollback-stops', 'ldap.dynamic.rollback-continues', 'rollback_ldif stops at its first error.'),
  f('ldap.dynamic-deletion-stops', 'ldap.dynamic.deletion-continues', 'deletion_ldif stops at its first error.'),
  f(
    'ldap.dynamic-revoke-keeps-account',
    'ldap.dynamic.revoke-deletes',
    'Revoking or expiring a dynamic lease does not run deletion_ldif.',
  ),
  f('ldap.dynamic-update-replaces', 'ldap.dynamic.partial-update', 'POST on an existing role drops the keys not sent.'),
  f(
    'ldap.dynamic-empty-string-kept',
    'ldap.dynamic.empty-string-deletes',
    'A key sent as an empty string keeps its previous value instead of being deleted.',
  ),
  f('ldap.dynamic-base64-not-decoded', 'ldap.dynamic.base64-ldif', 'Base64 LDIF is stored and returned encoded.'),
  f('ldap.dynamic-max-ttl-ignored', 'ldap.dynamic.max-ttl', 'The dynamic lease ignores the role max_ttl.'),
  f('ldap.dynamic-default-ttl-ignored', 'ldap.dynamic.default-ttl', 'The dynamic lease ignores the role default_ttl.'),
  f('ldap.template-truncate-off-by-one', 'ldap.template.fn-truncate', 'truncate N keeps N+1 characters.'),
  f('ldap.template-display-name-missing', 'ldap.template.fields', 'The .DisplayName field is rendered empty.'),
  f(
    'ldap.template-utf16le-in-username',
    'ldap.template.utf16le-ldif-only',
    'utf16le is accepted in username templates.',
  ),
  f(
    'ldap.username-template-default-wrong',
    'ldap.dynamic.username-template-default',
    'The default username template omits the role name.',
  ),
  f(
    'ldap.library-account-existence-unchecked',
    'ldap.library.accounts-must-exist',
    'A library set may name accounts absent from the directory.',
  ),
  f('ldap.library-account-in-two-sets', 'ldap.library.one-set-only', 'An account may belong to two sets.'),
  f(
    'ldap.library-checkout-ttl-uncapped',
    'ldap.library.checkout-ttl-capped',
    'A requested check-out ttl above the set ttl is not capped.',
  ),
  f(
    'ldap.library-checkout-none-available-200',
    'ldap.library.checkout-none-available-400',
    'Check-out with no free account lends an already checked-out account.',
  ),
  f('ldap.library-checkin-not-enforced', 'ldap.library.checkin-unauthorized', 'Any caller may check in an account.'),
  f(
    'ldap.library-enforcement-always-on',
    'ldap.library.checkin-disabled-enforcement',
    'disable_check_in_enforcement is ignored.',
  ),
  f(
    'ldap.library-manage-checkin-enforced',
    'ldap.library.checkin-manage',
    'The manage path applies the borrower check.',
  ),
  f('ldap.library-expiry-keeps-checkout', 'ldap.library.ttl-expiry-checkin', 'An expired check-out stays checked out.'),
  f(
    'ldap.library-checkin-no-rotation',
    'ldap.library.checkin-rotates',
    'Check-in does not rotate the account password.',
  ),
  f(
    'ldap.library-checkin-lists-available',
    'ldap.library.checkin-available',
    'Check-in lists accounts that were already available.',
  ),
  f('ldap.library-renew-past-max-ttl', 'ldap.library.renew-max-ttl', 'Check-out leases can be renewed past max_ttl.'),
  f(
    'ldap.library-checkout-password-stale',
    'ldap.library.checkout',
    'Check-out returns a password that does not open the account.',
  ),
  f('ldap.library-status-no-borrower', 'ldap.library.status', 'status omits the borrower of a checked-out account.'),
];
