/** Legal variants of the cloud area (see reference/variants.ts): behaviours the documents allow. */
import { variantsOf } from '../../../variants.js';

const v = variantsOf(['cloud']);
const CORE = 'secrets-service-core.md';

export const variants = [
  v(
    'cloud.config-read-extra-fields',
    `${CORE} "Cloud credentials engine: configuration": the read response \`data\` "contains" subscription_id, tenant_id, client_id, environment; other fields are not excluded`,
    'GET /cloud/config also reports workload identity and automated rotation settings (identity_token_audience, rotation_period, ...), as the upstream product does.',
  ),
  v(
    'cloud.config-read-unconfigured-404',
    `${CORE} "Endpoints > Cloud credentials engine" and "Errors": what a read of a deleted or never written configuration answers is not shown; 404 is the documented answer for "invalid path" or nothing there`,
    'GET /cloud/config without a configuration answers 404 (older upstream releases) instead of 200 with empty values.',
  ),
  v(
    'cloud.config-ids-checked-at-use',
    `${CORE} "Cloud credentials engine: configuration": subscription_id and tenant_id are required, and "environment variables override values set in the configuration", so the values may arrive after the write; when the check happens is not shown`,
    'POST /cloud/config accepts a configuration without subscription_id or tenant_id; role writes, credentials and rotate-root then fail with 400 (the upstream product checks at use).',
  ),
  v(
    'cloud.config-write-warnings',
    `${CORE} "Endpoints > Conventions" 9: "an operation documented as 204 can return 200 when warnings arise"`,
    'POST /cloud/config without environment answers 200 with a warning that the public cloud is used.',
  ),
  v(
    'cloud.rotate-root-deferred-swap',
    `${CORE} "Endpoints > Cloud credentials engine": rotate-root "generates a new client secret known only to the service; the engine may briefly fail to authenticate while it propagates" (when the old secret is dropped is not shown)`,
    'POST /cloud/rotate-root adds the new secret and answers at once; the engine keeps using the old secret and swaps (removing the old one) a moment later, as the upstream product does in its periodic task.',
  ),
  v(
    'cloud.roles-item-shape-at-use',
    `${CORE} "Cloud credentials engine: role": each cloud_roles item "has scope and either role_name or role_id"; the write-fails rule names only a missing application_object_id/cloud_roles and nonexistent resources`,
    'POST /cloud/roles/:name accepts a cloud_roles item without scope (the upstream product does not check it); credentials for that role then fail because the directory refuses an assignment without scope.',
  ),
  v(
    'cloud.app-object-missing-500',
    `${CORE} "Errors" condition rule 5: a role naming nonexistent resources makes the "write fail" (no status given)`,
    'POST /cloud/roles/:name naming an application_object_id that does not exist answers 500 "error loading Application" (the upstream product) instead of 400.',
  ),
  v(
    'cloud.creds-unknown-role-404',
    `${CORE} "Endpoints > Cloud credentials engine" and "Errors": the status for credentials of a role that does not exist is not shown; 404 means "invalid path"`,
    'GET /cloud/creds/:name for a role that does not exist answers 404 instead of 400.',
  ),
  v(
    'cloud.error-texts-wrapped',
    `${CORE} "Errors": the body is {errors: [<message>, ...]}; the wording of messages is not shown`,
    'Every error of the cloud engine is worded as the upstream framework wraps it ("1 error occurred:\\n\\t* ...").',
  ),
];
