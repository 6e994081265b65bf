/** Key lifecycle: creation, reads, listing, configuration flags, rotation, trim, deletion, mount config. */
import { conformance, suite, type Exchange } from '../../harness/index.js';
import { bodyAt, clientError, expectThat, statusIs, success } from '../../harness/checks/index.js';
import { b64, createKey, data, encrypt, expectVersion, exported, readKey, rotate, unb64 } from './lib/api.js';

const s = suite('transit');
const transit = s.mount('transit', { type: 'transit' });

const SYMMETRIC = ['aes128-gcm96', 'aes256-gcm96', 'chacha20-poly1305', 'hmac'];

conformance(
  {
    id: 'transit.key.read-fields',
    level: 'MUST',
    also: ['transit.key.keys-map'],
    title: 'GET /transit/keys/:name returns every documented field with creation times per version',
  },
  async (t) => {
    const name = await createKey(t, transit, 'fields');
    const key = await readKey(t, transit, name);
    for (const field of [
      'type',
      'deletion_allowed',
      'derived',
      'exportable',
      'allow_plaintext_backup',
      'keys',
      'min_decryption_version',
      'min_encryption_version',
      'name',
      'supports_encryption',
      'supports_decryption',
      'supports_derivation',
      'supports_signing',
      'imported',
    ]) {
      expectThat(key[field] !== undefined, 'field', `the key read has ${field}`, 'present', undefined);
    }
    expectThat(key.name === name, 'name', 'the key read names the key', name, key.name);
    const created = key.keys?.['1'];
    const now = Date.now() / 1000;
    expectThat(
      Number.isInteger(created) && Math.abs(created - now) < 24 * 3600,
      'keys-map',
      'keys maps version "1" to its creation time in integer Unix seconds',
      'an integer near now',
      created,
    );
  },
);

conformance(
  {
    id: 'transit.key.default-type',
    level: 'MUST',
    title: 'POST /transit/keys/:name without type creates an aes256-gcm96 key',
  },
  async (t) => {
    const name = await createKey(t, transit, 'default');
    t.check(
      await t.svc.get(`${transit.path}/keys/${name}`),
      statusIs(200),
      bodyAt('/data/type', 'aes256-gcm96', 'is the default type'),
    );
  },
);

conformance(
  {
    id: 'transit.key.types',
    level: 'MUST',
    also: ['transit.key.supports-by-type'],
    title: 'POST /transit/keys/:name creates each symmetric and HMAC type with supports_* following the type',
  },
  async (t) => {
    for (const type of SYMMETRIC) {
      const name = await createKey(t, transit, type, { type });
      const key = await readKey(t, transit, name);
      expectThat(key.type === type, 'type', `the key created as ${type} reads as ${type}`, type, key.type);
      const aead = type !== 'hmac';
      expectThat(
        key.supports_encryption === aead &&
          key.supports_decryption === aead &&
          key.supports_signing === false &&
          key.supports_derivation === aead,
        'supports',
        `supports_* of ${type} follow its kind`,
        { encryption: aead, decryption: aead, signing: false, derivation: aead },
        {
          encryption: key.supports_encryption,
          decryption: key.supports_decryption,
          signing: key.supports_signing,
          derivation: key.supports_derivation,
        },
      );
    }
  },
);

conformance(
  {
    id: 'transit.key.no-material-in-read',
    level: 'MUST',
    title: 'GET /transit/keys/:name never contains the key material',
  },
  async (t) => {
    const name = await createKey(t, transit, 'nomaterial', { exportable: true });
    const read = await t.svc.get(`${transit.path}/keys/${name}`);
    t.check(read, statusIs(200));
    const material = (await exported(t, transit, 'encryption-key', name))['1']!;
    const hmacKey = (await exported(t, transit, 'hmac-key', name))['1']!;
    const text = read.response.text;
    const hex = unb64(material).toString('hex');
    expectThat(
      !text.includes(material) && !text.includes(hmacKey) && !text.toLowerCase().includes(hex),
      'no-material',
      'the key read contains neither the encryption key nor the HMAC key (base64 or hex)',
      'absent',
      '[key material found]',
    );
  },
);

conformance(
  {
    id: 'transit.key.hmac-default-size',
    level: 'MUST',
    title: 'POST /transit/keys/:name type hmac without key_size has a 32-byte key',
  },
  async (t) => {
    const name = await createKey(t, transit, 'hmacdef', { type: 'hmac', exportable: true });
    const key = unb64((await exported(t, transit, 'hmac-key', name))['1']);
    expectThat(
      key.length === 32,
      'key-size',
      'the exported hmac key of a default hmac key has 256 bits',
      32,
      key.length,
    );
  },
);

conformance(
  {
    id: 'transit.create.key-size-range',
    level: 'MUST',
    title: 'POST /transit/keys/:name type hmac accepts key_size 32 and 512 and keeps the size',
  },
  async (t) => {
    for (const size of [32, 512]) {
      const name = await createKey(t, transit, `hmac${size}`, { type: 'hmac', key_size: size, exportable: true });
      const key = unb64((await exported(t, transit, 'hmac-key', name))['1']);
      expectThat(
        key.length === size,
        'key-size',
        `the hmac key created with key_size ${size} has ${size} bytes`,
        size,
        key.length,
      );
    }
  },
);

conformance(
  { id: 'transit.keys.list', level: 'MUST', title: 'LIST /transit/keys returns every created key name' },
  async (t) => {
    const names = [await createKey(t, transit, 'lista'), await createKey(t, transit, 'listb')];
    const ex = await t.svc.list(`${transit.path}/keys`);
    t.check(ex, statusIs(200));
    const keys = data(ex).keys as string[];
    for (const n of names) expectThat(keys.includes(n), 'list', `LIST /transit/keys contains ${n}`, n, keys);
  },
);

