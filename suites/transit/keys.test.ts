// size: one test per key-lifecycle rule of the document (create, read, list, config flags, delete, cache), in its order
/**
 * Key lifecycle: creation, reads, listing, configuration flags, deletion, the mount's key config
 * and cache size.
 */
import { conformance, suite, type Exchange } from '../../harness/index.js';
import { bodyAt, expectThat, statusIs, success } from '../../harness/checks/index.js';
import { createKey, data, encrypt, exported, fails, keyAbsent, readKey, unb64 } from './lib/api.js';

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
      expectThat(key[field] !== undefined, 'field', undefined, 'present', `the key read has ${field}`);
    }
    // Each field has the type the table gives it.
    const TYPED: Record<string, (v: unknown) => boolean> = {
      type: (v) => typeof v === 'string',
      name: (v) => typeof v === 'string',
      keys: (v) => typeof v === 'object' && v !== null && !Array.isArray(v),
      min_decryption_version: Number.isInteger,
      min_encryption_version: Number.isInteger,
    };
    for (const field of [
      'deletion_allowed',
      'derived',
      'exportable',
      'allow_plaintext_backup',
      'supports_encryption',
      'supports_decryption',
      'supports_derivation',
      'supports_signing',
      'imported',
    ])
      TYPED[field] = (v) => typeof v === 'boolean';
    for (const [field, typed] of Object.entries(TYPED))
      expectThat(
        typed(key[field]),
        'field-type',
        key[field],
        field,
        `the key read's ${field} has the type of the table`,
      );
    expectThat(key.name === name, 'name', key.name, name, 'the key read names the key');
    const created = key.keys?.['1'];
    // The service's clock only moves forward from real time, by as much as earlier tests of the
    // run moved it (days, with the directory engine's TTL tests): a creation time is not before a
    // day ago by the runner's clock, and in seconds (a millisecond value exceeds 1e12).
    const now = Date.now() / 1000;
    t.proving('transit.key.keys-map', () =>
      expectThat(
        Number.isInteger(created) && created > now - 24 * 3600 && created < 1e11,
        'keys-map',
        created,
        'an integer in seconds, not before a day ago',
        'keys maps version "1" to its creation time in integer Unix seconds',
      ),
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
      // The hmac key names its size (the default size is transit.key.hmac-default-size's own test).
      const name = await createKey(t, transit, type, type === 'hmac' ? { type, key_size: 64 } : { type });
      const key = await readKey(t, transit, name);
      expectThat(key.type === type, 'type', key.type, type, `the key created as ${type} reads as ${type}`);
      // Only what the Key types table gives: an AEAD key encrypts, decrypts and supports derivation
      // (Notes: "derivation"); an hmac key is "HMAC only", so it neither encrypts, decrypts nor signs.
      // The other flags (signing of an AEAD key, derivation of an hmac key) are not stated.
      const expected: Record<string, boolean> =
        type === 'hmac'
          ? { supports_encryption: false, supports_decryption: false, supports_signing: false }
          : { supports_encryption: true, supports_decryption: true, supports_derivation: true };
      const shown = Object.fromEntries(Object.keys(expected).map((f) => [f, key[f]]));
      t.as('transit.key.supports-by-type').check(
        await t.svc.get(`${transit.path}/keys/${name}`),
        statusIs(200),
        bodyAt(
          '/data',
          (d: unknown) => Object.entries(expected).every(([f, v]) => (d as Record<string, unknown>)?.[f] === v),
          `supports_* of ${type} follow what its type gives: ${JSON.stringify(expected)} (read: ${JSON.stringify(shown)})`,
        ),
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
      '[key material found]',
      'absent',
      'the key read contains neither the encryption key nor the HMAC key (base64 or hex)',
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
      key.length,
      32,
      'the exported hmac key of a default hmac key has 256 bits',
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
        key.length,
        size,
        `the hmac key created with key_size ${size} has ${size} bytes`,
      );
    }
  },
);

conformance(
  {
    id: 'transit.keys.list',
    level: 'MUST',
    title:
      'LIST /transit/keys returns every created key name, with lease_duration 0, lease_id empty and renewable false',
  },
  async (t) => {
    const names = [await createKey(t, transit, 'lista'), await createKey(t, transit, 'listb')];
    const ex = await t.svc.list(`${transit.path}/keys`);
    t.check(ex, statusIs(200));
    const keys = data(ex).keys as string[];
    // The names compare as a set: the document gives no order.
    for (const n of names) expectThat(keys.includes(n), 'list', keys, n, `LIST /transit/keys contains ${n}`);
    t.check(
      ex,
      bodyAt('/lease_duration', 0, 'is 0 (a LIST answer has no lease)'),
      bodyAt('/lease_id', '', 'is empty'),
      bodyAt('/renewable', false, 'is false'),
    );
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
    (s >= 200 && s < 300) || s >= 400,
    'disable-attempt',
    s,
    '2xx, or an error status',
    `${ex.request.method} ${ex.request.path} turning the flag off is refused (an error status) or answered and ignored (2xx)`,
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
      // A later config write that omits the flag does not put its default (false) back.
      t.check(
        await t.svc.post(`${transit.path}/keys/${atCreation}/config`, { body: { deletion_allowed: true } }),
        success,
      );
      t.check(
        await t.svc.get(`${transit.path}/keys/${atCreation}`),
        statusIs(200),
        bodyAt(`/data/${flag}`, true, 'stays true after a config write that omits it'),
      );
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
    t.check(await t.svc.delete(`${transit.path}/keys/${name}`), fails);
    t.check(await t.svc.get(`${transit.path}/keys/${name}`), statusIs(200));
  },
);

