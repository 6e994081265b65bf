/**
 * The lock service's wire format: one JSON object per line, in both directions.
 *   client: {"op":"acquire","label":"suites/kv/list.test.ts","wants":{"secrets":"shared"},"timeoutMs":55000}
 *   service: {"op":"granted","waitedMs":12}  or  {"op":"refused","message":"..."}
 *   client: {"op":"release"}   service: {"op":"released"}
 */
import type { LockMode, Wants } from './locks.js';

/** Where the workers find the lock service (provided to them by the global setup). */
export interface LockServiceAddress {
  host: string;
  port: number;
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** Where the run's lock service listens (harness/setup/global-setup.ts, vitest `provide`). */
    conformanceLocks?: LockServiceAddress;
  }
}

export interface AcquireMessage {
  op: 'acquire';
  label: string;
  wants: Wants;
  timeoutMs: number;
}

export type ClientMessage = AcquireMessage | { op: 'release' };

export type ServiceMessage =
  | { op: 'granted'; waitedMs: number }
  | { op: 'refused'; message: string }
  | { op: 'released' };

/** The longest line either side accepts (a request names a file and a few domains). */
export const LINE_LIMIT = 64 * 1024;

const MODES: readonly LockMode[] = ['shared', 'exclusive'];

/** A client message, or undefined when the line is not one. */
export function parseLine(line: string): ClientMessage | undefined {
  let m: unknown;
  try {
    m = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (!m || typeof m !== 'object') return undefined;
  const o = m as Record<string, unknown>;
  if (o.op === 'release') return { op: 'release' };
  if (o.op !== 'acquire' || typeof o.label !== 'string') return undefined;
  if (typeof o.timeoutMs !== 'number' || !(o.timeoutMs > 0)) return undefined;
  if (!o.wants || typeof o.wants !== 'object') return undefined;
  const wants: Record<string, LockMode> = {};
  for (const [domain, mode] of Object.entries(o.wants)) {
    if (!MODES.includes(mode as LockMode)) return undefined;
    wants[domain] = mode as LockMode;
  }
  return { op: 'acquire', label: o.label, wants, timeoutMs: o.timeoutMs };
}
