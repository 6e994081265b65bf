/** Run-unique names: every object a run creates carries the run's prefix (`cf-<runid>-`). */
import { targetConfig } from '../config/target-config.js';

let counter = 0;
/** A run-unique, lowercase name: `<prefix>-<base>-<pid>-<n>`. */
export function uniqueName(base: string): string {
  const cfg = targetConfig();
  counter++;
  // pid and counter apart: files run in several workers at once, and share a worker's counter.
  // The counter has a fixed width, so no name is the start of another made with the same base:
  // tests running side by side list their objects by prefix (`-5` would also find `-50`).
  const n = counter.toString(36).padStart(4, '0');
  return `${cfg.prefix}-${base}-${process.pid.toString(36)}-${n}`.toLowerCase().replace(/[^a-z0-9_-]/g, '-');
}
