/**
 * A controllable clock. The reference reads time only through this, so tests can move time
 * forward (lease expiry, rotation periods, lockout windows) instead of sleeping.
 */
export interface Clock {
  /** Milliseconds since the Unix epoch, as the reference sees it. */
  now(): number;
  /** How far the clock has been moved ahead of real time, in milliseconds. */
  offset(): number;
  /** Moves the reference's time forward and fires every timer that fell due. */
  advance(ms: number): Promise<void>;
  /** Registers a callback run once when the clock reaches `atMs` (real or advanced time). */
  at(atMs: number, fn: () => void | Promise<void>): () => void;
  close(): void;
}

/** The largest time a JavaScript Date represents (ECMA-262: 8.64e15 ms after the epoch). */
export const MAX_DATE_MS = 8.64e15;

/** The largest single move the control endpoint takes (spec: advance maximum), far below MAX_DATE_MS. */
export const MAX_ADVANCE_SECONDS = 8e12;

interface Timer { atMs: number; fn: () => void | Promise<void>; cancelled: boolean }

/** Real time plus an offset that `advance` grows; a sweep every 50 ms fires due timers. */
export class ControllableClock implements Clock {
  private offsetMs = 0;
  private timers: Timer[] = [];
  private readonly sweeper: NodeJS.Timeout;

  constructor(sweepMs = 50) {
    this.sweeper = setInterval(() => void this.fireDue(), sweepMs);
    this.sweeper.unref();
  }

  now(): number {
    return Date.now() + this.offsetMs;
  }

  offset(): number {
    return this.offsetMs;
  }

  async advance(ms: number): Promise<void> {
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError('advance needs a non-negative number of milliseconds');
    // Refuse before moving: a time past the largest Date makes every later timestamp throw.
    if (this.now() + ms > MAX_DATE_MS) throw new RangeError('advance would move the clock past the largest representable date');
    this.offsetMs += ms;
    await this.fireDue();
  }

  at(atMs: number, fn: () => void | Promise<void>): () => void {
    const timer: Timer = { atMs, fn, cancelled: false };
    this.timers.push(timer);
    return () => { timer.cancelled = true; };
  }

  private async fireDue(): Promise<void> {
    const now = this.now();
    const due = this.timers.filter((t) => !t.cancelled && t.atMs <= now).sort((a, b) => a.atMs - b.atMs);
    this.timers = this.timers.filter((t) => !t.cancelled && t.atMs > now);
    for (const t of due) {
      try { await t.fn(); } catch (err) { console.error('[reference] timer failed:', (err as Error).message); }
    }
  }

  close(): void {
    clearInterval(this.sweeper);
    this.timers = [];
  }
}
