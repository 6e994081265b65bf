/** Success statuses (secrets-service-core.md, "Conventions" 9, the 200 and 204 rows of "Errors"). */
import { suite, conformance } from '../../harness/index.js';
import { CheckFailure, bodyAt, emptyBody, jsonContentType, statusIs, success } from '../../harness/checks/index.js';
import { body, writeV2 } from '../lib/secrets.js';

const s = suite('core');
const kv = s.mount('secret', { type: 'kv', options: { version: '2' }, configKey: 'kv' });

const isObject = (v: unknown) => v !== null && typeof v === 'object' && !Array.isArray(v);

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

conformance(
  {
    id: 'core.success.200-or-204',
    level: 'MUST',
    title: 'POST /secret/data/:path answers 200 with a body (the version written) or 204',
  },
  async (t) => {
    const ex = await t.svc.post(`${kv.path}/data/${t.unique('env')}`, { body: { data: { a: '1' } } });
    t.check(ex, success);
    if (ex.response.status === 200) t.check(ex, jsonContentType, bodyAt('', isObject, 'is a JSON object'));
  },
);
