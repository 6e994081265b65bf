/**
 * Faults of the directory engine's password generation (configuration rules 1-4): length and
 * password_policy exclusive, the pre-policy default, length, the policy, for every use of a
 * generated password (static roles, dynamic credentials, library accounts). Each replaces rules of
 * ../rules.ts and names the statements of secrets-service-core.md it breaks.
 */
import { switchesOf } from '../../../../switches.js';
import type { LdapRules } from '../rules.js';

const { fault } = switchesOf<LdapRules>(['ldap']);
const S = 'doc.core.ldap-config';
/** What a vendor's generator with symbols would use. */
const SYMBOLS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!@#$%^&*-_=+';

export const passwordSwitches = [
  fault('ldap.config-both-length-policy-accepted', {
    breaks: 'ldap.password.both-rejected',
    statements: [`${S}.password-rule-both-rejected`, `${S}.length-policy-exclusive`, `${S}.errors-both-rejected`],
    description: 'A config setting both length and password_policy is accepted.',
    replace: () => ({ lengthAndPolicyExclusive: false }),
  }),
  fault('ldap.config-policy-checked-on-save', {
    breaks: 'ldap.password.policy-not-checked-on-save',
    statements: [`${S}.password-rule-policy-not-checked`],
    description: 'Saving a config that names a missing password policy is rejected.',
    replace: () => ({ policyCheckedOnSave: true }),
  }),
  fault('ldap.policy-missing-default-used', {
    breaks: 'ldap.password.policy-missing-fails-generation',
    statements: [`${S}.password-rule-policy-must-exist`],
    description: 'A configured password policy that does not exist falls back to the default generator.',
    replace: () => ({ missingPolicyFallsBack: true }),
  }),
  fault('ldap.length-ignored', {
    breaks: 'ldap.password.length',
    statements: [`${S}.length`],
    description: 'The configured length is ignored; passwords keep the default length.',
    replace: (d) => ({ passwordLength: () => d.passwordLength(undefined) }),
  }),
  fault('ldap.length-other-alphabet', {
    breaks: 'ldap.password.length',
    statements: [`${S}.password-rule-length`],
    description: 'With length set, passwords come from another generator, with symbols.',
    replace: (d) => ({
      passwordAlphabet: (lengthConfigured) => (lengthConfigured ? SYMBOLS : d.passwordAlphabet(false)),
    }),
  }),
  fault('ldap.default-algorithm-symbols', {
    breaks: 'ldap.default-algorithm-charset',
    statements: [`${S}.password-rule-default`],
    description: 'With neither length nor policy, passwords come from a generator with symbols.',
    replace: (d) => ({
      passwordAlphabet: (lengthConfigured) => (lengthConfigured ? d.passwordAlphabet(true) : SYMBOLS),
    }),
  }),
  fault('ldap.default-length-32', {
    breaks: 'ldap.password.default-algorithm',
    statements: [`${S}.length-default`, `${S}.limit-length-default`],
    description: 'Without length or policy passwords are 32 characters instead of 64.',
    replace: (d) => ({
      passwordLength: (configured) => (configured !== undefined ? d.passwordLength(configured) : 32),
    }),
  }),
  fault('ldap.policy-ignored', {
    breaks: 'ldap.password.policy',
    statements: [`${S}.password-rule-policy`, `${S}.password-policy`],
    description: 'The configured password policy is ignored; the default generator is used.',
    replace: () => ({ usesPasswordPolicy: () => false }),
  }),
  fault('ldap.policy-not-for-dynamic', {
    breaks: 'ldap.template.password-policy',
    statements: ['doc.core.ldap-template.field-password-policy'],
    description: 'Dynamic credentials get passwords of the default generator although a policy is configured.',
    replace: (d) => ({ usesPasswordPolicy: (cfg, use) => use !== 'dynamic' && d.usesPasswordPolicy(cfg, use) }),
  }),
  // Every use of a generated password (blind faults of issue 36).
  fault('ldap.length-not-for-dynamic', {
    breaks: 'ldap.password.length',
    statements: [`${S}.password-rule-length`],
    description: 'Dynamic credentials get passwords of the default length whatever length is configured.',
    replace: (d) => ({
      passwordLength: (configured, use) => d.passwordLength(use === 'dynamic' ? undefined : configured, use),
    }),
  }),
  fault('ldap.policy-not-for-library', {
    breaks: 'ldap.password.policy',
    statements: [`${S}.password-rule-policy`],
    description: 'Library accounts get passwords of the default generator although a password policy is configured.',
    replace: (d) => ({ usesPasswordPolicy: (cfg, use) => use !== 'library' && d.usesPasswordPolicy(cfg, use) }),
  }),
];
