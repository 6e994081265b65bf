/** Small helpers the transit tests share: body access, base64, versioned output strings, keys. */
import type { Exchange, T } from '../../../harness/index.js';
import type { MountRef } from '../../../harness/index.js';
import { type Check, expectThat, statusBetween, statusIs, success } from '../../../harness/checks/index.js';

/** A JSON object of a transit answer: open-ended (the documents' "other fields: not shown"). */
// biome-ignore lint/suspicious/noExplicitAny: answers are open JSON objects, read field by field in the tests
export type Json = Record<string, any>;

export const b64 = (s: string | Buffer) => Buffer.from(s).toString('base64');
export const unb64 = (s: unknown) => Buffer.from(String(s), 'base64');

/**
 * Refusals, read as every suite reads them. The transit document gives no status to its refusals
 * ("fails", "is refused", "is an error", "returns an error", "must be exportable", "needs
 * allow_rotation", "limits operations to"), and the core document's table gives 400 to "Invalid
 * request, missing or invalid data" only. So:
 * - a request that itself lacks a field the document calls required, or gives a value the document
 *   rules out (a bound, a list of values, a form such as base64), is refused with a 4xx
 *   (`clientError` of harness/checks, kept at those sites);
 * - a well-formed request that the key's state or type forbids, or an operation that fails (a key
 *   not exportable or not imported, a version below a minimum, an existing key, a ciphertext that
 *   does not open, a destination that is not an RSA key), `fails`: any error status, 4xx or 5xx
 *   (the real product answers 500 to several: restore onto an existing key, backup without
 *   allow_plaintext_backup, rotate of an imported key, import_version of a generated key).
 */
export const fails: Check = statusBetween(400, 599);

/** A verify answer that does not accept the signature or HMAC: an error status, or valid false. */
export function notAccepted(ex: Exchange): boolean {
  return ex.response.status >= 400 || data(ex).valid === false;
}

/**
 * A verify batch item that does not accept its signature or HMAC: valid false, an item error, or no
 * `valid` at all (the document lists no field of a verify batch item; the real product leaves out
 * a false `valid` of an HMAC item). An accepted item must read valid true.
 */
export function itemNotAccepted(item: Json | undefined): boolean {
  if (!item) return false;
  return item.valid === false || item.valid === undefined || (typeof item.error === 'string' && item.error !== '');
}

export function data<D = Json>(ex: Exchange): D {
  return ((ex.response.body as { data?: unknown } | undefined)?.data ?? {}) as D;
}

export function batchResults(ex: Exchange): Json[] {
  const r = data<{ batch_results?: unknown }>(ex).batch_results;
  expectThat(
    Array.isArray(r),
    'batch-results',
    r,
    'an array',
    `${ex.request.method} ${ex.request.path} returns data.batch_results as an array`,
  );
  return r as Json[];
}

export interface Versioned {
  version: number;
  bytes: Buffer;
}

/** Parses `<prefix>:v<n>:<base64>` and fails the test when the form is wrong. */
export function versioned(t: T, value: unknown, what: string): Versioned {
  const prefix = t.config.dialect.outputPrefix;
  const m =
    typeof value === 'string'
      ? new RegExp(`^${prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:v(\\d+):([A-Za-z0-9+/_-]+={0,2})$`).exec(value)
      : null;
  expectThat(
    !!m,
    'versioned-output',
    value,
    `${prefix}:v<n>:<base64>`,
    `${what} has the form ${prefix}:v<version>:<base64>`,
  );
  const raw = m![2]!;
  return { version: Number(m![1]), bytes: Buffer.from(raw, /[-_]/.test(raw) ? 'base64url' : 'base64') };
}

export function expectVersion(t: T, value: unknown, version: number, what: string): Versioned {
  const v = versioned(t, value, what);
  expectThat(
    v.version === version,
    'output-version',
    `v${v.version}`,
    `v${version}`,
    `${what} carries key version ${version}`,
  );
  return v;
}

export interface KeyOptions {
  type?: string;
  [field: string]: unknown;
}

/** RSA generation takes seconds on a busy machine; only these requests get the long timeout. */
export const KEYGEN_TIMEOUT_MS = 120_000;

export function keygenTimeout(type: unknown): number | undefined {
  return typeof type === 'string' && type.startsWith('rsa') ? KEYGEN_TIMEOUT_MS : undefined;
}

/** Creates a key with the given body; the mount is run-unique so the key goes with it. */
export async function createKey(t: T, mount: MountRef, base: string, body: KeyOptions = {}): Promise<string> {
  const name = t.unique(base);
  t.check(await t.svc.post(`${mount.path}/keys/${name}`, { body, timeoutMs: keygenTimeout(body.type) }), success);
  return name;
}

export async function readKey(t: T, mount: MountRef, name: string): Promise<Json> {
  const ex = await t.svc.get(`${mount.path}/keys/${name}`);
  t.check(ex, statusIs(200));
  return data(ex);
}

export async function rotate(t: T, mount: MountRef, name: string): Promise<void> {
  t.check(await t.svc.post(`${mount.path}/keys/${name}/rotate`), success);
}

export async function encrypt(
  t: T,
  mount: MountRef,
  name: string,
  plaintext: string | Buffer,
  extra: Record<string, unknown> = {},
): Promise<string> {
  const ex = await t.svc.post(`${mount.path}/encrypt/${name}`, { body: { plaintext: b64(plaintext), ...extra } });
  t.check(ex, statusIs(200));
  return String(data(ex).ciphertext);
}

/** A token whose policy grants `capabilities` on the given paths. */
export { tokenWith } from '../../../harness/index.js';

/** Exported values of a key (`export/:key_type/:name(/:version)`), keyed by version. */
export async function exported(
  t: T,
  mount: MountRef,
  keyType: string,
  name: string,
  version?: string,
): Promise<Record<string, string>> {
  const ex = await t.svc.get(`${mount.path}/export/${keyType}/${name}${version ? `/${version}` : ''}`);
  t.check(ex, statusIs(200));
  const keys = data<{ keys?: Record<string, string> }>(ex).keys ?? {};
  for (const v of Object.values(keys)) t.secret(v);
  return keys;
}

/**
 * The key is not there: the transit document names no status for a read of a missing key, the
 * core document's 404 is "invalid path"; any 4xx whose answer says the key is missing (404, or an
 * error naming it not found) is accepted.
 */
export const keyAbsent: Check = (ex) => {
  const status = ex.response.status;
  const errors = (ex.response.body as { errors?: unknown } | undefined)?.errors;
  const text = Array.isArray(errors) ? errors.join(' ') : '';
  expectThat(
    status === 404 || (status >= 400 && status < 500 && /not found|does not exist|no such|unknown key/i.test(text)),
    'key-absent',
    { status, errors },
    '404 or 4xx "not found"',
    `${ex.request.method} ${ex.request.path} says the key does not exist (404, or a 4xx naming it not found)`,
  );
};
