/**
 * Faults of the template language's ordinary functions (the text-template language's own, "for
 * example printf": printf itself is in ./templates.ts) and of the custom functions' second cases:
 * blind faults of issue 36, one case of a general rule each, written from the documents and the
 * reference. Each replaces rules of ../rules.ts and names the statements of
 * secrets-service-core.md it breaks.
 */
import { randomInt } from 'node:crypto';
import { switchesOf } from '../../../../switches.js';
import type { LdapRules } from '../rules.js';
import { Bytes, type TemplateFn, truthy } from '../template.js';

const { fault } = switchesOf<LdapRules>(['ldap']);
const S = 'doc.core.ldap-template';
const BUILTIN = [`${S}.builtin-functions`];

/** The template functions with `name` replaced (or removed, for undefined). */
const withFn =
  (name: string, fn: TemplateFn | undefined) =>
  (fns: Record<string, TemplateFn>): Record<string, TemplateFn> => {
    const out = { ...fns };
    if (fn) out[name] = fn;
    else delete out[name];
    return out;
  };

/** A fault of the template functions: `change` applied to every template's functions. */
const functions = (change: (fns: Record<string, TemplateFn>) => Record<string, TemplateFn>) => (d: LdapRules) => ({
  templateFunctions: (fns: Record<string, TemplateFn>, kind: 'ldif' | 'username') =>
    change(d.templateFunctions(fns, kind)),
});

export const templateFunctionSwitches = [
  // The ordinary functions of the text-template language besides printf.
  fault('ldap.template-len-missing', {
    breaks: 'ldap.template.builtin-functions',
    statements: BUILTIN,
    description: 'len, an ordinary function of the template language, is not available.',
    replace: functions(withFn('len', undefined)),
  }),
  fault('ldap.template-index-missing', {
    breaks: 'ldap.template.builtin-functions',
    statements: BUILTIN,
    description: 'index, an ordinary function of the template language, is not available.',
    replace: functions(withFn('index', undefined)),
  }),
  fault('ldap.template-eq-two-arguments', {
    breaks: 'ldap.template.builtin-functions',
    statements: BUILTIN,
    description: 'eq compares only its first two arguments (eq a b c is false when a equals c).',
    replace: functions(withFn('eq', (a, b) => a === b)),
  }),
  fault('ldap.template-ne-missing', {
    breaks: 'ldap.template.builtin-functions',
    statements: BUILTIN,
    description: 'ne, an ordinary function of the template language, is not available.',
    replace: functions(withFn('ne', undefined)),
  }),
  fault('ldap.template-lt-missing', {
    breaks: 'ldap.template.builtin-functions',
    statements: BUILTIN,
    description: 'lt, an ordinary function of the template language, is not available.',
    replace: functions(withFn('lt', undefined)),
  }),
  fault('ldap.template-and-boolean', {
    breaks: 'ldap.template.builtin-functions',
    statements: BUILTIN,
    description: 'and gives true or false instead of its deciding argument (and "x" "y" prints true, not y).',
    replace: functions(withFn('and', (...args) => args.every((a) => truthy(a)))),
  }),
  fault('ldap.template-or-boolean', {
    breaks: 'ldap.template.builtin-functions',
    statements: BUILTIN,
    description: 'or gives true or false instead of its deciding argument (or "" "y" prints true, not y).',
    replace: functions(withFn('or', (...args) => args.some((a) => truthy(a)))),
  }),
  fault('ldap.template-not-missing', {
    breaks: 'ldap.template.builtin-functions',
    statements: BUILTIN,
    description: 'not, an ordinary function of the template language, is not available.',
    replace: functions(withFn('not', undefined)),
  }),
  fault('ldap.template-print-missing', {
    breaks: 'ldap.template.builtin-functions',
    statements: BUILTIN,
    description: 'print, an ordinary function of the template language, is not available.',
    replace: functions(withFn('print', undefined)),
  }),
  // The custom functions: the second case of each row.
  fault('ldap.template-uppercase-noop', {
    breaks: 'ldap.template.fn-case',
    statements: [`${S}.fn-uppercase`],
    description: 'uppercase leaves its value unchanged.',
    replace: functions(withFn('uppercase', (v) => v)),
  }),
  fault('ldap.template-base64-url', {
    breaks: 'ldap.template.fn-sha256-base64',
    statements: [`${S}.fn-base64`],
    description: 'base64 encodes with the URL alphabet and without padding.',
    replace: functions(
      withFn('base64', (v) =>
        (v instanceof Bytes ? v.buf : Buffer.from(String(v ?? ''), 'utf8')).toString('base64url'),
      ),
    ),
  }),
  fault('ldap.template-unix-time-millis-seconds', {
    breaks: 'ldap.template.fn-time',
    statements: [`${S}.fn-unix-time-millis`],
    description: 'unix_time_millis gives seconds.',
    replace: (d) => ({
      templateFunctions: (fns, kind) => {
        const all = d.templateFunctions(fns, kind);
        return withFn('unix_time_millis', () => all.unix_time!())(all);
      },
    }),
  }),
  fault('ldap.template-random-no-uppercase', {
    breaks: 'ldap.template.fn-random',
    statements: [`${S}.fn-random-alphabet`],
    description: 'random N draws from lowercase letters and digits only.',
    replace: functions(
      withFn('random', (n) => {
        const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
        return Array.from({ length: Number(n) }, () => alphabet[randomInt(alphabet.length)]).join('');
      }),
    ),
  }),
  // Fields and pipes.
  fault('ldap.template-dashes-altered', {
    breaks: 'ldap.template.dashes-kept',
    statements: [`${S}.dashes-kept`],
    description: 'Dashes in .RoleName reach the LDIF template as underscores.',
    replace: (d) => ({ ldifRoleName: (name) => d.ldifRoleName(name).replace(/-/g, '_') }),
  }),
  fault('ldap.template-pipe-value-first', {
    breaks: 'ldap.template.pipes',
    statements: [`${S}.pipes`],
    description:
      'A piped value is the first argument of the function, not the last ({{.RoleName | truncate 3}} fails).',
    replace: () => ({ pipedValueLast: false }),
  }),
];
