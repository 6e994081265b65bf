/**
 * The faults of the cloud engine's roles and credentials: each breaks one catalogued rule
 * (`breaks`) and names the statements of the documents it contradicts. The `new-role-inherits-*`
 * faults are one plausible bug seen field by field: a new role starts from the role written just
 * before it instead of from the documented defaults.
 */
import { switchesOf } from '../../../../switches.js';
import { badRequest } from '../../../errors.js';
import { parseJsonArray, parseRoleItems } from '../roles.js';
import type { CloudRules, RoleEntry } from '../rules.js';

const { fault } = switchesOf<CloudRules>(['cloud']);
const S = (slug: string) => `doc.core.cloud.${slug}`;

const nothing = (): void => {};

/** A new role that takes `field` from the role written before it (when that role still exists). */
const inherits =
  (rules: CloudRules, field: keyof RoleEntry) =>
  (last: RoleEntry | undefined): RoleEntry => {
    const fresh = rules.roleDefaults(last);
    return last ? { ...fresh, [field]: structuredClone(last[field]) } : fresh;
  };

/** "1h" read the way a parser for integers reads it: the leading number, in seconds. */
const leadingNumber = (value: unknown): number => {
  const n = typeof value === 'number' ? value : Number.parseInt(String(value), 10);
  if (!Number.isFinite(n)) throw badRequest('not a duration');
  return n;
};

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
      missingResource: (message) => {
        if (!message.startsWith('no group found for object_id')) rules.missingResource(message);
      },
    }),
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
  fault('cloud.sign-in-audience-unchecked', {
    breaks: 'cloud.roles.sign-in-audience',
    statements: [S('role-sign-in-audience')],
    description: 'sign_in_audience is neither validated nor set on the application.',
    replace: () => ({ signInAudience: () => '' }),
  }),
  fault('cloud.sign-in-audience-personal-refused', {
    breaks: 'cloud.roles.sign-in-audience',
    statements: [S('role-sign-in-audience')],
    description:
      'sign_in_audience CloudADandPersonalAccount is refused (the engine knows only three of the four values).',
    replace: (rules) => ({
      signInAudience: (value) => {
        if (value === 'CloudADandPersonalAccount') throw badRequest('invalid sign_in_audience');
        return rules.signInAudience(value);
      },
    }),
  }),
  fault('cloud.tags-dropped', {
    breaks: 'cloud.roles.tags',
    statements: [S('role-tags')],
    description: 'tags are not attached to the created application.',
    replace: () => ({ applicationTags: () => [] }),
  }),
  fault('cloud.ttl-ignored', {
    breaks: 'cloud.roles.ttl',
    statements: [S('role-ttl')],
    description: 'The role ttl is ignored; leases get the engine default.',
    replace: () => ({ roleTtl: () => 0 }),
  }),
  fault('cloud.ttl-string-misread', {
    breaks: 'cloud.roles.ttl',
    statements: [S('role-ttl-formats')],
    description: 'A time-suffixed ttl is read by its leading number as seconds ("1h" gives a 1-second lease).',
    replace: () => ({ ttlOf: leadingNumber }),
  }),
  fault('cloud.max-ttl-ignored', {
    breaks: 'cloud.roles.max-ttl',
    statements: [S('role-max-ttl')],
    description: 'The role max_ttl does not cap the lease.',
    replace: () => ({ roleMaxTtl: () => 0 }),
  }),
  fault('cloud.max-ttl-string-ignored', {
    breaks: 'cloud.roles.max-ttl',
    statements: [S('role-max-ttl-formats')],
    description: 'A time-suffixed max_ttl ("2m") is accepted but ignored; only integer seconds cap the lease.',
    replace: (rules) => ({ maxTtlOf: (value) => (typeof value === 'string' ? 0 : rules.maxTtlOf(value)) }),
  }),
  // --- defaults of a new role ---
  fault('cloud.new-role-inherits-ttl', {
    breaks: 'cloud.roles.ttl',
    statements: [S('role-ttl-default')],
    description: 'A role written without ttl takes the ttl of the role written before it.',
    replace: (rules) => ({ roleDefaults: inherits(rules, 'ttl') }),
  }),
  fault('cloud.new-role-inherits-max-ttl', {
    breaks: 'cloud.roles.max-ttl',
    statements: [S('role-max-ttl-default')],
    description: 'A role written without max_ttl takes the max_ttl of the role written before it.',
    replace: (rules) => ({ roleDefaults: inherits(rules, 'max_ttl') }),
  }),
  fault('cloud.new-role-inherits-groups', {
    breaks: 'cloud.creds.principal-created',
    statements: [S('role-cloud-groups-default')],
    description: 'A role written without cloud_groups takes the groups of the role written before it.',
    replace: (rules) => ({ roleDefaults: inherits(rules, 'cloud_groups') }),
  }),
  fault('cloud.new-role-inherits-app-object', {
    breaks: 'cloud.creds.principal-created',
    statements: [S('role-app-object-default')],
    description:
      'A role written without application_object_id takes the application of the role written before it, so its credentials create no principal.',
    replace: (rules) => ({
      roleDefaults: (last) => {
        const fresh = rules.roleDefaults(last);
        if (!last?.application_object_id || last.managed) return fresh;
        return { ...fresh, application_object_id: last.application_object_id, application_id: last.application_id };
      },
    }),
  }),
  fault('cloud.new-role-inherits-tags', {
    breaks: 'cloud.roles.tags',
    statements: [S('role-tags-default')],
    description: 'A role written without tags takes the tags of the role written before it.',
    replace: (rules) => ({ roleDefaults: inherits(rules, 'tags') }),
  }),
  fault('cloud.new-role-inherits-sign-in-audience', {
    breaks: 'cloud.roles.sign-in-audience',
    statements: [S('role-sign-in-audience-default')],
    description: 'A role written without sign_in_audience takes the sign_in_audience of the role written before it.',
    replace: (rules) => ({ roleDefaults: inherits(rules, 'sign_in_audience') }),
  }),
  fault('cloud.new-role-inherits-permanently-delete', {
    breaks: 'cloud.creds.permanently-delete',
    statements: [S('role-permanently-delete-default')],
    description: 'A role written without permanently_delete takes the value of the role written before it.',
    replace: (rules) => ({ roleDefaults: inherits(rules, 'permanently_delete') }),
  }),
  fault('cloud.new-role-inherits-persist-app', {
    breaks: 'cloud.creds.revoke-removes',
    statements: [S('role-persist-app-default')],
    description:
      'A role written without persist_app takes the value of the role written before it: after a persist_app role, its application outlives its leases.',
    replace: (rules) => ({ roleDefaults: inherits(rules, 'persist_app') }),
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
  fault('cloud.roles-list-empty', {
    breaks: 'cloud.roles.write-list',
    statements: [S('endpoint-role-list')],
    description: 'LIST /cloud/roles answers no keys although roles exist.',
    replace: () => ({ listRoles: () => [] }),
  }),
  // --- credentials ---
  fault('cloud.creds-drops-client-secret', {
    breaks: 'cloud.creds.response',
    statements: [S('creds-response-client-secret'), S('endpoint-creds')],
    description: 'GET /cloud/creds/:name answers data.client_id but no data.client_secret (it goes to data.password).',
    replace: () => ({ credentialsData: (clientId, secret) => ({ client_id: clientId, password: secret }) }),
  }),
  fault('cloud.creds-skip-assignments', {
    breaks: 'cloud.creds.principal-created',
    statements: [S('role-cloud-roles-assigned')],
    description: 'Credentials create the principal without its role assignments.',
    replace: () => ({ assignmentsOf: () => [] }),
  }),
  fault('cloud.creds-skip-groups', {
    breaks: 'cloud.creds.principal-created',
    statements: [S('role-cloud-groups-joined')],
    description: 'Credentials create the principal without its group memberships.',
    replace: () => ({ groupsOf: () => [] }),
  }),
  fault('cloud.creds-wrong-secret', {
    breaks: 'cloud.creds.secret-authenticates',
    statements: [S('creates-principal')],
    description: 'The returned client_secret is not the one registered in the directory.',
    replace: () => ({ returnedSecret: (secret) => `${secret}x` }),
  }),
  fault('cloud.revoke-keeps-principal', {
    breaks: 'cloud.creds.revoke-removes',
    statements: [S('role-persist-app-default')],
    description: 'Lease end leaves the application and service principal in place.',
    replace: () => ({ revokeRemovesPrincipal: false }),
  }),
  fault('cloud.revoke-keeps-assignments', {
    breaks: 'cloud.creds.revoke-removes',
    statements: [S('role-persist-app-default')],
    description: 'Lease end leaves the role assignments and group memberships in place.',
    replace: () => ({ revokeRemovesAssignments: false }),
  }),
  fault('cloud.app-object-uses-roles', {
    breaks: 'cloud.roles.app-object-ignores-roles',
    statements: [S('role-app-object-ignores-roles')],
    description:
      "With application_object_id the engine still assigns cloud_roles, to the existing application's principal.",
    // A role with persist_app keeps its own application; the bug concerns an existing one.
    replace: () => ({ staticAssignments: (role) => (role.managed ? [] : role.cloud_roles) }),
  }),
  fault('cloud.app-object-client-id-is-object-id', {
    breaks: 'cloud.creds.app-object-adds-secret',
    statements: [S('role-app-object-used')],
    description:
      "Credentials of an application_object_id role name the application's object id as client_id instead of its client id.",
    replace: (rules) => ({
      staticClientId: (role) => (role.managed ? rules.staticClientId(role) : role.application_object_id),
    }),
  }),
  fault('cloud.app-object-revoke-keeps-secret', {
    // An assumption of the suite (the documents do not say what a lease's end does to that secret).
    breaks: 'cloud.creds.lease-end-removes-secret',
    description: 'Lease end of an application_object_id or persist_app credential leaves its secret valid.',
    replace: () => ({ revokeRemovesAddedSecret: false }),
  }),
  fault('cloud.persist-app-ignored', {
    breaks: 'cloud.creds.persist-app',
    statements: [S('role-persist-app')],
    description: 'persist_app is ignored; each credential gets a new application.',
    replace: () => ({ persistApp: () => false }),
  }),
  fault('cloud.permanently-delete-ignored', {
    breaks: 'cloud.creds.permanently-delete',
    statements: [S('role-permanently-delete')],
    description: 'permanently_delete is ignored; applications stay in deleted items.',
    replace: () => ({ permanentDelete: () => false }),
  }),
];
