/**
 * Automatic rotation: moves the secrets clock past auto_rotate_period, so the file holds the
 * secrets domain exclusively (suites/domain-locks.yaml).
 */
import { conformance, suite } from '../../harness/index.js';
import { expectThat, statusIs, success } from '../../harness/checks/index.js';
import { b64, createKey, data, expectVersion, readKey } from './lib/api.js';

const s = suite('transit');
const transit = s.mount('transit', { type: 'transit' });

conformance(
  {
    id: 'transit.auto-rotate.rotates',
    level: 'MUST',
    requires: ['clock'],
    title: 'A key with auto_rotate_period 1h has version 2 once the period has elapsed',
  },
  async (t) => {
    const name = await createKey(t, transit, 'autorot', { auto_rotate_period: '1h' });
    await t.advance(3700);
    const ex = await t.svc.post(`${transit.path}/encrypt/${name}`, { body: { plaintext: b64('tick') } });
    t.check(ex, statusIs(200));
    expectVersion(t, data(ex).ciphertext, 2, 'ciphertext after one period');
    const key = await readKey(t, transit, name);
    expectThat(
      key.keys['2'] !== undefined,
      'auto-rotated',
      'the key read lists version 2',
      'present',
      Object.keys(key.keys),
    );
  },
);

conformance(
  {
    id: 'transit.auto-rotate.zero-disables',
    level: 'MUST',
    requires: ['clock'],
    title: 'POST /transit/keys/:name/config auto_rotate_period 0 stops automatic rotation',
  },
  async (t) => {
    const name = await createKey(t, transit, 'autooff', { auto_rotate_period: '1h' });
    t.check(await t.svc.post(`${transit.path}/keys/${name}/config`, { body: { auto_rotate_period: 0 } }), success);
    await t.advance(7300);
    const key = await readKey(t, transit, name);
    expectThat(
      Object.keys(key.keys).join(',') === '1',
      'not-rotated',
      'the key still has only version 1',
      '1',
      Object.keys(key.keys),
    );
  },
);
