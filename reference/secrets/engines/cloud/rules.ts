/**
 * The cloud credentials engine's rules as the documents give them (secrets-service-core.md,
 * "Cloud credentials engine"), named so the model (index.ts) reads as those rules: what the
 * configuration holds and answers, when the ids are checked, how rotate-root treats the root
 * secret, what a role must name, and what credentials create and their lease's end removes. The
 * switches (switches.ts) replace some of these by name.
 */
import type { EngineResponse } from '../../engine.js';
import { SvcError, badRequest } from '../../errors.js';
import { parseDuration } from '../../duration.js';
import type { CloudEndpoints } from './directory-client.js';
import { SIGN_IN_AUDIENCES, parseBool, parseJsonArray, parseRoleItems, parseTags, type RoleItem } from './roles.js';

export interface StoredConfig {
  subscription_id: string;
  tenant_id: string;
  client_id: string;
  client_secret: string;
  environment: string;
  root_password_ttl: number;
  /** The client secret is one rotate-root generated (known only to the service). */
  rotated?: boolean;
}

/** The configuration in use: stored values with the CLOUD_* environment variables laid over them. */
export type EffectiveConfig = Omit<StoredConfig, 'root_password_ttl' | 'rotated'>;

export interface ResolvedRole {
  role_name: string;
  role_id: string;
  scope: string;
}
export interface ResolvedGroup {
  group_name: string;
  object_id: string;
}

export interface Principal {
  appObjectId: string;
  appId: string;
  spObjectId: string;
  /** Full resource manager ids of the role assignments made for it. */
  assignmentIds: string[];
  groupIds: string[];
}

export interface RoleEntry {
  cloud_roles: ResolvedRole[];
  cloud_groups: ResolvedGroup[];
  application_object_id: string;
  application_id: string;
  persist_app: boolean;
  ttl: number;
  max_ttl: number;
  permanently_delete: boolean;
  sign_in_audience: string;
  tags: string[];
  /** The application persist_app keeps for the role's lifetime. */
  managed?: Principal;
}

export const CONFIG_FIELDS = ['subscription_id', 'tenant_id', 'client_id', 'client_secret', 'environment'] as const;
export const ENV_OF: Record<(typeof CONFIG_FIELDS)[number], string> = {
  subscription_id: 'CLOUD_SUBSCRIPTION_ID',
  tenant_id: 'CLOUD_TENANT_ID',
  client_id: 'CLOUD_CLIENT_ID',
  client_secret: 'CLOUD_CLIENT_SECRET',
  environment: 'CLOUD_ENVIRONMENT',
};
export const IDS = ['subscription_id', 'tenant_id'] as const;
export type IdField = (typeof IDS)[number];

/** subscription_id and tenant_id are required, from the configuration or the environment. */
export function requireIds(
  values: Pick<StoredConfig, IdField>,
  env: Record<string, string | undefined>,
  fields: readonly IdField[] = IDS,
) {
  for (const field of fields)
    if (!values[field] && !env[ENV_OF[field]])
      throw badRequest(`${field} is required (or the ${ENV_OF[field]} environment variable)`);
}

/** What a new role holds before its write applies the fields sent: every field's documented default. */
export function emptyRole(): RoleEntry {
  return {
    cloud_roles: [],
    cloud_groups: [],
    application_object_id: '',
    application_id: '',
    persist_app: false,
    ttl: 0,
    max_ttl: 0,
    permanently_delete: false,
    sign_in_audience: '',
    tags: [],
  };
}

