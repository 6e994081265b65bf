/**
 * Cleanup of what a test or a suite created, run even after failures, in dependency order:
 * first what holds on to other objects (leases, check-outs, tokens: `revoke`), then the objects
 * themselves (roles, sets, accounts, entries: `delete`), then their containers (mounts, auth
 * methods, namespaces: `unmount`); newest first inside each phase. Registration order alone is
 * not enough: a test often learns a lease after it created the account the lease belongs to, and
 * a real product refuses to revoke a lease whose role or account is already gone.
 */
import { redactor } from '../redaction/redact.js';

export interface Leftover {
  label: string;
  error: string;
}

export type CleanupPhase = 'revoke' | 'delete' | 'unmount';

const PHASES: CleanupPhase[] = ['revoke', 'delete', 'unmount'];

/** An answer saying the thing is already gone: nothing is left behind. */
export function alreadyGone(status: number, body: unknown): boolean {
  if (status === 404) return true;
  if (status < 400 || status >= 500) return false;
  const errors = (body as { errors?: unknown } | undefined)?.errors;
  const text = Array.isArray(errors) ? errors.join(' ') : typeof body === 'string' ? body : '';
  return /\b(not found|does not exist|doesn't exist|no such|unknown (lease|role|set|account|token)|invalid lease|lease not found|already (revoked|deleted|removed|checked in))\b/i.test(
    text,
  );
}

interface Item {
  label: string;
  cleanup: () => Promise<unknown>;
  phase: CleanupPhase;
}

export class Tracker {
  private readonly items: Item[] = [];

  add(label: string, cleanup: () => Promise<unknown>, phase: CleanupPhase = 'delete'): void {
    if (!PHASES.includes(phase)) throw new Error(`unknown cleanup phase "${phase}" (one of ${PHASES.join(', ')})`);
    this.items.push({ label, cleanup, phase });
  }

  /** The order runAll uses: phase by phase, newest first in each (exposed for tests). */
  order(): string[] {
    return this.ordered().map((i) => i.label);
  }

  private ordered(): Item[] {
    return PHASES.flatMap((p) => this.items.filter((i) => i.phase === p).reverse());
  }

  /** Runs every cleanup in dependency order; returns the ones that left something behind. */
  async runAll(timeoutMs = 30_000): Promise<Leftover[]> {
    const leftovers: Leftover[] = [];
    const items = this.ordered();
    this.items.length = 0;
    for (const item of items) {
      try {
        const result = await Promise.race([
          item.cleanup(),
          new Promise((_, reject) =>
            setTimeout(() => reject(new Error(`cleanup timed out after ${timeoutMs} ms`)), timeoutMs).unref(),
          ),
        ]);
        const response = (result as { response?: { status?: number; body?: unknown } } | undefined)?.response;
        const status = response?.status;
        if (status !== undefined && status >= 400 && !alreadyGone(status, response?.body))
          leftovers.push({ label: item.label, error: `cleanup answered ${status}` });
      } catch (err) {
        // A directory delete of an entry the revoke already removed ("No Such Object") left nothing.
        if (/\b(no such object|not found|does not exist)\b/i.test((err as Error).message ?? '')) continue;
        leftovers.push({ label: item.label, error: redactor.text((err as Error).message) });
      }
    }
    return leftovers;
  }
}
