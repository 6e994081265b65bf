/**
 * The lease of the file this worker is running (set by file-lease.ts, read by the guard in
 * harness/author/clients.ts). A module of its own: vitest evaluates the setup file afresh for every file,
 * while this module, like the rest of the harness, is evaluated once per worker (isolation off),
 * so the guard and the setup file see the same value. A worker runs one file at a time.
 */
import type { Wants } from './locks.js';

export interface HeldLease {
  /** The file, project-relative. */
  readonly label: string;
  readonly wants: Wants;
}

let current: HeldLease | undefined;

export function setCurrentLease(lease: HeldLease | undefined): void {
  current = lease;
}

export function currentLease(): HeldLease | undefined {
  return current;
}
