/**
 * A bounded pool for the robustness suite's work: at most `concurrency` jobs in flight, each
 * started only after the jobs it waits for have finished, the ready ones in the order they were
 * listed. A job's outcome is settled, never rejected, so a failing target cannot leave an
 * unhandled rejection behind; `after` orders work, it does not pass results along (a job whose
 * predecessor failed still runs and meets the same target).
 */

export interface PoolJob<T> {
  key: string;
  /** Keys of jobs listed earlier that must finish before this one starts. */
  after: readonly string[];
  run: () => Promise<T>;
}

export type Settled<T> = { ok: true; value: T } | { ok: false; error: Error };

interface Deferred<T> {
  promise: Promise<Settled<T>>;
  resolve: (s: Settled<T>) => void;
}

function deferred<T>(): Deferred<T> {
  let resolve!: (s: Settled<T>) => void;
  const promise = new Promise<Settled<T>>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

export class JobPool<T> {
  private readonly pending: PoolJob<T>[];
  private readonly outcomes = new Map<string, Deferred<T>>();
  private readonly finished = new Set<string>();
  private running = 0;
  private started = false;
  private readonly all = deferred<void>();
  /** Most jobs in flight at once so far (the bound is the setting; this is what the work allowed). */
  peak = 0;

  constructor(
    jobs: readonly PoolJob<T>[],
    readonly concurrency: number,
  ) {
    if (!Number.isInteger(concurrency) || concurrency < 1)
      throw new Error(`concurrency must be a whole number of at least 1, not ${concurrency}`);
    // Waiting only for earlier jobs keeps the graph acyclic, and lets a caller that consumes the
    // outcomes in list order wait at most for its own job and those already in flight.
    const seen = new Set<string>();
    for (const job of jobs) {
      if (seen.has(job.key)) throw new Error(`job ${job.key} is listed twice`);
      const later = job.after.filter((k) => !seen.has(k));
      if (later.length) throw new Error(`job ${job.key} waits for ${later.join(', ')}, which is not listed before it`);
      seen.add(job.key);
      this.outcomes.set(job.key, deferred<T>());
    }
    this.pending = [...jobs];
  }

  /** Starts the work (once); returns at once. */
  start(): this {
    if (this.started) return this;
    this.started = true;
    this.pump();
    return this;
  }

  /** The outcome of one job, when it has finished. */
  outcome(key: string): Promise<Settled<T>> {
    const d = this.outcomes.get(key);
    if (!d) return Promise.resolve({ ok: false, error: new Error(`no job ${key} in the pool`) });
    return d.promise;
  }

  /** Resolves when every job has finished (at once when the pool was never started or is empty). */
  drained(): Promise<void> {
    if (!this.started || this.finished.size === this.outcomes.size) return Promise.resolve();
    return this.all.promise.then(() => undefined);
  }

  private pump(): void {
    while (this.running < this.concurrency) {
      const i = this.pending.findIndex((j) => j.after.every((k) => this.finished.has(k)));
      if (i < 0) break;
      const [job] = this.pending.splice(i, 1);
      this.running++;
      this.peak = Math.max(this.peak, this.running);
      void this.execute(job!);
    }
    if (this.finished.size === this.outcomes.size) this.all.resolve({ ok: true, value: undefined });
  }

  private async execute(job: PoolJob<T>): Promise<void> {
    let settled: Settled<T>;
    try {
      settled = { ok: true, value: await job.run() };
    } catch (err) {
      settled = { ok: false, error: err instanceof Error ? err : new Error(String(err)) };
    }
    this.running--;
    this.finished.add(job.key);
    this.outcomes.get(job.key)!.resolve(settled);
    this.pump();
  }
}
