/**
 * RFC 3339 timestamps of the reference. The documents give no precision: by default milliseconds
 * (`toISOString`); with nanoseconds (a legal variant of each area) the fraction has up to nine digits and
 * no trailing zeros, as the upstream product's Go formatting (RFC3339Nano) writes them.
 */
import { MAX_TIME_MS } from '../clock.js';

export function rfc3339(ms: number, nanoseconds: boolean): string {
  // A time past the latest representable one (a deletion time after a huge delete_version_after)
  // prints as that latest time instead of failing the answer.
  const base = new Date(Math.min(ms, MAX_TIME_MS)).toISOString();
  if (!nanoseconds) return base;
  // A sub-millisecond part derived from the time itself: the same instant always prints the same
  // (a stored created_time reads back unchanged), and different instants give 1 to 9 digits.
  const sub = String(Math.abs(Math.trunc(ms) * 7919) % 1_000_000).padStart(6, '0');
  const fraction = `${base.slice(20, 23)}${sub}`.replace(/0+$/, '');
  return `${base.slice(0, 19)}${fraction ? `.${fraction}` : ''}Z`;
}
