/** The response envelope (secrets-service-core.md, "Response envelope"); its lease fields in leases.test.ts. */
import { suite, conformance, type Exchange, type T } from '../../harness/index.js';
import { bodyAt, expectThat, jsonContentType, statusIs } from '../../harness/checks/index.js';
import { createUser, login } from '../lib/auth.js';
import { UUID, body, writeV2 } from '../lib/secrets.js';

const s = suite('core');
const kv = s.mount('secret', { type: 'kv', options: { version: '2' }, configKey: 'kv' });
const userpass = s.auth('userpass', { type: 'userpass' });

/**
 * One answer of each kind that carries an envelope and no lease: a read, a write that answers data
 * (a version 2 write), a list; the envelope's fields are those of every answer, not of reads only.
 */
async function answersOfEachKind(t: T): Promise<{ what: string; ex: Exchange }[]> {
  const dir = t.unique('env');
  const write = await t.svc.post(`${kv.path}/data/${dir}/a`, { body: { data: { a: '1' } } });
  t.check(write, statusIs(200));
  const read = t.check(await t.svc.get(`${kv.path}/data/${dir}/a`), statusIs(200));
  const list = t.check(await t.svc.list(`${kv.path}/metadata/${dir}`), statusIs(200));
  return [
    { what: 'a read (GET /secret/data/:path)', ex: read },
    { what: 'a write answering data (POST /secret/data/:path)', ex: write },
    { what: 'a list (LIST /secret/metadata/:dir)', ex: list },
  ];
}

const isObject = (v: unknown) => v !== null && typeof v === 'object' && !Array.isArray(v);

conformance(
  { id: 'core.envelope.json', level: 'MUST', title: 'GET /sys/mounts answers a JSON object body' },
  async (t) => {
    const ex = await t.svc.get('sys/mounts');
    t.check(ex, statusIs(200), jsonContentType, bodyAt('', isObject, 'is a JSON object'));
  },
);

conformance(
  {
    id: 'core.envelope.request-id-uuid',
    level: 'MUST',
    title: 'GET /secret/data/:path answers with request_id holding a UUID',
  },
  async (t) => {
    const key = t.unique('env');
    await writeV2(t, kv, key, { a: '1' });
    const ex = await t.svc.get(`${kv.path}/data/${key}`);
    t.check(
      ex,
      statusIs(200),
      bodyAt('/request_id', (v: unknown) => typeof v === 'string' && UUID.test(v), 'is a UUID string'),
    );
  },
);

conformance(
  {
    id: 'core.envelope.request-id-uuid',
    level: 'MUST',
    title: 'a read, a write answering data, a list and a login each answer request_id holding a UUID',
  },
  async (t) => {
    const answers = await answersOfEachKind(t);
    const u = await createUser(t, userpass);
    const loggedIn = await login(t, userpass, u.name, u.password);
    t.check(loggedIn, statusIs(200));
    for (const { what, ex } of [...answers, { what: 'a login (POST /auth/userpass/login/:name)', ex: loggedIn }])
      t.check(
        ex,
        bodyAt('/request_id', (v: unknown) => typeof v === 'string' && UUID.test(v), `of ${what} is a UUID`),
      );
  },
);

conformance(
  {
    id: 'core.envelope.request-id-per-request',
    level: 'MUST',
    title: 'two GETs of the same /secret/data/:path answer different request_ids',
  },
  async (t) => {
    const key = t.unique('env');
    await writeV2(t, kv, key, { a: '1' });
    const first = t.check(await t.svc.get(`${kv.path}/data/${key}`), statusIs(200));
    const second = t.check(await t.svc.get(`${kv.path}/data/${key}`), statusIs(200));
    const ids = [body(first).request_id, body(second).request_id];
    // The field is one "that appears": a target that sends none has nothing to identify requests by.
    if (ids.some((id) => id === undefined)) t.notApplicable('the target sends no request_id', undefined);
    expectThat(ids[0] !== ids[1], 'request-id', ids, 'two different ids', 'two requests got the same request_id');
  },
);

conformance(
  {
    id: 'core.envelope.lease-id-empty',
    level: 'MUST',
    title: 'GET /secret/data/:path without a lease answers lease_id ""',
  },
  async (t) => {
    const key = t.unique('env');
    await writeV2(t, kv, key, { a: '1' });
    const ex = await t.svc.get(`${kv.path}/data/${key}`);
    t.check(
      ex,
      statusIs(200),
      bodyAt('/lease_id', (v: unknown) => v === undefined || v === '', 'is the empty string (no lease)'),
    );
  },
);

conformance(
  {
    id: 'core.envelope.lease-id-empty',
    level: 'MUST',
    title: 'a read, a write answering data and a list without a lease each answer lease_id ""',
  },
  async (t) => {
    for (const { what, ex } of await answersOfEachKind(t))
      t.check(ex, bodyAt('/lease_id', '', `of ${what} is the empty string (no lease)`));
  },
);

conformance(
  {
    id: 'core.envelope.lease-duration-zero',
    level: 'MUST',
    title: 'a read, a write answering data and a list without a lease each answer lease_duration 0',
  },
  async (t) => {
    for (const { what, ex } of await answersOfEachKind(t))
      t.check(ex, bodyAt('/lease_duration', 0, `of ${what} is 0 (no lease)`));
  },
);

conformance(
  {
    id: 'core.envelope.lease-duration-zero',
    level: 'MUST',
    title: 'GET /sys/mounts without a lease answers lease_duration 0',
  },
  async (t) => {
    const ex = await t.svc.get('sys/mounts');
    t.check(
      ex,
      statusIs(200),
      bodyAt('/lease_duration', (v: unknown) => v === undefined || v === 0, 'is 0 (no lease)'),
    );
  },
);

conformance(
  {
    id: 'core.envelope.renewable-boolean',
    level: 'MUST',
    title: 'GET /secret/data/:path (no lease) answers renewable false',
  },
  async (t) => {
    const key = t.unique('env');
    await writeV2(t, kv, key, { a: '1' });
    const ex = await t.svc.get(`${kv.path}/data/${key}`);
    t.check(
      ex,
      statusIs(200),
      bodyAt('/renewable', (v: unknown) => v === undefined || v === false, 'is the boolean false (no lease to renew)'),
    );
  },
);

conformance(
  {
    id: 'core.envelope.field-types',
    level: 'MUST',
    title: 'GET /secret/data/:path answers data object, wrap_info/warnings/auth object, array or null',
  },
  async (t) => {
    const key = t.unique('env');
    await writeV2(t, kv, key, { a: '1' });
    const ex = await t.svc.get(`${kv.path}/data/${key}`);
    t.check(
      ex,
      statusIs(200),
      bodyAt('/data', isObject, 'is an object'),
      bodyAt('/wrap_info', (v: unknown) => v === undefined || v === null || isObject(v), 'is an object or null'),
      bodyAt(
        '/warnings',
        (v: unknown) => v === undefined || v === null || (Array.isArray(v) && v.every((w) => typeof w === 'string')),
        'is an array of strings or null',
      ),
      bodyAt('/auth', (v: unknown) => v === undefined || v === null || isObject(v), 'is an object or null'),
    );
  },
);
