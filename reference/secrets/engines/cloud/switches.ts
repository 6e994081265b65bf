/**
 * Every switch of the cloud credentials engine and the rule it replaces (rules.ts): the one place
 * each cloud fault and variant takes effect. Declarations: faults.ts, variants.ts. Variants come
 * first, so a fault replaces the rule as a variant left it.
 */
import type { Faults } from '../../../faults.js';
import type { FaultName, VariantName } from '../../../switch-names.js';
import { withSwitches } from '../../../switches.js';
import type { Variants } from '../../../variants.js';
import { SvcError } from '../../errors.js';
import { parseJsonArray, parseRoleItems } from './roles.js';
import { type CloudRules, documented, requireIds } from './rules.js';

type CloudSwitch = Extract<FaultName | VariantName, `cloud.${string}`>;

const nothing = (): void => {};

const table: { [K in CloudSwitch]: (rules: CloudRules) => Partial<CloudRules> } = {
  // --- legal variants -------------------------------------------------------------------------
  'cloud.config-read-extra-fields': (rules) => ({
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
  'cloud.config-read-unconfigured-404': (rules) => ({
    configRead: (c) => {
      if (!c) throw new SvcError(404, []);
      return rules.configRead(c);
    },
  }),
  'cloud.config-ids-checked-at-use': () => ({
    checkIdsAtWrite: nothing,
    checkIdsAtUse: (c) => requireIds(c, {}),
  }),
  'cloud.config-write-warnings': () => ({
    configWriteResponse: (written) =>
      written.environment ? {} : { warnings: ['environment is not set: the public cloud is used'] },
  }),
  'cloud.rotate-root-deferred-swap': () => ({ rootSwap: 'deferred' }),
  'cloud.roles-item-shape-at-use': () => ({ roleItems: (items) => parseRoleItems(items, false) }),
  'cloud.app-object-missing-500': () => ({
    // The upstream product reports the failed lookup as an internal error.
    missingApplication: (message) => new SvcError(500, [`error loading Application: ${message}`]),
  }),
  'cloud.creds-unknown-role-404': () => ({
    unknownRole: (name) => new SvcError(404, [`role '${name}' does not exist`]),
  }),
  'cloud.error-texts-wrapped': () => ({
    // The upstream framework wraps every message in a list.
    error: (err) =>
      new SvcError(
        err.status,
        err.messages.map((m) => `1 error occurred:\n\t* ${m}\n\n`),
      ),
  }),

  // --- faults ---------------------------------------------------------------------------------
  'cloud.config-read-shows-secret': (rules) => ({
    configRead: (c) => ({ ...rules.configRead(c), client_secret: c?.client_secret ?? '' }),
  }),
  'cloud.config-read-drops-client-id': (rules) => ({
    configRead: (c) => ({ ...rules.configRead(c), client_id: undefined }),
  }),
  'cloud.env-ignored': () => ({ environment: () => ({}) }),
  'cloud.ids-not-required': () => ({ checkIdsAtWrite: nothing, checkIdsAtUse: nothing }),
  'cloud.root-password-ttl-default-wrong': () => ({ rootPasswordTtlDefault: 90 * 86400 }),
  'cloud.config-delete-kept': () => ({ configAfterDelete: (c) => c }),
  'cloud.rotate-root-keeps-old': () => ({ oldRootSecrets: () => [] }),
  'cloud.rotate-root-returns-secret': () => ({
    rotateRootResponse: (secret) => ({ data: { client_secret: secret } }),
  }),
  'cloud.rotate-root-ttl-ignored': () => ({ rootSecretExpiry: () => ({}) }),
  'cloud.roles-json-unchecked': () => ({ jsonArray: (field, value) => parseJsonArray(field, value, true) }),
  'cloud.roles-item-shape-unchecked': () => ({
    // An item without scope silently gets the whole subscription as its scope.
    roleItems: (items, subscriptionId) =>
      parseRoleItems(items, false).map((r) => (r.scope ? r : { ...r, scope: `/subscriptions/${subscriptionId()}` })),
  }),
  'cloud.roles-existence-unchecked': () => ({ missingResource: nothing }),
  'cloud.roles-empty-accepted': () => ({ checkUsable: nothing }),
  'cloud.app-object-uses-roles': () => ({ staticApplication: () => '' }),
  'cloud.app-object-permanently-delete-accepted': () => ({ checkAppObjectPermanentlyDelete: nothing }),
  'cloud.sign-in-audience-unchecked': () => ({ signInAudience: () => '' }),
  'cloud.tags-dropped': () => ({ applicationTags: () => [] }),
  'cloud.ttl-ignored': () => ({ roleTtl: () => 0 }),
  'cloud.max-ttl-ignored': () => ({ roleMaxTtl: () => 0 }),
  'cloud.creds-skip-assignments': () => ({ assignmentsOf: () => [] }),
  'cloud.creds-skip-groups': () => ({ groupsOf: () => [] }),
  'cloud.creds-wrong-secret': () => ({ returnedSecret: (secret) => `${secret}x` }),
  'cloud.revoke-keeps-principal': () => ({ revokeRemovesPrincipal: false }),
  'cloud.revoke-keeps-assignments': () => ({ revokeRemovesAssignments: false }),
  'cloud.app-object-revoke-keeps-secret': () => ({ revokeRemovesAddedSecret: false }),
  'cloud.persist-app-ignored': () => ({ persistApp: () => false }),
  'cloud.permanently-delete-ignored': () => ({ permanentDelete: () => false }),
};

/** The cloud engine's rules with the switched-on faults and variants applied. */
export function cloudRulesWith(faults: Faults, variants: Variants): CloudRules {
  const on = new Set([...faults.list(), ...variants.list()]);
  return withSwitches<CloudRules, CloudSwitch>(documented, { has: (name) => on.has(name) }, table);
}
