/**
 * The one typed object that describes a target, built once and injected into every test. Its
 * type follows from the config schema (schema.ts): no setting is declared here.
 */
import type { Static } from '../../contract/setting.js';
import type { ProvisionedDirectory } from '../directory/provision.js';
import type { configSchema } from './schema.js';

type Schema = Static<typeof configSchema>;

/** The directory the ldap suite verifies (harness/directory/provision.ts), without its stop(). */
export type LdapTarget = Omit<ProvisionedDirectory, 'stop' | 'started'> & { started?: boolean };

/** The loaded config: the schema's type, the directory as the harness provisioned it. */
export type TargetConfig = Omit<Schema, 'ldap'> & { ldap?: LdapTarget };

export type Capabilities = TargetConfig['capabilities'];
export type Dialect = TargetConfig['dialect'];
export type SchedTokenGrant = TargetConfig['sched']['tokens'][number];
export type { CloudConfig as CloudTarget } from '../../contract/cloud.js';
/** How assumption differences count: reported apart (default) or failing the run. */
export type AssumptionMode = NonNullable<TargetConfig['run']['assumptions']>;
