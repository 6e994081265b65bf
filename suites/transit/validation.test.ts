/** Table-driven request validation (validation.cases.yaml): bounds and invalid combinations. */
import { suite } from '../../harness/index.js';
import { runCases, statusCheck } from '../lib/cases.js';
import { createKey } from './lib/api.js';

const s = suite('transit');
const transit = s.mount('transit', { type: 'transit' });

runCases(new URL('./validation.cases.yaml', import.meta.url), {
  transit: {
    async run(t, c) {
      t.track('cache size 0', () => t.svc.post(`${transit.path}/cache-config`, { body: { size: 0 } }));
      const key = c.given?.key ? await createKey(t, transit, 'case', c.given.key) : '';
      const path = (c.request.path ?? '').replace('{key}', key).replace('{new}', t.unique('case'));
      const method = c.request.method === 'LIST' || !c.request.method ? 'GET' : c.request.method;
      const ex = await t.svc.request(method, `${transit.path}/${path}`, {
        body: c.request.body as Record<string, unknown> | undefined,
      });
      t.check(ex, statusCheck(c.expect.status!));
    },
  },
});
