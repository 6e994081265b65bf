/**
 * Shared steps of the secrets suites (core, kv): tokens bound to a throw-away ACL policy and typed
 * body reads.
 */
import type { T, Exchange, MountRef } from '../../harness/index.js';
import { statusIs, success } from '../../harness/checks/index.js';

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
