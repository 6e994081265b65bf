/**
 * Leases of the reference: ids shaped like the real product's (`<request path>/<random>`),
 * expiry on the controllable clock, revoke and renew through `sys/leases/*`.
 */
import { randomBytes } from 'node:crypto';
import type { Clock } from '../clock.js';
import type { LeaseSpec } from './engine.js';

export interface Lease {
  id: string;
  /** The request path that created the lease (what revoke-prefix and unmounts match). */
  path: string;
  issuedAt: number;
  expiresAt: number;
  /** Absolute cap (ms since epoch) set by max_ttl; Infinity when none. */
  maxExpiresAt: number;
  spec: LeaseSpec;
  cancelTimer: () => void;
}

export class LeaseManager {
  private readonly leases = new Map<string, Lease>();

  constructor(
    private readonly clock: Clock,
    private readonly log: (message: string) => void = () => {},
    /** A new lease's id from the request path and a random part (core-rules.ts `leaseId`). */
    private readonly idFor: (requestPath: string, random: string) => string = (path, random) =>
      `${path.replace(/\/+$/, '')}/${random}`,
  ) {}

  create(requestPath: string, spec: LeaseSpec): Lease {
    const id = this.idFor(requestPath, randomBytes(12).toString('base64url'));
    const issuedAt = this.clock.now();
    const maxExpiresAt = spec.maxTtl && spec.maxTtl > 0 ? issuedAt + spec.maxTtl * 1000 : Infinity;
    const expiresAt = spec.ttl > 0 ? Math.min(issuedAt + spec.ttl * 1000, maxExpiresAt) : maxExpiresAt;
    const path = requestPath.replace(/\/+$/, '');
    const lease: Lease = { id, path, issuedAt, expiresAt, maxExpiresAt, spec, cancelTimer: () => {} };
    this.schedule(lease);
    this.leases.set(id, lease);
    return lease;
  }

  get(id: string): Lease | undefined {
    return this.leases.get(id);
  }

  /** Ids of the leases created under `prefix` (a request path prefix; the id may not show it). */
  list(prefix = ''): string[] {
    return [...this.leases.values()]
      .filter((l) => `${l.path}/`.startsWith(prefix) || l.id.startsWith(prefix))
      .map((l) => l.id);
  }

  /** Seconds left, rounded down; 0 for leases without expiry. */
  remaining(lease: Lease): number {
    if (!Number.isFinite(lease.expiresAt)) return 0;
    return Math.max(0, Math.floor((lease.expiresAt - this.clock.now()) / 1000));
  }

  async revoke(id: string): Promise<boolean> {
    const lease = this.leases.get(id);
    if (!lease) return false;
    this.leases.delete(id);
    lease.cancelTimer();
    try {
      await lease.spec.revoke();
    } catch (err) {
      this.log(`lease ${id} revocation failed: ${(err as Error).message}`);
    }
    return true;
  }

  async revokePrefix(prefix: string): Promise<number> {
    const ids = this.list(prefix);
    for (const id of ids) await this.revoke(id);
    return ids.length;
  }

  /** Extends the lease by `incrementSeconds` (or its ttl), never past max_ttl. */
  async renew(id: string, incrementSeconds?: number): Promise<Lease | undefined> {
    const lease = this.leases.get(id);
    if (!lease) return undefined;
    const wanted = incrementSeconds && incrementSeconds > 0 ? incrementSeconds : lease.spec.ttl;
    const ttl = lease.spec.renew ? await lease.spec.renew(wanted) : wanted;
    lease.expiresAt = Math.min(this.clock.now() + ttl * 1000, lease.maxExpiresAt);
    lease.cancelTimer();
    this.schedule(lease);
    return lease;
  }

  private schedule(lease: Lease): void {
    if (!Number.isFinite(lease.expiresAt)) return;
    lease.cancelTimer = this.clock.at(lease.expiresAt, async () => {
      if (this.leases.get(lease.id) === lease) await this.revoke(lease.id);
    });
  }

  async closeAll(): Promise<void> {
    for (const lease of this.leases.values()) lease.cancelTimer();
    this.leases.clear();
  }
}
