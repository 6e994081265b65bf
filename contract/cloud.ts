/**
 * The cloud fixture settings: a neutral contract shared by the harness (which reads them from a
 * config file or the environment and hands them to the cloud suite) and the reference (whose
 * simulated directory fills them when it runs embedded). Types and constants only: the settings
 * are declared in cloud-settings.ts (loaded by the harness only).
 */

/** Target settings of the cloud credentials suite (`t.config.cloud`): declared in cloud-settings.ts. */
export type { CloudConfig } from './cloud-settings.js';

export type CloudEnvVar =
  | 'CLOUD_SUBSCRIPTION_ID'
  | 'CLOUD_TENANT_ID'
  | 'CLOUD_CLIENT_ID'
  | 'CLOUD_CLIENT_SECRET'
  | 'CLOUD_ENVIRONMENT';

export const CLOUD_ENV_VARS: readonly CloudEnvVar[] = [
  'CLOUD_SUBSCRIPTION_ID',
  'CLOUD_TENANT_ID',
  'CLOUD_CLIENT_ID',
  'CLOUD_CLIENT_SECRET',
  'CLOUD_ENVIRONMENT',
];
