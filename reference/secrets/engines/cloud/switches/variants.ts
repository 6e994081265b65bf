/**
 * The legal variants of the cloud credentials engine: each shows a behaviour the documents allow
 * (they are silent, vague or give a choice) and replaces rules of ../rules.ts. They come first in
 * the table (index.ts), so a fault replaces the rule as a variant left it.
 */
import { switchesOf } from '../../../../switches.js';
import { SvcError } from '../../../errors.js';
import { parseRoleItems } from '../roles.js';
import { type CloudRules, requireIds } from '../rules.js';

const { variant } = switchesOf<CloudRules>(['cloud']);
const CORE = 'secrets-service-core.md';

const nothing = (): void => {};

export const cloudVariants = [
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
      missingApplication: (message) => {
        throw new SvcError(500, [`error loading Application: ${message}`]);
      },
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
  variant('cloud.rotate-root-propagation-delay', {
    allows: `${CORE} "Endpoints > Cloud credentials engine": rotate-root "generates a new client secret known only to the service; the engine may briefly fail to authenticate while it propagates"`,
    description:
      'For 3 seconds after POST /cloud/rotate-root the engine fails to authenticate to the directory: role writes, role deletes and credential requests answer 500, as the upstream product does while the new secret propagates.',
    statements: ['doc.core.cloud.endpoint-rotate-root-propagation'],
    replace: () => ({ rootPropagationMs: 3000 }),
  }),
  variant('cloud.role-update-resets-permanently-delete', {
    allows: `${CORE} "Endpoints > Cloud credentials engine": POST /cloud/roles/:name "creates or updates role"; whether an update that omits a field keeps its value or resets it to the default (permanently_delete: false) is not shown`,
    description:
      'POST /cloud/roles/:name on an existing role resets permanently_delete to false unless the request sends it (the other fields keep their values), as the upstream product does.',
    statements: ['doc.core.cloud.endpoint-role-write'],
    assumptions: ['cloud.roles.update-keeps-omitted'],
    replace: (rules) => ({
      roleToUpdate: (stored, last) => ({ ...rules.roleToUpdate(stored, last), permanently_delete: false }),
    }),
  }),
  variant('cloud.roles-list-unordered', {
    allows: `${CORE} "Endpoints > Cloud credentials engine": LIST /cloud/roles answers "\`data.keys\`: array of role names" (no order is given)`,
    description: 'LIST /cloud/roles names the roles newest first instead of sorted.',
    statements: ['doc.core.cloud.endpoint-role-list'],
    replace: () => ({ listRoles: (names) => [...names].reverse() }),
  }),
];
