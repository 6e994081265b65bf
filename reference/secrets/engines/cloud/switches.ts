/**
 * Every switch of the cloud credentials engine, declared once where it takes effect: each fault
 * breaks one catalogued cloud rule, each legal variant shows a behaviour the documents allow, and
 * each replaces one or more rules of rules.ts (see reference/switches.ts). Variants come first, so
 * a fault replaces the rule as a variant left it.
 */
import type { Faults } from '../../../faults.js';
import { rulesWith, switchesOf } from '../../../switches.js';
import type { Variants } from '../../../variants.js';
import { SvcError } from '../../errors.js';
import { parseJsonArray, parseRoleItems } from './roles.js';
import { type CloudRules, documented, requireIds } from './rules.js';

const { fault, variant } = switchesOf<CloudRules>(['cloud']);
const CORE = 'secrets-service-core.md';

const nothing = (): void => {};

export const cloudSwitches = [
  // --- legal variants ---
  variant('cloud.config-read-extra-fields', {
    allows: `${CORE} "Cloud credentials engine: configuration": the read response \`data\` "contains" subscription_id, tenant_id, client_id, environment; other fields are not excluded`,
    description:
      'GET /cloud/config also reports workload identity and automated rotation settings (identity_token_audience, rotation_period, ...), as the upstream product does.',
    replace: (rules) => ({
      // The upstream product's read also reports workload identity and automated rotation settings.
      configRead: (c) => ({
        ...rules.configRead(c),
        identity_token_audience: '',
        identity_token_ttl: 0,
        rotation_period: 0,
        rotation_schedule: '',
        rotation_window: 0,
        disable_automated_rotation: false,
      }),
    }),
  }),
  variant('cloud.config-read-unconfigured-404', {
    allows: `${CORE} "Endpoints > Cloud credentials engine" and "Errors": what a read of a deleted or never written configuration answers is not shown; 404 is the documented answer for "invalid path" or nothing there`,
    description:
      'GET /cloud/config without a configuration answers 404 (older upstream releases) instead of 200 with empty values.',
    replace: (rules) => ({
      configRead: (c) => {
        if (!c) throw new SvcError(404, []);
        return rules.configRead(c);
      },
    }),
  }),
  variant('cloud.config-ids-checked-at-use', {
    allows: `${CORE} "Cloud credentials engine: configuration": subscription_id and tenant_id are required, and "environment variables override values set in the configuration", so the values may arrive after the write; when the check happens is not shown`,
    description:
      'POST /cloud/config accepts a configuration without subscription_id or tenant_id; role writes, credentials and rotate-root then fail with 400 (the upstream product checks at use).',
    replace: () => ({
      checkIdsAtWrite: nothing,
      checkIdsAtUse: (c) => requireIds(c, {}),
    }),
  }),
  variant('cloud.config-write-warnings', {
    allows: `${CORE} "Endpoints > Conventions" 9: "an operation documented as 204 can return 200 when warnings arise"`,
    description: 'POST /cloud/config without environment answers 200 with a warning that the public cloud is used.',
    replace: () => ({
      configWriteResponse: (written) =>
        written.environment ? {} : { warnings: ['environment is not set: the public cloud is used'] },
    }),
  }),
  variant('cloud.rotate-root-deferred-swap', {
    allows: `${CORE} "Endpoints > Cloud credentials engine": rotate-root "generates a new client secret known only to the service; the engine may briefly fail to authenticate while it propagates" (when the old secret is dropped is not shown)`,
    description:
      'POST /cloud/rotate-root adds the new secret and answers at once; the engine keeps using the old secret and swaps (removing the old one) a moment later, as the upstream product does in its periodic task.',
    replace: () => ({ rootSwap: 'deferred' }),
  }),
  variant('cloud.roles-item-shape-at-use', {
    allows: `${CORE} "Cloud credentials engine: role": each cloud_roles item "has scope and either role_name or role_id"; the write-fails rule names only a missing application_object_id/cloud_roles and nonexistent resources`,
    description:
      'POST /cloud/roles/:name accepts a cloud_roles item without scope (the upstream product does not check it); credentials for that role then fail because the directory refuses an assignment without scope.',
    replace: () => ({ roleItems: (items) => parseRoleItems(items, false) }),
  }),
  variant('cloud.app-object-missing-500', {
    allows: `${CORE} "Errors" condition rule 5: a role naming nonexistent resources makes the "write fail" (no status given)`,
    description:
      'POST /cloud/roles/:name naming an application_object_id that does not exist answers 500 "error loading Application" (the upstream product) instead of 400.',
    replace: () => ({
      // The upstream product reports the failed lookup as an internal error.
      missingApplication: (message) => new SvcError(500, [`error loading Application: ${message}`]),
    }),
  }),
  variant('cloud.creds-unknown-role-404', {
    allows: `${CORE} "Endpoints > Cloud credentials engine" and "Errors": the status for credentials of a role that does not exist is not shown; 404 means "invalid path"`,
    description: 'GET /cloud/creds/:name for a role that does not exist answers 404 instead of 400.',
    replace: () => ({
      unknownRole: (name) => new SvcError(404, [`role '${name}' does not exist`]),
    }),
  }),
  variant('cloud.error-texts-wrapped', {
    allows: `${CORE} "Errors": the body is {errors: [<message>, ...]}; the wording of messages is not shown`,
    description:
      'Every error of the cloud engine is worded as the upstream framework wraps it ("1 error occurred:\\n\\t* ...").',
    replace: () => ({
      // The upstream framework wraps every message in a list.
      error: (err) =>
        new SvcError(
          err.status,
          err.messages.map((m) => `1 error occurred:\n\t* ${m}\n\n`),
        ),
    }),
  }),
  // --- faults ---
  fault('cloud.config-read-shows-secret', {
    breaks: 'cloud.config.client-secret-write-only',
    description: 'GET /cloud/config includes client_secret.',
    replace: (rules) => ({
      configRead: (c) => ({ ...rules.configRead(c), client_secret: c?.client_secret ?? '' }),
    }),
  }),
  fault('cloud.config-read-drops-client-id', {
    breaks: 'cloud.config.write-read',
    description: 'GET /cloud/config omits client_id.',
    replace: (rules) => ({
      configRead: (c) => ({ ...rules.configRead(c), client_id: undefined }),
    }),
  }),
  fault('cloud.env-ignored', {
    breaks: 'cloud.config.env-override',
    description: 'CLOUD_* environment variables do not override the stored configuration.',
    replace: () => ({ environment: () => ({}) }),
  }),
  fault('cloud.ids-not-required', {
    breaks: 'cloud.config.ids-required',
    description: 'A configuration without subscription_id (and no env var) is accepted and used.',
    replace: () => ({ checkIdsAtWrite: nothing, checkIdsAtUse: nothing }),
  }),
  fault('cloud.root-password-ttl-default-wrong', {
    breaks: 'cloud.config.root-password-ttl-default',
    description: 'root_password_ttl defaults to 90 days instead of 182.',
    replace: () => ({ rootPasswordTtlDefault: 90 * 86400 }),
  }),
  fault('cloud.config-delete-kept', {
    breaks: 'cloud.config.delete',
    description: 'DELETE /cloud/config answers success but keeps the configuration.',
    replace: () => ({ configAfterDelete: (c) => c }),
  }),
  fault('cloud.rotate-root-keeps-old', {
    breaks: 'cloud.rotate-root.replaces-secret',
    description: 'rotate-root adds a secret but leaves the old one valid.',
    replace: () => ({ oldRootSecrets: () => [] }),
  }),
  fault('cloud.rotate-root-returns-secret', {
    breaks: 'cloud.rotate-root.secret-not-returned',
    description: 'rotate-root returns the new client secret in data.',
    replace: () => ({
      rotateRootResponse: (secret) => ({ data: { client_secret: secret } }),
    }),
  }),
  fault('cloud.rotate-root-ttl-ignored', {
    breaks: 'cloud.rotate-root.expiry',
    description: 'rotate-root ignores root_password_ttl and uses a two-year expiry.',
    replace: () => ({ rootSecretExpiry: () => ({}) }),
  }),
  fault('cloud.roles-json-unchecked', {
    breaks: 'cloud.roles.cloud-roles-json-string',
    description: 'cloud_roles that is not a JSON array is accepted (treated as empty).',
    replace: () => ({ jsonArray: (field, value) => parseJsonArray(field, value, true) }),
  }),
  fault('cloud.roles-item-shape-unchecked', {
    breaks: 'cloud.roles.item-shape',
    description: 'cloud_roles items without scope are accepted and silently assigned at the whole subscription.',
    replace: () => ({
      // An item without scope silently gets the whole subscription as its scope.
      roleItems: (items, subscriptionId) =>
        parseRoleItems(items, false).map((r) => (r.scope ? r : { ...r, scope: `/subscriptions/${subscriptionId()}` })),
    }),
  }),
  fault('cloud.roles-existence-unchecked', {
    breaks: 'cloud.roles.resources-must-exist',
    description: 'Nonexistent role definitions and groups are accepted at role write.',
    replace: () => ({ missingResource: nothing }),
  }),
  fault('cloud.roles-empty-accepted', {
    breaks: 'cloud.roles.app-or-roles-required',
    description: 'A role with neither application_object_id nor cloud_roles is accepted.',
    replace: () => ({ checkUsable: nothing }),
  }),
  fault('cloud.app-object-uses-roles', {
    breaks: 'cloud.roles.app-object-ignores-roles',
    description: 'With application_object_id the engine still creates a new application with cloud_roles.',
    replace: () => ({ staticApplication: () => '' }),
  }),
  fault('cloud.app-object-permanently-delete-accepted', {
    breaks: 'cloud.roles.app-object-forbids-permanently-delete',
    description: 'permanently_delete with application_object_id is accepted.',
    replace: () => ({ checkAppObjectPermanentlyDelete: nothing }),
  }),
  fault('cloud.sign-in-audience-unchecked', {
    breaks: 'cloud.roles.sign-in-audience',
    description: 'sign_in_audience is neither validated nor set on the application.',
    replace: () => ({ signInAudience: () => '' }),
  }),
  fault('cloud.tags-dropped', {
    breaks: 'cloud.roles.tags',
    description: 'tags are not attached to the created application.',
    replace: () => ({ applicationTags: () => [] }),
  }),
  fault('cloud.ttl-ignored', {
    breaks: 'cloud.roles.ttl',
    description: 'The role ttl is ignored; leases get the engine default.',
    replace: () => ({ roleTtl: () => 0 }),
  }),
  fault('cloud.max-ttl-ignored', {
    breaks: 'cloud.roles.max-ttl',
    description: 'The role max_ttl does not cap the lease.',
    replace: () => ({ roleMaxTtl: () => 0 }),
  }),
  fault('cloud.creds-skip-assignments', {
    breaks: 'cloud.creds.principal-created',
    description: 'Credentials create the principal without its role assignments.',
    replace: () => ({ assignmentsOf: () => [] }),
  }),
  fault('cloud.creds-skip-groups', {
    breaks: 'cloud.creds.principal-created',
    description: 'Credentials create the principal without its group memberships.',
    replace: () => ({ groupsOf: () => [] }),
  }),
  fault('cloud.creds-wrong-secret', {
    breaks: 'cloud.creds.secret-authenticates',
    description: 'The returned client_secret is not the one registered in the directory.',
    replace: () => ({ returnedSecret: (secret) => `${secret}x` }),
  }),
  fault('cloud.revoke-keeps-principal', {
    breaks: 'cloud.creds.revoke-removes',
    description: 'Lease end leaves the application and service principal in place.',
    replace: () => ({ revokeRemovesPrincipal: false }),
  }),
  fault('cloud.revoke-keeps-assignments', {
    breaks: 'cloud.creds.revoke-removes',
    description: 'Lease end leaves the role assignments and group memberships in place.',
    replace: () => ({ revokeRemovesAssignments: false }),
  }),
  fault('cloud.app-object-revoke-keeps-secret', {
    breaks: 'cloud.creds.app-object-adds-secret',
    description: 'Lease end of an application_object_id credential leaves its secret valid.',
    replace: () => ({ revokeRemovesAddedSecret: false }),
  }),
  fault('cloud.persist-app-ignored', {
    breaks: 'cloud.creds.persist-app',
    description: 'persist_app is ignored; each credential gets a new application.',
    replace: () => ({ persistApp: () => false }),
  }),
  fault('cloud.permanently-delete-ignored', {
    breaks: 'cloud.creds.permanently-delete',
    description: 'permanently_delete is ignored; applications stay in deleted items.',
    replace: () => ({ permanentDelete: () => false }),
  }),
];

/** The cloud engine's rules with the switched-on faults and variants applied. */
export function cloudRulesWith(faults: Faults, variants: Variants): CloudRules {
  return rulesWith(documented, { faults, variants }, cloudSwitches);
}
