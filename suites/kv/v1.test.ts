/** Key-value engine version 1: secret/<key> with a JSON object of fields (secrets-service-core.md, "Key-value engine"). */
import { suite, conformance } from '../../harness/index.js';
import { bodyAt, errorsArray, expectEqual, statusIs, success } from '../../harness/checks/index.js';
import { NON_ASCII, UNUSUAL_KEYS, body, noSecret, segment, writeV1 } from '../lib/secrets.js';

const s = suite('kv');
const kv1 = s.mount('secret', { type: 'kv', options: { version: '1' }, configKey: 'kv1' });

conformance(
  {
    id: 'kv.v1.write-read',
    level: 'MUST',
    title: 'POST /secret/:path then GET /secret/:path returns the fields in data',
  },
  async (t) => {
    const key = t.unique('app');
    await writeV1(t, kv1, key, { username: 'svc-app', colour: 'teal' });
    const ex = await t.svc.get(`${kv1.path}/${key}`);
    t.check(
      ex,
      statusIs(200),
      bodyAt('/data', { username: 'svc-app', colour: 'teal' }, 'holds exactly the fields written'),
    );
  },
);

conformance(
  {
    id: 'kv.v1.write-read',
    level: 'MUST',
    title:
      'GET /secret/:path right after a second write answers the second value, though the first was read just before',
  },
  async (t) => {
    const key = t.unique('reread');
    await writeV1(t, kv1, key, { n: 'first' });
    t.check(
      await t.svc.get(`${kv1.path}/${key}`),
      statusIs(200),
      bodyAt('/data', { n: 'first' }, 'is the first value'),
    );
    await writeV1(t, kv1, key, { n: 'second' });
    t.check(
      await t.svc.get(`${kv1.path}/${key}`),
      statusIs(200),
      bodyAt('/data', { n: 'second' }, 'is the value of the write just made, not the one read before it'),
    );
  },
);

conformance(
  {
    id: 'kv.v1.write-read',
    also: ['kv.list.keys-under-path'],
    level: 'MUST',
    title:
      'POST /secret/:path stores keys beyond the plain (a space, +, @, non-ASCII, a period inside, two differing only by case), each read back and listed by its own name',
  },
  async (t) => {
    const dir = t.unique('keys');
    // Plain values, so that the keys alone are tried here (non-ASCII values are kv.v1.body-fields').
    const value = (i: number) => ({ n: `secret-${i}` });
    for (const [i, key] of UNUSUAL_KEYS.entries()) await writeV1(t, kv1, `${dir}/${segment(key)}`, value(i));
    for (const [i, key] of UNUSUAL_KEYS.entries())
      t.check(
        await t.svc.get(`${kv1.path}/${dir}/${segment(key)}`),
        statusIs(200),
        bodyAt('/data', value(i), `is the secret written at "${key}"`),
      );
    const listed = await t.svc.list(`${kv1.path}/${dir}`);
    t.as('kv.list.keys-under-path').check(
      listed,
      statusIs(200),
      bodyAt(
        '/data/keys',
        (v: unknown) => Array.isArray(v) && [...v].sort().join('|') === [...UNUSUAL_KEYS].sort().join('|'),
        `lists exactly ${UNUSUAL_KEYS.map((k) => `"${k}"`).join(', ')}`,
      ),
    );
  },
);

conformance(
  {
    id: 'kv.v1.body-fields',
    level: 'MUST',
    title: 'POST /secret/:path round-trips strings, numbers, booleans, nested objects and arrays',
  },
  async (t) => {
    const key = t.unique('types');
    const fields = {
      s: 'text',
      n: 42,
      f: 1.5,
      b: true,
      o: { inner: { deep: 'x' } },
      a: [1, 'two', { three: 3 }],
      empty: '',
      text: NON_ASCII,
      [NON_ASCII]: 'a field named in non-ASCII text',
    };
    await writeV1(t, kv1, key, fields);
    t.check(
      await t.svc.get(`${kv1.path}/${key}`),
      statusIs(200),
      bodyAt('/data', fields, 'round-trips every JSON type unchanged'),
    );
  },
);

