/**
 * The faults of the cloud engine's roles and credentials: each breaks one catalogued rule
 * (`breaks`) and names the statements of the documents it contradicts. The `new-role-inherits-*`
 * faults are one plausible bug seen field by field: a new role starts from the role written just
 * before it instead of from the documented defaults.
 */
import { switchesOf } from '../../../../switches.js';
import { badRequest } from '../../../errors.js';
import { parseJsonArray, parseRoleItems, parseTags } from '../roles.js';
import type { CloudRules } from '../rules.js';

const { fault } = switchesOf<CloudRules>(['cloud']);
const S = (slug: string) => `doc.core.cloud.${slug}`;

const nothing = (): void => {};

/** How long a stale cache serves what was there before a change (ms). */
const STALE_MS = 2000;

export const roleFaults = [
  // --- role fields ---
  fault('cloud.roles-json-unchecked', {
    breaks: 'cloud.roles.cloud-roles-json-string',
    statements: [S('role-cloud-roles-type')],
    description: 'cloud_roles that is not a JSON array is accepted (treated as empty).',
    replace: () => ({
      jsonArray: (field, value) => parseJsonArray(field, value, field === 'cloud_roles'),
    }),
  }),
  fault('cloud.groups-json-unchecked', {
    breaks: 'cloud.roles.cloud-roles-json-string',
    statements: [S('role-cloud-groups-type')],
    description: 'cloud_groups that is not a JSON array is accepted (treated as empty).',
    replace: () => ({
      jsonArray: (field, value) => parseJsonArray(field, value, field === 'cloud_groups'),
    }),
  }),
  fault('cloud.roles-item-shape-unchecked', {
    breaks: 'cloud.roles.item-shape',
    statements: [S('role-cloud-roles-item-scope')],
    description: 'cloud_roles items without scope are accepted and silently assigned at the whole subscription.',
    replace: () => ({
      // An item without scope silently gets the whole subscription as its scope.
      roleItems: (items, subscriptionId) =>
        parseRoleItems(items, false).map((r) => (r.scope ? r : { ...r, scope: `/subscriptions/${subscriptionId()}` })),
    }),
  }),
  fault('cloud.role-id-read-as-name', {
    breaks: 'cloud.roles.item-shape',
    statements: [S('role-cloud-roles-item-role-id')],
    description:
      'A cloud_roles item with role_id is looked up as if the id were a role_name, so an existing role_id is refused.',
    replace: (rules) => ({
      roleItems: (items, subscriptionId) =>
        rules.roleItems(items, subscriptionId).map(({ role_id, role_name, scope }) => ({
          scope,
          role_name: role_name ?? role_id,
        })),
    }),
  }),
  fault('cloud.role-name-read-as-id', {
    breaks: 'cloud.roles.item-shape',
    statements: [S('role-cloud-roles-item-role-name')],
    description:
      'A cloud_roles item with role_name is looked up as if the name were a role_id, so an existing role_name is refused.',
    replace: (rules) => ({
      roleItems: (items, subscriptionId) =>
        rules.roleItems(items, subscriptionId).map(({ role_id, role_name, scope }) => ({
          scope,
          role_id: role_id ?? role_name,
        })),
    }),
  }),
  fault('cloud.item-scope-checked-first-only', {
    breaks: 'cloud.roles.item-shape',
    statements: [S('role-cloud-roles-item-scope')],
    description:
      'Only the first cloud_roles item must have a scope: a later item without one is accepted and assigned at the scope of the first.',
    replace: () => ({
      roleItems: (items) => {
        const parsed = parseRoleItems(items, false);
        if (parsed[0] && !parsed[0].scope) parseRoleItems(items.slice(0, 1), true);
        return parsed.map((r) => (r.scope ? r : { ...r, scope: parsed[0]!.scope }));
      },
    }),
  }),
  fault('cloud.roles-existence-unchecked', {
    breaks: 'cloud.roles.resources-must-exist',
    statements: [S('role-resources-exist'), S('errors-nonexistent-resources')],
    description: 'Nonexistent role definitions and groups are accepted at role write.',
    replace: () => ({ missingResource: nothing }),
  }),
  fault('cloud.groups-object-id-existence-unchecked', {
    breaks: 'cloud.roles.resources-must-exist',
    statements: [S('role-resources-exist'), S('errors-nonexistent-resources')],
    description:
      'A cloud_groups item naming by object_id a group that does not exist is skipped instead of refused (group_name items are still checked).',
    replace: (rules) => ({
      missingResource: (message, index) => {
        if (!message.startsWith('no group found for object_id')) rules.missingResource(message, index);
      },
    }),
  }),
  fault('cloud.role-id-existence-unchecked', {
    breaks: 'cloud.roles.resources-must-exist',
    statements: [S('role-resources-exist'), S('errors-nonexistent-resources')],
    description:
      'A cloud_roles item naming by role_id a role definition that does not exist is skipped instead of refused (role_name items are still checked).',
    replace: (rules) => ({
      missingResource: (message, index) => {
        if (!message.startsWith('no role found for role_id')) rules.missingResource(message, index);
      },
    }),
  }),
  fault('cloud.group-name-existence-unchecked', {
    breaks: 'cloud.roles.resources-must-exist',
    statements: [S('role-resources-exist'), S('errors-nonexistent-resources')],
    description:
      'A cloud_groups item naming by group_name a group that does not exist is skipped instead of refused (object_id items are still checked).',
    replace: (rules) => ({
      missingResource: (message, index) => {
        if (!message.startsWith('no group found for group_name')) rules.missingResource(message, index);
      },
    }),
  }),
  fault('cloud.roles-existence-checked-first-only', {
    breaks: 'cloud.roles.resources-must-exist',
    statements: [S('role-resources-exist'), S('errors-nonexistent-resources')],
    description:
      'Only the first cloud_roles item is checked: a later item naming a role definition that does not exist is skipped.',
    replace: (rules) => ({
      missingResource: (message, index) => {
        if (!(message.startsWith('no role found') && index > 0)) rules.missingResource(message, index);
      },
    }),
  }),
  fault('cloud.groups-existence-checked-first-only', {
    breaks: 'cloud.roles.resources-must-exist',
    statements: [S('role-resources-exist'), S('errors-nonexistent-resources')],
    description:
      'Only the first cloud_groups item is checked: a later item naming a group that does not exist is skipped.',
    replace: (rules) => ({
      missingResource: (message, index) => {
        if (!(message.startsWith('no group found') && index > 0)) rules.missingResource(message, index);
      },
    }),
  }),
  fault('cloud.app-object-existence-unchecked', {
    breaks: 'cloud.roles.resources-must-exist',
    statements: [S('role-resources-exist'), S('errors-nonexistent-resources')],
    description: 'A role naming an application_object_id that does not exist is stored; only its credentials fail.',
    replace: () => ({ missingApplication: nothing }),
  }),
  fault('cloud.roles-empty-accepted', {
    breaks: 'cloud.roles.app-or-roles-required',
    statements: [S('role-app-or-roles'), S('errors-app-or-roles')],
    description: 'A role with neither application_object_id nor cloud_roles is accepted.',
    replace: () => ({ checkUsable: nothing }),
  }),
  fault('cloud.app-object-permanently-delete-accepted', {
    breaks: 'cloud.roles.app-object-forbids-permanently-delete',
    statements: [S('role-permanently-delete-app-object'), S('errors-permanently-delete-invalid')],
    description: 'permanently_delete with application_object_id is accepted.',
    replace: () => ({ checkAppObjectPermanentlyDelete: nothing }),
  }),
  fault('cloud.app-object-permanently-delete-sent-only', {
    breaks: 'cloud.roles.app-object-forbids-permanently-delete',
    statements: [S('role-permanently-delete-app-object'), S('errors-permanently-delete-invalid')],
    description:
      'Only a permanently_delete sent in the same write is checked: adding application_object_id to a role that already holds permanently_delete true is accepted.',
    replace: (rules) => ({
      checkAppObjectPermanentlyDelete: (userApp, _permanentlyDelete, sent) =>
        rules.checkAppObjectPermanentlyDelete(
          userApp,
          sent.permanently_delete === true || sent.permanently_delete === 'true',
          sent,
        ),
    }),
  }),
  fault('cloud.permanently-delete-on-stored-app-accepted', {
    breaks: 'cloud.roles.app-object-forbids-permanently-delete',
    statements: [S('role-permanently-delete-app-object'), S('errors-permanently-delete-invalid')],
    description:
      'permanently_delete true is checked against an application_object_id sent in the same write only: sending it to a role that stores one is accepted.',
    replace: (rules) => ({
      checkAppObjectPermanentlyDelete: (userApp, permanentlyDelete, sent) =>
        rules.checkAppObjectPermanentlyDelete(
          userApp && typeof sent.application_object_id === 'string' && sent.application_object_id !== '',
          permanentlyDelete,
          sent,
        ),
    }),
  }),
  fault('cloud.sign-in-audience-unchecked', {
    breaks: 'cloud.roles.sign-in-audience',
    statements: [S('role-sign-in-audience')],
    description: 'sign_in_audience is neither validated nor set on the application.',
    replace: () => ({ signInAudience: () => '' }),
  }),
  fault('cloud.sign-in-audience-personal-refused', {
    breaks: 'cloud.roles.sign-in-audience',
    statements: [S('role-sign-in-audience-and-personal')],
    description:
      'sign_in_audience CloudADandPersonalAccount is refused (the engine knows only three of the four values).',
    replace: (rules) => ({
      signInAudience: (value) => {
        if (value === 'CloudADandPersonalAccount') throw badRequest('invalid sign_in_audience');
        return rules.signInAudience(value);
      },
    }),
  }),
  fault('cloud.sign-in-audience-my-org-refused', {
    breaks: 'cloud.roles.sign-in-audience',
    statements: [S('role-sign-in-audience-my-org')],
    description: 'sign_in_audience CloudADMyOrg is refused ("leave it empty for the default").',
    replace: (rules) => ({
      signInAudience: (value) => {
        if (value === 'CloudADMyOrg') throw badRequest('invalid sign_in_audience: CloudADMyOrg is the default');
        return rules.signInAudience(value);
      },
    }),
  }),
  fault('cloud.sign-in-audience-multiple-orgs-as-my-org', {
    breaks: 'cloud.roles.sign-in-audience',
    statements: [S('role-sign-in-audience-multiple-orgs')],
    description: 'sign_in_audience CloudADMultipleOrgs is accepted but set on the application as CloudADMyOrg.',
    replace: (rules) => ({
      signInAudience: (value) => {
        const v = rules.signInAudience(value);
        return v === 'CloudADMultipleOrgs' ? 'CloudADMyOrg' : v;
      },
    }),
  }),
  fault('cloud.sign-in-audience-personal-account-refused', {
    breaks: 'cloud.roles.sign-in-audience',
    statements: [S('role-sign-in-audience-personal-account')],
    description: 'sign_in_audience PersonalAccount is refused (the engine knows only the three CloudAD values).',
    replace: (rules) => ({
      signInAudience: (value) => {
        if (value === 'PersonalAccount') throw badRequest('invalid sign_in_audience');
        return rules.signInAudience(value);
      },
    }),
  }),
  fault('cloud.sign-in-audience-case-insensitive', {
    breaks: 'cloud.roles.sign-in-audience',
    statements: [S('role-sign-in-audience')],
    description:
      'sign_in_audience is matched without regard to case: "cloudadmyorg" is accepted (and set as CloudADMyOrg) instead of refused.',
    replace: (rules) => ({
      signInAudience: (value) => {
        const known = ['CloudADMyOrg', 'CloudADMultipleOrgs', 'CloudADandPersonalAccount', 'PersonalAccount'];
        const match = known.find((k) => typeof value === 'string' && k.toLowerCase() === value.toLowerCase());
        return rules.signInAudience(match ?? value);
      },
    }),
  }),
  // --- the boolean fields' type ---
  fault('cloud.persist-app-boolean-refused', {
    breaks: 'cloud.creds.persist-app',
    statements: [S('role-persist-app-type')],
    description: 'persist_app given as a JSON boolean is refused: only the strings "true" and "false" are read.',
    replace: (rules) => ({
      boolOf: (field, value) => {
        if (field === 'persist_app' && typeof value === 'boolean')
          throw badRequest('persist_app must be "true" or "false"');
        return rules.boolOf(field, value);
      },
    }),
  }),
  fault('cloud.permanently-delete-boolean-refused', {
    breaks: 'cloud.creds.permanently-delete',
    statements: [S('role-permanently-delete-type')],
    description: 'permanently_delete given as a JSON boolean is refused: only the strings "true" and "false" are read.',
    replace: (rules) => ({
      boolOf: (field, value) => {
        if (field === 'permanently_delete' && typeof value === 'boolean')
          throw badRequest('permanently_delete must be "true" or "false"');
        return rules.boolOf(field, value);
      },
    }),
  }),
  fault('cloud.tags-dropped', {
    breaks: 'cloud.roles.tags',
    statements: [S('role-tags')],
    description: 'tags are not attached to the created application.',
    replace: () => ({ applicationTags: () => [] }),
  }),
  fault('cloud.tags-first-only', {
    breaks: 'cloud.roles.tags',
    statements: [S('role-tags-comma-separated')],
    description: 'Only the first of several comma-separated tags is attached to the created application.',
    replace: (rules) => ({ applicationTags: (role) => rules.applicationTags(role).slice(0, 1) }),
  }),
  fault('cloud.tags-comma-string-refused', {
    breaks: 'cloud.roles.tags',
    statements: [S('role-tags-type'), S('role-tags-comma-separated')],
    description: 'tags given as a comma-separated string is refused: only a JSON list of tags is accepted.',
    replace: (rules) => ({
      tagsOf: (value) => {
        if (typeof value === 'string') throw badRequest('tags must be a list');
        return rules.tagsOf(value);
      },
    }),
  }),
  fault('cloud.tags-not-split', {
    breaks: 'cloud.roles.tags',
    statements: [S('role-tags-comma-separated')],
    description: 'tags is not split at commas: "a,b" is attached as the one tag "a,b".',
    replace: () => ({
      tagsOf: (value) => (typeof value === 'string' ? (value.trim() ? [value.trim()] : []) : parseTags(value)),
    }),
  }),
  // --- the role endpoints ---
  fault('cloud.role-update-ignored', {
    breaks: 'cloud.roles.write-list',
    statements: [S('endpoint-role-write')],
    description: 'POST /cloud/roles/:name on an existing role answers success but keeps the role as it was.',
    replace: (rules) => ({
      storeRole: (roles, name, role) => {
        if (!roles.has(name)) rules.storeRole(roles, name, role);
      },
    }),
  }),
  fault('cloud.roles-keep-only-latest', {
    breaks: 'cloud.roles.write-list',
    statements: [S('stores-roles')],
    description: 'The engine keeps only the role written last: writing a role forgets the others.',
    replace: (rules) => ({
      storeRole: (roles, name, role) => {
        roles.clear();
        rules.storeRole(roles, name, role);
      },
    }),
  }),
  fault('cloud.roles-list-stale-after-write', {
    breaks: 'cloud.roles.write-list',
    statements: [S('endpoint-role-list'), S('endpoint-role-write-creates')],
    description: 'For 2 seconds after a role is written or deleted, LIST /cloud/roles answers the names from before.',
    replace: (rules) => ({
      rolesToList: (current, previous, since) =>
        since < STALE_MS ? previous : rules.rolesToList(current, previous, since),
    }),
  }),
  fault('cloud.roles-list-empty', {
    breaks: 'cloud.roles.write-list',
    statements: [S('endpoint-role-list')],
    description: 'LIST /cloud/roles answers no keys although roles exist.',
    replace: () => ({ listRoles: () => [] }),
  }),
];
