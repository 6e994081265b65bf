/** Response envelope and success statuses (secrets-service-core.md, "Response envelope", "Conventions" 9). */
import { suite, conformance } from '../../harness/index.js';
import { CheckFailure, bodyAt, emptyBody, jsonContentType, statusIs, success } from '../../harness/checks/index.js';
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
    title: 'GET /secret/data/:path answers renewable as a boolean',
  },
  async (t) => {
    const key = t.unique('env');
    await writeV2(t, kv, key, { a: '1' });
    const ex = await t.svc.get(`${kv.path}/data/${key}`);
    t.check(
      ex,
      statusIs(200),
      bodyAt('/renewable', (v: unknown) => v === undefined || typeof v === 'boolean', 'is a boolean'),
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

conformance(
  {
    id: 'core.success.200-or-204',
    level: 'MUST',
    also: ['core.success.204-may-be-200-with-warnings'],
    title: 'PUT /sys/policies/acl/:name succeeds with 204 and no body, or 200 with a JSON body',
  },
  async (t) => {
    const name = t.unique('pol');
    t.track(`policy ${name}`, () => t.svc.delete(`sys/policies/acl/${name}`));
    const ex = await t.svc.put(`sys/policies/acl/${name}`, {
      body: { policy: 'path "secret/data/none" { capabilities = ["read"] }' },
    });
    t.check(ex, success);
    if (ex.response.status === 204) t.check(ex, emptyBody);
    else {
      t.check(ex, jsonContentType, bodyAt('', isObject, 'is a JSON object (200 must carry a body)'));
      if (ex.response.text.trim() === '')
        throw new CheckFailure('success', 'a 200 answer has no body', 'a JSON body', '');
    }
  },
);

conformance(
  { id: 'core.success.200-or-204', level: 'MUST', title: 'GET /secret/data/:path answers 200 with a body' },
  async (t) => {
    const key = t.unique('env');
    await writeV2(t, kv, key, { a: '1' });
    const ex = await t.svc.get(`${kv.path}/data/${key}`);
    t.check(ex, statusIs(200), jsonContentType);
    if (!isObject(body(ex)))
      throw new CheckFailure('success', '200 without a JSON body', 'a JSON object', ex.response.text.slice(0, 100));
  },
);