/**
 * "Once set, cannot be disabled": the documents do not say whether the attempt is refused or
 * answered and ignored (the real product answers 200 and keeps the flag), so either answer is
 * accepted; what the rule says is that the flag stays true.
 */
const refusedOrIgnored = (ex: Exchange) => {
  const s = ex.response.status;
  expectThat(
    (s >= 200 && s < 300) || (s >= 400 && s < 500),
    'disable-attempt',
    `${ex.request.method} ${ex.request.path} turning the flag off is refused (4xx) or answered and ignored (2xx)`,
    '2xx or 4xx',
    s,
  );
};

for (const [flag, id, base] of [
  ['exportable', 'transit.key.exportable-irreversible', 'exp'],
  ['allow_plaintext_backup', 'transit.key.plaintext-backup-irreversible', 'apb'],
] as const) {
  conformance(
    {
      id,
      level: 'MUST',
      title: `POST /transit/keys/:name/config cannot disable ${flag} once set at creation or through config`,
    },
    async (t) => {
      const atCreation = await createKey(t, transit, `${base}1`, { [flag]: true });
      t.check(
        await t.svc.post(`${transit.path}/keys/${atCreation}/config`, { body: { [flag]: false } }),
        refusedOrIgnored,
      );
      const viaConfig = await createKey(t, transit, `${base}2`);
      t.check(await t.svc.post(`${transit.path}/keys/${viaConfig}/config`, { body: { [flag]: true } }), success);
      t.check(
        await t.svc.get(`${transit.path}/keys/${viaConfig}`),
        statusIs(200),
        bodyAt(`/data/${flag}`, true, 'is true once set through config'),
      );
      t.check(
        await t.svc.post(`${transit.path}/keys/${viaConfig}/config`, { body: { [flag]: false } }),
        refusedOrIgnored,
      );
      for (const n of [atCreation, viaConfig]) {
        t.check(
          await t.svc.get(`${transit.path}/keys/${n}`),
          statusIs(200),
          bodyAt(`/data/${flag}`, true, 'stays true after the attempt to disable it'),
        );
      }
    },
  );
}

conformance(
  {
    id: 'transit.key.delete-not-allowed',
    level: 'MUST',
    title: 'DELETE /transit/keys/:name with deletion_allowed false fails and keeps the key',
  },
  async (t) => {
    const name = await createKey(t, transit, 'nodelete');
    t.check(await t.svc.delete(`${transit.path}/keys/${name}`), clientError);
    t.check(await t.svc.get(`${transit.path}/keys/${name}`), statusIs(200));
  },
);

conformance(
  {
    id: 'transit.key.deletion-allowed-config',
    level: 'MUST',
    also: ['transit.key.delete'],
    title:
      'DELETE /transit/keys/:name after config deletion_allowed true removes the key and its ciphertexts no longer decrypt',
  },
  async (t) => {
    const name = await createKey(t, transit, 'delete');
    const ct = await encrypt(t, transit, name, 'gone soon');
    t.check(await t.svc.post(`${transit.path}/keys/${name}/config`, { body: { deletion_allowed: true } }), success);
    t.check(
      await t.svc.get(`${transit.path}/keys/${name}`),
      bodyAt('/data/deletion_allowed', true, 'is true after config'),
    );
    t.check(await t.svc.delete(`${transit.path}/keys/${name}`), success);
    t.check(await t.svc.get(`${transit.path}/keys/${name}`), statusIs(404));
    t.check(await t.svc.post(`${transit.path}/decrypt/${name}`, { body: { ciphertext: ct } }), clientError);
  },
);

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

conformance(
  {
    id: 'transit.config-keys.disable-upsert',
    level: 'MUST',
    title: 'POST /transit/config/keys sets disable_upsert and GET returns it (default false)',
  },
  async (t) => {
    t.check(
      await t.svc.get(`${transit.path}/config/keys`),
      statusIs(200),
      bodyAt('/data/disable_upsert', false, 'defaults to false'),
    );
    t.track('disable_upsert false', () =>
      t.svc.post(`${transit.path}/config/keys`, { body: { disable_upsert: false } }),
    );
    t.check(await t.svc.post(`${transit.path}/config/keys`, { body: { disable_upsert: true } }), success);
    t.check(
      await t.svc.get(`${transit.path}/config/keys`),
      statusIs(200),
      bodyAt('/data/disable_upsert', true, 'is the value set'),
    );
  },
);

conformance(
  {
    id: 'transit.cache-config.read',
    level: 'MUST',
    also: ['transit.cache-config.size'],
    title: 'POST /transit/cache-config accepts 0 and 10 and GET returns the configured size',
  },
  async (t) => {
    t.track('cache size 0', () => t.svc.post(`${transit.path}/cache-config`, { body: { size: 0 } }));
    t.check(await t.svc.post(`${transit.path}/cache-config`, { body: { size: 10 } }), success);
    t.check(
      await t.svc.get(`${transit.path}/cache-config`),
      statusIs(200),
      bodyAt('/data/size', 10, 'is the configured size'),
    );
    t.check(await t.svc.post(`${transit.path}/cache-config`, { body: { size: 0 } }), success);
    t.check(
      await t.svc.get(`${transit.path}/cache-config`),
      statusIs(200),
      bodyAt('/data/size', 0, 'is the configured size'),
    );
  },
);
