/**
 * Faults of the directory engine's library sets written blind for issue 36 (one clause each, from
 * the documents and the reference): several accounts where several are allowed, durations in more
 * than one unit, defaults after a later write, the check-out lease and the cap, check-in by the
 * borrowing token, the manage path's body, and state across resources and paths (a set update and
 * its check-outs, the status after check-in, accounts freed for another set, nested set names).
 * Each replaces rules of ../rules.ts and names the statements of secrets-service-core.md it breaks.
 */
import { switchesOf } from '../../../../switches.js';
import { badRequest } from '../../../errors.js';
import type { LdapRules } from '../rules.js';

const { fault } = switchesOf<LdapRules>(['ldap']);
const S = 'doc.core.library';
/** A duration string of one number and one unit ("10h", "90m"). */
const ONE_UNIT = /^\d+[a-z]+$/;

export const libraryStateSwitches = [
  // The set's fields.
  fault('ldap.library-accounts-first-only', {
    breaks: 'ldap.library.create-read',
    statements: [`${S}.accounts-list`, `${S}.endpoint-read`],
    description: 'Of a list of service_account_names only the first joins the set.',
    replace: (d) => ({ accountNames: (v) => (Array.isArray(v) ? d.accountNames(v)?.slice(0, 1) : d.accountNames(v)) }),
  }),
  fault('ldap.library-ttl-first-unit-only', {
    breaks: 'ldap.library.ttl-formats',
    statements: [`${S}.ttl-type`],
    description: 'A set ttl written with several units keeps only the first ("1h30m" is 1h).',
    replace: (d) => ({
      libraryDuration: (key, v) =>
        key === 'ttl' && typeof v === 'string'
          ? d.libraryDuration(key, /^\d+[a-z]+/.exec(v)?.[0] ?? v)
          : d.libraryDuration(key, v),
    }),
  }),
  fault('ldap.library-max-ttl-minutes-as-seconds', {
    breaks: 'ldap.library.ttl-formats',
    statements: [`${S}.max-ttl-type`],
    description: 'A set max_ttl written in minutes ("90m") is read as that many seconds.',
    replace: (d) => ({
      libraryDuration: (key, v) =>
        key === 'max_ttl' && typeof v === 'string' && /^\d+m$/.test(v)
          ? Number(v.slice(0, -1))
          : d.libraryDuration(key, v),
    }),
  }),
  fault('ldap.library-update-ttl-lost', {
    breaks: 'ldap.library.defaults',
    statements: [`${S}.ttl-default`],
    description: 'A write on an existing set that omits ttl stores 0 (unlimited) instead of keeping its value.',
    replace: (d) => ({
      libraryOmittedOnUpdate: (key, existing) => (key === 'ttl' ? 0 : d.libraryOmittedOnUpdate(key, existing)),
    }),
  }),
  fault('ldap.library-update-max-ttl-lost', {
    breaks: 'ldap.library.defaults',
    statements: [`${S}.max-ttl-default`],
    description: 'A write on an existing set that omits max_ttl stores 0 (unlimited) instead of keeping its value.',
    replace: (d) => ({
      libraryOmittedOnUpdate: (key, existing) => (key === 'max_ttl' ? 0 : d.libraryOmittedOnUpdate(key, existing)),
    }),
  }),
  // Check-out.
  fault('ldap.library-checkout-not-renewable', {
    breaks: 'ldap.library.checkout',
    statements: [`${S}.checkout-renewable`],
    description: 'Check-out leases are not renewable.',
    replace: () => ({ checkoutRenewable: false }),
  }),
  fault('ldap.library-checkout-ttl-unit-dropped', {
    breaks: 'ldap.library.checkout-ttl-capped',
    statements: [`${S}.endpoint-checkout-ttl-duration`, `${S}.state-checkout-capped`],
    description:
      'A requested check-out ttl written as a duration string loses its unit ("10h" is 10 seconds, under any cap).',
    replace: (d) => ({
      libraryDuration: (key, v) =>
        key === 'check-out ttl' && typeof v === 'string' && ONE_UNIT.test(v)
          ? Number.parseInt(v, 10)
          : d.libraryDuration(key, v),
    }),
  }),
  // Check-in.
  fault('ldap.library-checkin-reports-earlier', {
    breaks: 'ldap.library.checkin',
    statements: [`${S}.checkin-response-this-call`],
    description: 'check_ins also lists the accounts that earlier check-ins of the set returned.',
    replace: () => ({ checkInsReported: (thisCall, earlier) => [...new Set([...earlier, ...thisCall])] }),
  }),
  fault('ldap.library-checkin-entity-only', {
    breaks: 'ldap.library.checkin',
    statements: [`${S}.state-checkin-token`, `${S}.auth-checkin-borrower-token`],
    description: 'Only the entity that checked out may check in: a borrowing token without an entity cannot.',
    replace: () => ({ isBorrower: (co, caller) => co.entityId !== '' && co.entityId === caller.entityId }),
  }),
  fault('ldap.library-checkin-list-first-only', {
    breaks: 'ldap.library.checkin-body-optional',
    statements: [`${S}.endpoint-checkin-names-list`],
    description: 'Of a list of service_account_names at check-in only the first is checked in.',
    replace: (d) => ({
      checkInNames: (v, manage) =>
        Array.isArray(v) ? d.checkInNames(v, manage)?.slice(0, 1) : d.checkInNames(v, manage),
    }),
  }),
  fault('ldap.library-manage-names-string-ignored', {
    breaks: 'ldap.library.checkin-manage-body',
    statements: [`${S}.endpoint-manage-same-body`],
    description: 'The manage check-in ignores service_account_names given as a string (as if omitted).',
    replace: (d) => ({
      checkInNames: (v, manage) => (manage && typeof v === 'string' ? undefined : d.checkInNames(v, manage)),
    }),
  }),
  fault('ldap.library-manage-body-required', {
    breaks: 'ldap.library.checkin-manage-body',
    statements: [`${S}.endpoint-manage-same-body`],
    description: 'The manage check-in refuses a body without service_account_names, even with one account checked out.',
    replace: (d) => ({
      checkInNames: (v, manage) => {
        if (manage && (v === undefined || v === null)) throw badRequest('service_account_names is required');
        return d.checkInNames(v, manage);
      },
    }),
  }),
  // State across resources and paths.
  fault('ldap.library-update-frees-checkouts', {
    breaks: 'ldap.library.update-keeps-checkouts',
    statements: [`${S}.state-checkout`],
    description: 'A write on an existing set makes its checked-out accounts available again.',
    replace: () => ({ updateKeepsCheckouts: false }),
  }),
  fault('ldap.library-status-keeps-borrower', {
    breaks: 'ldap.library.status-after-checkin',
    statements: [`${S}.status-borrower-token`, `${S}.status-borrower-entity`],
    description: 'After check-in the status shows the account available but still names its last borrower.',
    replace: () => ({
      availableStatus: (last) =>
        last
          ? { available: true, borrower_client_token: last.accessor, borrower_entity_id: last.entityId }
          : { available: true },
    }),
  }),
  fault('ldap.library-removed-account-reserved', {
    breaks: 'ldap.library.account-freed',
    statements: [`${S}.accounts-one-set`],
    description: 'An account that an update removed from its set stays reserved: another set cannot take it.',
    replace: () => ({ releaseRemovedAccounts: false }),
  }),
  fault('ldap.library-deleted-set-accounts-reserved', {
    breaks: 'ldap.library.account-freed',
    statements: [`${S}.accounts-one-set`],
    description: 'The accounts of a deleted set stay reserved: another set cannot take them.',
    replace: () => ({ releaseOnDelete: false }),
  }),
  fault('ldap.library-nested-set-actions-404', {
    breaks: 'ldap.library.nested-set-paths',
    statements: [`${S}.hierarchical-names`],
    description:
      'status, check-out and check-in of a set whose name has a slash answer 404; only the set path serves it.',
    replace: (d) => ({
      servesPath: (p) => !/^library\/(?!manage\/)[^/]+\/.+\/(status|check-out|check-in)$/.test(p) && d.servesPath(p),
    }),
  }),
];
