/**
 * The legal variants of the directory engine that only change the shape of an answer (see
 * variants.ts): applied at the edge of the engine, after the model answered.
 */
import type { VariantName } from '../../../switch-names.js';
import type { EngineResponse } from '../../engine.js';
import { SvcError } from '../../errors.js';

export type Has = (variant: VariantName) => boolean;

/** Read fields of the config that the document lists ("Read response data fields"). */
const CONFIG_READ_FIELDS = [
  'binddn',
  'case_sensitive_names',
  'certificate',
  'insecure_tls',
  'length',
  'schema',
  'starttls',
  'tls_max_version',
  'tls_min_version',
  'url',
];
const STATIC_READ_FIELDS = ['dn', 'last_svc_rotation', 'rotation_period', 'username'];

/** Seconds as a Go duration string: 3600 → 1h0m0s, 90 → 1m30s, 0 → 0s. */
export function goDuration(seconds: number): string {
  if (seconds <= 0) return '0s';
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  if (h > 0) return `${h}h${m}m${s}s`;
  if (m > 0) return `${m}m${s}s`;
  return `${s}s`;
}

function pick(data: Record<string, unknown>, fields: string[]): Record<string, unknown> {
  return Object.fromEntries(Object.entries(data).filter(([k]) => fields.includes(k)));
}

/** Applies the read-shape variants to a GET answer of `path`. */
export function shapeRead(path: string, res: EngineResponse, has: Has): EngineResponse {
  const data = res.data as Record<string, unknown> | undefined;
  if (!data || typeof data !== 'object' || Array.isArray(data)) return res;
  if ('keys' in data) {
    return Array.isArray(data.keys) && has('ldap.lists-unsorted')
      ? { ...res, data: { ...data, keys: [...data.keys].reverse() } }
      : res;
  }
  if (path === 'config' && has('ldap.config-read-documented-only'))
    return { ...res, data: pick(data, CONFIG_READ_FIELDS) };
  if (/^static-role\/.+/.test(path) && has('ldap.static-read-documented-only'))
    return { ...res, data: pick(data, STATIC_READ_FIELDS) };
  const durationRead = /^role\/.+/.test(path) || (/^library\/.+/.test(path) && !/\/status$/.test(path));
  if (durationRead && has('ldap.read-durations-as-strings')) {
    const out = { ...data };
    for (const f of ['ttl', 'max_ttl', 'default_ttl'])
      if (typeof out[f] === 'number') out[f] = goDuration(out[f] as number);
    return { ...res, data: out };
  }
  return res;
}

/** Reads of objects that do not exist: 404, or 400 for a variant. */
export function isObjectRead(method: string, path: string): boolean {
  return method === 'GET' && /^(static-role|static-cred|role|library)\/.+/.test(path) && !/\/status$/.test(path);
}

/** An error worded as the real product words its errors (a multi-error list). */
export function multiError(err: SvcError): SvcError {
  if (err.messages.length === 0) return err;
  const n = err.messages.length;
  return new SvcError(err.status, [
    `${n} error${n === 1 ? '' : 's'} occurred:\n${err.messages.map((m) => `\t* ${m}`).join('\n')}\n\n`,
  ]);
}
