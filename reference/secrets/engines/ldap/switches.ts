/**
 * The one table of the directory engine's switches: every fault (faults.ts) and legal variant
 * (variants.ts) of the area, each mapped to the rule it replaces (rules.ts, applied with
 * `withSwitches`) or, for the ones that only change the shape of an answer, to a rewrite of the
 * engine's answer (applied with `rewriteWith` at the engine's edge, after the model answered).
 */
import type { FaultName, VariantName } from '../../../switch-names.js';
import { rewriteWith, withSwitches } from '../../../switches.js';
import type { EngineResponse } from '../../engine.js';
import { badRequest, forbidden, SvcError } from '../../errors.js';
import {
  CONFIG_READ_FIELDS,
  documentedRules,
  goDuration,
  type LdapRules,
  multiErrorText,
  STATIC_READ_FIELDS,
} from './rules.js';

type LdapSwitch = Extract<FaultName | VariantName, `ldap.${string}`>;
type Active = { has(name: never): boolean };

/** Behavioural switches: the documented rule each one replaces. */
const rulesTable: { [K in LdapSwitch]?: (documented: LdapRules) => Partial<LdapRules> } = {
  // Faults: configuration and passwords.
  'ldap.config-both-length-policy-accepted': () => ({ lengthAndPolicyExclusive: false }),
  'ldap.config-bindpass-readable': (d) => ({ configRead: (cfg) => ({ ...d.configRead(cfg), bindpass: cfg.bindpass }) }),
  'ldap.config-policy-checked-on-save': () => ({ policyCheckedOnSave: true }),
  'ldap.config-userattr-default-uid': () => ({ defaultUserAttr: () => 'uid' }),
  'ldap.url-no-failover': () => ({ urlsToTry: (urls) => urls.slice(0, 1) }),
  'ldap.length-ignored': (d) => ({ passwordLength: () => d.passwordLength(undefined) }),
  'ldap.default-length-32': (d) => ({
    passwordLength: (configured) => (configured !== undefined ? d.passwordLength(configured) : 32),
  }),
  'ldap.policy-ignored': () => ({ usesPasswordPolicy: () => false }),
  'ldap.rotate-root-not-applied': () => ({ rotateRootChangesDirectory: false }),
  // Faults: static roles.
  'ldap.static-rotation-period-4s-accepted': () => ({ minRotationPeriod: 4 }),
  'ldap.static-username-mutable': () => ({ staticIdentityImmutable: false }),
  'ldap.static-missing-entry-accepted': () => ({ staticEntryMustExist: false }),
  'ldap.static-dn-ignored': () => ({ staticLookupDn: () => undefined }),
  'ldap.static-import-not-rotated': () => ({ skipImportRotation: () => true }),
  'ldap.static-skip-import-ignored': () => ({ skipImportRotation: () => false }),
  'ldap.static-config-skip-default-ignored': (d) => ({
    skipImportRotation: (role) => d.skipImportRotation(role, false),
  }),
  'ldap.static-no-scheduled-rotation': () => ({ scheduledRotation: false }),
  'ldap.rotate-role-not-applied': () => ({ rotateRoleChangesDirectory: false }),
  'ldap.static-last-password-missing': () => ({ reportsLastPassword: false }),
  'ldap.static-ttl-is-period': () => ({ staticCredTtl: (_left, period) => period }),
  // Faults: dynamic roles and templates.
  'ldap.dynamic-creation-continues': () => ({ creationStopsAtError: false }),
  'ldap.dynamic-no-rollback': () => ({ rollbackRuns: false }),
  'ldap.dynamic-rollback-stops': () => ({ rollbackStopsAtError: true }),
  'ldap.dynamic-deletion-stops': () => ({ deletionStopsAtError: true }),
  'ldap.dynamic-revoke-keeps-account': () => ({ revokeDeletes: false }),
  'ldap.dynamic-update-replaces': () => ({ partialUpdate: false }),
  'ldap.dynamic-empty-string-kept': () => ({ emptyStringDeletes: false }),
  'ldap.dynamic-base64-not-decoded': () => ({ decodeLdif: (text) => text }),
  'ldap.dynamic-max-ttl-ignored': (d) => ({
    dynamicMaxTtl: (_role, systemMax) => d.dynamicMaxTtl(undefined, systemMax),
  }),
  'ldap.dynamic-default-ttl-ignored': (d) => ({
    dynamicDefaultTtl: (_role, systemDefault) => d.dynamicDefaultTtl(undefined, systemDefault),
  }),
  'ldap.template-truncate-off-by-one': () => ({ truncate: (s, n) => s.slice(0, n + 1) }),
  'ldap.template-display-name-missing': () => ({ displayName: () => '' }),
  'ldap.template-utf16le-in-username': () => ({ utf16leIn: () => true }),
  'ldap.username-template-default-wrong': () => ({
    defaultUsernameTemplate: 'v_{{.DisplayName}}_{{random 10}}_{{unix_time}}',
  }),
  // Faults: library sets.
  'ldap.library-account-existence-unchecked': () => ({ libraryAccountsMustExist: false }),
  'ldap.library-account-in-two-sets': () => ({ accountInOneSetOnly: false }),
  'ldap.library-checkout-ttl-uncapped': () => ({ checkoutTtlCapped: false }),
  'ldap.library-checkout-none-available-200': (d) => ({
    pickFreeAccount: (accounts, isFree) => d.pickFreeAccount(accounts, isFree) ?? accounts[0],
  }),
  'ldap.library-checkin-not-enforced': () => ({ checkInEnforced: () => false }),
  'ldap.library-enforcement-always-on': (d) => ({
    checkInEnforced: (_disable, manage) => d.checkInEnforced(false, manage),
  }),
  'ldap.library-manage-checkin-enforced': (d) => ({ checkInEnforced: (disable) => d.checkInEnforced(disable, false) }),
  'ldap.library-expiry-keeps-checkout': () => ({ expiryChecksIn: false }),
  'ldap.library-checkin-no-rotation': () => ({ checkInRotates: false }),
  'ldap.library-checkin-lists-available': () => ({ checkInListsAvailable: true }),
  'ldap.library-renew-past-max-ttl': () => ({ renewCap: () => undefined }),
  'ldap.library-checkout-password-stale': () => ({ checkoutPassword: (password) => `${password}x` }),
  'ldap.library-status-no-borrower': () => ({
    borrowerStatus: () => ({ available: false, borrower_client_token: '', borrower_entity_id: '' }),
  }),

  // Legal variants that change a rule.
  'ldap.status-entity-id-omitted': (d) => ({
    borrowerStatus: (co) =>
      co.entityId === '' ? { available: false, borrower_client_token: co.accessor } : d.borrowerStatus(co),
  }),
  'ldap.static-dn-as-written': () => ({ staticShownDn: (_found, written) => written }),
  'ldap.last-rotation-subsecond': () => ({ lastRotationTime: (ms) => new Date(ms).toISOString() }),
  'ldap.dynamic-names-no-slashes': () => ({
    checkDynamicRoleName: (name) => {
      if (name.includes('/')) throw badRequest('dynamic role names cannot contain "/"');
    },
  }),
  'ldap.checkin-unauthorized-403': () => ({ unauthorizedCheckIn: (message) => forbidden(message) }),
  'ldap.static-cred-before-rotation-error': () => ({
    credBeforeFirstRotation: () => {
      throw badRequest('the password of this role is not known until its first rotation');
    },
  }),
};

