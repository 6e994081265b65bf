import { describe, expect, it } from 'vitest';
import { LockoutBook, lockoutPolicy } from '../../reference/secrets/engines/userpass/lockout.js';

const policy = { threshold: 3, durationMs: 60_000, resetMs: 30_000 };

describe('user lockout book', () => {
  it('locks at the threshold and unlocks after the duration', () => {
    const b = new LockoutBook();
    for (let i = 0; i < 2; i++) b.recordFailure('auth/up/', 'ann', policy, 1000);
    expect(b.isLocked('auth/up/', 'ann', policy, 1000), 'below the threshold').toBe(false);
    b.recordFailure('auth/up/', 'ann', policy, 1000);
    expect(b.isLocked('auth/up/', 'ann', policy, 1000), 'at the threshold').toBe(true);
    expect(b.isLocked('auth/up/', 'ann', policy, 60_999), 'just before the duration ends').toBe(true);
    expect(b.isLocked('auth/up/', 'ann', policy, 61_000), 'once the duration passed').toBe(false);
  });

  it('restarts the count after the reset window and keeps users and mounts apart', () => {
    const b = new LockoutBook();
    b.recordFailure('auth/up/', 'ann', policy, 0);
    b.recordFailure('auth/up/', 'ann', policy, 0);
    b.recordFailure('auth/up/', 'ann', policy, 31_000);
    expect(b.isLocked('auth/up/', 'ann', policy, 31_000), 'old failures expired').toBe(false);
    for (let i = 0; i < 3; i++) b.recordFailure('auth/up/', 'bob', policy, 0);
    expect(b.isLocked('auth/up/', 'cat', policy, 0), 'another user').toBe(false);
    expect(b.isLocked('auth/other/', 'bob', policy, 0), 'same name on another mount').toBe(false);
    expect([...b.locked(policy, 0).entries()]).toEqual([['auth/up/', ['bob']]]);
    b.unlock('auth/up/', 'bob');
    expect(b.isLocked('auth/up/', 'bob', policy, 0), 'after unlock').toBe(false);
  });

  it('reads the policy from settings with the documented defaults', () => {
    expect(lockoutPolicy({})).toEqual({ threshold: 5, durationMs: 900_000, resetMs: 900_000 });
    expect(lockoutPolicy({ lockoutThreshold: 2, lockoutDurationSeconds: 10, lockoutResetSeconds: 5 })).toEqual({
      threshold: 2,
      durationMs: 10_000,
      resetMs: 5_000,
    });
  });
});
