/**
 * Fixture worlds shared by more than one suite's case tables (spec/shared/cases.schema.json `world`).
 * `kv`: the run's version 1 and version 2 key-value mounts, with an optional secret seeded at
 * `{key}` on `{kv2}` (`given.secret`) that a refused request must leave unchanged.
 */
import type { MountRef } from '../../harness/index.js';
import { CheckFailure, errorsArray, statusBetween, statusIs } from '../../harness/checks/index.js';
import { statusCheck, type Case, type World } from './cases.js';

/** Fills `{kv1}`, `{kv2}` and `{key}` of a case path. */
export function resolveKvPath(p: string, mounts: { kv1: string; kv2: string }, key: string): string {
  return p.replace('{kv1}', mounts.kv1).replace('{kv2}', mounts.kv2).replaceAll('{key}', key);
}

function accepted(c: Case): boolean {
  const s = c.expect.status;
  return s === '2xx' || s === 'success' || (typeof s === 'number' && s < 400);
}

/** The `kv` world over the suite file's two key-value mounts. */
export function kvWorld(mounts: { kv1: MountRef; kv2: MountRef }): World {
  return {
    async run(t, c) {
      const key = t.unique('case');
      const paths = { kv1: mounts.kv1.path, kv2: mounts.kv2.path };
      const seed = c.given?.secret;
      if (seed) {
        const ex = await t.svc.post(`${mounts.kv2.path}/data/${key}`, { body: { data: seed } });
        t.check(ex, statusIs(200, 204));
      }
      const path = resolveKvPath(c.request.path ?? '', paths, key);
      const opts =
        c.request.raw !== undefined
          ? { rawBody: c.request.raw, contentType: c.request.contentType, validate: false }
          : { body: c.request.body, validate: accepted(c) };
      const method = c.request.method ?? 'GET';
      const ex = method === 'LIST' ? await t.svc.list(path, opts) : await t.svc.request(method, path, opts);
      const status = c.expect.status!;
      // A case that also names the status's own requirement (core.errors.status-400): the refusal
      // proves the case's rule, the exact status proves that requirement.
      const statusId = c.also?.find((id) => id.startsWith('core.errors.status-'));
      if (statusId && typeof status === 'number' && status >= 400) {
        t.check(ex, statusBetween(400, 499));
        t.as(statusId).check(ex, statusIs(status));
      } else t.check(ex, statusCheck(status));
      // The errors array of a refusal is core.errors.body-errors-array's where the case names it.
      if (c.expect.errors)
        (c.also?.includes('core.errors.body-errors-array') ? t.as('core.errors.body-errors-array') : t).check(
          ex,
          errorsArray,
        );
      if (c.expect.unchanged && seed) {
        const read = await t.svc.get(`${mounts.kv2.path}/data/${key}`);
        t.check(read, statusIs(200));
        const data = (read.response.body as { data?: { data?: unknown } } | undefined)?.data?.data;
        if (JSON.stringify(data) !== JSON.stringify(seed)) {
          throw new CheckFailure('unchanged', `${c.title}: the rejected request changed the secret`, seed, data);
        }
      }
    },
  };
}
