/**
 * The faults of the cloud engine's role defaults: a field a write omits must hold its documented
 * default on a new role, and keep its value (the default, for a field never written) on an update.
 * The `new-role-inherits-*` and `role-update-inherits-*` faults are one plausible bug seen field by
 * field: the role is built over the role written just before it (a buffer reused between writes)
 * instead of over the documented defaults or the stored role.
 */
import { switchesOf } from '../../../../switches.js';
import { type CloudRules, type RoleEntry, emptyRole } from '../rules.js';

const { fault } = switchesOf<CloudRules>(['cloud']);
const S = (slug: string) => `doc.core.cloud.${slug}`;

type Field = 'ttl' | 'max_ttl' | 'tags' | 'sign_in_audience' | 'cloud_groups' | 'permanently_delete' | 'persist_app';

/** A new role that takes `field` from the role written before it (when that role still exists). */
const inherits =
  (rules: CloudRules, field: keyof RoleEntry) =>
  (last: RoleEntry | undefined): RoleEntry => {
    const fresh = rules.roleDefaults(last);
    return last ? { ...fresh, [field]: structuredClone(last[field]) } : fresh;
  };

/** Whether a role's `field` holds its documented default (empty, false, none). */
const atDefault = (role: RoleEntry, field: Field): boolean =>
  JSON.stringify(role[field]) === JSON.stringify(emptyRole()[field]);

/** An update whose stored `field` is at its default takes it from the role written last. */
const updateInherits =
  (rules: CloudRules, field: Field) =>
  (stored: RoleEntry, last: RoleEntry | undefined): RoleEntry => {
    const updated = rules.roleToUpdate(stored, last);
    return last && atDefault(updated, field) ? { ...updated, [field]: structuredClone(last[field]) } : updated;
  };

/** An update that resets `field` to its default (a field the request omits is not kept). */
const updateResets =
  (rules: CloudRules, field: Field) =>
  (stored: RoleEntry, last: RoleEntry | undefined): RoleEntry => ({
    ...rules.roleToUpdate(stored, last),
    [field]: emptyRole()[field],
  });

export const defaultFaults = [
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
  // --- defaults after an update that omits them ---
  fault('cloud.role-update-inherits-ttl', {
    breaks: 'cloud.roles.ttl',
    statements: [S('role-ttl-default')],
    description:
      'An update of a role without ttl that does not send ttl gives it the ttl of the role written just before.',
    replace: (rules) => ({ roleToUpdate: updateInherits(rules, 'ttl') }),
  }),
  fault('cloud.role-update-inherits-max-ttl', {
    breaks: 'cloud.roles.max-ttl',
    statements: [S('role-max-ttl-default')],
    description:
      'An update of a role without max_ttl that does not send max_ttl gives it the max_ttl of the role written just before.',
    replace: (rules) => ({ roleToUpdate: updateInherits(rules, 'max_ttl') }),
  }),
  fault('cloud.role-update-inherits-tags', {
    breaks: 'cloud.roles.tags',
    statements: [S('role-tags-default')],
    description:
      'An update of a role without tags that does not send tags gives it the tags of the role written just before.',
    replace: (rules) => ({ roleToUpdate: updateInherits(rules, 'tags') }),
  }),
  fault('cloud.role-update-inherits-sign-in-audience', {
    breaks: 'cloud.roles.sign-in-audience',
    statements: [S('role-sign-in-audience-default')],
    description:
      'An update of a role without sign_in_audience that does not send it gives it the sign_in_audience of the role written just before.',
    replace: (rules) => ({ roleToUpdate: updateInherits(rules, 'sign_in_audience') }),
  }),
  fault('cloud.role-update-inherits-groups', {
    breaks: 'cloud.creds.principal-created',
    statements: [S('role-cloud-groups-default')],
    description:
      'An update of a role without cloud_groups that does not send cloud_groups gives it the groups of the role written just before.',
    replace: (rules) => ({ roleToUpdate: updateInherits(rules, 'cloud_groups') }),
  }),
  fault('cloud.role-update-inherits-permanently-delete', {
    breaks: 'cloud.creds.permanently-delete',
    statements: [S('role-permanently-delete-default')],
    description:
      'An update of a role with permanently_delete false that does not send it takes the value of the role written just before.',
    replace: (rules) => ({ roleToUpdate: updateInherits(rules, 'permanently_delete') }),
  }),
  fault('cloud.role-update-resets-ttl', {
    breaks: 'cloud.roles.update-keeps-omitted',
    description: "An update that does not send ttl resets the role's ttl to empty (the engine default).",
    replace: (rules) => ({ roleToUpdate: updateResets(rules, 'ttl') }),
  }),
  fault('cloud.role-update-resets-groups', {
    breaks: 'cloud.roles.update-keeps-omitted',
    description: "An update that does not send cloud_groups drops the role's groups.",
    replace: (rules) => ({ roleToUpdate: updateResets(rules, 'cloud_groups') }),
  }),
];
