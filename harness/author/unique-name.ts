/** Run-unique names: every object a run creates carries the run's prefix (`cf-<runid>-`). */
import { targetConfig } from '../config/target-config.js';

let counter = 0;
/** A run-unique, lowercase name: `<prefix>-<base>-<n>`. */
export function uniqueName(base: string): string {
  const cfg = targetConfig();
  counter++;
  // pid and counter apart: files run in several workers at once, and share a worker's counter.
  return `${cfg.prefix}-${base}-${process.pid.toString(36)}-${counter}`.toLowerCase().replace(/[^a-z0-9_-]/g, '-');
}
