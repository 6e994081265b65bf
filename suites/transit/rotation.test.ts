/** Key versions: rotation, trim, minimum decryption and encryption versions. */
import { conformance, suite } from '../../harness/index.js';
import { bodyAt, clientError, expectThat, statusIs, success } from '../../harness/checks/index.js';
import { b64, createKey, encrypt, expectVersion, exported, readKey, rotate, unb64 } from './lib/api.js';

const s = suite('transit');
const transit = s.mount('transit', { type: 'transit' });

conformance(
  {
    id: 'transit.rotate.new-version',
    level: 'MUST',
    also: ['transit.versioning.follows-rotation'],
    title: 'POST /transit/keys/:name/rotate adds version 2 and encrypt then outputs v2',
  },
  async (t) => {
    const name = await createKey(t, transit, 'rotate');
    expectVersion(t, await encrypt(t, transit, name, 'before'), 1, 'ciphertext before rotation');
    await rotate(t, transit, name);
    const key = await readKey(t, transit, name);
    expectThat(
      Object.keys(key.keys).sort().join(',') === '1,2',
      'versions',
      'the key has versions 1 and 2 after one rotation',
      '1,2',
      Object.keys(key.keys),
    );
    expectVersion(t, await encrypt(t, transit, name, 'after'), 2, 'ciphertext after rotation');
  },
);

conformance(
  {
    id: 'transit.rotate.keeps-size',
    level: 'MUST',
    title: 'POST /transit/keys/:name/rotate keeps the key size of aes256-gcm96 and hmac keys',
  },
  async (t) => {
    for (const [type, extra, size, keyType] of [
      ['aes256-gcm96', {}, 32, 'encryption-key'],
      ['hmac', { key_size: 64 }, 64, 'hmac-key'],
    ] as const) {
      const name = await createKey(t, transit, `size-${type}`, { type, exportable: true, ...extra });
      await rotate(t, transit, name);
      const keys = await exported(t, transit, keyType, name);
      expectThat(
        unb64(keys['2']).length === size,
        'key-size',
        `version 2 of the ${type} key has ${size} bytes like version 1`,
        size,
        unb64(keys['2']).length,
      );
    }
  },
);

conformance(
  {
    id: 'transit.key.hmac-every-type',
    level: 'MUST',
    title: 'Every rotation of an aes256-gcm96 key creates a new 256-bit HMAC key',
  },
  async (t) => {
    const name = await createKey(t, transit, 'hmackeys', { exportable: true });
    await rotate(t, transit, name);
    const keys = await exported(t, transit, 'hmac-key', name);
    const [k1, k2] = [unb64(keys['1']), unb64(keys['2'])];
    expectThat(
      k1.length === 32 && k2.length === 32,
      'hmac-key-size',
      'both versions have a 256-bit HMAC key',
      [32, 32],
      [k1.length, k2.length],
    );
    expectThat(
      !k1.equals(k2),
      'hmac-key-new',
      'the rotation created a different HMAC key',
      'different keys',
      'the same key',
    );
  },
);

/** A key with three versions, min_decryption_version and min_encryption_version both at `min`. */
async function threeVersions(
  t: Parameters<Parameters<typeof conformance>[1]>[0],
  min: number,
): Promise<{ name: string; cts: string[] }> {
  const name = await createKey(t, transit, 'trim', { exportable: true });
  const cts = [await encrypt(t, transit, name, 'one')];
  await rotate(t, transit, name);
  cts.push(await encrypt(t, transit, name, 'two'));
  await rotate(t, transit, name);
  cts.push(await encrypt(t, transit, name, 'three'));
  if (min > 0)
    t.check(
      await t.svc.post(`${transit.path}/keys/${name}/config`, {
        body: { min_decryption_version: min, min_encryption_version: min },
      }),
      success,
    );
  return { name, cts };
}

conformance(
  {
    id: 'transit.trim.removes-old',
    level: 'MUST',
    title: 'POST /transit/keys/:name/trim deletes the versions below min_available_version',
  },
  async (t) => {
    const { name } = await threeVersions(t, 2);
    t.check(await t.svc.post(`${transit.path}/keys/${name}/trim`, { body: { min_available_version: 2 } }), success);
    const key = await readKey(t, transit, name);
    expectThat(
      Object.keys(key.keys).sort().join(',') === '2,3',
      'trimmed',
      'only versions 2 and 3 remain after trimming to 2',
      '2,3',
      Object.keys(key.keys),
    );
    t.check(await t.svc.get(`${transit.path}/export/encryption-key/${name}/1`), clientError);
  },
);