/** The engine's answer to one request, as the engine's edge sees it: a response or an error. */
export interface LdapAnswer {
  method: string;
  path: string;
  /** The model threw `error` instead of answering `response`. */
  failed: boolean;
  response?: EngineResponse;
  error?: unknown;
}

/** The data object of a successful read (GET or LIST), if the answer is one. */
function readData(a: LdapAnswer): Record<string, unknown> | undefined {
  if (a.failed || !a.response || (a.method !== 'GET' && a.method !== 'LIST')) return undefined;
  const data = a.response.data as Record<string, unknown> | undefined;
  if (!data || typeof data !== 'object' || Array.isArray(data)) return undefined;
  return data;
}

/** A read of one object (not a list): the answers whose fields the read-shape variants change. */
function objectRead(a: LdapAnswer, path: (p: string) => boolean): Record<string, unknown> | undefined {
  const data = readData(a);
  return data && !('keys' in data) && path(a.path) ? data : undefined;
}
const notStatus = (p: string) => !/\/status$/.test(p);

const withData = (a: LdapAnswer, data: Record<string, unknown>): LdapAnswer => ({
  ...a,
  response: { ...a.response, data },
});
const pick = (data: Record<string, unknown>, fields: string[]) =>
  Object.fromEntries(Object.entries(data).filter(([k]) => fields.includes(k)));

/** Wire-level variants: rewrites of the engine's answer (applied in this order). */
const answerTable: { [K in LdapSwitch]?: (answer: LdapAnswer) => LdapAnswer } = {
  'ldap.lists-unsorted': (a) => {
    const data = readData(a);
    return data && 'keys' in data && Array.isArray(data.keys)
      ? withData(a, { ...data, keys: [...data.keys].reverse() })
      : a;
  },
  'ldap.config-read-documented-only': (a) => {
    const data = objectRead(a, (p) => p === 'config');
    return data ? withData(a, pick(data, CONFIG_READ_FIELDS)) : a;
  },
  'ldap.static-read-documented-only': (a) => {
    const data = objectRead(a, (p) => /^static-role\/.+/.test(p));
    return data ? withData(a, pick(data, STATIC_READ_FIELDS)) : a;
  },
  'ldap.read-durations-as-strings': (a) => {
    const data = objectRead(a, (p) => /^role\/.+/.test(p) || (/^library\/.+/.test(p) && notStatus(p)));
    if (!data) return a;
    const out = { ...data };
    for (const f of ['ttl', 'max_ttl', 'default_ttl'])
      if (typeof out[f] === 'number') out[f] = goDuration(out[f] as number);
    return withData(a, out);
  },
  'ldap.missing-object-read-400': (a) => {
    const e = a.error;
    const objectPath = /^(static-role|static-cred|role|library)\/.+/.test(a.path) && notStatus(a.path);
    return a.failed && e instanceof SvcError && e.status === 404 && a.method === 'GET' && objectPath
      ? { ...a, error: new SvcError(400, e.messages.length ? e.messages : ['no such object']) }
      : a;
  },
  'ldap.error-texts-multierror': (a) => {
    const e = a.error;
    return a.failed && e instanceof SvcError && e.messages.length
      ? { ...a, error: new SvcError(e.status, [multiErrorText(e.messages)]) }
      : a;
  },
};

/** The engine's rules with the replacements of the switches that are on. */
export function ldapRulesFor(faults: Active, variants: Active): LdapRules {
  return withSwitches(documentedRules, either(faults, variants), rulesTable);
}

/** The rewrite of the engine's answers by the wire-level switches that are on. */
export function ldapAnswersFor(faults: Active, variants: Active): (answer: LdapAnswer) => LdapAnswer {
  return rewriteWith(either(faults, variants), answerTable);
}

function either(faults: Active, variants: Active): { has(name: LdapSwitch): boolean } {
  const f = faults as { has(name: string): boolean };
  const v = variants as { has(name: string): boolean };
  return { has: (name) => f.has(name) || v.has(name) };
}
