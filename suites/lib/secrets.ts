/**
 * Shared steps of the secrets suites (core, kv): tokens bound to a throw-away ACL policy, typed body
 * reads, and the runner of the data-driven case tables in fixtures/core.
 */
import type { T, Exchange, MountRef } from '../../harness/index.js';
import { CheckFailure, errorsArray, statusBetween, statusIs, success, type Check } from '../../harness/checks/index.js';
import { resolveCasePath, type Case } from '../../fixtures/core/index.js';

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

function statusCheck(status: number | '2xx' | '4xx'): Check {
  if (status === '2xx') return statusBetween(200, 299);
  if (status === '4xx') return statusBetween(400, 499);
  return statusIs(status);
}

/** Runs one case of a fixtures/core table against the run's kv mounts. */
export async function runCase(t: T, c: Case, mounts: { kv1: MountRef; kv2: MountRef }): Promise<void> {
  const key = t.unique('case');
  const paths = { kv1: mounts.kv1.path, kv2: mounts.kv2.path };
  if (c.seed) await writeV2(t, mounts.kv2, key, c.seed);
  const path = resolveCasePath(c.request.path, paths, key);
  const opts =
    c.request.raw !== undefined
      ? { rawBody: c.request.raw, contentType: c.request.contentType, validate: false }
      : {
          body: c.request.body,
          validate: c.expect.status === '2xx' || (typeof c.expect.status === 'number' && c.expect.status < 400),
        };
  const method = c.request.method;
  const ex = method === 'LIST' ? await t.svc.list(path, opts) : await t.svc.request(method, path, opts);
  t.check(ex, statusCheck(c.expect.status));
  if (c.expect.errors) t.check(ex, errorsArray);
  if (c.expect.unchanged && c.seed) {
    const read = await t.svc.get(`${mounts.kv2.path}/data/${key}`);
    t.check(read, statusIs(200));
    const data = body(read).data?.data;
    if (JSON.stringify(data) !== JSON.stringify(c.seed)) {
      throw new CheckFailure('unchanged', `${c.description}: the rejected request changed the secret`, c.seed, data);
    }
  }
}
