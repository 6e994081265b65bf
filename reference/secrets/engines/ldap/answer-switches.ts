/**
 * The directory engine's switches that only change the shape of an answer, declared once where they
 * take effect: each rewrites the engine's answer at the engine's edge, after the model answered
 * (see reference/switches.ts; applied in this order).
 */
import type { Faults } from '../../../faults.js';
import { rewritesWith, switchesOf } from '../../../switches.js';
import type { Variants } from '../../../variants.js';
import type { EngineResponse } from '../../engine.js';
import { SvcError } from '../../errors.js';
import { CONFIG_READ_FIELDS, goDuration, multiErrorText, STATIC_READ_FIELDS } from './rules.js';

const { fault, variant } = switchesOf<never, LdapAnswer>(['ldap']);
const DOC = 'secrets-service-core.md';

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
const omit = (data: Record<string, unknown>, fields: string[]) =>
  Object.fromEntries(Object.entries(data).filter(([k]) => !fields.includes(k)));

/** The data of a successful write (POST or PUT) to a path, if the answer is one. */
function writeData(a: LdapAnswer, path: (p: string) => boolean): Record<string, unknown> | undefined {
  if (a.failed || !a.response || (a.method !== 'POST' && a.method !== 'PUT') || !path(a.path)) return undefined;
  const data = a.response.data as Record<string, unknown> | undefined;
  return data && typeof data === 'object' && !Array.isArray(data) ? data : undefined;
}

/** A fault that leaves `fields` out of the answers whose data `select` picks. */
const dropping =
  (select: (a: LdapAnswer) => Record<string, unknown> | undefined, fields: string[]) =>
  (a: LdapAnswer): LdapAnswer => {
    const data = select(a);
    return data ? withData(a, omit(data, fields)) : a;
  };
/** A fault that gives `field` of the answers whose data `select` picks as a duration string (1h0m0s). */
const asDuration =
  (select: (a: LdapAnswer) => Record<string, unknown> | undefined, field: string) =>
  (a: LdapAnswer): LdapAnswer => {
    const data = select(a);
    return data && typeof data[field] === 'number'
      ? withData(a, { ...data, [field]: goDuration(data[field] as number) })
      : a;
  };
const S = 'doc.core';

