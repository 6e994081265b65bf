/**
 * The directory engine's rules as the documents state them (secrets-service-core.md, Directory
 * engine): named values and functions the model calls (`s.rules.x(...)`). A fault or a legal
 * variant replaces one of them in switches.ts; the model never asks which switch is on.
 */
import { parseDuration } from '../../duration.js';
import type { SvcError } from '../../errors.js';
import { badRequest } from '../../errors.js';
import {
  DEFAULT_CONNECTION_TIMEOUT,
  DEFAULT_LENGTH,
  DEFAULT_REQUEST_TIMEOUT,
  DEFAULT_URL,
  type DirectoryConfig,
  readConfig,
  SCHEMA_USERATTR,
  type Schema,
} from './config.js';
import type { SessionSettings } from './directory.js';
import { decodeMaybeBase64, type LdifRecord } from './ldif.js';
import { listLevel } from './names.js';
import type { TemplateFn } from './template.js';
import { rfc3339 } from './template-functions.js';

/** The smallest rotation_period of a static role, in seconds. */
export const MIN_ROTATION_PERIOD = 5;

const DAY = 24 * 3600;

/** A library check-out as the status shows it: who borrowed the account. */
export interface Borrower {
  accessor: string;
  entityId: string;
}

/** What a credential request hands its templates as time fields. */
export interface TemplateTimes {
  IssueTime: string;
  IssueTimeSeconds: number;
  ExpirationTime: string;
  ExpirationTimeSeconds: number;
}

/** The LDIF fields of a dynamic role's templates. */
export type LdifKey = 'creation_ldif' | 'deletion_ldif' | 'rollback_ldif';

/** What a password is generated for (rules 2-4 apply to all of them). */
export type PasswordUse = 'root' | 'static' | 'dynamic' | 'library';

