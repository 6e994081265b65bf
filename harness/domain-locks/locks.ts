/**
 * Reader-writer locks over named domains (the target's clocks and global settings, see
 * suites/domain-locks.yaml), for conformance files sharing one target:
 * - a request names every domain it needs, each `shared` or `exclusive`, and is granted all of
 *   them at once or none: a holder never waits for a second lock, so holders cannot deadlock;
 * - FIFO-fair: a request is granted only when it conflicts neither with a holder nor with an
 *   earlier request still waiting. A waiting exclusive request therefore holds back every later
 *   request of its domains, so a stream of shared requests cannot starve it; requests of other
 *   domains (or shared behind shared) still pass.
 *
 * Pure bookkeeping, no I/O and no timers: the lock service (service.ts) ties requests to
 * connections and applies the time limit.
 */

export type LockMode = 'shared' | 'exclusive';

/** The domains a request needs, each with its mode. */
export type Wants = Readonly<Record<string, LockMode>>;

export interface LockEntry {
  readonly id: number;
  /** Who asked (a test file, project-relative). */
  readonly label: string;
  readonly wants: Wants;
  /** When it asked (ms, from the `now` of DomainLocks). */
  readonly askedAt: number;
  /** When it was granted; undefined while it waits. */
  grantedAt?: number;
}

interface Pending extends LockEntry {
  readonly grant: () => void;
}

/** Whether two requests may hold their domains at the same time. */
export function compatible(a: Wants, b: Wants): boolean {
  for (const [domain, mode] of Object.entries(a)) {
    const other = b[domain];
    if (other && (mode === 'exclusive' || other === 'exclusive')) return false;
  }
  return true;
}

/** `exclusive: scheduler, shared: secrets`, the modes in a stable order. */
export function describeWants(wants: Wants): string {
  const by = (mode: LockMode) =>
    Object.keys(wants)
      .filter((d) => wants[d] === mode)
      .sort();
  const parts = (['exclusive', 'shared'] as const).flatMap((m) => (by(m).length ? [`${m}: ${by(m).join(', ')}`] : []));
  return parts.join('; ') || 'no domain';
}

export class DomainLocks {
  private nextId = 1;
  private readonly holders = new Map<number, Pending>();
  /** Waiting requests, oldest first. */
  private readonly waiting: Pending[] = [];

  constructor(private readonly now: () => number = Date.now) {}

  /**
   * Asks for `wants`. `granted` resolves once every domain is held (at once when nothing
   * conflicts); `release` gives them back, or withdraws the request while it waits.
   */
  request(label: string, wants: Wants): { id: number; granted: Promise<void>; release: () => void } {
    const id = this.nextId++;
    let grant!: () => void;
    const granted = new Promise<void>((resolve) => {
      grant = resolve;
    });
    this.waiting.push({ id, label, wants: { ...wants }, askedAt: this.now(), grant });
    this.pump();
    return { id, granted, release: () => this.release(id) };
  }

  /** Gives back a held request's domains, or withdraws a waiting one; unknown ids are ignored. */
  release(id: number): void {
    if (this.holders.delete(id)) {
      this.pump();
      return;
    }
    const i = this.waiting.findIndex((w) => w.id === id);
    if (i < 0) return;
    this.waiting.splice(i, 1);
    // A withdrawn request may have been the one holding later ones back.
    this.pump();
  }

  /** The holders and earlier waiters that keep request `id` waiting (empty once it is granted). */
  blockers(id: number): LockEntry[] {
    const i = this.waiting.findIndex((w) => w.id === id);
    if (i < 0) return [];
    const wants = this.waiting[i]!.wants;
    return [...this.holders.values(), ...this.waiting.slice(0, i)]
      .filter((e) => !compatible(wants, e.wants))
      .map(snapshot);
  }

  /** Current holders, oldest grant first, and waiters in order (for tests and messages). */
  state(): { held: LockEntry[]; waiting: LockEntry[] } {
    return { held: [...this.holders.values()].map(snapshot), waiting: this.waiting.map(snapshot) };
  }

  /** Grants, in arrival order, every waiter that conflicts with no holder and no earlier waiter. */
  private pump(): void {
    const stillWaiting: Pending[] = [];
    for (const w of this.waiting) {
      const free =
        [...this.holders.values()].every((h) => compatible(w.wants, h.wants)) &&
        stillWaiting.every((e) => compatible(w.wants, e.wants));
      if (!free) {
        stillWaiting.push(w);
        continue;
      }
      w.grantedAt = this.now();
      this.holders.set(w.id, w);
      w.grant();
    }
    this.waiting.splice(0, this.waiting.length, ...stillWaiting);
  }
}

function snapshot(e: LockEntry): LockEntry {
  return { id: e.id, label: e.label, wants: e.wants, askedAt: e.askedAt, grantedAt: e.grantedAt };
}
