/**
 * The one place every switch of the username/password method (faults.ts, variants.ts; the token
 * variants are applied by the core, core-switches.ts) takes effect: each replaces one rule of
 * rules.ts.
 */
import type { Faults } from '../../../faults.js';
import type { FaultName, VariantName } from '../../../switch-names.js';
import { withSwitches } from '../../../switches.js';
import type { Variants } from '../../../variants.js';
import { SvcError } from '../../errors.js';
import { type UserpassRules, userpassRules } from './rules.js';

type Table<N extends string> = { [K in N]?: (documented: UserpassRules) => Partial<UserpassRules> };

const faultRules: Table<FaultName> = {
  'auth.lockout-disabled': () => ({ lockoutEnabled: false }),
  'auth.lockout-threshold-off-by-one': (d) => ({ lockoutThreshold: (t) => d.lockoutThreshold(t) - 1 }),
  // A locked user logging in with the right password gets in: the lock is checked only for wrong ones.
  'auth.lockout-locked-validates': () => ({ lockRefusesLogin: false }),
  'auth.lockout-never-expires': () => ({ lockExpires: false }),
  'auth.lockout-no-reset-window': () => ({ counterResets: false }),
  // The whole mount shares one counter: one user's failures lock everyone.
  'auth.lockout-global': () => ({ lockoutKey: () => '*' }),
  'auth.lockout-success-keeps-counter': () => ({ successClearsCounter: false }),
  'auth.locked-users-empty': () => ({ listsLockedUsers: false }),
  'auth.unlock-ignored': () => ({ unlockWorks: false }),
  'auth.userpass-read-shows-password': (d) => ({
    userData: (data, digest) => ({ ...d.userData(data, digest), password: digest.toString('base64') }),
  }),
  'auth.login-token-unusable': () => ({ loginTokenKept: false }),
};

const variantRules: Table<VariantName> = {
  'auth.invalid-credentials-403': () => ({ invalidCredentials: () => new SvcError(403, ['permission denied']) }),
  'auth.locked-user-as-invalid': () => ({ lockedRefusal: (invalid) => invalid }),
};

/** The method's rules with the active switches applied. */
export function userpassRulesFor(faults: Faults, variants: Variants): UserpassRules {
  return withSwitches(withSwitches(userpassRules, variants, variantRules), faults, faultRules);
}
