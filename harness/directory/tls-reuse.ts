/**
 * The directory fixture's TLS material, made once and reused by the runs that follow while it
 * stays valid for at least a day more: making it loads the certificate library and signs three
 * certificates, ~0.3 s of CPU in the middle of a run's start-up on two cores, for material that
 * nothing but the run's own slapd and clients ever trusts (its CA is handed to the clients, never
 * installed). It is kept in the cache folder (harness/cache/disk-cache.ts) in a file only its
 * owner can read, keyed by the hosts and the source of the module that makes it, so a change to
 * how it is made is never answered with the old material. `CONFORMANCE_CACHE=off` makes it fresh
 * for every run.
 */
import { cached, cacheKey, sourceHash } from '../cache/disk-cache.js';
import type { TlsMaterial } from './tls-material.js';

const DAY_MS = 86_400_000;
/** What reused material must still have left of its validity when a run starts. */
export const MIN_REMAINING_MS = DAY_MS;

interface Stored {
  material: TlsMaterial;
  notAfter: number;
}

async function makeFresh(hosts: string[]): Promise<Stored> {
  // Loaded only here: the library is the cost the reuse avoids.
  const { tlsMaterial, VALIDITY_MS } = await import('./tls-material.js');
  const made = Date.now();
  return { material: await tlsMaterial(hosts, made), notAfter: made + VALIDITY_MS };
}

export interface ReuseOptions {
  hosts?: string[];
  now?: number;
  /** Makes fresh material (tests count its calls); by default the certificate library's. */
  make?: (hosts: string[]) => Promise<Stored>;
}

/** TLS material for the directory: reused from an earlier run while valid, else made (and kept). */
export async function reusableTlsMaterial(opts: ReuseOptions = {}): Promise<TlsMaterial> {
  const hosts = opts.hosts ?? ['127.0.0.1', 'localhost'];
  const make = opts.make ?? makeFresh;
  const now = opts.now ?? Date.now();
  const key = cacheKey(sourceHash(new URL('./tls-material.ts', import.meta.url).href), hosts.join(','));
  const stored = await cached('directory-tls', key, () => make(hosts), {
    private: true,
    usable: (s) => typeof s?.notAfter === 'number' && s.notAfter - now >= MIN_REMAINING_MS && !!s.material?.serverKey,
  });
  return stored.material;
}
