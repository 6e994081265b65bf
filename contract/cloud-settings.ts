/** The cloud section of the target config: the one declaration of each cloud setting. */
import { Type } from '@sinclair/typebox';
import { CLOUD_ENV_VARS, CLOUD_PUBLIC_ENDPOINTS, type CloudEnvVar } from './cloud.js';
import { type Static, section, setting } from './setting.js';

/**
 * The `cloud` section of the target config: the settings of the cloud credentials suite
 * (`t.config.cloud`). The reference fills them from its simulated directory; against another
 * target they come from the config file or the environment. A test that needs a field the target
 * lacks is skipped with the field's name as the reason.
 */
export const cloudSection = section(
  "The cloud the engine manages, as the suite reads it (the real cloud's token endpoint, directory and resource manager APIs), and the fixtures of the cloud suite; a test that needs a missing one is skipped with the reason (and the run is incomplete). The embedded reference fills them from its simulated cloud.",
  {
    loginEndpoint: setting(
      "the cloud's token endpoint base (`{loginEndpoint}/{tenantId}/oauth2/v2.0/token`), where the suite gets its tokens, one per resource; unset: the public cloud's",
      Type.String({ pattern: '^https?://' }),
      { env: 'CLOUD_LOGIN_ENDPOINT', unsetMeans: CLOUD_PUBLIC_ENDPOINTS.loginEndpoint },
    ),
    graphEndpoint: setting(
      "the cloud's directory API (Graph, `{graphEndpoint}/v1.0/...`), where the suite reads applications, principals, their secrets, groups and deleted items; unset: the public cloud's",
      Type.String({ pattern: '^https?://' }),
      { env: 'CLOUD_GRAPH_ENDPOINT', unsetMeans: CLOUD_PUBLIC_ENDPOINTS.graphEndpoint },
    ),
    managementEndpoint: setting(
      "the cloud's resource manager, where the suite reads role definitions and role assignments and creates the scopes it names (in resourceGroup); unset: the public cloud's",
      Type.String({ pattern: '^https?://' }),
      { env: 'CLOUD_MANAGEMENT_ENDPOINT', unsetMeans: CLOUD_PUBLIC_ENDPOINTS.managementEndpoint },
    ),
    graphScope: setting("the scope of the directory's tokens; unset: the public cloud's", Type.String(), {
      env: 'CLOUD_GRAPH_SCOPE',
      unsetMeans: CLOUD_PUBLIC_ENDPOINTS.graphScope,
    }),
    managementScope: setting("the scope of the resource manager's tokens; unset: the public cloud's", Type.String(), {
      env: 'CLOUD_MANAGEMENT_SCOPE',
      unsetMeans: CLOUD_PUBLIC_ENDPOINTS.managementScope,
    }),
    cacert: setting(
      "a PEM file with the CA of the endpoints' certificates, trusted besides the system's (a simulated cloud's; the embedded reference sets it)",
      Type.String(),
      { env: 'CLOUD_CACERT' },
    ),
    rootClientId: setting(
      'client id of an application with directory rights; the suite configures mounts with it',
      Type.String(),
      { env: 'CLOUD_ROOT_CLIENT_ID' },
    ),
    rootClientSecret: setting('its client secret', Type.String(), { env: 'CLOUD_ROOT_CLIENT_SECRET' }),
    readerClientId: setting(
      'client id of the application the suite reads the effects with and makes its fixtures with (applications, scopes, grants); it needs Application.ReadWrite.All, AppRoleAssignment.ReadWrite.All, Group.Read.All and Owner on resourceGroup; unset: rootClientId',
      Type.String(),
      { env: 'CLOUD_READER_CLIENT_ID' },
    ),
    readerClientSecret: setting('its client secret; unset: rootClientSecret', Type.String(), {
      env: 'CLOUD_READER_CLIENT_SECRET',
    }),
    tenantId: setting('the tenant of the fixtures', Type.String(), { env: 'CLOUD_FIXTURE_TENANT_ID' }),
    subscriptionId: setting('the subscription of the fixtures', Type.String(), {
      env: 'CLOUD_FIXTURE_SUBSCRIPTION_ID',
    }),
    resourceGroup: setting(
      "an existing resource group of the subscription: each scope a test names in cloud_roles is a resource the suite creates there for the test (a user-assigned identity, in the group's location) and removes afterwards, so a run against a real tenant touches nothing else; the tests that name a scope need it",
      Type.String(),
      { env: 'CLOUD_RESOURCE_GROUP' },
    ),
    roleNames: setting(
      'existing role definition names usable in cloud_roles (most tests use the first); comma-separated in the environment',
      Type.Array(Type.String()),
      { env: 'CLOUD_ROLE_NAMES' },
    ),
    groupNames: setting(
      'existing group names usable in cloud_groups; comma-separated in the environment',
      Type.Array(Type.String()),
      { env: 'CLOUD_GROUP_NAMES' },
    ),
    applicationObjectId: setting(
      'object id of an existing application for application_object_id roles',
      Type.String(),
      { env: 'CLOUD_APPLICATION_OBJECT_ID' },
    ),
    environment: setting(
      'the name of the cloud environment whose endpoints these are, as /cloud/config environment takes it (the documents name none; the upstream product: AzurePublicCloud); the tests of the environment field and CLOUD_ENVIRONMENT need it',
      Type.String(),
      { env: 'CLOUD_FIXTURE_ENVIRONMENT' },
    ),
    otherEnvironment: setting(
      'the name of another environment the target accepts, whose endpoints are not these (the upstream product: AzureChinaCloud); the test of CLOUD_ENVIRONMENT stores it and expects the variable to win',
      Type.String(),
      { env: 'CLOUD_OTHER_ENVIRONMENT' },
    ),
    envOverrides: setting(
      "the CLOUD_* environment variables the target was started with (names to values; a secret's value may be left out): the tests of environment precedence run for the variables listed, and the tests that need a variable unset skip for them (on the reference, sys/reference/environment gives a test's mount the variables it needs instead). May use the target's names where the profile maps them (`dialect.names.svc.env`); a JSON object in the environment",
      Type.Unsafe<Partial<Record<CloudEnvVar, string>>>({
        type: 'object',
        additionalProperties: false,
        properties: Object.fromEntries(
          CLOUD_ENV_VARS.map((k) => [
            k,
            { type: 'string', description: `the value of ${k} the target was started with` },
          ]),
        ),
      }),
      { env: 'CLOUD_ENV_OVERRIDES' },
    ),
    propagationSeconds: setting(
      'bounds the waits for new or revoked credentials and rotate-root to propagate: after rotate-root the suite retries role writes and credential requests that fail for this long (the documents allow the engine to fail to authenticate briefly while the new secret propagates)',
      Type.Number({ minimum: 0 }),
      { env: 'CLOUD_PROPAGATION_SECONDS', unsetMeans: 30 },
    ),
    rotationSwapSeconds: setting(
      'bounds the wait for the root secret from before rotate-root to stop working (the upstream product drops it in a periodic task at least a minute after the rotation)',
      Type.Number({ minimum: 0 }),
      { env: 'CLOUD_ROTATION_SWAP_SECONDS', unsetMeans: 150 },
    ),
  },
  { optional: true },
);

/** Target settings of the cloud credentials suite (the `cloud` section above). */
export type CloudConfig = Static<typeof cloudSection>;
