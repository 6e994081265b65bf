/**
 * Every switch of the username/password method, declared once where it takes effect (see
 * reference/switches.ts): each replaces one rule of rules.ts. The token answer's variants are the
 * core's (core-switches.ts). Variants come first, so a fault replaces the rule as a variant left it.
 */
import type { Faults } from '../../../faults.js';
import { rulesWith, switchesOf } from '../../../switches.js';
import type { Variants } from '../../../variants.js';
import { SvcError } from '../../errors.js';
import { type UserpassRules, userpassRules } from './rules.js';

const { fault, variant } = switchesOf<UserpassRules>(['auth']);
const CORE = 'secrets-service-core.md';

export const userpassSwitches = [
  // --- legal variants ---
  variant('auth.invalid-credentials-403', {
    allows: `${CORE}, Errors: 403 "Forbidden: bad credentials" (the upstream product answers 400 "invalid username or password"; both are client errors)`,
    description: 'A login with a wrong password answers 403 permission denied instead of 400.',
    suites: ['auth'],
    replace: () => ({ invalidCredentials: () => new SvcError(403, ['permission denied']) }),
  }),
  variant('auth.locked-user-as-invalid', {
    allows: `${CORE}, Authentication 6: a locked user's requests are ignored "instead of answering permission denied" (the answer is not given)`,
    description:
      "A locked user's login is answered exactly like a wrong password (400 invalid username or password), so the lock does not reveal itself.",
    suites: ['auth'],
    replace: () => ({ lockedRefusal: (invalid) => invalid }),
  }),
  // --- faults ---
  fault('auth.lockout-disabled', {
    breaks: 'auth.lockout.threshold',
    description: 'Users are never locked out.',
    replace: () => ({ lockoutEnabled: false }),
  }),
  fault('auth.lockout-threshold-off-by-one', {
    breaks: 'auth.lockout.below-threshold',
    description: 'Users are locked one attempt before the threshold.',
    replace: (d) => ({ lockoutThreshold: (t) => d.lockoutThreshold(t) - 1 }),
  }),
  // A locked user logging in with the right password gets in: the lock is checked only for wrong ones.
  fault('auth.lockout-locked-validates', {
    breaks: 'auth.lockout.locked-refused',
    description: 'A locked user logging in with the right password gets a token.',
    replace: () => ({ lockRefusesLogin: false }),
  }),
  fault('auth.lockout-never-expires', {
    breaks: 'auth.lockout.duration',
    description: 'A lock does not end after the lockout duration.',
    replace: () => ({ lockExpires: false }),
  }),
  fault('auth.lockout-no-reset-window', {
    breaks: 'auth.lockout.reset-window',
    description: 'The failed-attempt counter never resets.',
    replace: () => ({ counterResets: false }),
  }),
  // The whole mount shares one counter: one user's failures lock everyone.
  fault('auth.lockout-global', {
    breaks: 'auth.lockout.per-user',
    description: "One user's failures lock every user of the mount.",
    replace: () => ({ lockoutKey: () => '*' }),
  }),
  fault('auth.lockout-success-keeps-counter', {
    breaks: 'auth.lockout.success-resets-counter',
    description: 'A successful login keeps the failed-attempt counter.',
    replace: () => ({ successClearsCounter: false }),
  }),
  fault('auth.locked-users-empty', {
    breaks: 'auth.lockout.list-locked-users',
    description: 'sys/locked-users lists nobody.',
    replace: () => ({ listsLockedUsers: false }),
  }),
  fault('auth.unlock-ignored', {
    breaks: 'auth.lockout.unlock-endpoint',
    description: 'The unlock endpoint answers 204 but the user stays locked.',
    replace: () => ({ unlockWorks: false }),
  }),
  fault('auth.userpass-read-shows-password', {
    breaks: 'auth.write-only.user-password',
    description: 'Reading a user returns its password digest.',
    replace: (d) => ({
      userData: (data, digest) => ({ ...d.userData(data, digest), password: digest.toString('base64') }),
    }),
  }),
  fault('auth.login-token-unusable', {
    breaks: 'auth.login.returns-token',
    description: 'Login returns a client token the service does not know.',
    replace: () => ({ loginTokenKept: false }),
  }),
];

/** The method's rules with the active switches applied. */
export function userpassRulesFor(faults: Faults, variants: Variants): UserpassRules {
  return rulesWith(userpassRules, { faults, variants }, userpassSwitches);
}
