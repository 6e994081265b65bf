/**
 * Faults of the directory engine's static roles (`/ldap/static-role`, `/ldap/static-cred`,
 * `/ldap/rotate-role`). Each replaces rules of ../rules.ts and names the statements of
 * secrets-service-core.md it breaks.
 */
import { switchesOf } from '../../../../switches.js';
import { badRequest } from '../../../errors.js';
import type { LdapRules } from '../rules.js';

const { fault } = switchesOf<LdapRules>(['ldap']);
const S = 'doc.core.ldap-static';

export const staticSwitches = [
  fault('ldap.static-names-no-slashes', {
    breaks: 'ldap.static.hierarchical-names',
    statements: [`${S}.hierarchical-names`],
    description: 'A static role name with a slash is refused.',
    replace: () => ({
      checkStaticRoleName: (name) => {
        if (name.includes('/')) throw badRequest('static role names cannot contain "/"');
      },
    }),
  }),
  fault('ldap.static-username-optional', {
    breaks: 'ldap.static.username-required',
    statements: [`${S}.username-required`],
    description: 'A static role without username is stored (with no entry to manage).',
    replace: () => ({ staticUsernameRequired: false }),
  }),
  fault('ldap.static-rotation-period-optional', {
    breaks: 'ldap.static.rotation-period-required',
    statements: [`${S}.rotation-period-required`],
    description: 'A static role without rotation_period is stored with a 24h period.',
    replace: () => ({ staticRotationPeriodRequired: false }),
  }),
  fault('ldap.static-rotation-period-4s-accepted', {
    breaks: 'ldap.static.rotation-period-minimum',
    statements: [`${S}.rotation-period-minimum`, `${S}.limit-rotation-period-minimum`],
    description: 'A rotation_period of 4 seconds is accepted.',
    replace: () => ({ minRotationPeriod: 4 }),
  }),
  fault('ldap.static-rotation-period-strings-refused', {
    breaks: 'ldap.static.rotation-period-formats',
    statements: [`${S}.rotation-period-formats`],
    description: 'rotation_period given as a duration string ("1h", "90m") is refused; only seconds are taken.',
    replace: (d) => ({
      rotationPeriod: (value) => {
        if (typeof value === 'string' && !/^\d+$/.test(value)) throw badRequest('rotation_period must be seconds');
        return d.rotationPeriod(value);
      },
    }),
  }),
  fault('ldap.static-username-mutable', {
    breaks: 'ldap.static.immutable-identity',
    statements: [`${S}.username-immutable`],
    description: 'A static role update may change its username.',
    replace: () => ({ staticUsernameImmutable: false }),
  }),
  fault('ldap.static-dn-mutable', {
    breaks: 'ldap.static.immutable-identity',
    statements: [`${S}.dn-immutable`],
    description: 'A static role update may change its dn: the role then manages the other entry.',
    replace: () => ({ staticDnImmutable: false }),
  }),
  fault('ldap.static-update-ignored', {
    breaks: 'ldap.static.create-read',
    statements: [`${S}.endpoint-write`],
    description: 'A POST on an existing static role answers success but keeps its rotation_period.',
    replace: () => ({ staticUpdateApplies: false }),
  }),
  fault('ldap.static-last-rotation-unix', {
    breaks: 'ldap.static.create-read',
    statements: [`${S}.read-last-rotation`],
    description: 'last_svc_rotation is Unix seconds as a string, not an RFC 3339 timestamp.',
    replace: () => ({ lastRotationTime: (ms) => String(Math.floor(ms / 1000)) }),
  }),
  fault('ldap.static-delete-ignored', {
    breaks: 'ldap.static.delete',
    statements: [`${S}.endpoint-delete`],
    description: 'DELETE /ldap/static-role/:name answers success but keeps the role.',
    replace: () => ({ staticDeleteRemoves: false }),
  }),
  fault('ldap.static-missing-entry-accepted', {
    breaks: 'ldap.static.username-must-exist',
    statements: [`${S}.username-existing`],
    description: 'A static role for a user absent from the directory is accepted.',
    replace: () => ({ staticEntryMustExist: false }),
  }),
  fault('ldap.static-dn-ignored', {
    breaks: 'ldap.static.dn-precedence',
    statements: [`${S}.dn-precedence`],
    description: 'The dn field is ignored and the username searched instead.',
    replace: () => ({ staticLookupDn: () => undefined }),
  }),
  fault('ldap.static-import-not-rotated', {
    breaks: 'ldap.static.import-rotation',
    statements: [`${S}.skip-import-default`],
    description: 'Creating a static role does not rotate the password although skip_import_rotation is false.',
    replace: () => ({ skipImportRotation: () => true }),
  }),
  fault('ldap.static-skip-import-ignored', {
    breaks: 'ldap.static.skip-import-rotation',
    statements: [`${S}.skip-import`],
    description: 'skip_import_rotation=true still rotates the password on creation.',
    replace: () => ({ skipImportRotation: () => false }),
  }),
  fault('ldap.static-skip-import-never-supplied', {
    breaks: 'ldap.static.skip-import-rotation',
    statements: [`${S}.skip-import-until-rotation`],
    description: 'A role created with skip_import_rotation never supplies its password, even after a rotation.',
    replace: (d) => ({ credSuppliesPassword: (rotated, skip) => !skip && d.credSuppliesPassword(rotated, skip) }),
  }),
  fault('ldap.static-skip-import-on-update-forgets', {
    breaks: 'ldap.static.skip-import-creation-only',
    statements: [`${S}.skip-import-only-on-creation`],
    description: 'An update sending skip_import_rotation true makes the role forget its password.',
    replace: () => ({ skipImportOnUpdateForgets: true }),
  }),
  fault('ldap.static-config-skip-default-ignored', {
    breaks: 'ldap.static.skip-import-config-default',
    statements: ['doc.core.ldap-config.skip-import'],
    description: 'skip_static_role_import_rotation of the config is not used as the role default.',
    replace: (d) => ({
      skipImportRotation: (role) => d.skipImportRotation(role, false),
    }),
  }),
  fault('ldap.static-skip-import-role-value-ignored', {
    breaks: 'ldap.static.skip-import-config-default',
    statements: [`${S}.skip-import-overrides`],
    description: 'A role-level skip_import_rotation false does not override the config default true.',
    replace: (d) => ({
      skipImportRotation: (role, configDefault) => configDefault || d.skipImportRotation(role, configDefault),
    }),
  }),
  fault('ldap.static-no-scheduled-rotation', {
    breaks: 'ldap.static.scheduled-rotation',
    statements: [`${S}.manages-passwords`],
    description: 'Static passwords are never rotated when rotation_period elapses.',
    replace: () => ({ scheduledRotation: false }),
  }),
  fault('ldap.rotate-role-not-applied', {
    breaks: 'ldap.static.rotate-role',
    statements: [`${S}.endpoint-rotate-role`],
    description: 'rotate-role changes the stored password without changing it in the directory.',
    replace: () => ({ rotateRoleChangesDirectory: false }),
  }),
  fault('ldap.static-last-password-missing', {
    breaks: 'ldap.static.rotate-role',
    statements: [`${S}.cred-last-password`],
    description: 'static-cred does not report last_password after a rotation.',
    replace: () => ({ reportsLastPassword: false }),
  }),
  fault('ldap.static-ttl-is-period', {
    breaks: 'ldap.static.ttl-until-rotation',
    statements: [`${S}.cred-ttl`],
    description: 'static-cred ttl is always the full rotation_period, not the time left.',
    replace: () => ({ staticCredTtl: (_left, period) => period }),
  }),
  fault('ldap.static-list-empty', {
    breaks: 'ldap.static.list',
    statements: [`${S}.endpoint-list`],
    description: 'LIST of /ldap/static-role answers no names.',
    replace: (d) => ({ staticList: (names, prefix) => (prefix ? d.staticList(names, prefix) : []) }),
  }),
  fault('ldap.static-list-flat', {
    breaks: 'ldap.static.list-level',
    statements: [`${S}.endpoint-list-level`],
    description: 'LIST of a static role level answers the full names below it instead of the names at that level.',
    replace: () => ({
      staticList: (names, prefix) => {
        const base = prefix ? `${prefix.replace(/\/+$/, '')}/` : '';
        return [...names].filter((n) => n.startsWith(base) && n !== base).map((n) => n.slice(base.length));
      },
    }),
  }),
  // Blind faults of issue 36: one clause each, written from the documents and the reference.
  fault('ldap.static-rotation-period-hours-refused', {
    breaks: 'ldap.static.rotation-period-formats',
    statements: [`${S}.rotation-period-example-1h`],
    description: 'rotation_period written in hours ("1h") is refused; seconds and minutes are taken.',
    replace: (d) => ({
      rotationPeriod: (value) => {
        if (typeof value === 'string' && value.includes('h')) throw badRequest('rotation_period: unknown unit "h"');
        return d.rotationPeriod(value);
      },
    }),
  }),
  fault('ldap.static-rotation-period-integer-nanoseconds', {
    breaks: 'ldap.static.rotation-period-formats',
    statements: [`${S}.rotation-period-example-seconds`],
    description: 'rotation_period written as integer seconds is taken as nanoseconds (a Go duration), so 86400 is 0.',
    replace: (d) => ({
      rotationPeriod: (value) => (typeof value === 'number' ? Math.floor(value / 1e9) : d.rotationPeriod(value)),
    }),
  }),
  fault('ldap.static-rotation-period-5s-refused', {
    breaks: 'ldap.static.rotation-period-minimum',
    statements: [`${S}.rotation-period-example-5s`, `${S}.rotation-period-minimum`],
    description:
      'A rotation_period of exactly the minimum written as a string ("5s") is refused; 5 as a number is taken.',
    replace: (d) => ({
      rotationPeriod: (value) => {
        const period = d.rotationPeriod(value);
        if (typeof value === 'string' && period <= 5) throw badRequest('rotation_period must be more than 5 seconds');
        return period;
      },
    }),
  }),
  fault('ldap.static-rotation-period-string-minimum-unchecked', {
    breaks: 'ldap.static.rotation-period-minimum',
    statements: [`${S}.rotation-period-minimum`, `${S}.limit-rotation-period-minimum`],
    description:
      'A rotation_period below the minimum written as a string ("4s") is accepted: only numbers are checked.',
    replace: () => ({ rotationPeriodMinimumApplies: (raw) => typeof raw !== 'string' }),
  }),
  fault('ldap.static-rotation-period-minimum-on-create-only', {
    breaks: 'ldap.static.rotation-period-minimum',
    statements: [`${S}.rotation-period-minimum`],
    description: 'An update of an existing role may set a rotation_period below the minimum.',
    replace: () => ({ rotationPeriodMinimumApplies: (_raw, onUpdate) => !onUpdate }),
  }),
  fault('ldap.static-last-rotation-frozen', {
    breaks: 'ldap.static.last-rotation-moves',
    statements: [`${S}.read-last-rotation`, `${S}.cred-last-rotation`],
    description: 'last_svc_rotation keeps the time of the first rotation; later rotations do not move it.',
    replace: () => ({ lastRotationAfter: (previous, now) => previous ?? now }),
  }),
  fault('ldap.static-rotate-role-keeps-schedule', {
    breaks: 'ldap.static.rotate-role-resets-period',
    statements: [`${S}.endpoint-rotate-role`, `${S}.cred-ttl`],
    description:
      'rotate-role does not restart the period: static-cred ttl keeps counting down to the rotation planned before.',
    replace: () => ({ rotateRoleRestartsPeriod: false }),
  }),
  fault('ldap.static-nested-name-paths-404', {
    breaks: 'ldap.static.hierarchical-names',
    statements: [`${S}.hierarchical-names`],
    description: 'static-cred and rotate-role of a role whose name has a slash answer 404; only static-role serves it.',
    replace: (d) => ({ servesPath: (p) => !/^(static-cred|rotate-role)\/[^/]+\/.+/.test(p) && d.servesPath(p) }),
  }),
];