export const ldapAnswerSwitches = [
  // --- faults: a field the documents list is missing from an answer ---
  fault('ldap.static-read-username-missing', {
    breaks: 'ldap.static.create-read',
    statements: [`${S}.ldap-static.endpoint-read`, `${S}.ldap-static.read-username`],
    description: 'GET /ldap/static-role/:name leaves out username.',
    rewrite: dropping((a) => objectRead(a, (p) => /^static-role\/.+/.test(p)), ['username']),
  }),
  fault('ldap.static-cred-missing-ttl', {
    breaks: 'ldap.static.cred-fields',
    statements: [`${S}.ldap-static.endpoint-cred`],
    description: 'GET /ldap/static-cred/:name leaves out ttl.',
    rewrite: dropping((a) => objectRead(a, (p) => /^static-cred\/.+/.test(p)), ['ttl']),
  }),
  fault('ldap.dynamic-read-drops-ttls', {
    breaks: 'ldap.dynamic.create-read',
    statements: [`${S}.ldap-dynamic.endpoint-read`],
    description: 'GET /ldap/role/:name leaves out default_ttl and max_ttl.',
    rewrite: dropping((a) => objectRead(a, (p) => /^role\/.+/.test(p)), ['default_ttl', 'max_ttl']),
  }),
  fault('ldap.dynamic-creds-no-dns', {
    breaks: 'ldap.dynamic.creds-shape',
    statements: [`${S}.ldap-dynamic.creds-distinguished-names`, `${S}.ldap-dynamic.endpoint-creds`],
    description: 'GET /ldap/creds/:name leaves out distinguished_names.',
    rewrite: dropping((a) => objectRead(a, (p) => /^creds\/.+/.test(p)), ['distinguished_names']),
  }),
  fault('ldap.library-read-drops-flag', {
    breaks: 'ldap.library.create-read',
    statements: [`${S}.library.endpoint-read-disable`],
    description: 'GET /ldap/library/:set leaves out disable_check_in_enforcement.',
    rewrite: dropping(
      (a) => objectRead(a, (p) => /^library\/.+/.test(p) && notStatus(p)),
      ['disable_check_in_enforcement'],
    ),
  }),
  fault('ldap.library-checkout-no-account-name', {
    breaks: 'ldap.library.checkout',
    statements: [`${S}.library.checkout-account-name`],
    description: 'The check-out answer leaves out data.service_account_name.',
    rewrite: dropping((a) => writeData(a, (p) => /^library\/.+\/check-out$/.test(p)), ['service_account_name']),
  }),
  fault('ldap.library-checkin-no-list', {
    breaks: 'ldap.library.checkin',
    statements: [`${S}.library.checkin-response`],
    description: 'The check-in answer leaves out data.check_ins.',
    rewrite: dropping((a) => writeData(a, (p) => /\/check-in$/.test(p)), ['check_ins']),
  }),
  // --- blind faults of issue 36: a listed field missing or mistyped, one clause each ---
  fault('ldap.static-read-dn-missing', {
    breaks: 'ldap.static.create-read',
    statements: [`${S}.ldap-static.read-dn`],
    description: 'GET /ldap/static-role/:name leaves out dn.',
    rewrite: dropping((a) => objectRead(a, (p) => /^static-role\/.+/.test(p)), ['dn']),
  }),
  fault('ldap.static-read-rotation-period-duration', {
    breaks: 'ldap.static.create-read',
    statements: [`${S}.ldap-static.read-rotation-period`],
    description:
      'GET /ldap/static-role/:name gives rotation_period as a duration string (1h0m0s), not integer seconds.',
    rewrite: asDuration((a) => objectRead(a, (p) => /^static-role\/.+/.test(p)), 'rotation_period'),
  }),
  fault('ldap.static-cred-dn-missing', {
    breaks: 'ldap.static.cred-fields',
    statements: [`${S}.ldap-static.cred-dn`],
    description: 'GET /ldap/static-cred/:name leaves out dn.',
    rewrite: dropping((a) => objectRead(a, (p) => /^static-cred\/.+/.test(p)), ['dn']),
  }),
  fault('ldap.static-cred-username-missing', {
    breaks: 'ldap.static.cred-fields',
    statements: [`${S}.ldap-static.cred-username`],
    description: 'GET /ldap/static-cred/:name leaves out username.',
    rewrite: dropping((a) => objectRead(a, (p) => /^static-cred\/.+/.test(p)), ['username']),
  }),
  fault('ldap.static-cred-password-missing', {
    breaks: 'ldap.static.cred-fields',
    statements: [`${S}.ldap-static.cred-password`],
    description: 'GET /ldap/static-cred/:name leaves out password.',
    rewrite: dropping((a) => objectRead(a, (p) => /^static-cred\/.+/.test(p)), ['password']),
  }),
  fault('ldap.static-cred-last-rotation-missing', {
    breaks: 'ldap.static.cred-fields',
    statements: [`${S}.ldap-static.cred-last-rotation`],
    description: 'GET /ldap/static-cred/:name leaves out last_svc_rotation.',
    rewrite: dropping((a) => objectRead(a, (p) => /^static-cred\/.+/.test(p)), ['last_svc_rotation']),
  }),
  fault('ldap.static-cred-rotation-period-duration', {
    breaks: 'ldap.static.cred-fields',
    statements: [`${S}.ldap-static.cred-rotation-period`],
    description:
      'GET /ldap/static-cred/:name gives rotation_period as a duration string (1h0m0s), not integer seconds.',
    rewrite: asDuration((a) => objectRead(a, (p) => /^static-cred\/.+/.test(p)), 'rotation_period'),
  }),
  fault('ldap.dynamic-creds-first-dn-only', {
    breaks: 'ldap.dynamic.creds-shape',
    statements: [`${S}.ldap-dynamic.creds-distinguished-names`],
    description: 'distinguished_names lists only the first entry the creation LDIF added.',
    rewrite: (a) => {
      const data = objectRead(a, (p) => /^creds\/.+/.test(p));
      return data && Array.isArray(data.distinguished_names)
        ? withData(a, { ...data, distinguished_names: data.distinguished_names.slice(0, 1) })
        : a;
    },
  }),
  fault('ldap.library-read-max-ttl-is-ttl', {
    breaks: 'ldap.library.create-read',
    statements: [`${S}.library.endpoint-read-max-ttl`],
    description: 'GET /ldap/library/:set gives the set ttl as max_ttl.',
    rewrite: (a) => {
      const data = objectRead(a, (p) => /^library\/.+/.test(p) && notStatus(p));
      return data && 'ttl' in data ? withData(a, { ...data, max_ttl: data.ttl }) : a;
    },
  }),
  fault('ldap.library-read-ttl-missing', {
    breaks: 'ldap.library.create-read',
    statements: [`${S}.library.endpoint-read-ttl`],
    description: 'GET /ldap/library/:set leaves out ttl.',
    rewrite: dropping((a) => objectRead(a, (p) => /^library\/.+/.test(p) && notStatus(p)), ['ttl']),
  }),
  fault('ldap.library-status-available-string', {
    breaks: 'ldap.library.status',
    statements: [`${S}.library.status-fields`],
    description: 'The status gives available as a string ("true"/"false"), not a boolean.',
    rewrite: (a) => {
      const data = readData(a);
      if (!data || a.method !== 'GET' || !/^library\/.+\/status$/.test(a.path)) return a;
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(data))
        out[k] = v && typeof v === 'object' ? { ...v, available: String((v as { available?: unknown }).available) } : v;
      return withData(a, out);
    },
  }),
  // --- legal variants ---
  variant('ldap.read-durations-as-strings', {
    allows: `${DOC} Directory engine: library ttl/max_ttl are "duration" and dynamic default_ttl/max_ttl "string or integer"; the read format is not shown`,
    description: 'library and dynamic role reads give ttl, max_ttl and default_ttl as duration strings (1h0m0s)',
    rewrite: (a) => {
      const data = objectRead(a, (p) => /^role\/.+/.test(p) || (/^library\/.+/.test(p) && notStatus(p)));
      if (!data) return a;
      const out = { ...data };
      for (const f of ['ttl', 'max_ttl', 'default_ttl'])
        if (typeof out[f] === 'number') out[f] = goDuration(out[f] as number);
      return withData(a, out);
    },
  }),
  variant('ldap.config-read-documented-only', {
    allows: `${DOC} Directory engine: configuration: "Read response data fields" lists binddn ... url`,
    description:
      'the config read has only the listed fields (no userdn, userattr, upndomain, timeouts, password_policy, ...)',
    rewrite: (a) => {
      const data = objectRead(a, (p) => p === 'config');
      return data ? withData(a, pick(data, CONFIG_READ_FIELDS)) : a;
    },
  }),
  variant('ldap.static-read-documented-only', {
    allows: `${DOC} Directory engine: static role: "Read response data: dn, last_svc_rotation, rotation_period, username"`,
    description: 'the static role read has only the listed fields (no skip_import_rotation)',
    rewrite: (a) => {
      const data = objectRead(a, (p) => /^static-role\/.+/.test(p));
      return data ? withData(a, pick(data, STATIC_READ_FIELDS)) : a;
    },
  }),
  variant('ldap.missing-object-read-400', {
    allows: `${DOC} Errors: 400 is "invalid request", 404 "invalid path"; the status of a read of a role or set that does not exist is not named`,
    description:
      'reads of a static role, static-cred, dynamic role or library set that does not exist answer 400 instead of 404',
    rewrite: (a) => {
      const e = a.error;
      const objectPath = /^(static-role|static-cred|role|library)\/.+/.test(a.path) && notStatus(a.path);
      return a.failed && e instanceof SvcError && e.status === 404 && a.method === 'GET' && objectPath
        ? { ...a, error: new SvcError(400, e.messages.length ? e.messages : ['no such object']) }
        : a;
    },
  }),
  variant('ldap.lists-unsorted', {
    allows: `${DOC} Endpoints > Directory engine: LIST answers "array of role names" / "top-level set names"; no order is given`,
    description:
      'LIST of static roles, dynamic roles and library sets answers the names in reverse order instead of sorted',
    rewrite: (a) => {
      const data = readData(a);
      return data && 'keys' in data && Array.isArray(data.keys)
        ? withData(a, { ...data, keys: [...data.keys].reverse() })
        : a;
    },
  }),
  variant('ldap.error-texts-multierror', {
    allows: `${DOC} Errors: the body is {errors: [<message>, ...]}; the texts are not specified`,
    description: 'error messages are worded as the real product words them: "1 error occurred:\\n\\t* <message>\\n\\n"',
    rewrite: (a) => {
      const e = a.error;
      return a.failed && e instanceof SvcError && e.messages.length
        ? { ...a, error: new SvcError(e.status, [multiErrorText(e.messages)]) }
        : a;
    },
  }),
];

/** The rewrite of the engine's answers by the wire-level switches that are on. */
export function ldapAnswersFor(faults: Faults, variants: Variants): (answer: LdapAnswer) => LdapAnswer {
  return rewritesWith({ faults, variants }, ldapAnswerSwitches);
}
