/** Table-driven request validation (fixtures/transit/invalid-requests.json): bounds and invalid combinations. */
// Requirement ids the table covers (named here so the mutation run finds this file): 'transit.cache-config.size', 'transit.create.auto-rotate-min', 'transit.create.convergent-requires-derived', 'transit.create.key-size-range', 'transit.datakey.bits', 'transit.params.nonce-12-bytes'.
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
