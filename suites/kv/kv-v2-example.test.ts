import { suite, conformance } from '../../harness/index.js';
import { bodyAt, statusIs } from '../../harness/checks/index.js';

const s = suite('kv');
const kv = s.mount('secret', { type: 'kv', options: { version: '2' }, configKey: 'kv' });

conformance(
  {
    id: 'kv.v2.data-wrapped',
    level: 'MUST',
    title: 'POST /secret/data/:path wraps fields in data and GET returns them under data.data',
  },
  async (t) => {
    const key = t.unique('app');
    t.check(await t.svc.post(`${kv.path}/data/${key}`, { body: { data: { colour: 'teal' } } }), statusIs(200, 204));
    const read = await t.svc.get(`${kv.path}/data/${key}`);
    t.check(read, statusIs(200), bodyAt('/data/data/colour', 'teal', 'is the field written'));
  },
);
