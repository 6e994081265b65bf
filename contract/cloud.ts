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

/** The public cloud's endpoints and token scopes: the defaults of the cloud suite's reader. */
export const CLOUD_PUBLIC_ENDPOINTS = {
  loginEndpoint: 'https://login.microsoftonline.com',
  graphEndpoint: 'https://graph.microsoft.com',
  managementEndpoint: 'https://management.azure.com',
  graphScope: 'https://graph.microsoft.com/.default',
  managementScope: 'https://management.azure.com/.default',
} as const;