export const documentedRules = {
  // --- Configuration -------------------------------------------------------------------------
  /** binddn and bindpass are required ("yes" in the Required column). */
  configRequired: ['binddn', 'bindpass'] as string[],
  /** schema is one of openldap, ad, racf. */
  schemas: ['openldap', 'ad', 'racf'] as Schema[],
  /** A schema outside that list is refused. */
  unknownSchemaRefused: true,
  /** url when none was written. */
  defaultUrl: DEFAULT_URL,
  /** request_timeout and connection_timeout when not written: 90 and 30 seconds. */
  defaultRequestTimeout: DEFAULT_REQUEST_TIMEOUT,
  defaultConnectionTimeout: DEFAULT_CONNECTION_TIMEOUT,
  /** skip_static_role_import_rotation when not written. */
  defaultSkipStaticImport: false,
  /** request_timeout and connection_timeout take integer seconds or a duration string. */
  configDuration: (_key: 'request_timeout' | 'connection_timeout', value: unknown): number => parseDuration(value),
  /** A write on an existing configuration: the fields sent replace the stored ones. */
  mergeConfig: (_prev: DirectoryConfig | undefined, next: DirectoryConfig): DirectoryConfig => next,
  /** DELETE /ldap/config removes the configuration. */
  configDeleteRemoves: true,
  /** "length" and "password_policy" are mutually exclusive. */
  lengthAndPolicyExclusive: true,
  /** A password policy is looked up when a password is generated, not when the config is saved. */
  policyCheckedOnSave: false,
  /** The config read: the documented fields; bindpass and the client key are write-only. */
  configRead: (cfg: DirectoryConfig): Record<string, unknown> => readConfig(cfg),
  /** userattr when not set: the schema's attribute (openldap: cn). */
  defaultUserAttr: (schema: Schema): string => SCHEMA_USERATTR[schema],
  /** A configured userattr is the search attribute. */
  configuredUserAttr: (configured: string | undefined): string | undefined => configured,
  /** Entries of static roles and library sets are searched under userdn. */
  searchBase: (userdn: string): string => userdn,
  /** url is a comma-separated list tried in order (failover). */
  urlsToTry: (urls: string[]): string[] => urls,
  /**
   * How the engine talks to the directory: StartTLS when configured on ldap:// URLs, the
   * configured CA, verification unless insecure_tls, the client certificate and key, the UPN
   * `binddn@upndomain` as bind name when upndomain is set, connection_timeout before the next URL
   * (the smaller of the two timeouts when both apply) and request_timeout for every request.
   */
  session: (cfg: DirectoryConfig): SessionSettings => ({
    urls: cfg.urls,
    starttls: cfg.starttls,
    ca: cfg.certificate || undefined,
    verifyServer: !cfg.insecureTls,
    clientCert: cfg.clientTlsCert || undefined,
    clientKey: cfg.clientTlsKey || undefined,
    bindName: cfg.upndomain ? `${cfg.binddn}@${cfg.upndomain}` : cfg.binddn,
    connectTimeout: Math.min(cfg.connectionTimeout, cfg.requestTimeout),
    requestTimeout: cfg.requestTimeout,
  }),
  /** rotate-root changes the bind password in the directory before storing it. */
  rotateRootChangesDirectory: true,
  /** rotate-root answers without the new password: it is known only to the service. */
  rotateRootAnswer: (_password: string): { data?: Record<string, unknown> } => ({}),

  // --- Password generation (configuration rules 2-4) -----------------------------------------
  /** A configured password_policy generates the passwords, whatever they are for. */
  usesPasswordPolicy: (cfg: DirectoryConfig, _use: PasswordUse): boolean => !!cfg.passwordPolicy,
  /** Otherwise passwords have the configured length, 64 by default, whatever they are for. */
  passwordLength: (configured: number | undefined, _use?: PasswordUse): number => configured ?? DEFAULT_LENGTH,
  /** A configured policy that does not exist fails the generation (no fallback). */
  missingPolicyFallsBack: false,
  /** The alphabet of the pre-policy algorithm, the same with and without length (rules 2-3). */
  passwordAlphabet: (_lengthConfigured: boolean): string | undefined => undefined,

  // --- Static roles --------------------------------------------------------------------------
  minRotationPeriod: MIN_ROTATION_PERIOD,
  /** The minimum applies to every rotation_period, in every form, on creation and on update. */
  rotationPeriodMinimumApplies: (_raw: unknown, _onUpdate: boolean): boolean => true,
  /** rotation_period: integer seconds or a duration string. */
  rotationPeriod: (value: unknown): number => parseDuration(value),
  /** username and rotation_period are required on creation. */
  staticUsernameRequired: true,
  staticRotationPeriodRequired: true,
  /** Any static role name is allowed, slashes included (a hierarchy). */
  checkStaticRoleName: (_name: string): void => {},
  /** username and dn cannot change after creation. */
  staticUsernameImmutable: true,
  staticDnImmutable: true,
  /** A POST on an existing role applies its rotation_period. */
  staticUpdateApplies: true,
  /** A POST on an existing role may omit username and rotation_period (they are kept). */
  staticUpdateMayOmit: true,
  /** An update naming another username or dn is refused (undefined: ignored instead). */
  identityChangeRefused: (what: 'username' | 'dn'): SvcError | undefined =>
    badRequest(`${what} cannot be changed after creation`),
  /** An update sending skip_import_rotation is accepted (and changes nothing; undefined) or refused. */
  skipImportOnUpdate: (): SvcError | undefined => undefined,
  /** skip_import_rotation counts only on creation: an update sending it changes nothing. */
  skipImportOnUpdateForgets: false,
  /** DELETE removes the role. */
  staticDeleteRemoves: true,
  /** The entry must exist in the directory. */
  staticEntryMustExist: true,
  /** dn, if given, takes precedence over searching for username. */
  staticLookupDn: (dn: string | undefined): string | undefined => dn || undefined,
  /** skip_import_rotation of the role, defaulting to skip_static_role_import_rotation of the config. */
  skipImportRotation: (role: boolean | undefined, configDefault: boolean): boolean => role ?? configDefault,
  /** Passwords rotate every rotation_period. */
  scheduledRotation: true,
  /** rotate-role changes the password in the directory. */
  rotateRoleChangesDirectory: true,
  /** static-cred ttl: the time left until the next rotation. */
  staticCredTtl: (secondsLeft: number, _rotationPeriod: number): number => secondsLeft,
  /** static-cred reports last_password after a rotation. */
  reportsLastPassword: true,
  /** Before the first rotation static-cred answers without a password. */
  credBeforeFirstRotation: (): void => {},
  /** static-cred supplies the password once the service has rotated it (skip_import or not). */
  credSuppliesPassword: (rotatedByService: boolean, _skipImport: boolean): boolean => rotatedByService,
  /** LIST of static roles: the names at the level asked (a nested level ends with "/"). */
  staticList: (names: Iterable<string>, prefix: string): string[] => listLevel(names, prefix),
  /** The dn shown by reads: the entry's DN. */
  staticShownDn: (found: string, _written: string): string => found,
  /** The time of the last rotation after a rotation at `now`: now. */
  lastRotationAfter: (_previous: number | undefined, now: number): number => now,
  /** rotate-role starts the period again: the next rotation is rotation_period after it. */
  rotateRoleRestartsPeriod: true,
  /** last_svc_rotation: an RFC 3339 timestamp. */
  lastRotationTime: (ms: number): string => rfc3339(ms),

  // --- Paths -------------------------------------------------------------------------------
  /** Every path of the engine is served, whatever the slashes in a role or set name. */
  servesPath: (_path: string): boolean => true,

  // --- Dynamic roles -------------------------------------------------------------------------
  /** POST on an existing role updates only the keys sent: every key not sent is kept. */
  partialUpdate: true,
  partialUpdateKeeps: (_key: string): boolean => true,
  /** A key sent as an empty string is deleted, whichever key it is. */
  emptyStringDeletes: true,
  emptyStringDeletesKey: (_key: string): boolean => true,
  /** default_ttl and max_ttl: a duration string or integer seconds. */
  dynamicTtl: (_key: 'default_ttl' | 'max_ttl', value: unknown): number => parseDuration(value),
  /** The records of each LDIF run in the order written. */
  ldifOrder: (records: LdifRecord[], _key: LdifKey): LdifRecord[] => records,
  /** LDIF may be sent base64-encoded, in each of the three LDIF fields. */
  decodeLdif: (text: string, _key: LdifKey): string => decodeMaybeBase64(text),
  /** creation_ldif and deletion_ldif are required; rollback_ldif is recommended only. */
  dynamicRequired: ['creation_ldif', 'deletion_ldif'] as LdifKey[],
  /** DELETE removes the role. */
  dynamicDeleteRemoves: true,
  /** The role's username_template, or the default. */
  usernameTemplate: (roleTemplate: string | undefined, defaultTemplate: string): string =>
    roleTemplate || defaultTemplate,
  /** The functions a template can call (LDIF or username template). */
  templateFunctions: (fns: Record<string, TemplateFn>, _kind: 'ldif' | 'username'): Record<string, TemplateFn> => fns,
  /** A template's source as the template language reads it. */
  templateSource: (src: string, _kind: 'ldif' | 'username'): string => src,
  /** The time fields of a credential request: RFC 3339 and Unix seconds of issue and expiry. */
  templateTimes: (issuedAtMs: number, expiresAtMs: number): TemplateTimes => ({
    IssueTime: rfc3339(issuedAtMs),
    IssueTimeSeconds: Math.floor(issuedAtMs / 1000),
    ExpirationTime: rfc3339(expiresAtMs),
    ExpirationTimeSeconds: Math.floor(expiresAtMs / 1000),
  }),
  /** .RoleName as the username template receives it. */
  usernameRoleName: (name: string): string => name,
  /** A piped value is the last argument of the function it is piped into. */
  pipedValueLast: true,
  /** .RoleName, .Username and .Password as the LDIF templates receive them. */
  ldifRoleName: (name: string): string => name,
  ldifUsername: (username: string): string => username,
  ldifPassword: (password: string): string => password,
  /** Any role name is allowed. */
  checkDynamicRoleName: (_name: string): void => {},
  /** A role max_ttl above the system maximum is accepted (and bounded), not refused. */
  maxTtlAboveSystemRefused: false,
  /** The lease: max_ttl of the role, bounded by the system maximum. */
  dynamicMaxTtl: (roleMax: number | undefined, systemMax: number): number => Math.min(roleMax || systemMax, systemMax),
  /** The lease: default_ttl of the role, else the system default. */
  dynamicDefaultTtl: (roleDefault: number | undefined, systemDefault: number): number => roleDefault || systemDefault,
  defaultUsernameTemplate: 'v_{{.DisplayName}}_{{.RoleName}}_{{random 10}}_{{unix_time}}',
  /** Template fields: .DisplayName is the token's display name, in LDIF and username templates. */
  displayName: (tokenDisplayName: string, _kind: 'ldif' | 'username'): string => tokenDisplayName,
  /** utf16le is available in LDIF templates only. */
  utf16leIn: (kind: 'ldif' | 'username'): boolean => kind === 'ldif',
  /** truncate N keeps N characters. */
  truncate: (s: string, n: number): string => s.slice(0, n),
  /** truncate_sha256: the text whose SHA-256 ends the result (the real product: the part cut off). */
  truncateSha256Of: (input: string, cut: number): string => input.slice(cut),
  /** creation_ldif stops at the first error, then rollback_ldif runs, continuing past errors. */
  creationStopsAtError: true,
  rollbackRuns: true,
  rollbackStopsAtError: false,
  /** deletion_ldif runs on revocation or expiry and continues past errors. */
  revokeDeletes: true,
  deletionStopsAtError: false,

  // --- Library sets --------------------------------------------------------------------------
  /** service_account_names is required; a string or a list of strings. */
  libraryAccountsRequired: true,
  accountNames: (value: unknown): string[] | undefined => accountNameList(value),
  /** ttl, max_ttl and a check-out's ttl: a duration (integer seconds or a duration string). */
  libraryDuration: (_key: 'ttl' | 'max_ttl' | 'check-out ttl', value: unknown): number => parseDuration(value),
  /** A write on an existing set that omits ttl or max_ttl keeps the value the set has. */
  libraryOmittedOnUpdate: (_key: 'ttl' | 'max_ttl', existing: number): number => existing,
  /** A write on an existing set leaves the check-outs of the accounts it keeps in place. */
  updateKeepsCheckouts: true,
  /** An account removed from its set (by an update, or with the set) is free to join another set. */
  releaseRemovedAccounts: true,
  releaseOnDelete: true,
  /** ttl, max_ttl and disable_check_in_enforcement when not written: 24h, 24h, false. */
  libraryDefaultTtl: DAY,
  libraryDefaultMaxTtl: DAY,
  libraryDefaultDisableEnforcement: false,
  /** A ttl or max_ttl of 0 means unlimited and is stored as 0. */
  libraryTtl: (seconds: number, _key: 'ttl' | 'max_ttl'): number => seconds,
  /** DELETE removes the set. */
  libraryDeleteRemoves: true,
  /** A POST on an existing set applies the fields it sends. */
  libraryUpdateApplies: true,
  /** LIST of library sets: the names at the level asked (a nested level ends with "/"). */
  libraryList: (names: Iterable<string>, prefix: string): string[] => listLevel(names, prefix),
  /** Library accounts are searched where static roles are: under userdn. */
  librarySearchBase: (base: string): string => base,
  /** Every account added to a set, on creation or update, must exist in the directory. */
  verifyAddedAccounts: (_setIsNew: boolean): boolean => true,
  /** Every account must exist in the directory. */
  libraryAccountsMustExist: true,
  /** An account belongs to one set only. */
  accountInOneSetOnly: true,
  /** A check-out ttl above the set's ttl is capped to it. */
  checkoutTtlCapped: true,
  /**
   * The check-out ttl before the cap: the requested one, the set's ttl when none is requested;
   * 0 asks for no limit (the set's ttl then still applies when it has one).
   */
  checkoutTtl: (requested: number | undefined, setTtl: number): number =>
    requested === undefined || requested === 0 ? setTtl : requested,
  /** A check-out asking for no limit (ttl 0) from a set with a ttl: the set's ttl still applies. */
  unlimitedCheckoutTtl: (setTtl: number): number => setTtl,
  /** A check-out creates a lease (renewable, of the check-out ttl). */
  checkoutCreatesLease: true,
  checkoutRenewable: true,
  /** Check-out lends a free account; none free is an error (undefined). */
  pickFreeAccount: (accounts: string[], isFree: (a: string) => boolean): string | undefined => accounts.find(isFree),
  /** The password given by check-out opens the account. */
  checkoutPassword: (password: string): string => password,
  /** Check-out leases renew up to the set's max_ttl. */
  renewCap: (maxTtl: number): number | undefined => maxTtl || undefined,
  /** An expired check-out is checked in. */
  expiryChecksIn: true,
  /** Check-in rotates the account's password. */
  checkInRotates: true,
  /** Only the borrower may check in, unless enforcement is disabled or the manage path is used. */
  checkInEnforced: (disableEnforcement: boolean, manage: boolean): boolean => !disableEnforcement && !manage,
  /**
   * The path a request is authorised against: itself, so the forced check-in
   * (library/manage/:set/check-in) needs a policy on the manage path ("for highly privileged callers").
   */
  aclPath: (path: string): string => path,
  /** The borrower: the entity that checked out (any of its tokens), or the token itself. */
  isBorrower: (co: Borrower, caller: Borrower): boolean =>
    (co.entityId !== '' && co.entityId === caller.entityId) || (co.accessor !== '' && co.accessor === caller.accessor),
  /** check-in names: a string or a list of strings, on the check-in path and the manage path alike. */
  checkInNames: (value: unknown, _manage: boolean): string[] | undefined => accountNameList(value),
  /** check_ins: the accounts this call checked in (not those of earlier calls). */
  checkInsReported: (thisCall: string[], _earlier: string[]): string[] => thisCall,
  /** A check-in refused to a caller who is not the borrower. */
  unauthorizedCheckIn: (message: string): SvcError => badRequest(message),
  /** check_ins lists the accounts that were checked in (not those already available). */
  checkInListsAvailable: false,
  /** status lists every account of the set, borrowed or not. */
  statusShowsNeverBorrowed: true,
  /** status of an available account: available, and no borrower (not the last one either). */
  availableStatus: (_lastBorrower: Borrower | undefined): Record<string, unknown> => ({ available: true }),
  /** status of a checked-out account: borrower_client_token and borrower_entity_id. */
  borrowerStatus: (co: Borrower): Record<string, unknown> => ({
    available: false,
    borrower_client_token: co.accessor,
    borrower_entity_id: co.entityId,
  }),
};

