/**
 * Key-value engine version 2, its rules tried beyond one plain case (issue 36): keys beyond the
 * plain, a write replacing a version read just before, check-and-set sent with PUT, a duration in
 * the day unit (secrets-service-core.md, "Key-value engine").
 */
import { suite, conformance } from '../../harness/index.js';
import { bodyAt, errorsArray, expectThat, statusIs, success } from '../../harness/checks/index.js';
import { UNUSUAL_KEYS, body, segment, writeV2 } from '../lib/secrets.js';

const s = suite('kv');
const kv2 = s.mount('secret', { type: 'kv', options: { version: '2' }, configKey: 'kv' });

conformance(
  {
    id: 'kv.v2.data-path',
    level: 'MUST',
    title:
      'POST /secret/data/:path stores keys beyond the plain (a space, +, @, non-ASCII, a period inside, two differing only by case), each read back at its own path',
  },
  async (t) => {
    const dir = t.unique('keys');
    // Plain values, so that the keys alone are tried here (non-ASCII values are kv.v2.data-wrapped's).
    const value = (i: number) => ({ n: `secret-${i}` });
    for (const [i, key] of UNUSUAL_KEYS.entries()) await writeV2(t, kv2, `${dir}/${segment(key)}`, value(i));
    for (const [i, key] of UNUSUAL_KEYS.entries())
      t.check(
        await t.svc.get(`${kv2.path}/data/${dir}/${segment(key)}`),
        statusIs(200),
        bodyAt('/data/data', value(i), `is the secret written at "${key}"`),
      );
  },
);

conformance(
  {
    id: 'kv.v2.read-latest',
    level: 'MUST',
    title:
      'GET /secret/data/:path right after a write with other fields returns exactly the new fields, though the previous version was read just before',
  },
  async (t) => {
    const key = t.unique('replace');
    await writeV2(t, kv2, key, { a: '1', b: '2' });
    t.check(
      await t.svc.get(`${kv2.path}/data/${key}`),
      statusIs(200),
      bodyAt('/data/data', { a: '1', b: '2' }, 'is the first version'),
    );
    await writeV2(t, kv2, key, { c: '3' });
    t.check(
      await t.svc.get(`${kv2.path}/data/${key}`),
      statusIs(200),
      bodyAt(
        '/data/data',
        { c: '3' },
        "is exactly the new version's fields: not the previous version, nor merged with it",
      ),
    );
  },
);

conformance(
  {
    id: 'kv.v2.cas-mismatch-400',
    level: 'MUST',
    title: 'PUT /secret/data/:path with a stale options.cas answers 400 and writes nothing, as POST does',
  },
  async (t) => {
    const key = t.unique('casput');
    await writeV2(t, kv2, key, { n: 1 });
    await writeV2(t, kv2, key, { n: 2 });
    const ex = await t.svc.put(`${kv2.path}/data/${key}`, { body: { data: { n: 3 }, options: { cas: 1 } } });
    t.check(ex, statusIs(400), errorsArray);
    t.check(await t.svc.get(`${kv2.path}/data/${key}`), statusIs(200), bodyAt('/data/data/n', 2, 'is still version 2'));
    t.check(
      await t.svc.put(`${kv2.path}/data/${key}`, { body: { data: { n: 3 }, options: { cas: 2 } } }),
      statusIs(200, 204),
    );
  },
);

conformance(
  {
    id: 'kv.v2.delete-version-after',
    level: 'MUST',
    title: "with delete_version_after 1d on the key, a new version's deletion_time is one day after its created_time",
  },
  async (t) => {
    const key = t.unique('day');
    t.check(await t.svc.post(`${kv2.path}/metadata/${key}`, { body: { delete_version_after: '1d' } }), success);
    await writeV2(t, kv2, key, { n: 1 });
    const ex = await t.svc.get(`${kv2.path}/metadata/${key}`);
    const v = body(ex).data?.versions?.['1'] ?? {};
    const seconds = (Date.parse(String(v.deletion_time)) - Date.parse(String(v.created_time))) / 1000;
    t.check(ex, statusIs(200));
    expectThat(
      Math.abs(seconds - 86400) <= 1,
      'delete-version-after',
      { created_time: v.created_time, deletion_time: v.deletion_time, seconds },
      '86400 seconds later',
      'the deletion time of a version written under delete_version_after 1d is not one day after it was created',
    );
  },
);
