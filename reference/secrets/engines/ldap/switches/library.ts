/**
 * Faults of the directory engine's library sets (`/ldap/library`): the set's fields and defaults,
 * check-out, check-in and the status. Each replaces rules of ../rules.ts and names the statements
 * of secrets-service-core.md it breaks.
 */
import { switchesOf } from '../../../../switches.js';
import { badRequest } from '../../../errors.js';
import type { LdapRules } from '../rules.js';

const { fault } = switchesOf<LdapRules>(['ldap']);
const S = 'doc.core.library';
const DAY = 24 * 3600;

export const librarySwitches = [
  // The set.
  fault('ldap.library-accounts-optional', {
    breaks: 'ldap.library.accounts-required',
    statements: [`${S}.accounts-required`],
    description: 'A library set without service_account_names is stored (with no accounts).',
    replace: () => ({ libraryAccountsRequired: false }),
  }),
  fault('ldap.library-accounts-string-refused', {
    breaks: 'ldap.library.create-read',
    statements: [`${S}.accounts-string`],
    description: 'service_account_names given as a string is refused; only a list is taken.',
    replace: (d) => ({
      accountNames: (value) => {
        if (typeof value === 'string') throw badRequest('service_account_names must be a list');
        return d.accountNames(value);
      },
    }),
  }),
  fault('ldap.library-update-ignored', {
    breaks: 'ldap.library.create-read',
    statements: [`${S}.endpoint-write`],
    description: 'A POST on an existing set answers success but keeps its ttl and max_ttl.',
    replace: () => ({ libraryUpdateApplies: false }),
  }),
  fault('ldap.library-ttl-default-12h', {
    breaks: 'ldap.library.defaults',
    statements: [`${S}.ttl-default`, `${S}.limit-ttl-default`],
    description: 'A set without ttl gets 12h instead of 24h.',
    replace: () => ({ libraryDefaultTtl: DAY / 2 }),
  }),
  fault('ldap.library-max-ttl-default-48h', {
    breaks: 'ldap.library.defaults',
    statements: [`${S}.max-ttl-default`, `${S}.limit-max-ttl-default`],
    description: 'A set without max_ttl gets 48h instead of 24h.',
    replace: () => ({ libraryDefaultMaxTtl: 2 * DAY }),
  }),
  fault('ldap.library-enforcement-default-off', {
    breaks: 'ldap.library.defaults',
    statements: [`${S}.check-in-enforcement-default`],
    description: 'A set without disable_check_in_enforcement has enforcement disabled.',
    replace: () => ({ libraryDefaultDisableEnforcement: true }),
  }),
  fault('ldap.library-ttl-zero-is-default', {
    breaks: 'ldap.library.ttl-zero',
    statements: [`${S}.ttl-zero`],
    description: 'A set ttl of 0 is stored as the 24h default instead of unlimited.',
    replace: (d) => ({ libraryTtl: (s, key) => (key === 'ttl' && s === 0 ? DAY : d.libraryTtl(s, key)) }),
  }),
  fault('ldap.library-max-ttl-zero-is-default', {
    breaks: 'ldap.library.max-ttl-zero',
    statements: [`${S}.max-ttl-zero`],
    description: 'A set max_ttl of 0 is stored as the 24h default instead of unlimited.',
    replace: (d) => ({ libraryTtl: (s, key) => (key === 'max_ttl' && s === 0 ? DAY : d.libraryTtl(s, key)) }),
  }),
  fault('ldap.library-account-existence-unchecked', {
    breaks: 'ldap.library.accounts-must-exist',
    statements: [`${S}.accounts-exist`],
    description: 'A library set may name accounts absent from the directory.',
    replace: () => ({ libraryAccountsMustExist: false }),
  }),
  fault('ldap.library-update-accounts-unchecked', {
    breaks: 'ldap.library.accounts-must-exist',
    statements: [`${S}.accounts-verified`],
    description: 'Accounts added to an existing set are not looked up in the directory.',
    replace: () => ({ verifyAddedAccounts: (setIsNew) => setIsNew }),
  }),
  fault('ldap.library-account-in-two-sets', {
    breaks: 'ldap.library.one-set-only',
    statements: [`${S}.accounts-one-set`],
    description: 'An account may belong to two sets.',
    replace: () => ({ accountInOneSetOnly: false }),
  }),
  fault('ldap.library-delete-ignored', {
    breaks: 'ldap.library.delete',
    statements: [`${S}.endpoint-delete`],
    description: 'DELETE /ldap/library/:set answers success but keeps the set.',
    replace: () => ({ libraryDeleteRemoves: false }),
  }),
  fault('ldap.library-list-flat', {
    breaks: 'ldap.library.hierarchical-list',
    statements: [`${S}.hierarchical-names`, `${S}.endpoint-list`],
    description: 'LIST /ldap/library answers the full names of nested sets instead of "<top>/".',
    replace: (d) => ({ libraryList: (names, prefix) => (prefix ? d.libraryList(names, prefix) : [...names]) }),
  }),
  fault('ldap.library-list-level-empty', {
    breaks: 'ldap.library.hierarchical-list',
    statements: [`${S}.endpoint-list-level`],
    description: 'LIST of a set level answers no names.',
    replace: (d) => ({ libraryList: (names, prefix) => (prefix ? [] : d.libraryList(names, prefix)) }),
  }),
  // Check-out.
  fault('ldap.library-checkout-ttl-required', {
    breaks: 'ldap.library.checkout',
    statements: [`${S}.endpoint-checkout-ttl-optional`],
    description: 'A check-out without ttl is refused.',
    replace: (d) => ({
      checkoutTtl: (requested, setTtl) => {
        if (requested === undefined) throw badRequest('ttl is required');
        return d.checkoutTtl(requested, setTtl);
      },
    }),
  }),
  fault('ldap.library-checkout-without-lease', {
    breaks: 'ldap.library.checkout',
    statements: [`${S}.state-checkout`, `${S}.checkout-lease-id`],
    description: 'A check-out lends the account without creating a lease.',
    replace: () => ({ checkoutCreatesLease: false }),
  }),
  fault('ldap.library-checkout-password-stale', {
    breaks: 'ldap.library.checkout',
    statements: [`${S}.state-checkout-password`, `${S}.lends-accounts`, `${S}.checkout-password`],
    description: 'Check-out returns a password that does not open the account.',
    replace: () => ({ checkoutPassword: (password) => `${password}x` }),
  }),
  fault('ldap.library-checkout-ttl-ignored', {
    breaks: 'ldap.library.checkout-ttl-capped',
    statements: [`${S}.state-checkout-requested-ttl`, `${S}.checkout-lease-duration`],
    description: 'The requested check-out ttl is ignored; the lease gets the set ttl.',
    replace: (d) => ({ checkoutTtl: (_requested, setTtl) => d.checkoutTtl(undefined, setTtl) }),
  }),
  fault('ldap.library-checkout-default-ttl-1h', {
    breaks: 'ldap.library.checkout-ttl-capped',
    statements: [`${S}.endpoint-checkout-ttl-default`],
    description: 'A check-out without ttl gets a one-hour lease instead of the set ttl.',
    replace: (d) => ({
      checkoutTtl: (requested, setTtl) => (requested === undefined ? 3600 : d.checkoutTtl(requested, setTtl)),
    }),
  }),
  fault('ldap.library-checkout-ttl-uncapped', {
    breaks: 'ldap.library.checkout-ttl-capped',
    statements: [`${S}.state-checkout-capped`, `${S}.endpoint-checkout-ttl-capped`, `${S}.ttl`],
    description: 'A requested check-out ttl above the set ttl is not capped.',
    replace: () => ({ checkoutTtlCapped: false }),
  }),
  fault('ldap.library-checkout-ttl-zero-one-second', {
    breaks: 'ldap.library.checkout-ttl-zero',
    statements: [`${S}.endpoint-checkout-ttl-zero`],
    description: 'A check-out asking for ttl 0 gets a one-second lease instead of no limit.',
    replace: (d) => ({ checkoutTtl: (requested, setTtl) => (requested === 0 ? 1 : d.checkoutTtl(requested, setTtl)) }),
  }),
  fault('ldap.library-checkout-none-available-200', {
    breaks: 'ldap.library.checkout-none-available-400',
    statements: [
      `${S}.state-checkout-none`,
      `${S}.errors-checkout-none`,
      `${S}.endpoint-checkout-status`,
      `${S}.endpoint-checkout-status-none`,
    ],
    description: 'Check-out with no free account lends an already checked-out account.',
    replace: (d) => ({
      pickFreeAccount: (accounts, isFree) => d.pickFreeAccount(accounts, isFree) ?? accounts[0],
    }),
  }),
  fault('ldap.library-renew-past-max-ttl', {
    breaks: 'ldap.library.ttl-expiry-checkin',
    statements: [`${S}.max-ttl`, `${S}.state-max-ttl-elapses`],
    description: 'Check-out leases can be renewed past max_ttl.',
    replace: () => ({ renewCap: () => undefined }),
  }),
  fault('ldap.library-expiry-keeps-checkout', {
    breaks: 'ldap.library.ttl-expiry-checkin',
    statements: [`${S}.state-ttl-elapses`],
    description: 'An expired check-out stays checked out.',
    replace: () => ({ expiryChecksIn: false }),
  }),
  // Check-in.
  fault('ldap.library-checkin-not-enforced', {
    breaks: 'ldap.library.checkin-unauthorized',
    statements: [`${S}.state-checkin-unauthorized`, `${S}.errors-checkin-unauthorized`],
    description: 'Any caller may check in an account.',
    replace: () => ({ checkInEnforced: () => false }),
  }),
  fault('ldap.library-checkin-token-only', {
    breaks: 'ldap.library.checkin',
    statements: [`${S}.state-checkin`, `${S}.auth-checkin-borrower`, `${S}.state-checkin-entity`],
    description: 'Only the token that checked out may check in, not another token of the same entity.',
    replace: () => ({ isBorrower: (co, caller) => co.accessor !== '' && co.accessor === caller.accessor }),
  }),
  fault('ldap.library-enforcement-always-on', {
    breaks: 'ldap.library.checkin-disabled-enforcement',
    statements: [
      `${S}.check-in-enforcement-disabled`,
      `${S}.auth-enforcement-disabled`,
      `${S}.state-checkin-enforcement-disabled`,
    ],
    description: 'disable_check_in_enforcement is ignored.',
    replace: (d) => ({
      checkInEnforced: (_disable, manage) => d.checkInEnforced(false, manage),
    }),
  }),
  fault('ldap.library-manage-checkin-enforced', {
    breaks: 'ldap.library.checkin-manage',
    statements: [`${S}.state-manage-checkin`, `${S}.endpoint-manage-checkin`, `${S}.auth-manage-forces`],
    description: 'The manage path applies the borrower check.',
    replace: (d) => ({ checkInEnforced: (disable) => d.checkInEnforced(disable, false) }),
  }),
  fault('ldap.library-manage-acl-as-checkin', {
    breaks: 'ldap.library.checkin-manage-acl',
    statements: [`${S}.endpoint-manage-privileged`],
    description:
      "The forced check-in is authorised against the set's ordinary check-in path: a borrower may force check-ins.",
    replace: () => ({ aclPath: (p) => p.replace(/^library\/manage\/(.+)\/check-in$/, 'library/$1/check-in') }),
  }),
  fault('ldap.library-checkin-names-string-ignored', {
    breaks: 'ldap.library.checkin-body-optional',
    statements: [`${S}.endpoint-checkin-names`],
    description: 'service_account_names given as a string is ignored at check-in (as if omitted).',
    replace: (d) => ({
      checkInNames: (value, manage) => (typeof value === 'string' ? undefined : d.checkInNames(value, manage)),
    }),
  }),
  fault('ldap.library-checkin-names-required', {
    breaks: 'ldap.library.checkin-body-optional',
    statements: [`${S}.endpoint-checkin-omitted`],
    description: 'A check-in without service_account_names is refused even with one account checked out.',
    replace: (d) => ({
      checkInNames: (value, manage) => {
        if (value === undefined || value === null) throw badRequest('service_account_names is required');
        return d.checkInNames(value, manage);
      },
    }),
  }),
  fault('ldap.library-checkin-no-rotation', {
    breaks: 'ldap.library.checkin-rotates',
    description: 'Check-in does not rotate the account password.',
    replace: () => ({ checkInRotates: false }),
  }),
  fault('ldap.library-checkin-lists-available', {
    breaks: 'ldap.library.checkin-available',
    statements: [`${S}.state-checkin-available`, `${S}.errors-checkin-available`],
    description: 'Check-in lists accounts that were already available.',
    replace: () => ({ checkInListsAvailable: true }),
  }),
  // Status.
  fault('ldap.library-status-no-borrower', {
    breaks: 'ldap.library.status',
    statements: [`${S}.status-borrower-token`],
    description: 'status omits the borrower of a checked-out account.',
    replace: () => ({
      borrowerStatus: () => ({ available: false, borrower_client_token: '', borrower_entity_id: '' }),
    }),
  }),
  fault('ldap.library-status-entity-missing', {
    breaks: 'ldap.library.status',
    statements: [`${S}.status-borrower-entity`],
    description: 'status names the borrowing token but never its entity.',
    replace: (d) => ({ borrowerStatus: (co) => ({ ...d.borrowerStatus(co), borrower_entity_id: '' }) }),
  }),
  fault('ldap.library-status-hides-unused', {
    breaks: 'ldap.library.status',
    statements: [`${S}.status-fields`, `${S}.endpoint-status`],
    description: 'status leaves out the accounts of the set that were never checked out.',
    replace: () => ({ statusShowsNeverBorrowed: false }),
  }),
];