export const documented = {
  /** Errors answer `{errors: [<message>, ...]}` with the engine's own wording. */
  error: (err: SvcError): SvcError => err,

  // --- configuration ------------------------------------------------------------------------

  /** The environment variables that override the stored configuration (CLOUD_*). */
  environment: (env: Record<string, string | undefined>): Record<string, string | undefined> => env,
  /** root_password_ttl when not written: 182 days. */
  rootPasswordTtlDefault: 182 * 86400,
  /** A configuration write needs subscription_id and tenant_id (written or from the environment). */
  checkIdsAtWrite: (next: StoredConfig, env: Record<string, string | undefined>): void => requireIds(next, env),
  /** Using the configuration needs nothing more: the ids were checked when it was written. */
  checkIdsAtUse: (_config: EffectiveConfig): void => {},
  /** Without a tenant the engine cannot reach the directory (the ids are checked before). */
  tenantWhenMissing: async (_endpoints: CloudEndpoints, _ca?: string): Promise<string> => '',
  /** A write replaces the stored values it sends (`_sent`: the body of the write). */
  configAfterWrite: (
    _previous: StoredConfig | undefined,
    next: StoredConfig,
    _sent: Record<string, unknown>,
  ): StoredConfig => next,
  /** root_password_ttl: a duration string in any unit ("182d", "720h") or integer seconds. */
  rootPasswordTtlOf: (value: unknown): number => parseDuration(value),
  /**
   * What a read shows: the configuration as it is now (`_previous` is the one before the last
   * write or delete, `_sinceChangeMs` how long ago that was, for switches that serve it stale).
   */
  configToRead: (
    current: StoredConfig | undefined,
    _previous: StoredConfig | undefined,
    _sinceChangeMs: number,
  ): StoredConfig | undefined => current,
  /** The endpoints of an environment: empty (the public cloud) and the simulation's own name reach it; others have none here. */
  directoryFor: (
    environment: string,
    settings: { cloudEndpoints?: CloudEndpoints; cloudEnvironment?: string },
  ): CloudEndpoints | undefined =>
    !environment || environment === settings.cloudEnvironment ? settings.cloudEndpoints : undefined,
  /** A configuration write answers 204. */
  configWriteResponse: (_written: StoredConfig): EngineResponse => ({}),
  /** The read: subscription_id, tenant_id, client_id, environment, root_password_ttl; never client_secret. */
  configRead: (c: StoredConfig | undefined): Record<string, unknown> => ({
    subscription_id: c?.subscription_id ?? '',
    tenant_id: c?.tenant_id ?? '',
    client_id: c?.client_id ?? '',
    environment: c?.environment ?? '',
    root_password_ttl: c?.root_password_ttl ?? 0,
  }),
  /** DELETE removes the configuration. */
  configAfterDelete: (_c: StoredConfig | undefined): StoredConfig | undefined => undefined,
  /** ... and its credentials: the engine keeps no login to the directory. */
  credentialsAfterDelete: (_c: StoredConfig | undefined): StoredConfig | undefined => undefined,

  // --- rotate-root --------------------------------------------------------------------------

  /** The new root secret expires after root_password_ttl. */
  rootSecretExpiry: (now: number, ttlSeconds: number): { endDateTime?: string } => ({
    endDateTime: new Date(now + ttlSeconds * 1000).toISOString(),
  }),
  /** rotate-root takes no parameters: a body is ignored. */
  checkRotateRootBody: (_body: Record<string, unknown>): void => {},
  /** rotate-root generates a new secret. */
  generatesRootSecret: true,
  /** How long after rotate-root the engine fails to authenticate while the new secret propagates (0: never). */
  rootPropagationMs: 0,
  /** The engine swaps to the new root secret at once ('now'), or later ('deferred'). */
  rootSwap: 'now' as 'now' | 'deferred',
  /** After the new secret is proven, every other secret of the root application is removed. */
  oldRootSecrets: (credentials: { keyId: string; displayName?: string | null }[], newKeyId: string): string[] =>
    credentials.map((c) => c.keyId).filter((k) => k !== newKeyId),
  /** rotate-root answers 204: the new secret is known only to the service. */
  rotateRootResponse: (_secret: string): EngineResponse => ({}),

  // --- roles --------------------------------------------------------------------------------

  /** A new role starts from the documented defaults (never from the role written before it). */
  roleDefaults: (_lastWritten: RoleEntry | undefined): RoleEntry => emptyRole(),
  /** An update starts from the stored role: a field the request omits keeps its value (never the last written role's). */
  roleToUpdate: (stored: RoleEntry, _lastWritten: RoleEntry | undefined): RoleEntry => ({
    ...stored,
    cloud_roles: [...stored.cloud_roles],
    cloud_groups: [...stored.cloud_groups],
    tags: [...stored.tags],
  }),
  /** ttl: a duration string such as "1h" or integer seconds. */
  ttlOf: (value: unknown): number => parseDuration(value),
  /** max_ttl: the same forms. */
  maxTtlOf: (value: unknown): number => parseDuration(value),
  /** A ttl above max_ttl is refused; one equal to it is within the maximum. */
  checkTtlWithinMax: (ttl: number, maxTtl: number): void => {
    if (maxTtl > 0 && ttl > maxTtl) throw badRequest('ttl cannot be greater than max_ttl');
  },
  /** persist_app and permanently_delete: booleans. */
  boolOf: (field: 'persist_app' | 'permanently_delete', value: unknown): boolean => parseBool(field, value),
  /** tags: comma-separated, each one attached. */
  tagsOf: (value: unknown): string[] => parseTags(value),
  /** A write stores the role under its name (creating or updating it), beside the others. */
  storeRole: (roles: Map<string, RoleEntry>, name: string, role: RoleEntry): void => {
    roles.set(name, role);
  },
  /**
   * The role names a LIST sees: those stored now (`_previous` are the names before the last write
   * or delete, `_sinceChangeMs` how long ago that was, for switches that serve them stale).
   */
  rolesToList: (current: string[], _previous: string[], _sinceChangeMs: number): string[] => current,
  /** LIST names the roles, sorted (the documents give no order). */
  listRoles: (names: string[]): string[] => [...names].sort(),
  /** cloud_roles and cloud_groups are JSON arrays (or JSON strings holding one). */
  jsonArray: (field: string, value: unknown): unknown[] => parseJsonArray(field, value, false),
  /** Each cloud_roles item has scope and either role_name or role_id. */
  roleItems: (items: unknown[], _subscriptionId: () => string): RoleItem[] => parseRoleItems(items, true),
  /** A role naming a role definition or group that does not exist is refused (`_index`: the item's place in its list). */
  missingResource: (message: string, _index: number): void => {
    throw badRequest(message);
  },
  /** A role naming an application_object_id that does not exist is refused. */
  missingApplication: (message: string): void => {
    throw badRequest(message);
  },
  /** A role needs application_object_id or cloud_roles (or cloud_groups). */
  checkUsable: (usable: boolean): void => {
    if (!usable) throw badRequest('either cloud_roles or application_object_id must be provided');
  },
  /**
   * permanently_delete is refused together with an application_object_id: the role's values after
   * the write (`_sent` is the body of the write, for switches that look only at what was sent).
   */
  checkAppObjectPermanentlyDelete: (
    userApp: boolean,
    permanentlyDelete: boolean,
    _sent: Record<string, unknown>,
  ): void => {
    if (userApp && permanentlyDelete)
      throw badRequest('permanently_delete must be false if application_object_id is provided');
  },
  /** sign_in_audience is one of the documented values and is set on created applications. */
  signInAudience: (value: unknown): string => {
    if (typeof value !== 'string' || !SIGN_IN_AUDIENCES.includes(value))
      throw badRequest(`invalid sign_in_audience; valid values are ${SIGN_IN_AUDIENCES.join(', ')}`);
    return value;
  },
  /** persist_app keeps one application for the role's lifetime. */
  persistApp: (role: RoleEntry): boolean => role.persist_app,

  // --- credentials and leases ---------------------------------------------------------------

  /** The role's ttl (0: the engine default). */
  roleTtl: (role: RoleEntry): number => role.ttl,
  /** The role's max_ttl (0: the system maximum). */
  roleMaxTtl: (role: RoleEntry): number => role.max_ttl,
  /**
   * The role credentials follow: the role as stored now (`_previous` is the role before its last
   * write, `_sinceWriteMs` how long ago that was, for switches that serve it stale).
   */
  roleForCredentials: (current: RoleEntry, _previous: RoleEntry | undefined, _sinceWriteMs: number): RoleEntry =>
    current,
  /** The error of credentials for a role that does not exist. */
  unknownRole: (name: string): SvcError => new SvcError(400, [`role '${name}' does not exist`]),
  /** With application_object_id, credentials add a secret to that application (cloud_roles ignored). */
  staticApplication: (role: RoleEntry): string => role.application_object_id,
  /** ... ignoring cloud_roles: the application's principal gets no role assignment ... */
  staticAssignments: (_role: RoleEntry): ResolvedRole[] => [],
  /** ... and name it by its client id ... */
  staticClientId: (role: RoleEntry): string => role.application_id,
  /** ... creating no dynamic principal beside it. */
  staticAlsoCreatesPrincipal: false,
  /** A dynamic credential names its application by the client id. */
  dynamicClientId: (p: Principal): string => p.appId,
  /** The credentials response: the client id and secret. */
  credentialsData: (clientId: string, secret: string): Record<string, unknown> => ({
    client_id: clientId,
    client_secret: secret,
  }),
  /** Credentials come with their lease. */
  credentialsLease: <L>(lease: L): L | undefined => lease,
  /** A created application carries the role's tags. */
  applicationTags: (role: RoleEntry): string[] => role.tags,
  /** A created principal gets the role's role assignments ... */
  assignmentsOf: (role: RoleEntry): ResolvedRole[] => role.cloud_roles,
  /** ... and group memberships. */
  groupsOf: (role: RoleEntry): ResolvedGroup[] => role.cloud_groups,
  /** The client_secret returned is the one registered in the directory. */
  returnedSecret: (secretText: string): string => secretText,
  /** A lease's end removes the role assignments and group memberships ... */
  revokeRemovesAssignments: true,
  /** ... and the application and service principal ... */
  revokeRemovesPrincipal: true,
  /** ... and, with application_object_id, the secret it added. */
  revokeRemovesAddedSecret: true,
  /**
   * The secret a lease's end removes: its own (`_added`: the engine's secrets of that application,
   * oldest first; `_persisted`: the application is the one persist_app keeps).
   */
  addedSecretToRemove: (own: string, _added: string[], _persisted: boolean): string => own,
  /** The principal a dynamic lease's end removes: its own (`_latest`: the role's latest one). */
  principalToRemove: (own: Principal, _latest: Principal): Principal => own,
  /** The end of a persist_app credential's lease removes only its secret: the principal and application stay. */
  persistedLeaseEndRemoves: 'secret' as 'secret' | 'principal' | 'application',
  /** Deleting a persist_app role removes its application and principal (their lifetime is the role's). */
  roleDeleteRemovesApp: true,
  /** permanently_delete also purges the deleted application and principal. */
  permanentDelete: (permanently: boolean, _kind: 'application' | 'servicePrincipal'): boolean => permanently,
};

export type CloudRules = typeof documented;
