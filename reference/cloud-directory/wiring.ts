/**
 * How the reference wires its simulated cloud into the secrets service and the harness. The
 * reference is started as an operator would start it next to a cloud: with CLOUD_TENANT_ID set to
 * the directory's tenant (unless the environment already sets it), which also makes the engine's
 * environment-variable precedence observable to the suite. The engine reaches the simulation at
 * its endpoints and trusts its CA; the suite gets the same endpoints and the CA's file.
 */
import type { CloudConfig } from '../../contract/cloud.js';
import type { CloudEndpoints, RunningCloudDirectory } from './server.js';

export interface CloudWiring {
  /** Merge into ReferenceSettings: the engine's endpoints, CA, environment name and `env`. */
  settings: {
    cloudEndpoints: CloudEndpoints;
    cloudCa: string;
    cloudEnvironment: string;
    env: Record<string, string | undefined>;
  };
  /** The suite's `t.config.cloud` for this reference. */
  config: CloudConfig;
}

export function cloudWiring(
  dir: RunningCloudDirectory,
  env: Record<string, string | undefined> = process.env,
): CloudWiring {
  const tenant = env.CLOUD_TENANT_ID || dir.tenantId;
  const engineEnv: Record<string, string | undefined> = { ...env, CLOUD_TENANT_ID: tenant };
  const envOverrides: CloudConfig['envOverrides'] = {};
  for (const k of [
    'CLOUD_SUBSCRIPTION_ID',
    'CLOUD_TENANT_ID',
    'CLOUD_CLIENT_ID',
    'CLOUD_CLIENT_SECRET',
    'CLOUD_ENVIRONMENT',
  ] as const) {
    const v = engineEnv[k];
    if (v) envOverrides[k] = k === 'CLOUD_CLIENT_SECRET' ? '' : v;
  }
  return {
    settings: { cloudEndpoints: dir.endpoints, cloudCa: dir.ca, cloudEnvironment: dir.environment, env: engineEnv },
    config: cloudConfigOf(dir, { envOverrides }),
  };
}

/** The run's cloud settings for a running simulation (its endpoints, CA file, ids and fixtures). */
export function cloudConfigOf(dir: RunningCloudDirectory, extra: Partial<CloudConfig> = {}): CloudConfig {
  return {
    loginEndpoint: dir.endpoints.login,
    graphEndpoint: dir.endpoints.graph,
    managementEndpoint: dir.endpoints.management,
    cacert: dir.caFile,
    rootClientId: dir.rootClientId,
    rootClientSecret: dir.rootClientSecret,
    tenantId: dir.tenantId,
    subscriptionId: dir.subscriptionId,
    resourceGroup: dir.fixtures.resourceGroup,
    roleNames: dir.fixtures.roleNames,
    groupNames: dir.fixtures.groupNames,
    applicationObjectId: dir.fixtures.applicationObjectId,
    environment: dir.environment,
    otherEnvironment: dir.otherEnvironment,
    // The reference propagates at once; its variants delay by seconds (rotate-root's swap, 1.5 s;
    // its authentication after rotate-root, 3 s), so shorter bounds keep failing runs short.
    propagationSeconds: 15,
    rotationSwapSeconds: 15,
    ...extra,
  };
}
