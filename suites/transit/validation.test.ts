/** Table-driven request validation (fixtures/transit/invalid-requests.json): bounds and invalid combinations. */
import { conformance, suite } from '../../harness/index.js';
import { clientError, success } from '../../harness/checks/index.js';
import { loadCases } from '../../fixtures/transit/cases.js';
import { createKey } from './lib/api.js';

const s = suite('transit');
const transit = s.mount('transit', { type: 'transit' });

for (const c of loadCases()) {
  conformance({ id: c.id, level: c.level, title: c.description }, async (t) => {
    t.track('cache size 0', () => t.svc.post(`${transit.path}/cache-config`, { body: { size: 0 } }));
    const key = c.key ? await createKey(t, transit, 'case', c.key) : '';
    const path = c.request.path.replace('{key}', key).replace('{new}', t.unique('case'));
    const ex = await t.svc.request(c.request.method, `${transit.path}/${path}`, { body: c.request.body });
    t.check(ex, c.expect.status === '4xx' ? clientError : success);
  });
}
