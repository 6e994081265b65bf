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
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(s) || s.replace(/=+$/, '').length % 4 === 1)
    throw badRequest(`${field} must be valid base64`);
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

type FieldType = 'string' | 'bool' | 'int' | 'version' | 'duration' | 'array' | 'scalar';

/**
 * The JSON type of every transit request field, checked before a route runs (as the real product
 * checks every declared field of a path, whether or not the route reads it): a field of the wrong
 * type is a 400 even where the route would have ignored it.
 */
const FIELDS: Record<string, FieldType> = {
  algorithm: 'string',
  allow_plaintext_backup: 'bool',
  allow_rotation: 'bool',
  associated_data: 'string',
  auto_rotate_period: 'duration',
  backup: 'string',
  batch_input: 'array',
  bits: 'int',
  bytes: 'int',
  certificate_chain: 'string',
  ciphertext: 'string',
  context: 'string',
  convergent_encryption: 'scalar',
  csr: 'string',
  deletion_allowed: 'bool',
  derived: 'bool',
  disable_upsert: 'bool',
  exportable: 'bool',
  force: 'bool',
  format: 'string',
  hash_algorithm: 'string',
  hash_function: 'string',
  hmac: 'string',
  input: 'string',
  key_size: 'int',
  key_version: 'version',
  mac_length: 'int',
  managed_key_id: 'string',
  managed_key_name: 'string',
  marshaling_algorithm: 'string',
  min_available_version: 'version',
  min_decryption_version: 'version',
  min_encryption_version: 'version',
  name: 'string',
  nonce: 'string',
  partial_failure_response_code: 'int',
  plaintext: 'string',
  prehashed: 'bool',
  public_key: 'string',
  reference: 'string',
  salt_length: 'scalar',
  signature: 'string',
  signature_algorithm: 'string',
  size: 'int',
  source: 'string',
  type: 'string',
  version: 'scalar',
};

export function checkFields(body: Body): void {
  for (const [field, type] of Object.entries(FIELDS)) {
    if (!(field in body)) continue;
    switch (type) {
      case 'string':
        str(body, field);
        break;
      case 'bool':
        bool(body, field);
        break;
      case 'int':
        int(body, field);
        break;
      case 'version':
        if (int(body, field) < 0) throw badRequest(`${field} must not be negative`);
        break;
      case 'duration':
        duration(body, field);
        break;
      case 'array':
        if (body[field] !== null && !Array.isArray(body[field])) throw badRequest(`${field} must be an array`);
        break;
      case 'scalar': {
        const v = body[field];
        if (v !== null && typeof v === 'object') throw badRequest(`${field} must be a string or a number`);
      }
    }
  }
}