conformance(
  {
    id: 'kv.v1.body-fields',
    level: 'MUST',
    title: 'POST /secret/:path of a secret whose only field is called data reads back that field, not its content',
  },
  async (t) => {
    const key = t.unique('onlydata');
    await writeV1(t, kv1, key, { data: { inner: 'x' } });
    t.check(
      await t.svc.get(`${kv1.path}/${key}`),
      statusIs(200),
      bodyAt('/data', { data: { inner: 'x' } }, 'is the one field "data", as written'),
    );
  },
);

conformance(
  { id: 'kv.v1.overwrite', level: 'MUST', title: 'a second POST /secret/:path replaces every field of the secret' },
  async (t) => {
    const key = t.unique('over');
    await writeV1(t, kv1, key, { old: '1', kept: 'no' });
    await writeV1(t, kv1, key, { fresh: '2' });
    t.check(
      await t.svc.get(`${kv1.path}/${key}`),
      statusIs(200),
      bodyAt('/data', { fresh: '2' }, 'holds only the fields of the last write'),
    );
  },
);

conformance(
  {
    id: 'kv.v1.nested-keys',
    level: 'MUST',
    title: 'POST /secret/a/b/c stores under the full path, apart from a key with the same last segment',
  },
  async (t) => {
    const dir = t.unique('nest');
    await writeV1(t, kv1, `${dir}/team/db`, { where: 'deep' });
    await writeV1(t, kv1, `${dir}/db`, { where: 'shallow' });
    t.check(
      await t.svc.get(`${kv1.path}/${dir}/team/db`),
      statusIs(200),
      bodyAt('/data/where', 'deep', 'is the value stored at the full path'),
    );
    t.check(
      await t.svc.get(`${kv1.path}/${dir}/db`),
      statusIs(200),
      bodyAt('/data/where', 'shallow', 'is the value of the other key'),
    );
  },
);

conformance(
  { id: 'kv.v1.read-missing-404', level: 'MUST', title: 'GET /secret/:path of a key never written answers 404' },
  async (t) => {
    t.check(await t.svc.get(`${kv1.path}/${t.unique('never')}`), statusIs(404), errorsArray);
  },
);

conformance(
  {
    id: 'kv.v1.delete',
    also: ['kv.v1.read-missing-404'],
    level: 'MUST',
    title: 'DELETE /secret/:path removes the secret; a later GET answers 404',
  },
  async (t) => {
    const key = t.unique('del');
    await writeV1(t, kv1, key, { a: '1' });
    // The secret is there first (read just before the delete), so its absence after says something.
    t.check(await t.svc.get(`${kv1.path}/${key}`), statusIs(200), bodyAt('/data/a', '1', 'is the secret written'));
    t.check(await t.svc.delete(`${kv1.path}/${key}`), success);
    const after = await t.svc.get(`${kv1.path}/${key}`);
    t.proving('kv.v1.delete', () => noSecret(after, 'the deleted secret', false));
    t.as('kv.v1.read-missing-404').check(after, statusIs(404), errorsArray);
  },
);

conformance(
  { id: 'kv.v1.no-lease', level: 'MUST', title: 'GET /secret/:path answers without a lease (lease_id empty)' },
  async (t) => {
    const key = t.unique('lease');
    await writeV1(t, kv1, key, { a: '1', ttl: '1h' });
    const ex = await t.svc.get(`${kv1.path}/${key}`);
    t.check(
      ex,
      statusIs(200),
      bodyAt('/lease_id', (v: unknown) => v === undefined || v === '', 'is empty: version 1 secrets carry no lease'),
    );
    expectEqual(body(ex).data?.a, '1', 'the read returns the stored field');
  },
);