export type LdapRules = typeof documentedRules;

/** A string (one name, or a comma-separated list) or a list of strings; undefined when absent. */
export function accountNameList(value: unknown): string[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string')
    return value
      .split(',')
      .map((v) => v.trim())
      .filter(Boolean);
  if (Array.isArray(value) && value.every((v) => typeof v === 'string'))
    return (value as string[]).map((v) => v.trim()).filter(Boolean);
  throw badRequest('service_account_names must be a string or a list of strings');
}

// --- Response shapes (the documents' read fields, formats and error texts) ---------------------

/** Read fields of the config that the document lists ("Read response data fields"). */
export const CONFIG_READ_FIELDS = [
  'binddn',
  'case_sensitive_names',
  'certificate',
  'insecure_tls',
  'length',
  'schema',
  'starttls',
  'tls_max_version',
  'tls_min_version',
  'url',
];
/** "Read response data: dn, last_svc_rotation, rotation_period, username". */
export const STATIC_READ_FIELDS = ['dn', 'last_svc_rotation', 'rotation_period', 'username'];

/** Seconds as a Go duration string: 3600 → 1h0m0s, 90 → 1m30s, 0 → 0s. */
export function goDuration(seconds: number): string {
  if (seconds <= 0) return '0s';
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  if (h > 0) return `${h}h${m}m${s}s`;
  if (m > 0) return `${m}m${s}s`;
  return `${s}s`;
}

/** Error messages as one multi-error text: "1 error occurred:\n\t* <message>\n\n". */
export function multiErrorText(messages: string[]): string {
  const n = messages.length;
  return `${n} error${n === 1 ? '' : 's'} occurred:\n${messages.map((m) => `\t* ${m}`).join('\n')}\n\n`;
}
