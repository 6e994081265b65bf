import { faultsOf } from '../../../faults.js';

const f = faultsOf(['auth']);

export const faults = [
  f('auth.lockout-disabled', 'auth.lockout.threshold', 'Users are never locked out.'),
  f(
    'auth.lockout-threshold-off-by-one',
    'auth.lockout.below-threshold',
    'Users are locked one attempt before the threshold.',
  ),
  f(
    'auth.lockout-locked-validates',
    'auth.lockout.locked-refused',
    'A locked user logging in with the right password gets a token.',
  ),
  f('auth.lockout-never-expires', 'auth.lockout.duration', 'A lock does not end after the lockout duration.'),
  f('auth.lockout-no-reset-window', 'auth.lockout.reset-window', 'The failed-attempt counter never resets.'),
  f('auth.lockout-global', 'auth.lockout.per-user', "One user's failures lock every user of the mount."),
  f(
    'auth.lockout-success-keeps-counter',
    'auth.lockout.success-resets-counter',
    'A successful login keeps the failed-attempt counter.',
  ),
  f('auth.locked-users-empty', 'auth.lockout.list-locked-users', 'sys/locked-users lists nobody.'),
  f(
    'auth.unlock-ignored',
    'auth.lockout.unlock-endpoint',
    'The unlock endpoint answers 204 but the user stays locked.',
  ),
  f(
    'auth.userpass-read-shows-password',
    'auth.write-only.user-password',
    'Reading a user returns its password digest.',
  ),
  f('auth.login-token-unusable', 'auth.login.returns-token', 'Login returns a client token the service does not know.'),
];
