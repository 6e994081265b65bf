// The lease of cloud credentials: the role's ttl and max_ttl, in both their forms, and the engine's defaults when a role names neither.
import { suite, conformance, type T } from '../../harness/index.js';
import { cloudMount, fail, requireConfigured } from './helpers.js';
import { type Creds, readCreds, rolesOnly, writeRole } from './leases.js';
import { configuredCloudMount } from './mounts.js';

const s = suite('cloud');
const cloud = cloudMount(s);

// lease_duration counts whole seconds left, so a tick of the clock may show one second less.
const about = (v: number, want: number) => v === want || v === want - 1;
const close = (a: number, b: number) => Math.abs(a - b) <= 1;

/** Credentials of a fresh role with `fields` (and the fixture role definition), on `mount` or the file's. */
async function credsWith(t: T, fields: Record<string, unknown>, mount = cloud.path): Promise<Creds> {
  const roles = await rolesOnly(t);
  return readCreds(t, mount, await writeRole(t, mount, { ...roles, ...fields }));
}

/** Renews a lease by `increment` seconds: the renewed lease_duration, or undefined when the target refused. */
async function renewed(t: T, c: Creds, increment: number): Promise<number | undefined> {
  const renew = await t.svc.put('sys/leases/renew', { body: { lease_id: c.leaseId, increment } });
  if (renew.response.status !== 200) {
    // The run shares one clock: another suite may have moved it past a short lease.
    t.note(`renewal answered ${renew.response.status}; only the issued lease was checked`);
    return undefined;
  }
  return (renew.response.body as { lease_duration?: number }).lease_duration ?? 0;
}

conformance(
  {
    id: 'cloud.roles.ttl',
    also: ['cloud.creds.response'],
    level: 'MUST',
    title: 'the role ttl sets the lease duration of GET /cloud/creds/:name, as a string or integer seconds',
  },
  async (t) => {
    requireConfigured(t, cloud);
    const fromString = await credsWith(t, { ttl: '1h' });
    if (!about(fromString.leaseDuration, 3600))
      fail('lease-duration', 'ttl "1h" did not give a one-hour lease', 3600, fromString.leaseDuration);
    const fromInt = await credsWith(t, { ttl: 600 });
    if (!about(fromInt.leaseDuration, 600))
      fail('lease-duration', 'ttl 600 did not give a 600-second lease', 600, fromInt.leaseDuration);
  },
);

conformance(
  {
    id: 'cloud.roles.ttl',
    also: ['cloud.creds.response'],
    level: 'MUST',
    title: 'roles without ttl all get the engine default lease, whatever ttl the role written before them had',
  },
  async (t) => {
    requireConfigured(t, cloud);
    // Each role without ttl follows one with another ttl (on a mount of the test's own, the test's
    // roles): the engine default is the same for both.
    const mount = await configuredCloudMount(t);
    const roles = await rolesOnly(t);
    await writeRole(t, mount, { ...roles, ttl: 600 });
    const first = await credsWith(t, {}, mount);
    await writeRole(t, mount, { ...roles, ttl: 1200 });
    const second = await credsWith(t, {}, mount);
    if (first.leaseDuration <= 0 || !close(first.leaseDuration, second.leaseDuration))
      fail(
        'engine-default-ttl',
        'two roles without ttl got different leases: the default is not the engine default',
        'the same positive duration',
        [first.leaseDuration, second.leaseDuration],
      );
  },
);

conformance(
  {
    id: 'cloud.roles.max-ttl',
    also: ['cloud.creds.response'],
    level: 'MUST',
    title: 'the role max_ttl caps the lease of GET /cloud/creds/:name and its renewal',
  },
  async (t) => {
    requireConfigured(t, cloud);
    const c = await credsWith(t, { max_ttl: 120 });
    if (c.leaseDuration > 120) fail('lease-duration', 'the lease exceeds the role max_ttl', '<= 120', c.leaseDuration);
    const after = await renewed(t, c, 3600);
    if (after !== undefined && after > 120)
      fail('renewed-duration', 'renewal extended the lease past max_ttl', '<= 120', after);
  },
);

