/**
 * The legal variants of the transit engine that only change the shape of an answer (see
 * variants.ts): applied at the edge of the engine, after the model has answered, so the model
 * itself keeps the documents' plainest reading.
 */
import type { EngineResponse } from '../../engine.js';
import { SvcError } from '../../errors.js';
import type { NamedKey } from './keys.js';

export type Has = (variant: string) => boolean;

/** Fields of the key read that the document's table does not list. */
const UNDOCUMENTED_READ_FIELDS = [
  'latest_version',
  'min_available_version',
  'auto_rotate_period',
  'convergent_encryption',
  'key_size',
];

/** The key read as a variant shows it. */
export function shapeKeyRead(view: Record<string, unknown>, k: NamedKey, has: Has): Record<string, unknown> {
  const out = { ...view };
  if (has('keys-map-from-min-decryption')) {
    const keys = out.keys as Record<string, unknown>;
    out.keys = Object.fromEntries(Object.entries(keys).filter(([ver]) => Number(ver) >= k.minDecryptionVersion));
  }
  if (has('asymmetric-time-nanos')) {
    const keys = out.keys as Record<string, unknown>;
    out.keys = Object.fromEntries(
      Object.entries(keys).map(([ver, info]) => {
        if (
          info &&
          typeof info === 'object' &&
          typeof (info as { creation_time?: unknown }).creation_time === 'string'
        ) {
          const iso = (info as { creation_time: string }).creation_time;
          // Millisecond ISO time to nanosecond RFC 3339 (the digits below a millisecond are zero).
          return [ver, { ...info, creation_time: iso.replace(/\.(\d{3})Z$/, '.$1000000Z') }];
        }
        return [ver, info];
      }),
    );
  }
  if (has('read-extra-fields')) {
    if (k.derived) out.kdf = 'hkdf_sha256';
    if (k.convergent) out.convergent_encryption_version = 2;
    if (k.imported) out.imported_key_allow_rotation = k.allowRotation;
  }
  if (has('read-undocumented-fields-absent')) for (const f of UNDOCUMENTED_READ_FIELDS) delete out[f];
  return out;
}

/** Removes key_version from single results and from every batch result. */
export function withoutKeyVersion(res: EngineResponse): EngineResponse {
  const strip = (o: unknown) => {
    if (o && typeof o === 'object' && !Array.isArray(o)) delete (o as Record<string, unknown>).key_version;
  };
  for (const d of [res.data, (res.rawBody as { data?: unknown } | undefined)?.data]) {
    if (!d || typeof d !== 'object') continue;
    strip(d);
    const batch = (d as { batch_results?: unknown }).batch_results;
    if (Array.isArray(batch)) batch.forEach(strip);
  }
  return res;
}

/** An error worded as the real product words its errors (a multi-error list). */
export function multiError(err: SvcError): SvcError {
  if (err.messages.length === 0) return err;
  const n = err.messages.length;
  const text = `${n} error${n === 1 ? '' : 's'} occurred:\n${err.messages.map((m) => `\t* ${m}`).join('\n')}\n\n`;
  return new SvcError(err.status, [text]);
}

/** Answers of export and LIST as the shape variants show them. */
export function shapeAnswer(seg: string[], res: EngineResponse, has: Has): EngineResponse {
  const data = res.data as Record<string, unknown> | undefined;
  if (!data || typeof data !== 'object') return res;
  const [head] = seg;
  if ((head === 'export' || head === 'byok-export') && has('export-documented-only'))
    return { ...res, data: { name: data.name, keys: data.keys } };
  if (head === 'keys' && seg.length === 1 && Array.isArray(data.keys) && has('keys-list-unsorted'))
    return { ...res, data: { ...data, keys: [...data.keys].reverse() } };
  return res;
}
