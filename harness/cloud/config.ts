/** The cloud suite's settings as the harness reads them (environment, config schema); the shape is contract/cloud.ts. */
import { CLOUD_ENV_VARS, type CloudConfig } from '../../contract/cloud.js';

export { CLOUD_ENV_VARS, type CloudConfig, type CloudEnvVar } from '../../contract/cloud.js';

/**
 * Reads the cloud settings from environment variables (`CLOUD_DIRECTORY_ADDR`,
 * `CLOUD_ROOT_CLIENT_ID`, `CLOUD_ROOT_CLIENT_SECRET`, `CLOUD_FIXTURE_TENANT_ID`,
 * `CLOUD_FIXTURE_SUBSCRIPTION_ID`, `CLOUD_ROLE_NAMES` and `CLOUD_GROUP_NAMES` comma-separated,
 * `CLOUD_APPLICATION_OBJECT_ID`, `CLOUD_PROPAGATION_SECONDS`, `CLOUD_ENV_OVERRIDES` as a JSON object of
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

/** JSON schema of the `cloud` section of a target config file (for the lead's config validator). */
export const cloudConfigSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    directoryAddr: { type: 'string', pattern: '^https?://' },
    rootClientId: { type: 'string' },
    rootClientSecret: { type: 'string' },
    tenantId: { type: 'string' },
    subscriptionId: { type: 'string' },
    roleNames: { type: 'array', items: { type: 'string' } },
    groupNames: { type: 'array', items: { type: 'string' } },
    applicationObjectId: { type: 'string' },
    envOverrides: {
      type: 'object',
      additionalProperties: false,
      properties: Object.fromEntries(CLOUD_ENV_VARS.map((k) => [k, { type: 'string' }])),
    },
    propagationSeconds: { type: 'number', minimum: 0 },
    rotationSwapSeconds: { type: 'number', minimum: 0 },
  },
} as const;
