/**
 * A controllable clock. The reference reads time only through this, so tests can move time
 * forward (lease expiry, rotation periods, lockout windows) instead of sleeping.
 */
export interface Clock {
  /** Milliseconds since the Unix epoch, as the reference sees it. */
  now(): number;
  /** How far the clock has been moved ahead of real time, in milliseconds. */
  offset(): number;
  /** Moves the reference's time forward and fires every timer that fell due; refuses (ClockRangeError) a move past MAX_TIME_MS. */
  advance(ms: number): Promise<void>;
  /** Registers a callback run once when the clock reaches `atMs` (real or advanced time). */
  at(atMs: number, fn: () => void | Promise<void>): () => void;
  close(): void;
}

/**
 * The latest instant the reference can represent: the end of year 9999, the last one an RFC 3339
 * timestamp (four-digit year), which the service's answers carry, can express. Moving the clock
 * past it would leave every later timestamp unrepresentable (kv writes, key reads answering 500).
 */
export const MAX_TIME_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

/** A move the clock cannot make: the time is left unchanged. */
export class ClockRangeError extends RangeError {}

/** Why `ms` cannot be added to a clock reading `now`, or undefined when it can. */
export function advanceProblem(now: number, ms: number): string | undefined {
  if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0) return 'advance needs a non-negative, finite number';
  if (now + ms > MAX_TIME_MS)
    return `advance would move the clock past ${new Date(MAX_TIME_MS).toISOString()}, the latest time the service can represent (at most ${Math.floor((MAX_TIME_MS - now) / 1000)} seconds from now)`;
  return undefined;
}

/** The largest single move the control endpoint takes (spec: advance maximum). */
export const MAX_ADVANCE_SECONDS = 8e12;

interface Timer {
  atMs: number;
  fn: () => void | Promise<void>;
  cancelled: boolean;
}

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
    const problem = advanceProblem(this.now(), ms);
    if (problem) throw new ClockRangeError(problem);
    this.offsetMs += ms;
    await this.fireDue();
  }

  at(atMs: number, fn: () => void | Promise<void>): () => void {
    const timer: Timer = { atMs, fn, cancelled: false };
    this.timers.push(timer);
    return () => {
      timer.cancelled = true;
    };
  }

  private async fireDue(): Promise<void> {
    const now = this.now();
    const due = this.timers.filter((t) => !t.cancelled && t.atMs <= now).sort((a, b) => a.atMs - b.atMs);
    this.timers = this.timers.filter((t) => !t.cancelled && t.atMs > now);
    for (const t of due) {
      try {
        await t.fn();
      } catch (err) {
        console.error('[reference] timer failed:', (err as Error).message);
      }
    }
  }

  close(): void {
    clearInterval(this.sweeper);
    this.timers = [];
  }
}