conformance(
  {
    id: 'transit.trim.bounds',
    level: 'MUST',
    title: 'POST /transit/keys/:name/trim with unset minimum versions or above them fails and deletes nothing',
  },
  async (t) => {
    const unset = await threeVersions(t, 0);
    t.check(
      await t.svc.post(`${transit.path}/keys/${unset.name}/trim`, { body: { min_available_version: 1 } }),
      clientError,
    );
    const set = await threeVersions(t, 2);
    t.check(
      await t.svc.post(`${transit.path}/keys/${set.name}/trim`, { body: { min_available_version: 3 } }),
      clientError,
    );
    // The key read's `keys` map may leave out versions below min_decryption_version (the document
    // does not say), so "nothing deleted" is shown by decrypting with the versions that must remain.
    t.check(
      await t.svc.post(`${transit.path}/decrypt/${unset.name}`, { body: { ciphertext: unset.cts[0] } }),
      statusIs(200),
      bodyAt('/data/plaintext', b64('one'), 'still decrypts: version 1 was not trimmed'),
    );
    t.check(
      await t.svc.post(`${transit.path}/decrypt/${set.name}`, { body: { ciphertext: set.cts[1] } }),
      statusIs(200),
      bodyAt('/data/plaintext', b64('two'), 'still decrypts: version 2 was not trimmed'),
    );
  },
);

conformance(
  {
    id: 'transit.config.min-versions',
    level: 'MUST',
    title: 'POST /transit/keys/:name/config with min_encryption_version below min_decryption_version fails',
  },
  async (t) => {
    const { name } = await threeVersions(t, 0);
    t.check(
      await t.svc.post(`${transit.path}/keys/${name}/config`, {
        body: { min_decryption_version: 3, min_encryption_version: 2 },
      }),
      clientError,
    );
    t.check(
      await t.svc.post(`${transit.path}/keys/${name}/config`, {
        body: { min_decryption_version: 2, min_encryption_version: 3 },
      }),
      success,
    );
    t.check(await t.svc.post(`${transit.path}/keys/${name}/config`, { body: { min_encryption_version: 0 } }), success);
  },
);

conformance(
  {
    id: 'transit.config.min-decryption',
    level: 'MUST',
    title: 'POST /transit/decrypt/:name of a version below min_decryption_version fails and newer versions decrypt',
  },
  async (t) => {
    const { name, cts } = await threeVersions(t, 2);
    t.check(await t.svc.post(`${transit.path}/decrypt/${name}`, { body: { ciphertext: cts[0] } }), clientError);
    const ok = await t.svc.post(`${transit.path}/decrypt/${name}`, { body: { ciphertext: cts[1] } });
    t.check(ok, statusIs(200), bodyAt('/data/plaintext', b64('two'), 'is the version 2 plaintext'));
  },
);

conformance(
  {
    id: 'transit.params.key-version-min-encryption',
    level: 'MUST',
    also: ['transit.key.min-encryption-zero-latest'],
    title: 'POST /transit/encrypt/:name with key_version below min_encryption_version fails; 0 uses the latest',
  },
  async (t) => {
    const { name } = await threeVersions(t, 2);
    t.check(
      await t.svc.post(`${transit.path}/encrypt/${name}`, { body: { plaintext: b64('x'), key_version: 1 } }),
      clientError,
    );
    t.check(await t.svc.post(`${transit.path}/keys/${name}/config`, { body: { min_encryption_version: 0 } }), success);
    expectVersion(t, await encrypt(t, transit, name, 'latest'), 3, 'ciphertext with min_encryption_version 0');
  },
);

conformance(
  {
    id: 'transit.params.key-version-latest',
    level: 'MUST',
    title: 'POST /transit/encrypt/:name with key_version 1 after rotations outputs v1 and without it the latest',
  },
  async (t) => {
    const { name } = await threeVersions(t, 0);
    expectVersion(t, await encrypt(t, transit, name, 'old', { key_version: 1 }), 1, 'ciphertext with key_version 1');
    expectVersion(t, await encrypt(t, transit, name, 'new', { key_version: 0 }), 3, 'ciphertext with key_version 0');
  },
);
