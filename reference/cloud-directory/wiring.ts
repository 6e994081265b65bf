/**
 * How the reference wires its simulated cloud directory into the secrets service and the
 * harness. The reference is started as an operator would start it next to a cloud: with
 * CLOUD_TENANT_ID set to the directory's tenant (unless the environment already sets it), which
 * also makes the engine's environment-variable precedence observable to the suite.
 */
import type { CloudConfig } from '../../contract/cloud.js';
import type { RunningCloudDirectory } from './server.js';

export interface CloudWiring {
  /** Merge into ReferenceSettings: `cloudDirectoryAddr` and the engine's `env`. */
  settings: { cloudDirectoryAddr: string; cloudEnvironment: string; env: Record<string, string | undefined> };
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
    settings: { cloudDirectoryAddr: dir.addr, cloudEnvironment: dir.environment, env: engineEnv },
    config: {
      directoryAddr: dir.addr,
      rootClientId: dir.rootClientId,
      rootClientSecret: dir.rootClientSecret,
      tenantId: dir.tenantId,
      subscriptionId: dir.subscriptionId,
      roleNames: dir.fixtures.roleNames,
      groupNames: dir.fixtures.groupNames,
      applicationObjectId: dir.fixtures.applicationObjectId,
      environment: dir.environment,
      otherEnvironment: dir.otherEnvironment,
      envOverrides,
      // The reference propagates at once; its variants delay by seconds (rotate-root's swap, 1.5 s;
      // its authentication after rotate-root, 3 s), so shorter bounds keep failing runs short.
      propagationSeconds: 15,
      rotationSwapSeconds: 15,
    },
  };
}
