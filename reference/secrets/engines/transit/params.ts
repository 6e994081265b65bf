/**
 * Input parsing for transit requests. Every reader validates the JSON type and answers 400 with a
 * message naming the field, never the value (values may be plaintexts or key material).
 */
import { badRequest } from '../../errors.js';

export type Body = Record<string, unknown>;

export function str(body: Body, field: string, fallback = ''): string {
  const v = body[field];
  if (v === undefined || v === null) return fallback;
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  throw badRequest(`${field} must be a string`);
}

export function bool(body: Body, field: string, fallback = false): boolean {
  const v = body[field];
  if (v === undefined || v === null || v === '') return fallback;
  if (typeof v === 'boolean') return v;
  if (v === 'true' || v === '1' || v === 1) return true;
  if (v === 'false' || v === '0' || v === 0) return false;
  throw badRequest(`${field} must be a boolean`);
}

export function int(body: Body, field: string, fallback = 0): number {
  const v = body[field];
  if (v === undefined || v === null || v === '') return fallback;
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^-?\d+$/.test(v.trim()) ? Number(v) : NaN;
  if (!Number.isSafeInteger(n)) throw badRequest(`${field} must be an integer`);
  return n;
}

/** Strict base64 (standard alphabet, padding optional); `undefined` when absent or empty. */
export function b64(body: Body, field: string): Buffer | undefined {
  const v = body[field];
  if (v === undefined || v === null || v === '') return undefined;
  if (typeof v !== 'string') throw badRequest(`${field} must be a base64 string`);
  return decodeB64(v, field);
}

export function decodeB64(v: string, field: string): Buffer {
  const s = v.trim();
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(s) || s.replace(/=+$/, '').length % 4 === 1) throw badRequest(`${field} must be valid base64`);
  return Buffer.from(s, 'base64');
}

const UNITS: Record<string, number> = { ns: 1e-9, us: 1e-6, µs: 1e-6, ms: 1e-3, s: 1, m: 60, h: 3600, d: 86400 };

/** Duration as integer seconds or a Go-style string (`90s`, `1h30m`); result in seconds. */
export function duration(body: Body, field: string): number | undefined {
  const v = body[field];
  if (v === undefined || v === null || v === '') return undefined;
  if (typeof v === 'number') {
    if (!Number.isFinite(v) || v < 0) throw badRequest(`${field} must be a non-negative duration`);
    return Math.floor(v);
  }
  if (typeof v !== 'string') throw badRequest(`${field} must be a duration`);
  const s = v.trim();
  if (/^\d+$/.test(s)) return Number(s);
  const re = /(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h|d)/gy;
  let total = 0;
  let pos = 0;
  let m: RegExpExecArray | null;
  while ((m = re.exec(s))) {
    total += Number(m[1]) * UNITS[m[2]!]!;
    pos = re.lastIndex;
  }
  if (pos !== s.length || s.length === 0) throw badRequest(`${field} must be a duration such as 3600 or 1h`);
  return Math.floor(total);
}

/** Batch items: an array of objects; a non-object item becomes an item-level error later. */
export function batchInput(body: Body): unknown[] | undefined {
  const v = body.batch_input;
  if (v === undefined || v === null) return undefined;
  if (!Array.isArray(v)) throw badRequest('batch_input must be an array');
  if (v.length === 0) throw badRequest('missing batch input to process');
  return v;
}
