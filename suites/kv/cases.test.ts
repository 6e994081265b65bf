/** Table-driven wrong-type and missing-field cases of the key-value engine (wrong-types.cases.yaml). */
import { suite } from '../../harness/index.js';
import { runCases } from '../lib/cases.js';
import { kvWorld } from '../lib/worlds.js';

const s = suite('kv');
const kv1 = s.mount('secret', { type: 'kv', options: { version: '1' }, configKey: 'kv1' });
const kv2 = s.mount('secret', { type: 'kv', options: { version: '2' }, configKey: 'kvCases' });

runCases(new URL('./wrong-types.cases.yaml', import.meta.url), { kv: kvWorld({ kv1, kv2 }) });
