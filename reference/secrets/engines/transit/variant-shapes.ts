/**
 * The shapes of answers that the transit engine's legal variants give (see the one switches
 * table, switches/variants.ts): each a plain function of an answer, so the model keeps the
 * documents' plainest reading.
 */
import type { EngineResponse } from '../../engine.js';
import { SvcError } from '../../errors.js';
import type { NamedKey } from './keys.js';

/** Fields of the key read that the document's table does not list. */
const UNDOCUMENTED_READ_FIELDS = [
  'latest_version',
  'min_available_version',
  'auto_rotate_period',
  'convergent_encryption',
  'key_size',
];

/** The key read's `keys` map from min_decryption_version up. */
export function keysFromMinDecryption(view: Record<string, unknown>, k: NamedKey): Record<string, unknown> {
  const keys = view.keys as Record<string, unknown>;
  return {
    ...view,
    keys: Object.fromEntries(Object.entries(keys).filter(([ver]) => Number(ver) >= k.minDecryptionVersion)),
  };
}

/** Asymmetric versions' creation_time with nanosecond digits. */
export function nanosecondTimes(view: Record<string, unknown>): Record<string, unknown> {
  const keys = view.keys as Record<string, unknown>;
  return {
    ...view,
    keys: Object.fromEntries(
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
    ),
  };
}

/** The fields the real product adds to the key read. */
export function extraReadFields(view: Record<string, unknown>, k: NamedKey): Record<string, unknown> {
  const out = { ...view };
  if (k.derived) out.kdf = 'hkdf_sha256';
  if (k.convergent) out.convergent_encryption_version = 2;
  if (k.imported) out.imported_key_allow_rotation = k.allowRotation;
  return out;
}

/** The key read without the fields the document's table does not list. */
export function withoutUndocumentedReadFields(view: Record<string, unknown>): Record<string, unknown> {
  const out = { ...view };
  for (const f of UNDOCUMENTED_READ_FIELDS) delete out[f];
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

function dataOf(res: EngineResponse): Record<string, unknown> | undefined {
  const data = res.data as Record<string, unknown> | undefined;
  return data && typeof data === 'object' ? data : undefined;
}

/** Export (and BYOK export) answers with only the documented name and keys. */
export function onlyDocumentedExport(seg: string[], res: EngineResponse): EngineResponse {
  const data = dataOf(res);
  if (data && (seg[0] === 'export' || seg[0] === 'byok-export'))
    return { ...res, data: { name: data.name, keys: data.keys } };
  return res;
}

/** LIST of keys in an order other than sorted. */
export function listUnsorted(seg: string[], res: EngineResponse): EngineResponse {
  const data = dataOf(res);
  if (data && seg[0] === 'keys' && seg.length === 1 && Array.isArray(data.keys))
    return { ...res, data: { ...data, keys: [...data.keys].reverse() } };
  return res;
}

/** The key-management writes whose documented answer is just "success" (Key management table). */
export function isPlainWrite(method: string, seg: string[]): boolean {
  if (method !== 'POST' && method !== 'PUT') return false;
  const [head, , b] = seg;
  if (head === 'keys') return seg.length === 2 || (seg.length === 3 && ['config', 'rotate', 'trim'].includes(b!));
  // config/keys is not among them: its answer is documented (data.disable_upsert).
  return head === 'restore' || head === 'cache-config';
}
