/** Cleanup of what a test or a suite created: run in reverse order, even after failures. */
import { redactor } from './redact.js';

export interface Leftover {
  label: string;
  error: string;
}

export class Tracker {
  private readonly items: { label: string; cleanup: () => Promise<unknown> }[] = [];

  add(label: string, cleanup: () => Promise<unknown>): void {
    this.items.push({ label, cleanup });
  }

  /** Runs every cleanup, newest first; returns the ones that failed. */
  async runAll(timeoutMs = 30_000): Promise<Leftover[]> {
    const leftovers: Leftover[] = [];
    while (this.items.length) {
      const item = this.items.pop()!;
      try {
        const result = await Promise.race([
          item.cleanup(),
          new Promise((_, reject) => setTimeout(() => reject(new Error(`cleanup timed out after ${timeoutMs} ms`)), timeoutMs).unref()),
        ]);
        const status = (result as { response?: { status?: number } } | undefined)?.response?.status;
        if (status !== undefined && status >= 400 && status !== 404) leftovers.push({ label: item.label, error: `cleanup answered ${status}` });
      } catch (err) {
        leftovers.push({ label: item.label, error: redactor.text((err as Error).message) });
      }
    }
    return leftovers;
  }
}
