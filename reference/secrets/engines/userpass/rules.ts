/**
 * The username/password method's rules (secrets-service-core.md, Authentication): user lockout,
 * what a user read shows, what a login answers. The engine (index.ts), the lockout book
 * (lockout.ts) and sys/locked-users (locked-users.ts) call `rules.x(...)`; fault switches and legal
 * variants replace single rules in switches.ts.
 */
import { type SvcError, badRequest } from '../../errors.js';

/** The lockout settings in force: failed attempts that lock, how long a lock lasts, when the count restarts. */
export interface LockoutPolicy {
  threshold: number;
  durationMs: number;
  resetMs: number;
}

export interface UserpassRules {
  /** Whether failed logins lock a user at all. */
  lockoutEnabled: boolean;
  /** The key failed attempts are counted under (one counter per user). */
  lockoutKey(user: string): string;
  /** The mount failed attempts are counted under (a user is a user of one mount). */
  lockoutMount(mount: string): string;
  /** The failed-attempt count that locks, given the configured threshold. */
  lockoutThreshold(threshold: number): number;
  /** Whether a lock ends after the lockout duration. */
  lockExpires: boolean;
  /** Whether the failed-attempt counter restarts after the reset window. */
  counterResets: boolean;
  /**
   * The time the counter reset window runs from, given the first and the last failure counted: the
   * last, as the counter resets only after the window passed without attempts.
   */
  resetWindowStart(firstFailedAt: number, lastFailedAt: number): number;
  /** Whether a successful login clears the failed-attempt counter. */
  successClearsCounter: boolean;
  /** Whether the unlock endpoint unlocks. */
  unlockWorks: boolean;
  /** Whether a locked user is refused before the password is looked at. */
  lockRefusesLogin: boolean;
  /** Whether sys/locked-users lists the locked users. */
  listsLockedUsers: boolean;
  /** The order sys/locked-users lists a mount's locked users in, given them sorted by name. */
  lockedUsersOrder(names: string[]): string[];
  /** The data of a user read (the password is write-only). */
  userData(data: Record<string, unknown>, digest: Buffer): Record<string, unknown>;
  /** The answer of a login that created a token: the token's information in `auth`. */
  loginAnswer(auth: Record<string, unknown>): { auth?: Record<string, unknown>; data?: Record<string, unknown> };
  /** Whether a login compares the password sent with the user's. */
  passwordChecked: boolean;
  /** Whether the token a login returns is kept (usable). */
  loginTokenKept: boolean;
  /** The error for wrong credentials. */
  invalidCredentials(): SvcError;
  /**
   * The answer to a locked user's request, given the one for wrong credentials: the request is
   * ignored, never answered with permission denied (Authentication 6).
   */
  lockedRefusal(invalid: SvcError): SvcError;
  /** The lockout threshold, duration and counter reset window in force, given the configured ones. */
  lockoutPolicy(configured: LockoutPolicy): LockoutPolicy;
}

export const userpassRules: UserpassRules = {
  lockoutEnabled: true,
  lockoutKey: (user) => user,
  lockoutMount: (mount) => mount,
  lockoutThreshold: (threshold) => threshold,
  lockExpires: true,
  counterResets: true,
  resetWindowStart: (_first, last) => last,
  successClearsCounter: true,
  unlockWorks: true,
  lockRefusesLogin: true,
  listsLockedUsers: true,
  lockedUsersOrder: (names) => names,
  userData: (data) => data,
  passwordChecked: true,
  loginAnswer: (auth) => ({ auth }),
  loginTokenKept: true,
  invalidCredentials: () => badRequest('invalid username or password'),
  lockedRefusal: () => badRequest('invalid username or password'),
  lockoutPolicy: (configured) => configured,
};
