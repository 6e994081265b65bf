/**
 * The directory engine's rules as the documents state them (secrets-service-core.md, Directory
 * engine): named values and functions the model calls (`s.rules.x(...)`). A fault or a legal
 * variant replaces one of them in switches.ts; the model never asks which switch is on.
 */
import type { SvcError } from '../../errors.js';
import { badRequest } from '../../errors.js';
import { type DirectoryConfig, DEFAULT_LENGTH, readConfig, SCHEMA_USERATTR, type Schema } from './config.js';
import { decodeMaybeBase64 } from './ldif.js';
import { rfc3339 } from './template-functions.js';

/** The smallest rotation_period of a static role, in seconds. */
export const MIN_ROTATION_PERIOD = 5;

/** A library check-out as the status shows it: who borrowed the account. */
export interface Borrower {
  accessor: string;
  entityId: string;
}

export const documentedRules = {
  // --- Configuration -------------------------------------------------------------------------
  /** "length" and "password_policy" are mutually exclusive. */
  lengthAndPolicyExclusive: true,
  /** A password policy is looked up when a password is generated, not when the config is saved. */
  policyCheckedOnSave: false,
  /** The config read: the documented fields; bindpass and the client key are write-only. */
  configRead: (cfg: DirectoryConfig): Record<string, unknown> => readConfig(cfg),
  /** userattr when not set: the schema's attribute (openldap: cn). */
  defaultUserAttr: (schema: Schema): string => SCHEMA_USERATTR[schema],
  /** url is a comma-separated list tried in order (failover). */
  urlsToTry: (urls: string[]): string[] => urls,
  /** rotate-root changes the bind password in the directory before storing it. */
  rotateRootChangesDirectory: true,

  // --- Password generation (configuration rules 2-4) -----------------------------------------
  /** A configured password_policy generates the passwords. */
  usesPasswordPolicy: (cfg: DirectoryConfig): boolean => !!cfg.passwordPolicy,
  /** Otherwise passwords have the configured length, 64 by default. */
  passwordLength: (configured: number | undefined): number => configured ?? DEFAULT_LENGTH,

  // --- Static roles --------------------------------------------------------------------------
  minRotationPeriod: MIN_ROTATION_PERIOD,
  /** username and dn cannot change after creation. */
  staticIdentityImmutable: true,
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
  /** The dn shown by reads: the entry's DN. */
  staticShownDn: (found: string, _written: string): string => found,
  /** last_svc_rotation: an RFC 3339 timestamp. */
  lastRotationTime: (ms: number): string => rfc3339(ms),

  // --- Dynamic roles -------------------------------------------------------------------------
  /** POST on an existing role updates only the keys sent. */
  partialUpdate: true,
  /** A key sent as an empty string is deleted. */
  emptyStringDeletes: true,
  /** LDIF may be sent base64-encoded. */
  decodeLdif: (text: string): string => decodeMaybeBase64(text),
  /** Any role name is allowed. */
  checkDynamicRoleName: (_name: string): void => {},
  /** The lease: max_ttl of the role, bounded by the system maximum. */
  dynamicMaxTtl: (roleMax: number | undefined, systemMax: number): number => Math.min(roleMax || systemMax, systemMax),
  /** The lease: default_ttl of the role, else the system default. */
  dynamicDefaultTtl: (roleDefault: number | undefined, systemDefault: number): number => roleDefault || systemDefault,
  defaultUsernameTemplate: 'v_{{.DisplayName}}_{{.RoleName}}_{{random 10}}_{{unix_time}}',
  /** Template fields: .DisplayName is the token's display name. */
  displayName: (tokenDisplayName: string): string => tokenDisplayName,
  /** utf16le is available in LDIF templates only. */
  utf16leIn: (kind: 'ldif' | 'username'): boolean => kind === 'ldif',
  /** truncate N keeps N characters. */
  truncate: (s: string, n: number): string => s.slice(0, n),
  /** creation_ldif stops at the first error, then rollback_ldif runs, continuing past errors. */
  creationStopsAtError: true,
  rollbackRuns: true,
  rollbackStopsAtError: false,
  /** deletion_ldif runs on revocation or expiry and continues past errors. */
  revokeDeletes: true,
  deletionStopsAtError: false,

  // --- Library sets --------------------------------------------------------------------------
  /** Every account must exist in the directory. */
  libraryAccountsMustExist: true,
  /** An account belongs to one set only. */
  accountInOneSetOnly: true,
  /** A check-out ttl above the set's ttl is capped to it. */
  checkoutTtlCapped: true,
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
  /** A check-in refused to a caller who is not the borrower. */
  unauthorizedCheckIn: (message: string): SvcError => badRequest(message),
  /** check_ins lists the accounts that were checked in (not those already available). */
  checkInListsAvailable: false,
  /** status of a checked-out account: borrower_client_token and borrower_entity_id. */
  borrowerStatus: (co: Borrower): Record<string, unknown> => ({
    available: false,
    borrower_client_token: co.accessor,
    borrower_entity_id: co.entityId,
  }),
};

export type LdapRules = typeof documentedRules;

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