conformance(
  {
    id: 'cloud.roles.max-ttl',
    also: ['cloud.creds.response'],
    level: 'MUST',
    title: 'a time-suffixed role max_ttl ("2m") caps the lease of GET /cloud/creds/:name and its renewal',
  },
  async (t) => {
    requireConfigured(t, cloud);
    const c = await credsWith(t, { max_ttl: '2m' });
    if (c.leaseDuration > 120)
      fail('lease-duration', 'the lease exceeds the role max_ttl "2m"', '<= 120', c.leaseDuration);
    const after = await renewed(t, c, 3600);
    if (after !== undefined && after > 120)
      fail('renewed-duration', 'renewal extended the lease past max_ttl "2m"', '<= 120', after);
  },
);

conformance(
  {
    id: 'cloud.roles.max-ttl',
    also: ['cloud.creds.response'],
    level: 'MUST',
    title:
      'roles without max_ttl all get the engine maximum, issued and renewed, whatever max_ttl the role written before them had',
  },
  async (t) => {
    requireConfigured(t, cloud);
    // Each role without max_ttl follows one with another max_ttl (on a mount of the test's own, the
    // test's roles): the engine maximum is the same for both.
    const mount = await configuredCloudMount(t);
    const roles = await rolesOnly(t);
    await writeRole(t, mount, { ...roles, max_ttl: 300 });
    const first = await credsWith(t, {}, mount);
    const firstIssued = Date.now();
    await writeRole(t, mount, { ...roles, max_ttl: 600 });
    const second = await credsWith(t, {}, mount);
    // The maximum counts from issue: renewed leases differ by the time between the two issues.
    const apart = Math.ceil((Date.now() - firstIssued) / 1000) + 1;
    if (!close(first.leaseDuration, second.leaseDuration))
      fail(
        'engine-maximum',
        'two roles without max_ttl got different leases: the maximum is not the engine maximum',
        'the same duration',
        [first.leaseDuration, second.leaseDuration],
      );
    // A renewal far beyond any maximum stops at the engine maximum, the same for both.
    const decade = 10 * 365 * 86400;
    const a = await renewed(t, first, decade);
    const b = a === undefined ? undefined : await renewed(t, second, decade);
    if (a !== undefined && b !== undefined && Math.abs(a - b) > apart)
      fail(
        'engine-maximum',
        'renewals of two roles without max_ttl stopped at different maximums',
        'the same duration',
        [a, b],
      );
  },
);

conformance(
  {
    id: 'cloud.roles.ttl',
    also: ['cloud.creds.response'],
    level: 'MUST',
    title: 'the role ttl in seconds, minutes and days ("90s", "30m", "1d") sets the lease duration exactly',
  },
  async (t) => {
    requireConfigured(t, cloud);
    for (const [ttl, seconds] of [
      ['90s', 90],
      ['30m', 1800],
      ['1d', 86400],
    ] as const) {
      const c = await credsWith(t, { ttl });
      if (!about(c.leaseDuration, seconds))
        fail('lease-duration', `ttl "${ttl}" did not give a ${seconds}-second lease`, seconds, c.leaseDuration);
    }
  },
);

conformance(
  {
    id: 'cloud.roles.max-ttl',
    also: ['cloud.creds.response'],
    level: 'MUST',
    title: 'a role whose ttl equals its max_ttl is accepted and its lease is exactly that long',
  },
  async (t) => {
    requireConfigured(t, cloud);
    // The limit itself: a ttl at the maximum is within it.
    const c = await credsWith(t, { ttl: 600, max_ttl: 600 });
    if (!about(c.leaseDuration, 600))
      fail('lease-duration', 'ttl 600 with max_ttl 600 did not give a 600-second lease', 600, c.leaseDuration);
  },
);

conformance(
  {
    id: 'cloud.roles.max-ttl',
    also: ['cloud.creds.response'],
    level: 'MUST',
    title: 'a role max_ttl in days ("1d") is accepted: a ttl of 86400 seconds is within it',
  },
  async (t) => {
    requireConfigured(t, cloud);
    const c = await credsWith(t, { ttl: 86400, max_ttl: '1d' });
    if (!about(c.leaseDuration, 86400))
      fail('lease-duration', 'ttl 86400 with max_ttl "1d" did not give a one-day lease', 86400, c.leaseDuration);
  },
);
