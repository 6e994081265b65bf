/**
 * Automatic rotation: moves the secrets clock past auto_rotate_period, so the file holds the
 * secrets domain exclusively (suites/domain-locks.yaml).
 */
import { conformance, suite } from '../../harness/index.js';
import { expectThat, statusIs, success } from '../../harness/checks/index.js';
import { b64, createKey, data, expectVersion, readKey } from './lib/api.js';
import { importedFixture, localPair, spkiPem } from './lib/imports.js';

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
      Object.keys(key.keys),
      'present',
      'the key read lists version 2',
    );
  },
);

conformance(
  {
    id: 'transit.auto-rotate.zero-disables',
    level: 'MUST',
    requires: ['clock'],
    title: 'auto_rotate_period 0, given at creation or through config, stops automatic rotation',
  },
  async (t) => {
    const name = await createKey(t, transit, 'autooff', { auto_rotate_period: '1h' });
    t.check(await t.svc.post(`${transit.path}/keys/${name}/config`, { body: { auto_rotate_period: 0 } }), success);
    const createdOff = await createKey(t, transit, 'autozero', { auto_rotate_period: 0 });
    await t.advance(7300);
    for (const [n, how] of [
      [name, 'set to 0 through config'],
      [createdOff, 'created with 0'],
    ] as const) {
      const key = await readKey(t, transit, n);
      expectThat(
        Object.keys(key.keys).join(',') === '1',
        'not-rotated',
        Object.keys(key.keys),
        '1',
        `the key whose auto_rotate_period was ${how} still has only version 1`,
      );
    }
  },
);

conformance(
  {
    id: 'transit.auto-rotate.default-off',
    level: 'MUST',
    requires: ['clock'],
    title: 'A key created or imported without auto_rotate_period is not rotated automatically',
  },
  async (t) => {
    const created = await createKey(t, transit, 'autodefault');
    const pair = await localPair('ecdsa-p256');
    const imported = await importedFixture(t, transit, {
      type: 'ecdsa-p256',
      allow_rotation: true,
      public_key: spkiPem(pair.publicKey),
    });
    await t.advance(7300);
    for (const [n, how] of [
      [created, 'created'],
      [imported, 'imported with allow_rotation'],
    ] as const) {
      const key = await readKey(t, transit, n);
      expectThat(
        Object.keys(key.keys).join(',') === '1',
        'not-rotated',
        Object.keys(key.keys),
        '1',
        `the key ${how} without auto_rotate_period still has only version 1`,
      );
    }
  },
);

conformance(
  {
    id: 'transit.config.auto-rotate-unchanged',
    level: 'MUST',
    requires: ['clock'],
    title: 'POST /transit/keys/:name/config without auto_rotate_period keeps the key rotating every period',
  },
  async (t) => {
    const name = await createKey(t, transit, 'autokeep', { auto_rotate_period: '1h' });
    t.check(await t.svc.post(`${transit.path}/keys/${name}/config`, { body: { deletion_allowed: true } }), success);
    await t.advance(3700);
    const key = await readKey(t, transit, name);
    expectThat(
      key.keys['2'] !== undefined,
      'still-rotating',
      Object.keys(key.keys),
      'version 2',
      'the key has version 2 one period after a config write that omitted auto_rotate_period',
    );
  },
);

conformance(
  {
    id: 'transit.key.keys-map',
    level: 'MUST',
    title: 'GET /transit/keys/:name maps each version to its own creation time',
  },
  async (t) => {
    const name = await createKey(t, transit, 'versiontimes');
    // Five seconds: a clock the harness moves, or a real wait (timing.maxRealWaitSeconds) where it
    // cannot; whole seconds apart either way, so the two times differ by at least four.
    await t.advance(5);
    t.check(await t.svc.post(`${transit.path}/keys/${name}/rotate`), success);
    const keys = (await readKey(t, transit, name)).keys ?? {};
    const gap = Number(keys['2']) - Number(keys['1']);
    expectThat(
      Number.isInteger(keys['1']) && Number.isInteger(keys['2']) && gap >= 4 && gap <= 65,
      'creation-times',
      { 1: keys['1'], 2: keys['2'] },
      '4 to 65',
      'version 2 was created about 5 seconds after version 1 (keys.2 - keys.1)',
    );
  },
);