// Update key configuration: "| deletion_allowed | boolean | false | |", with no "Cannot be disabled
// once set" as exportable and allow_plaintext_backup carry: a write of false applies.
conformance(
  {
    id: 'transit.config.deletion-allowed-reset',
    level: 'MUST',
    title: 'POST /transit/keys/:name/config with deletion_allowed false after true turns deletion off again',
  },
  async (t) => {
    const name = await createKey(t, transit, 'undelete');
    t.precondition(
      await t.svc.post(`${transit.path}/keys/${name}/config`, { body: { deletion_allowed: true } }),
      success,
    );
    t.check(await t.svc.post(`${transit.path}/keys/${name}/config`, { body: { deletion_allowed: false } }), success);
    t.check(
      await t.svc.get(`${transit.path}/keys/${name}`),
      statusIs(200),
      bodyAt('/data/deletion_allowed', false, 'is false after config deletion_allowed false'),
    );
    t.check(await t.svc.delete(`${transit.path}/keys/${name}`), fails);
    t.check(await t.svc.get(`${transit.path}/keys/${name}`), statusIs(200));
  },
);

conformance(
  {
    id: 'transit.key.deletion-allowed-config',
    level: 'MUST',
    also: ['transit.key.delete', 'transit.keys.list'],
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
    // LIST names the key before the delete (the list rule), so its absence afterwards is the delete's.
    const listed = async () => (data(await t.svc.list(`${transit.path}/keys`)).keys ?? []) as string[];
    const before = await listed();
    t.proving('transit.keys.list', () =>
      expectThat(before.includes(name), 'list', before, name, `LIST /transit/keys names ${name} before the delete`),
    );
    t.check(await t.svc.delete(`${transit.path}/keys/${name}`), success);
    t.as('transit.key.delete').check(await t.svc.get(`${transit.path}/keys/${name}`), keyAbsent);
    t.as('transit.key.delete').check(
      await t.svc.post(`${transit.path}/decrypt/${name}`, { body: { ciphertext: ct } }),
      fails,
    );
    const after = await listed();
    t.proving('transit.key.delete', () =>
      expectThat(!after.includes(name), 'list-deleted', after, 'absent', `LIST /transit/keys no longer names ${name}`),
    );
    // A new key under the same name is another key: it works, and the deleted key's ciphertext
    // still does not decrypt ("data encrypted with it cannot be decrypted").
    t.check(await t.svc.post(`${transit.path}/keys/${name}`, { body: {} }), success);
    const fresh = await encrypt(t, transit, name, 'new key');
    t.check(
      await t.svc.post(`${transit.path}/decrypt/${name}`, { body: { ciphertext: fresh } }),
      statusIs(200),
      bodyAt('/data/plaintext', Buffer.from('new key').toString('base64'), 'is the plaintext under the new key'),
    );
    t.as('transit.key.delete').check(
      await t.svc.post(`${transit.path}/decrypt/${name}`, { body: { ciphertext: ct } }),
      fails,
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
    t.check(
      await t.svc.post(`${transit.path}/config/keys`, { body: { disable_upsert: true } }),
      statusIs(200),
      bodyAt('/data/disable_upsert', true, 'of the write answer is the value written'),
    );
    t.check(
      await t.svc.get(`${transit.path}/config/keys`),
      statusIs(200),
      bodyAt('/data/disable_upsert', true, 'is the value set'),
    );
    // And back: the setting is a plain boolean, false written after true applies.
    t.check(
      await t.svc.post(`${transit.path}/config/keys`, { body: { disable_upsert: false } }),
      statusIs(200),
      bodyAt('/data/disable_upsert', false, 'of the write answer is the value written'),
    );
    t.check(
      await t.svc.get(`${transit.path}/config/keys`),
      statusIs(200),
      bodyAt('/data/disable_upsert', false, 'is false again after disable_upsert false'),
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
    // Accepting the bounds is the Limits rule ("0 (unlimited) or >= 10 entries"), not the read's assumption.
    t.as('transit.cache-config.size').check(
      await t.svc.post(`${transit.path}/cache-config`, { body: { size: 10 } }),
      success,
    );
    t.check(
      await t.svc.get(`${transit.path}/cache-config`),
      statusIs(200),
      bodyAt('/data/size', 10, 'is the configured size'),
    );
    t.as('transit.cache-config.size').check(
      await t.svc.post(`${transit.path}/cache-config`, { body: { size: 0 } }),
      success,
    );
    t.check(
      await t.svc.get(`${transit.path}/cache-config`),
      statusIs(200),
      bodyAt('/data/size', 0, 'is the configured size'),
    );
  },
);
