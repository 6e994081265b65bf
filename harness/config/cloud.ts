/** The cloud suite's settings as the harness reads them (environment, config schema); the shape is contract/cloud.ts. */
import { CLOUD_ENV_VARS, type CloudConfig } from '../../contract/cloud.js';

export { CLOUD_ENV_VARS, type CloudConfig, type CloudEnvVar } from '../../contract/cloud.js';

/**
 * Reads the cloud settings from environment variables (`CLOUD_DIRECTORY_ADDR`,
 * `CLOUD_ROOT_CLIENT_ID`, `CLOUD_ROOT_CLIENT_SECRET`, `CLOUD_FIXTURE_TENANT_ID`,
 * `CLOUD_FIXTURE_SUBSCRIPTION_ID`, `CLOUD_ROLE_NAMES` and `CLOUD_GROUP_NAMES` comma-separated,
 * `CLOUD_APPLICATION_OBJECT_ID`, `CLOUD_FIXTURE_ENVIRONMENT`, `CLOUD_OTHER_ENVIRONMENT`,
 * `CLOUD_PROPAGATION_SECONDS`, `CLOUD_ROTATION_SWAP_SECONDS`, `CLOUD_ENV_OVERRIDES` as a JSON object of
 * the CLOUD_* variables the target was started with). Only set fields are returned so a
 * config file's values are kept when merged underneath.
 */
export function cloudConfigFromEnv(env: Record<string, string | undefined> = process.env): CloudConfig {
  const out: CloudConfig = {};
  const list = (v: string | undefined) =>
    v
      ?.split(',')
      .map((s) => s.trim())
      .filter(Boolean);
  if (env.CLOUD_DIRECTORY_ADDR) out.directoryAddr = env.CLOUD_DIRECTORY_ADDR;
  if (env.CLOUD_ROOT_CLIENT_ID) out.rootClientId = env.CLOUD_ROOT_CLIENT_ID;
  if (env.CLOUD_ROOT_CLIENT_SECRET) out.rootClientSecret = env.CLOUD_ROOT_CLIENT_SECRET;
  if (env.CLOUD_FIXTURE_TENANT_ID) out.tenantId = env.CLOUD_FIXTURE_TENANT_ID;
  if (env.CLOUD_FIXTURE_SUBSCRIPTION_ID) out.subscriptionId = env.CLOUD_FIXTURE_SUBSCRIPTION_ID;
  if (env.CLOUD_ROLE_NAMES) out.roleNames = list(env.CLOUD_ROLE_NAMES);
  if (env.CLOUD_GROUP_NAMES) out.groupNames = list(env.CLOUD_GROUP_NAMES);
  if (env.CLOUD_APPLICATION_OBJECT_ID) out.applicationObjectId = env.CLOUD_APPLICATION_OBJECT_ID;
  if (env.CLOUD_FIXTURE_ENVIRONMENT) out.environment = env.CLOUD_FIXTURE_ENVIRONMENT;
  if (env.CLOUD_OTHER_ENVIRONMENT) out.otherEnvironment = env.CLOUD_OTHER_ENVIRONMENT;
  if (env.CLOUD_PROPAGATION_SECONDS && Number.isFinite(Number(env.CLOUD_PROPAGATION_SECONDS)))
    out.propagationSeconds = Number(env.CLOUD_PROPAGATION_SECONDS);
  if (env.CLOUD_ROTATION_SWAP_SECONDS && Number.isFinite(Number(env.CLOUD_ROTATION_SWAP_SECONDS)))
    out.rotationSwapSeconds = Number(env.CLOUD_ROTATION_SWAP_SECONDS);
  if (env.CLOUD_ENV_OVERRIDES) {
    try {
      const parsed = JSON.parse(env.CLOUD_ENV_OVERRIDES) as Record<string, unknown>;
      // Names are checked after loading: a profile may let the target's own names stand for the
      // documents' (dialect.names.svc.env), so they cannot be filtered here.
      out.envOverrides = Object.fromEntries(
        Object.entries(parsed).filter(([, v]) => typeof v === 'string'),
      ) as CloudConfig['envOverrides'];
    } catch {
      throw new Error('CLOUD_ENV_OVERRIDES must be a JSON object such as {"CLOUD_TENANT_ID": "..."}');
    }
  }
  return out;
}

