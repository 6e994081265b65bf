/**
 * Faults of the template language of the directory engine's LDIF and username templates: the
 * fields the templates receive, their syntax and the functions they may call. Each replaces rules
 * of ../rules.ts and names the statements of secrets-service-core.md it breaks.
 */
import { createHash, randomBytes } from 'node:crypto';
import { switchesOf } from '../../../../switches.js';
import type { LdapRules } from '../rules.js';
import type { TemplateFn } from '../template.js';

const { fault } = switchesOf<LdapRules>(['ldap']);
const S = 'doc.core.ldap-template';

/** Go's default time.Time format ("2006-01-02 15:04:05 +0000 UTC"), not RFC 3339. */
const goDefault = (ms: number) =>
  `${new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('T', ' ').replace('.000Z', '')} +0000 UTC`;

/** The template functions with `name` replaced (or removed, for undefined). */
const withFn =
  (name: string, fn: TemplateFn | undefined) =>
  (fns: Record<string, TemplateFn>): Record<string, TemplateFn> => {
    const out = { ...fns };
    if (fn) out[name] = fn;
    else delete out[name];
    return out;
  };

export const templateSwitches = [
  // Fields and syntax.
  fault('ldap.username-template-fields-need-spaces', {
    breaks: 'ldap.dynamic.username-template',
    statements: [`${S}.field-syntax`],
    description: 'In a username template a field written {{.Field}} (without spaces) is left as it is.',
    replace: (d) => ({
      templateSource: (src, kind) =>
        kind === 'username' ? src.replace(/\{\{\.([A-Za-z]\w*)\}\}/g, '{{"{{.$1}}"}}') : d.templateSource(src, kind),
    }),
  }),
  fault('ldap.template-spaces-refused', {
    breaks: 'ldap.template.pipes',
    statements: [`${S}.spaces`],
    description: 'An LDIF action with a space before its field ({{ .Field }}) is refused as a syntax error.',
    replace: (d) => ({
      templateSource: (src, kind) => (kind === 'ldif' ? src.replace(/\{\{ +\./g, '{{!.') : d.templateSource(src, kind)),
    }),
  }),
  fault('ldap.template-pipe-chain-stops', {
    breaks: 'ldap.template.pipes',
    statements: [`${S}.pipes-chain`],
    description: 'A pipe chain that starts with a field applies only its first function.',
    replace: (d) => ({
      templateSource: (src, kind) =>
        kind === 'ldif'
          ? src.replace(/\{\{(\s*\.[A-Za-z]\w*\s*\|[^|}]*)\|[^}]*\}\}/g, '{{$1}}')
          : d.templateSource(src, kind),
    }),
  }),
  fault('ldap.template-printf-missing', {
    breaks: 'ldap.template.printf',
    statements: [`${S}.builtin-printf`],
    description: 'printf, an ordinary function of the template language, is not available.',
    replace: (d) => ({ templateFunctions: (fns, kind) => withFn('printf', undefined)(d.templateFunctions(fns, kind)) }),
  }),
  fault('ldap.template-underscores-altered', {
    breaks: 'ldap.template.dashes-kept',
    statements: [`${S}.underscores-kept`],
    description: 'Underscores in .RoleName reach the LDIF template as dashes.',
    replace: (d) => ({ ldifRoleName: (name) => d.ldifRoleName(name).replace(/_/g, '-') }),
  }),
  fault('ldap.template-role-name-prefixed', {
    breaks: 'ldap.template.fields',
    statements: [`${S}.field-role-name`],
    description: '.RoleName in LDIF templates carries the mount prefix (ldap/<role>).',
    replace: (d) => ({ ldifRoleName: (name) => `ldap/${d.ldifRoleName(name)}` }),
  }),
  fault('ldap.template-username-lowercased', {
    breaks: 'ldap.template.fields',
    statements: [`${S}.field-username`, 'doc.core.ldap-dynamic.creds-username'],
    description: '.Username in LDIF templates is lowercased while the credentials return it as generated.',
    replace: (d) => ({ ldifUsername: (u) => d.ldifUsername(u).toLowerCase() }),
  }),
  fault('ldap.template-password-field-stale', {
    breaks: 'ldap.dynamic.creds-account-exists',
    statements: [`${S}.field-password`, 'doc.core.ldap-dynamic.creds-password'],
    description: '.Password in LDIF templates differs from the password the credentials return.',
    replace: (d) => ({ ldifPassword: (p) => `${d.ldifPassword(p)}x` }),
  }),
  fault('ldap.template-display-name-missing', {
    breaks: 'ldap.template.fields',
    statements: [`${S}.field-display-name`],
    description: 'The .DisplayName field of LDIF templates is rendered empty.',
    replace: (d) => ({ displayName: (name, kind) => (kind === 'ldif' ? '' : d.displayName(name, kind)) }),
  }),
  fault('ldap.username-template-display-name-empty', {
    breaks: 'ldap.dynamic.username-template',
    statements: [`${S}.username-field-display-name`],
    description: 'The .DisplayName field of username templates is rendered empty.',
    replace: (d) => ({ displayName: (name, kind) => (kind === 'username' ? '' : d.displayName(name, kind)) }),
  }),
  // Time fields.
  fault('ldap.template-issue-time-go-format', {
    breaks: 'ldap.template.time-fields',
    statements: [`${S}.field-issue-time`],
    description: '.IssueTime is in Go\'s default time format ("2006-01-02 15:04:05 +0000 UTC"), not RFC 3339.',
    replace: (d) => ({ templateTimes: (i, e) => ({ ...d.templateTimes(i, e), IssueTime: goDefault(i) }) }),
  }),
  fault('ldap.template-expiration-time-go-format', {
    breaks: 'ldap.template.time-fields',
    statements: [`${S}.field-expiration-time`],
    description: ".ExpirationTime is in Go's default time format, not RFC 3339.",
    replace: (d) => ({ templateTimes: (i, e) => ({ ...d.templateTimes(i, e), ExpirationTime: goDefault(e) }) }),
  }),
  fault('ldap.template-issue-seconds-millis', {
    breaks: 'ldap.template.time-fields',
    statements: [`${S}.field-issue-time-seconds`],
    description: '.IssueTimeSeconds is in milliseconds.',
    replace: (d) => ({ templateTimes: (i, e) => ({ ...d.templateTimes(i, e), IssueTimeSeconds: Math.floor(i) }) }),
  }),
  fault('ldap.template-expiration-seconds-is-issue', {
    breaks: 'ldap.template.time-fields',
    statements: [`${S}.field-expiration-time-seconds`],
    description: '.ExpirationTimeSeconds is the issue time (the TTL is not added).',
    replace: (d) => ({
      templateTimes: (i, e) => ({ ...d.templateTimes(i, e), ExpirationTimeSeconds: Math.floor(i / 1000) }),
    }),
  }),
  fault('ldap.template-times-later', {
    breaks: 'ldap.template.time-fields',
    statements: [`${S}.time-fields-earlier`],
    description: "The time fields are 30 seconds later than the lease's own issue and expiry times.",
    replace: (d) => ({ templateTimes: (i, e) => d.templateTimes(i + 30_000, e + 30_000) }),
  }),
  // Functions.
  fault('ldap.template-random-hex', {
    breaks: 'ldap.template.fn-random',
    statements: [`${S}.fn-random`],
    description: 'random N yields the hex of N random bytes (2N characters).',
    replace: (d) => ({
      templateFunctions: (fns, kind) =>
        withFn('random', (n) => randomBytes(Number(n)).toString('hex'))(d.templateFunctions(fns, kind)),
    }),
  }),
  fault('ldap.template-truncate-off-by-one', {
    breaks: 'ldap.template.fn-truncate',
    statements: [`${S}.fn-truncate`],
    description: 'truncate N keeps N+1 characters.',
    replace: () => ({ truncate: (s, n) => s.slice(0, n + 1) }),
  }),
  fault('ldap.template-truncate-sha256-of-nothing', {
    breaks: 'ldap.template.fn-truncate-sha256',
    statements: [`${S}.fn-truncate-sha256`],
    description: 'truncate_sha256 ends the cut text with the first 8 characters of the SHA-256 of the empty string.',
    replace: (d) => ({
      templateFunctions: (fns, kind) =>
        withFn('truncate_sha256', (n, v) => {
          const s = String(v);
          const max = Number(n);
          if (s.length <= max) return s;
          return s.slice(0, max - 8) + createHash('sha256').update('').digest('hex').slice(0, 8);
        })(d.templateFunctions(fns, kind)),
    }),
  }),
  fault('ldap.template-lowercase-noop', {
    breaks: 'ldap.template.fn-case',
    statements: [`${S}.fn-lowercase`],
    description: 'lowercase leaves its value unchanged.',
    replace: (d) => ({
      templateFunctions: (fns, kind) => withFn('lowercase', (v) => v)(d.templateFunctions(fns, kind)),
    }),
  }),
  fault('ldap.template-replace-first-only', {
    breaks: 'ldap.template.fn-replace',
    statements: [`${S}.fn-replace`],
    description: 'replace FROM TO replaces only the first occurrence.',
    replace: (d) => ({
      templateFunctions: (fns, kind) =>
        withFn('replace', (from, to, v) => String(v).replace(String(from), String(to)))(d.templateFunctions(fns, kind)),
    }),
  }),
  fault('ldap.template-sha256-base64-digest', {
    breaks: 'ldap.template.fn-sha256-base64',
    statements: [`${S}.fn-sha256`],
    description: 'sha256 gives the base64 digest instead of the hex digest.',
    replace: (d) => ({
      templateFunctions: (fns, kind) =>
        withFn('sha256', (v) => createHash('sha256').update(String(v)).digest('base64'))(
          d.templateFunctions(fns, kind),
        ),
    }),
  }),
  fault('ldap.template-unix-time-millis', {
    breaks: 'ldap.template.fn-time',
    statements: [`${S}.fn-unix-time`],
    description: 'unix_time gives milliseconds.',
    replace: (d) => ({
      templateFunctions: (fns, kind) => {
        const all = d.templateFunctions(fns, kind);
        return withFn('unix_time', () => all.unix_time_millis!())(all);
      },
    }),
  }),
  fault('ldap.template-timestamp-layout-ignored', {
    breaks: 'ldap.template.fn-time',
    statements: [`${S}.fn-timestamp`],
    description: 'timestamp LAYOUT ignores the layout and gives an ISO 8601 time with milliseconds.',
    replace: (d) => ({
      templateFunctions: (fns, kind) => {
        const all = d.templateFunctions(fns, kind);
        return withFn('timestamp', () => new Date(Number(all.unix_time_millis!())).toISOString())(all);
      },
    }),
  }),
  fault('ldap.template-uuid-no-dashes', {
    breaks: 'ldap.template.fn-uuid',
    statements: [`${S}.fn-uuid`],
    description: 'uuid gives 32 hex digits without dashes.',
    replace: (d) => ({
      templateFunctions: (fns, kind) =>
        withFn('uuid', () => randomBytes(16).toString('hex'))(d.templateFunctions(fns, kind)),
    }),
  }),
  fault('ldap.template-utf16le-missing', {
    breaks: 'ldap.template.utf16le-ldif-only',
    statements: [`${S}.fn-utf16le`],
    description: 'utf16le is not available in LDIF templates.',
    replace: () => ({ utf16leIn: () => false }),
  }),
  fault('ldap.template-utf16le-in-username', {
    breaks: 'ldap.template.utf16le-ldif-only',
    statements: [`${S}.fn-utf16le-not-username`],
    description: 'utf16le is accepted in username templates.',
    replace: () => ({ utf16leIn: () => true }),
  }),
];
