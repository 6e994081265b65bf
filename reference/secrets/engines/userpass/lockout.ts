/**
 * User lockout bookkeeping, shared by every username/password mount of one reference instance
 * and by `sys/locked-users`. The rules follow the real product: a user is locked while its
 * failed-attempt count has reached the threshold and the last failure is younger than the lockout
 * duration; a failure after the counter-reset window starts counting from one again; a successful
 * login or an unlock clears the entry. Attempts while locked are not validated and not counted.
 */
import { type LockoutPolicy, type UserpassRules, userpassRules } from './rules.js';

export type { LockoutPolicy } from './rules.js';

interface Entry {
  count: number;
  firstFailedAt: number;
  lastFailedAt: number;
}

export class LockoutBook {
  /** mount path -> user name -> entry */
  private readonly entries = new Map<string, Map<string, Entry>>();

  constructor(private readonly rules: UserpassRules = userpassRules) {}

  private key(user: string): string {
    return this.rules.lockoutKey(user);
  }

  private forMount(mount: string): Map<string, Entry> {
    let m = this.entries.get(this.rules.lockoutMount(mount));
    if (!m) this.entries.set(this.rules.lockoutMount(mount), (m = new Map()));
    return m;
  }

  isLocked(mount: string, user: string, policy: LockoutPolicy, now: number): boolean {
    if (!this.rules.lockoutEnabled) return false;
    const e = this.entries.get(this.rules.lockoutMount(mount))?.get(this.key(user));
    if (!e) return false;
    const threshold = this.rules.lockoutThreshold(policy.threshold);
    const within = !this.rules.lockExpires || now - e.lastFailedAt < policy.durationMs;
    return e.count >= threshold && within;
  }

  recordFailure(mount: string, user: string, policy: LockoutPolicy, now: number): void {
    const m = this.forMount(mount);
    const k = this.key(user);
    const e = m.get(k);
    const expired =
      e &&
      now - this.rules.resetWindowStart(e.firstFailedAt, e.lastFailedAt) > policy.resetMs &&
      this.rules.counterResets;
    const restart = !e || expired;
    m.set(k, { count: restart ? 1 : e.count + 1, firstFailedAt: restart ? now : e.firstFailedAt, lastFailedAt: now });
  }

  recordSuccess(mount: string, user: string): void {
    if (!this.rules.successClearsCounter) return;
    this.entries.get(this.rules.lockoutMount(mount))?.delete(this.key(user));
  }

  unlock(mount: string, user: string): void {
    if (!this.rules.unlockWorks) return;
    this.entries.get(this.rules.lockoutMount(mount))?.delete(this.key(user));
  }

  /** Users locked now, per mount path. */
  locked(policy: LockoutPolicy, now: number): Map<string, string[]> {
    const out = new Map<string, string[]>();
    for (const [mount, users] of this.entries) {
      const names = [...users.keys()].filter((u) => this.isLocked(mount, u, policy, now)).sort();
      if (names.length) out.set(mount, names);
    }
    return out;
  }
}

/** One book per reference instance, keyed by an object that instance owns (its token store). */
const books = new WeakMap<object, LockoutBook>();

export function lockoutBook(owner: object, rules: UserpassRules): LockoutBook {
  let b = books.get(owner);
  if (!b) books.set(owner, (b = new LockoutBook(rules)));
  return b;
}

/** The lockout policy from reference settings (defaults: 5 attempts, 15 minutes, 15 minutes). */
export function lockoutPolicy(settings: Record<string, unknown>): LockoutPolicy {
  const num = (v: unknown, d: number) => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : d);
  return {
    threshold: num(settings.lockoutThreshold, 5),
    durationMs: num(settings.lockoutDurationSeconds, 900) * 1000,
    resetMs: num(settings.lockoutResetSeconds, 900) * 1000,
  };
}
