/**
 * Faults of the directory engine's dynamic roles (`/ldap/role`, `/ldap/creds`): required LDIF,
 * base64, partial updates, creation, rollback and deletion, TTLs and the username template. Each
 * replaces rules of ../rules.ts and names the statements of secrets-service-core.md it breaks.
 */
import { switchesOf } from '../../../../switches.js';
import { badRequest } from '../../../errors.js';
import type { LdapRules } from '../rules.js';

const { fault } = switchesOf<LdapRules>(['ldap']);
const S = 'doc.core.ldap-dynamic';
/** A far-away maximum: what "no maximum" looks like in a lease. */
const CENTURY = 100 * 365 * 24 * 3600;

export const dynamicSwitches = [
  fault('ldap.dynamic-creation-ldif-optional', {
    breaks: 'ldap.dynamic.required-ldif',
    statements: [`${S}.creation-ldif-required`],
    description: 'A dynamic role without creation_ldif is stored.',
    replace: () => ({ dynamicRequired: ['deletion_ldif'] }),
  }),
  fault('ldap.dynamic-deletion-ldif-optional', {
    breaks: 'ldap.dynamic.required-ldif',
    statements: [`${S}.deletion-ldif-required`],
    description: 'A dynamic role without deletion_ldif is stored.',
    replace: () => ({ dynamicRequired: ['creation_ldif'] }),
  }),
  fault('ldap.dynamic-rollback-required', {
    breaks: 'ldap.dynamic.create-read',
    statements: [`${S}.rollback-optional`],
    description: 'A dynamic role without rollback_ldif is refused.',
    replace: () => ({ dynamicRequired: ['creation_ldif', 'deletion_ldif', 'rollback_ldif'] }),
  }),
  fault('ldap.dynamic-base64-not-decoded', {
    breaks: 'ldap.dynamic.base64-ldif',
    statements: [`${S}.creation-ldif-base64`, `${S}.base64-decoded`],
    description: 'A base64 creation_ldif is stored and returned encoded.',
    replace: (d) => ({ decodeLdif: (text, key) => (key === 'creation_ldif' ? text : d.decodeLdif(text, key)) }),
  }),
  fault('ldap.dynamic-deletion-base64-not-decoded', {
    breaks: 'ldap.dynamic.base64-ldif',
    statements: [`${S}.deletion-ldif-base64`],
    description: 'A base64 deletion_ldif is stored and returned encoded (only creation_ldif is decoded).',
    replace: (d) => ({ decodeLdif: (text, key) => (key === 'deletion_ldif' ? text : d.decodeLdif(text, key)) }),
  }),
  fault('ldap.dynamic-rollback-base64-not-decoded', {
    breaks: 'ldap.dynamic.base64-ldif',
    statements: [`${S}.rollback-ldif-base64`],
    description: 'A base64 rollback_ldif is stored and returned encoded (only creation_ldif is decoded).',
    replace: (d) => ({ decodeLdif: (text, key) => (key === 'rollback_ldif' ? text : d.decodeLdif(text, key)) }),
  }),
  fault('ldap.dynamic-update-replaces', {
    breaks: 'ldap.dynamic.partial-update',
    statements: [`${S}.partial-update`, `${S}.endpoint-write`],
    description: 'POST on an existing role drops the keys not sent.',
    replace: () => ({ partialUpdate: false }),
  }),
  fault('ldap.dynamic-empty-string-kept', {
    breaks: 'ldap.dynamic.empty-string-deletes',
    statements: [`${S}.empty-string-deletes`],
    description: 'A key sent as an empty string keeps its previous value instead of being deleted.',
    replace: () => ({ emptyStringDeletes: false }),
  }),
  fault('ldap.dynamic-delete-ignored', {
    breaks: 'ldap.dynamic.delete',
    statements: [`${S}.endpoint-delete`],
    description: 'DELETE /ldap/role/:name answers success but keeps the role.',
    replace: () => ({ dynamicDeleteRemoves: false }),
  }),
  fault('ldap.dynamic-creation-continues', {
    breaks: 'ldap.dynamic.creation-stops-at-error',
    statements: [`${S}.creation-stops`, `${S}.creation-in-order`, `${S}.errors-creation-skipped`],
    description: 'Creation LDIF keeps running entries after the first error.',
    replace: () => ({ creationStopsAtError: false }),
  }),
  fault('ldap.dynamic-no-rollback', {
    breaks: 'ldap.dynamic.rollback-runs',
    statements: [`${S}.creation-rollback`, `${S}.rollback-after-error`, `${S}.errors-rollback-runs`],
    description: 'rollback_ldif is not run after a creation error.',
    replace: () => ({ rollbackRuns: false }),
  }),
  fault('ldap.dynamic-rollback-stops', {
    breaks: 'ldap.dynamic.rollback-continues',
    statements: [`${S}.rollback-continues`],
    description: 'rollback_ldif stops at its first error.',
    replace: () => ({ rollbackStopsAtError: true }),
  }),
  fault('ldap.dynamic-deletion-stops', {
    breaks: 'ldap.dynamic.deletion-continues',
    statements: [`${S}.deletion-continues`],
    description: 'deletion_ldif stops at its first error.',
    replace: () => ({ deletionStopsAtError: true }),
  }),
  fault('ldap.dynamic-revoke-keeps-account', {
    breaks: 'ldap.dynamic.expiry-deletes',
    statements: [`${S}.deletion-after-expiry`, `${S}.short-lived-accounts`],
    description: 'Neither the expiry nor the revocation of a dynamic lease runs deletion_ldif.',
    replace: () => ({ revokeDeletes: false }),
  }),
  fault('ldap.dynamic-default-ttl-ignored', {
    breaks: 'ldap.dynamic.default-ttl',
    statements: [`${S}.default-ttl`],
    description: 'The dynamic lease ignores the role default_ttl.',
    replace: (d) => ({
      dynamicDefaultTtl: (_role, systemDefault) => d.dynamicDefaultTtl(undefined, systemDefault),
    }),
  }),
  fault('ldap.dynamic-default-ttl-fallback-1h', {
    breaks: 'ldap.dynamic.system-ttls',
    statements: [`${S}.default-ttl-default`],
    description: 'A role without default_ttl gives one-hour leases instead of the system default.',
    replace: (d) => ({ dynamicDefaultTtl: (role, systemDefault) => d.dynamicDefaultTtl(role || 3600, systemDefault) }),
  }),
  fault('ldap.dynamic-max-ttl-ignored', {
    breaks: 'ldap.dynamic.max-ttl',
    statements: [`${S}.max-ttl`],
    description: 'The dynamic lease ignores the role max_ttl.',
    replace: (d) => ({
      dynamicMaxTtl: (_role, systemMax) => d.dynamicMaxTtl(undefined, systemMax),
    }),
  }),
  fault('ldap.dynamic-max-ttl-unbounded-default', {
    breaks: 'ldap.dynamic.system-ttls',
    statements: [`${S}.max-ttl-default`],
    description: 'A role without max_ttl has no maximum: its leases renew past the system maximum.',
    replace: (d) => ({ dynamicMaxTtl: (role, systemMax) => (role ? d.dynamicMaxTtl(role, systemMax) : CENTURY) }),
  }),
  fault('ldap.dynamic-max-ttl-above-system', {
    breaks: 'ldap.dynamic.system-ttls',
    statements: [`${S}.max-ttl-never-longer`],
    description: 'A role max_ttl above the system maximum is honoured: leases outlive the system maximum.',
    replace: (d) => ({ dynamicMaxTtl: (role, systemMax) => role || d.dynamicMaxTtl(undefined, systemMax) }),
  }),
  fault('ldap.dynamic-username-template-ignored', {
    breaks: 'ldap.dynamic.username-template',
    statements: [`${S}.username-template`],
    description: 'The role username_template is ignored; the default template names the account.',
    replace: (d) => ({ usernameTemplate: (_role, dflt) => d.usernameTemplate(undefined, dflt) }),
  }),
  fault('ldap.username-template-default-wrong', {
    breaks: 'ldap.dynamic.username-template-default',
    statements: [`${S}.username-template-default`],
    description: 'The default username template omits the role name.',
    replace: () => ({
      defaultUsernameTemplate: 'v_{{.DisplayName}}_{{random 10}}_{{unix_time}}',
    }),
  }),
  // Blind faults of issue 36: one clause each, written from the documents and the reference.
  fault('ldap.dynamic-creation-first-record-only', {
    breaks: 'ldap.dynamic.creds-account-exists',
    statements: [`${S}.creation-in-order`],
    description: 'Only the first record of creation_ldif is applied; the credentials are answered as if all were.',
    replace: (d) => ({
      ldifOrder: (records, key) =>
        key === 'creation_ldif' ? d.ldifOrder(records, key).slice(0, 1) : d.ldifOrder(records, key),
    }),
  }),
  fault('ldap.dynamic-creation-reversed', {
    breaks: 'ldap.dynamic.creds-account-exists',
    statements: [`${S}.creation-in-order`],
    description: 'The records of creation_ldif run from the last to the first.',
    replace: (d) => ({
      ldifOrder: (records, key) =>
        key === 'creation_ldif' ? [...d.ldifOrder(records, key)].reverse() : d.ldifOrder(records, key),
    }),
  }),
  fault('ldap.dynamic-rollback-reversed', {
    breaks: 'ldap.dynamic.rollback-in-order',
    statements: [`${S}.rollback-in-order`],
    description: 'The records of rollback_ldif run from the last to the first.',
    replace: (d) => ({
      ldifOrder: (records, key) =>
        key === 'rollback_ldif' ? [...d.ldifOrder(records, key)].reverse() : d.ldifOrder(records, key),
    }),
  }),
  fault('ldap.dynamic-deletion-reversed', {
    breaks: 'ldap.dynamic.deletion-in-order',
    statements: [`${S}.deletion-in-order`],
    description: 'The records of deletion_ldif run from the last to the first.',
    replace: (d) => ({
      ldifOrder: (records, key) =>
        key === 'deletion_ldif' ? [...d.ldifOrder(records, key)].reverse() : d.ldifOrder(records, key),
    }),
  }),
  fault('ldap.dynamic-default-ttl-string-unit-dropped', {
    breaks: 'ldap.dynamic.ttl-formats',
    statements: [`${S}.default-ttl-formats`],
    description: 'default_ttl written as a duration string loses its unit ("2h" is 2 seconds).',
    replace: (d) => ({
      dynamicTtl: (key, value) =>
        key === 'default_ttl' && typeof value === 'string' && /^\d+[a-z]+$/.test(value)
          ? Number.parseInt(value, 10)
          : d.dynamicTtl(key, value),
    }),
  }),
  fault('ldap.dynamic-max-ttl-integer-refused', {
    breaks: 'ldap.dynamic.ttl-formats',
    statements: [`${S}.max-ttl-formats`],
    description: 'max_ttl written as integer seconds is refused; only duration strings are taken.',
    replace: (d) => ({
      dynamicTtl: (key, value) => {
        if (key === 'max_ttl' && typeof value === 'number') throw badRequest('max_ttl must be a duration string');
        return d.dynamicTtl(key, value);
      },
    }),
  }),
  fault('ldap.dynamic-update-drops-ttls', {
    breaks: 'ldap.dynamic.partial-update',
    statements: [`${S}.partial-update`],
    description:
      'POST on an existing role keeps the LDIF and template it does not send, but drops default_ttl and max_ttl.',
    replace: (d) => ({ partialUpdateKeeps: (key) => !key.endsWith('ttl') && d.partialUpdateKeeps(key) }),
  }),
  fault('ldap.dynamic-empty-string-ldif-only', {
    breaks: 'ldap.dynamic.empty-string-deletes',
    statements: [`${S}.empty-string-deletes`],
    description:
      'An empty string deletes only LDIF fields; username_template, default_ttl and max_ttl keep their values.',
    replace: (d) => ({ emptyStringDeletesKey: (key) => key.endsWith('_ldif') && d.emptyStringDeletesKey(key) }),
  }),
  fault('ldap.username-template-role-name-empty', {
    breaks: 'ldap.dynamic.username-template',
    statements: ['doc.core.ldap-template.username-field-role-name'],
    description: 'The .RoleName field of username templates is rendered empty.',
    replace: () => ({ usernameRoleName: () => '' }),
  }),
];
