import { readdirSync, statSync } from 'node:fs';
import { X509Certificate } from 'node:crypto';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MIN_REMAINING_MS, reusableTlsMaterial } from '../../harness/directory/tls-reuse.js';
import type { TlsMaterial } from '../../harness/directory/tls-material.js';
import { useFreshCacheDir } from '../helpers/cache-env.js';

const dir = useFreshCacheDir('tls-reuse-test-');
const DAY_MS = 86_400_000;

/** A stand-in maker (no certificate library): counts its calls, each material told apart by `n`. */
function counting(validForMs: number) {
  let n = 0;
  return {
    calls: () => n,
    make: async () => {
      n++;
      const material: TlsMaterial = {
        ca: `ca ${n}`,
        serverCert: `cert ${n}`,
        serverKey: `key ${n}`,
        clientCert: `client ${n}`,
        clientKey: `client key ${n}`,
      };
      return { material, notAfter: T0 + validForMs };
    },
  };
}
const T0 = Date.UTC(2026, 10, 26);

describe('the directory TLS material reused between runs', () => {
  it('is made once and served to the runs after', async () => {
    const m = counting(7 * DAY_MS);
    const first = await reusableTlsMaterial({ now: T0, make: m.make });
    const second = await reusableTlsMaterial({ now: T0 + DAY_MS, make: m.make });
    expect(m.calls()).toBe(1);
    expect(second).toEqual(first);
  });

  it('is made again once less than a day of validity is left, and for other hosts', async () => {
    const m = counting(7 * DAY_MS);
    await reusableTlsMaterial({ now: T0, make: m.make });
    const lastUsable = T0 + 7 * DAY_MS - MIN_REMAINING_MS;
    await reusableTlsMaterial({ now: lastUsable, make: m.make });
    expect(m.calls(), 'a day left: reused').toBe(1);
    const renewed = await reusableTlsMaterial({ now: lastUsable + 1, make: m.make });
    expect(m.calls(), 'less than a day left: made again').toBe(2);
    expect(renewed.serverKey).toBe('key 2');
    await reusableTlsMaterial({ now: T0, make: m.make, hosts: ['10.0.0.1'] });
    expect(m.calls(), 'other hosts: other material').toBe(3);
  });

  it('is kept in a file only its owner can read', async () => {
    const m = counting(7 * DAY_MS);
    await reusableTlsMaterial({ now: T0, make: m.make });
    const cacheDir = join(dir(), 'cache');
    const files = readdirSync(cacheDir).filter((f) => f.startsWith('directory-tls-'));
    expect(files).toHaveLength(1);
    expect(statSync(join(cacheDir, files[0]!)).mode & 0o777).toBe(0o600);
  });

  it('is made for every run under CONFORMANCE_CACHE=off', async () => {
    process.env.CONFORMANCE_CACHE = 'off';
    const m = counting(7 * DAY_MS);
    await reusableTlsMaterial({ now: T0, make: m.make });
    await reusableTlsMaterial({ now: T0, make: m.make });
    expect(m.calls()).toBe(2);
  });

  it('records the validity the certificates really have', async () => {
    const before = Date.now();
    const material = await reusableTlsMaterial();
    const again = await reusableTlsMaterial({ now: Date.now() + 5 * DAY_MS });
    expect(again, 'five days on: still reused').toEqual(material);
    const validTo = Date.parse(new X509Certificate(material.serverCert).validTo);
    expect(validTo).toBeGreaterThan(before + 6 * DAY_MS);
    const renewed = await reusableTlsMaterial({ now: validTo - MIN_REMAINING_MS + 60_000 });
    expect(renewed.serverKey, 'the real expiry is what counts').not.toBe(material.serverKey);
  });
});
