/**
 * Shared steps of the secrets suites (core, kv): tokens bound to a throw-away ACL policy and typed
 * body reads.
 */
import type { T, Exchange, MountRef } from '../../harness/index.js';
import { CheckFailure, statusIs, success } from '../../harness/checks/index.js';

// biome-ignore lint/suspicious/noExplicitAny: JSON bodies are open-ended (the documents' "other fields: not shown")
export type Obj = Record<string, any>;

export function body<R = Obj>(ex: Exchange): R {
  return ex.response.body as R;
}

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A token whose only policy (besides the default one) is `hcl`. Policy text uses the real
 * product's HCL syntax (an assumption the catalogue records as core.acl.policy-crud).
 */
export { policyToken } from '../../harness/index.js';

/** Writes a version 2 secret and returns the version written (when the target reports it). */
export async function writeV2(
  t: T,
  mount: MountRef,
  key: string,
  data: Obj,
  options?: Obj,
): Promise<number | undefined> {
  const ex = await t.svc.post(`${mount.path}/data/${key}`, { body: options ? { data, options } : { data } });
  t.check(ex, statusIs(200, 204));
  const v = body(ex)?.data?.version;
  return typeof v === 'number' ? v : undefined;
}

export async function writeV1(t: T, mount: MountRef, key: string, data: Obj): Promise<void> {
  t.check(await t.svc.post(`${mount.path}/${key}`, { body: data }), success);
}

/**
 * Keys beyond the plain (issue 36): characters outside [A-Za-z0-9._-] (a space, `+`, `@`),
 * non-ASCII letters, a period inside a name, and two keys differing only by case. The documents
 * put no limit on a key (`secret/<key>`), so each is a secret of its own.
 */
export const UNUSUAL_KEYS = ['with space', 'a+b', 'at@sign', 'clé-日本', 'app.config', 'Mixed', 'mixed'];

/** A key as URL path segments: percent-encoded where a path needs it, `+` and `@` sent as they are. */
export function segment(key: string): string {
  return key
    .split('/')
    .map((part) => encodeURIComponent(part).replace(/%2B/gi, '+').replace(/%40/g, '@'))
    .join('/');
}

/** Non-ASCII text for values: accented Latin, CJK, a symbol and an emoji outside the basic plane. */
export const NON_ASCII = 'clé – 日本語 ✓ 🙂';

/**
 * The read returned none of a removed secret's data (a body may carry the version's metadata).
 * Which status the read gets (404, in the catalogue's reading) is another requirement's: a 200
 * without the data does not return the secret either.
 */
export function noSecret(ex: Exchange, what: string, versioned: boolean): void {
  const data = (ex.response.body as { data?: { data?: unknown } } | undefined)?.data;
  const fields = versioned && data && typeof data === 'object' ? (data as { data?: unknown }).data : data;
  const empty = fields === undefined || fields === null || (typeof fields === 'object' && !Object.keys(fields).length);
  if (!empty)
    throw new CheckFailure(
      'gone',
      `${what}: GET ${ex.request.path} still answers the secret's data`,
      'no data of the secret',
      { status: ex.response.status, data: '[data present]' },
    );
}
