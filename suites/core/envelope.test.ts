/** The response envelope (secrets-service-core.md, "Response envelope"); its lease fields in leases.test.ts. */
import { suite, conformance } from '../../harness/index.js';
import { bodyAt, expectThat, jsonContentType, statusIs } from '../../harness/checks/index.js';
import { UUID, body, writeV2 } from '../lib/secrets.js';

const s = suite('core');
const kv = s.mount('secret', { type: 'kv', options: { version: '2' }, configKey: 'kv' });

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
      bodyAt(
        '/request_id',
        (v: unknown) => v === undefined || (typeof v === 'string' && UUID.test(v)),
        'is a UUID string when present',
      ),
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
    expectThat(ids[0] !== ids[1], 'request-id', 'two requests got the same request_id', 'two different ids', ids);
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
