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
  variant('auth.locked-user-unavailable', {
    allows: `${CORE}, Authentication 6: a locked user's requests are ignored "instead of answering permission denied" (what the ignored request gets is not given)`,
    description:
      "A locked user's login answers 429 with a message that the user is temporarily locked, instead of the wrong-password answer.",
    suites: ['auth', 'release'],
    replace: () => ({ lockedRefusal: () => new SvcError(429, ['too many failed login attempts; try again later']) }),
  }),
  variant('auth.locked-users-unordered', {
    allows: `${CORE}, Authentication 6 (the listing of locked users is not shown; no order is given)`,
    description: 'GET sys/locked-users lists the locked users of a mount newest first instead of by name.',
    suites: ['auth'],
    replace: () => ({ lockedUsersOrder: (names) => [...names].reverse() }),
  }),
  // --- faults ---
  fault('auth.locked-user-permission-denied', {
    breaks: 'auth.lockout.not-permission-denied',
    statements: ['doc.core.auth.lockout-not-permission-denied'],
    description: "A locked user's login is answered 403 permission denied (the lock is announced, not ignored).",
    replace: () => ({ lockedRefusal: () => new SvcError(403, ['permission denied']) }),
  }),
  fault('auth.lockout-duration-short', {
    breaks: 'auth.lockout.duration',
    statements: ['doc.core.auth.lockout-duration-default', 'doc.core.limits.user-lockout'],
    description: 'A lock lasts 10 minutes whatever the configured lockout duration (default 15 minutes).',
    replace: (d) => ({
      lockoutPolicy: (configured) => ({ ...d.lockoutPolicy(configured), durationMs: 10 * 60 * 1000 }),
    }),
  }),
  fault('auth.lockout-reset-window-short', {
    breaks: 'auth.lockout.reset-window',
    statements: ['doc.core.auth.lockout-reset-default', 'doc.core.limits.user-lockout'],
    description:
      'The failed-attempt counter restarts after 5 minutes without attempts whatever the configured reset window (default 15 minutes).',
    replace: (d) => ({
      lockoutPolicy: (configured) => ({ ...d.lockoutPolicy(configured), resetMs: 5 * 60 * 1000 }),
    }),
  }),
  fault('auth.lockout-reset-window-from-first-attempt', {
    breaks: 'auth.lockout.reset-window',
    statements: ['doc.core.auth.lockout-reset-default'],
    description:
      'The counter reset window runs from the first counted failure instead of the last: attempts spread wider than the window never reach the threshold although no gap between them lasts the window.',
    replace: () => ({ resetWindowStart: (first) => first }),
  }),
  fault('auth.lockout-disabled', {
    breaks: 'auth.lockout.threshold',
    statements: ['doc.core.auth.lockout-stops-validating', 'doc.core.change.user-lockout-default'],
    description: 'Users are never locked out.',
    replace: () => ({ lockoutEnabled: false }),
  }),
  fault('auth.lockout-threshold-off-by-one', {
    breaks: 'auth.lockout.below-threshold',
    statements: ['doc.core.auth.lockout-threshold-default'],
    description: 'Users are locked one attempt before the threshold.',
    replace: (d) => ({ lockoutThreshold: (t) => d.lockoutThreshold(t) - 1 }),
  }),
  // A locked user logging in with the right password gets in: the lock is checked only for wrong ones.
  fault('auth.lockout-locked-validates', {
    breaks: 'auth.lockout.locked-refused',
    statements: ['doc.core.auth.lockout-stops-validating'],
    description: 'A locked user logging in with the right password gets a token.',
    replace: () => ({ lockRefusesLogin: false }),
  }),
  fault('auth.lockout-never-expires', {
    breaks: 'auth.lockout.duration',
    statements: ['doc.core.auth.lockout-duration-default'],
    description: 'A lock does not end after the lockout duration.',
    replace: () => ({ lockExpires: false }),
  }),
  fault('auth.lockout-no-reset-window', {
    breaks: 'auth.lockout.reset-window',
    statements: ['doc.core.auth.lockout-reset-default'],
    description: 'The failed-attempt counter never resets.',
    replace: () => ({ counterResets: false }),
  }),
  // The whole mount shares one counter: one user's failures lock everyone.
  fault('auth.lockout-global', {
    breaks: 'auth.lockout.per-user',
    statements: ['doc.core.auth.lockout-stops-validating'],
    description: "One user's failures lock every user of the mount.",
    replace: () => ({ lockoutKey: () => '*' }),
  }),
  fault('auth.lockout-success-keeps-counter', {
    breaks: 'auth.lockout.success-resets-counter',
    statements: ['doc.core.auth.lockout-reset-default'],
    description: 'A successful login keeps the failed-attempt counter.',
    replace: () => ({ successClearsCounter: false }),
  }),
  fault('auth.locked-users-empty', {
    breaks: 'auth.lockout.list-locked-users',
    statements: ['doc.core.auth.lockout-stops-validating'],
    description: 'sys/locked-users lists nobody.',
    replace: () => ({ listsLockedUsers: false }),
  }),
  fault('auth.unlock-ignored', {
    breaks: 'auth.lockout.unlock-endpoint',
    statements: ['doc.core.auth.lockout-duration-default'],
    description: 'The unlock endpoint answers 204 but the user stays locked.',
    replace: () => ({ unlockWorks: false }),
  }),
  // Values at and beyond the documented defaults (Limits: 5 attempts, 15 minutes lock, 15 minute reset).
  fault('auth.lockout-threshold-late', {
    breaks: 'auth.lockout.threshold',
    statements: ['doc.core.auth.lockout-threshold-default', 'doc.core.limits.user-lockout'],
    description: 'Users are locked one attempt after the threshold (the 6th failure locks, not the 5th).',
    replace: (d) => ({ lockoutThreshold: (t) => d.lockoutThreshold(t) + 1 }),
  }),
  fault('auth.lockout-duration-long', {
    breaks: 'auth.lockout.duration',
    statements: ['doc.core.auth.lockout-duration-default', 'doc.core.limits.user-lockout-duration'],
    description: 'A lock lasts 20 minutes whatever the configured lockout duration (default 15 minutes).',
    replace: (d) => ({
      lockoutPolicy: (configured) => ({ ...d.lockoutPolicy(configured), durationMs: 20 * 60 * 1000 }),
    }),
  }),
  fault('auth.lockout-reset-window-long', {
    breaks: 'auth.lockout.reset-window',
    statements: ['doc.core.auth.lockout-reset-default', 'doc.core.limits.user-lockout-reset'],
    description:
      'The failed-attempt counter restarts only after 30 minutes without attempts whatever the configured reset window (default 15 minutes).',
    replace: (d) => ({
      lockoutPolicy: (configured) => ({ ...d.lockoutPolicy(configured), resetMs: 30 * 60 * 1000 }),
    }),
  }),
  fault('auth.lockout-shared-across-mounts', {
    breaks: 'auth.lockout.per-user',
    statements: ['doc.core.auth.lockout-stops-validating'],
    description:
      'Failed attempts are counted per user name across every username/password mount: locking alice on one mount locks the alice of another.',
    replace: () => ({ lockoutMount: () => '*' }),
  }),
  fault('auth.userpass-read-shows-password', {
    breaks: 'auth.write-only.user-password',
    statements: ['doc.core.auth.login-from-method'],
    description: 'Reading a user returns its password digest.',
    replace: (d) => ({
      userData: (data, digest) => ({ ...d.userData(data, digest), password: digest.toString('base64') }),
    }),
  }),
  fault('auth.login-password-unchecked', {
    breaks: 'auth.login.wrong-password-refused',
    statements: ['doc.core.errors.status-403-credentials', 'doc.core.auth.login-from-method'],
    description: 'A login of an existing user succeeds whatever password is sent (the password is not compared).',
    replace: () => ({ passwordChecked: false }),
  }),
  fault('auth.login-token-in-data', {
    breaks: 'auth.login.returns-token',
    statements: ['doc.core.envelope.auth-information', 'doc.core.auth.login-returns-token'],
    description:
      'A login answers the new token in data (auth is null), not as the authentication information of the envelope.',
    replace: () => ({ loginAnswer: (auth) => ({ data: auth }) }),
  }),
  fault('auth.login-token-unusable', {
    breaks: 'auth.login.returns-token',
    statements: ['doc.core.auth.login-token-reused', 'doc.core.auth.login-from-method'],
    description: 'Login returns a client token the service does not know.',
    replace: () => ({ loginTokenKept: false }),
  }),
];

/** The method's rules with the active switches applied. */
export function userpassRulesFor(faults: Faults, variants: Variants): UserpassRules {
  return rulesWith(userpassRules, { faults, variants }, userpassSwitches);
}
