/** Table-driven wrong-type and missing-field cases of the key-value engine (fixtures/core/cases/kv-wrong-types.json). */
import { suite, conformance } from '../../harness/index.js';
import { caseFile } from '../../fixtures/core/index.js';
import { runCase } from '../lib/secrets.js';

const s = suite('kv');
const kv1 = s.mount('secret', { type: 'kv', options: { version: '1' }, configKey: 'kv1' });
const kv2 = s.mount('secret', { type: 'kv', options: { version: '2' }, configKey: 'kvCases' });

const cf = caseFile('kv-wrong-types');
for (const c of cf.cases) {
  const id = c.id ?? cf.rule;
  const shown = c.request.path.replace(/\{(kv1|kv2)\}/, '/secret').replace('{key}', ':path');
  conformance({ id, level: 'MUST', title: `${c.request.method} ${shown}: ${c.description}` }, async (t) => {
    await runCase(t, c, { kv1, kv2 });
  });
}