/** A property with its description and environment variable (harness/config/schema.ts explains the annotations). */
const described = <S extends object>(description: string, env: string, schema: S) => ({
  ...schema,
  description,
  'x-env': env,
});

/** JSON schema of the `cloud` section of a target config file (part of harness/config/schema.ts). */
export const cloudConfigSchema = {
  type: 'object',
  additionalProperties: false,
  description:
    'The cloud directory and fixtures of the cloud suite; a test that needs a missing one is skipped with the reason (and the run is incomplete). The embedded reference fills them from its simulated directory.',
  properties: {
    directoryAddr: described(
      'base URL of the cloud directory the engine manages; without it the suite cannot verify effects',
      'CLOUD_DIRECTORY_ADDR',
      { type: 'string', pattern: '^https?://' },
    ),
    rootClientId: described(
      'client id of an application with directory rights; the suite configures mounts with it',
      'CLOUD_ROOT_CLIENT_ID',
      { type: 'string' },
    ),
    rootClientSecret: described('its client secret', 'CLOUD_ROOT_CLIENT_SECRET', { type: 'string' }),
    tenantId: described('the tenant of the fixtures', 'CLOUD_FIXTURE_TENANT_ID', { type: 'string' }),
    subscriptionId: described('the subscription of the fixtures', 'CLOUD_FIXTURE_SUBSCRIPTION_ID', {
      type: 'string',
    }),
    roleNames: described(
      'existing role definition names usable in cloud_roles (most tests use the first); comma-separated in the environment',
      'CLOUD_ROLE_NAMES',
      { type: 'array', items: { type: 'string' } },
    ),
    groupNames: described(
      'existing group names usable in cloud_groups; comma-separated in the environment',
      'CLOUD_GROUP_NAMES',
      { type: 'array', items: { type: 'string' } },
    ),
    applicationObjectId: described(
      'object id of an existing application for application_object_id roles',
      'CLOUD_APPLICATION_OBJECT_ID',
      { type: 'string' },
    ),
    environment: described(
      'the name of the cloud environment whose directory is directoryAddr, as /cloud/config environment takes it (the documents name none; the upstream product: AzurePublicCloud); the tests of the environment field and CLOUD_ENVIRONMENT need it',
      'CLOUD_FIXTURE_ENVIRONMENT',
      { type: 'string' },
    ),
    otherEnvironment: described(
      'the name of another environment the target accepts, whose directory is not directoryAddr (the upstream product: AzureChinaCloud); the test of CLOUD_ENVIRONMENT stores it and expects the variable to win',
      'CLOUD_OTHER_ENVIRONMENT',
      { type: 'string' },
    ),
    envOverrides: described(
      "the CLOUD_* environment variables the target was started with (names to values; a secret's value may be left out): the tests of environment precedence run for the variables listed, and the tests that need a variable unset skip for them (on the reference, sys/reference/environment gives a test's mount the variables it needs instead). May use the target's names where the profile maps them (`dialect.names.svc.env`); a JSON object in the environment",
      'CLOUD_ENV_OVERRIDES',
      {
        type: 'object',
        additionalProperties: false,
        properties: Object.fromEntries(
          CLOUD_ENV_VARS.map((k) => [
            k,
            { type: 'string', description: `the value of ${k} the target was started with` },
          ]),
        ),
      },
    ),
    propagationSeconds: described(
      'bounds the waits for new or revoked credentials and rotate-root to propagate: after rotate-root the suite retries role writes and credential requests that fail for this long (the documents allow the engine to fail to authenticate briefly while the new secret propagates)',
      'CLOUD_PROPAGATION_SECONDS',
      { type: 'number', minimum: 0, default: 30 },
    ),
    rotationSwapSeconds: described(
      'bounds the wait for the root secret from before rotate-root to stop working (the upstream product drops it in a periodic task at least a minute after the rotation)',
      'CLOUD_ROTATION_SWAP_SECONDS',
      { type: 'number', minimum: 0, default: 150 },
    ),
  },
} as const;
