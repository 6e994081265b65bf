/**
 * The cloud fixture settings: a neutral contract shared by the harness (which reads them from a
 * config file or the environment and hands them to the cloud suite) and the reference (whose
 * simulated directory fills them when it runs embedded). Types and constants only.
 */

/**
 * Target settings of the cloud credentials suite (`t.config.cloud`). The reference fills them from
 * its simulated directory; against another target they come from the config file or environment.
 * A test that needs a field the target lacks is skipped with the field's name as the reason.
 */
export interface CloudConfig {
  /** Base URL of the cloud directory the engine manages (simulated: `CLOUD_DIRECTORY_ADDR`). Without it the suite cannot verify effects. */
  directoryAddr?: string;
  /** Credentials of an application with directory rights; the suite configures mounts with them. */
  rootClientId?: string;
  rootClientSecret?: string;
  tenantId?: string;
  subscriptionId?: string;
  /** Existing role definition names usable in cloud_roles (first one is used by most tests). */
  roleNames?: string[];
  /** Existing group names usable in cloud_groups. */
  groupNames?: string[];
  /** Object id of an existing application for application_object_id roles. */
  applicationObjectId?: string;
  /**
   * The name of the cloud environment whose directory is `directoryAddr` (the documents name no
   * environment; the upstream product's public cloud is `AzurePublicCloud`).
   */
  environment?: string;
  /** The name of another environment the target accepts, whose directory is not `directoryAddr`. */
  otherEnvironment?: string;
  /**
   * The CLOUD_* environment variables the target was started with (names to values; the secret's
   * value may be omitted). Tests of env precedence run only for variables listed here.
   */
  envOverrides?: Partial<Record<CloudEnvVar, string>>;
  /** Bounded wait for new credentials and rotate-root to propagate (the document allows a brief failure). Default 30. */
  propagationSeconds?: number;
  /**
   * Bounded wait for the secret from before rotate-root to stop authenticating. Default 150: the
   * upstream product drops it in a periodic task at least a minute after the rotation.
   */
  rotationSwapSeconds?: number;
}

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
