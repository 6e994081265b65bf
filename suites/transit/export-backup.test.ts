/**
 * Export, secure (BYOK) export, backup and restore: every exported key is proved usable by local
 * decryption and verification.
 */
import { createPublicKey, sign as nodeSign, type KeyObject } from 'node:crypto';
import { conformance, suite, type T } from '../../harness/index.js';
import { bodyAt, clientError, expectThat, statusIs, success } from '../../harness/checks/index.js';
import {
  b64,
  createKey,
  data,
  encrypt,
  exported,
  fails,
  keyAbsent,
  readKey,
  rotate,
  unb64,
  versioned,
} from './lib/api.js';
import { aeadOpen, byokUnwrap, privateKeyFrom, publicKeyFrom } from './lib/local-crypto.js';

const s = suite('transit');
const transit = s.mount('transit', { type: 'transit' });

const MESSAGE = Buffer.from('imported keys sign this');

conformance(
  {
    id: 'transit.export.key-types',
    level: 'MUST',
    also: ['transit.format.export-encoding'],
    title: 'GET /transit/export/:key_type/:name returns usable encryption, signing, HMAC and public keys',
  },
  async (t) => {
    const aes = await createKey(t, transit, 'exp-aes', { exportable: true });
    t.check(
      await t.svc.get(`${transit.path}/export/encryption-key/${aes}`),
      statusIs(200),
      bodyAt('/data/name', aes, 'is the name of the exported key'),
    );
    const ct = versioned(t, await encrypt(t, transit, aes, 'exported'), 'ciphertext');
    const aesKey = unb64((await exported(t, transit, 'encryption-key', aes))['1']);
    expectThat(
      aeadOpen('aes256-gcm96', aesKey, ct.bytes).toString() === 'exported',
      'encryption-key',
      '?',
      'exported',
      'the exported encryption key opens the ciphertext',
    );
    expectThat(
      unb64((await exported(t, transit, 'hmac-key', aes))['1']).length === 32,
      'hmac-key',
      '?',
      32,
      'the exported HMAC key has 32 bytes',
    );
    for (const type of ['ecdsa-p256', 'ed25519']) {
      const name = await createKey(t, transit, `exp-${type}`, { type, exportable: true });
      const priv = privateKeyFrom((await exported(t, transit, 'signing-key', name))['1']!);
      const pub = publicKeyFrom((await exported(t, transit, 'public-key', name))['1']!);
      const readPub = publicKeyFrom((await readKey(t, transit, name)).keys['1'].public_key);
      const der = (k: KeyObject) => k.export({ format: 'der', type: 'spki' }).toString('hex');
      expectThat(
        der(createPublicKey(priv)) === der(pub) && der(pub) === der(readPub),
        'signing-key',
        'mismatch',
        'one key pair',
        `the ${type} signing-key, public-key export and read public key belong together`,
      );
      const sig = nodeSign(type === 'ed25519' ? null : 'sha256', MESSAGE, priv).toString('base64');
      t.check(
        await t.svc.post(`${transit.path}/verify/${name}`, {
          body: { input: MESSAGE.toString('base64'), signature: `${t.config.dialect.outputPrefix}:v1:${sig}` },
        }),
        statusIs(200),
        bodyAt('/data/valid', true, `accepts a signature made locally with the exported ${type} signing key`),
      );
    }
  },
);

conformance(
  {
    id: 'transit.export.requires-exportable',
    level: 'MUST',
    title: 'GET /transit/export/:key_type/:name of the key material of a key that is not exportable fails',
  },
  async (t) => {
    const name = await createKey(t, transit, 'noexport');
    t.check(await t.svc.get(`${transit.path}/export/encryption-key/${name}`), fails);
    t.check(await t.svc.get(`${transit.path}/export/hmac-key/${name}`), fails);
    for (const type of ['ecdsa-p256', 'ed25519']) {
      const signer = await createKey(t, transit, `noexport-${type}`, { type });
      t.check(await t.svc.get(`${transit.path}/export/signing-key/${signer}`), fails);
    }
  },
);

conformance(
  {
    id: 'transit.export.version',
    level: 'MUST',
    title: 'GET /transit/export/:key_type/:name returns every version, /latest only the newest and /1 only version 1',
  },
  async (t) => {
    const name = await createKey(t, transit, 'expver', { exportable: true });
    await rotate(t, transit, name);
    await rotate(t, transit, name);
    const all = await exported(t, transit, 'encryption-key', name);
    expectThat(
      Object.keys(all).sort().join() === '1,2,3',
      'all-versions',
      Object.keys(all),
      '1,2,3',
      'export without version returns versions 1, 2 and 3',
    );
    const latest = await exported(t, transit, 'encryption-key', name, 'latest');
    expectThat(
      Object.keys(latest).join() === '3' && latest['3'] === all['3'],
      'latest',
      Object.keys(latest),
      ['3'],
      'export latest returns only version 3',
    );
    const first = await exported(t, transit, 'encryption-key', name, '1');
    expectThat(
      Object.keys(first).join() === '1' && first['1'] === all['1'],
      'one-version',
      Object.keys(first),
      ['1'],
      'export /1 returns only version 1',
    );
    // A version the key does not have is not valid: version 9 of a three-version key.
    t.check(await t.svc.get(`${transit.path}/export/encryption-key/${name}/9`), fails);
  },
);

conformance(
  {
    id: 'transit.byok-export.wraps',
    level: 'MUST',
    also: ['transit.byok-export.hash'],
    title: 'GET /transit/byok-export/:destination/:source returns each version wrapped for the destination RSA key',
  },
  async (t) => {
    const dest = await createKey(t, transit, 'byok-dest', { type: 'rsa-2048', exportable: true });
    const src = await createKey(t, transit, 'byok-src', { exportable: true });
    await rotate(t, transit, src);
    const destPrivate = privateKeyFrom((await exported(t, transit, 'encryption-key', dest))['1']!);
    t.check(
      await t.svc.get(`${transit.path}/byok-export/${dest}/${src}`),
      statusIs(200),
      bodyAt('/data/name', src, 'is the name of the source key'),
    );
    for (const type of ['aes256-gcm96', 'ed25519']) {
      const notRsa = await createKey(t, transit, `byok-${type}`, { type });
      t.check(await t.svc.get(`${transit.path}/byok-export/${notRsa}/${src}`), fails);
    }
    const material = await exported(t, transit, 'encryption-key', src);
    for (const [suffix, versions] of [
      ['', ['1', '2']],
      ['/latest', ['2']],
    ] as const) {
      const ex = await t.svc.get(`${transit.path}/byok-export/${dest}/${src}${suffix}`);
      t.check(ex, statusIs(200));
      const keys = data(ex).keys as Record<string, string>;
      for (const v of Object.values(keys)) t.secret(v);
      expectThat(
        Object.keys(keys).sort().join() === versions.join(),
        'byok-versions',
        Object.keys(keys),
        versions,
        `byok-export${suffix} returns versions ${versions.join(',')}`,
      );
      for (const v of versions) {
        let unwrapped: Buffer | undefined;
        try {
          unwrapped = byokUnwrap(unb64(keys[v]), destPrivate);
        } catch {
          unwrapped = undefined;
        }
        expectThat(
          !!unwrapped && unwrapped.equals(unb64(material[v])),
          'byok-material',
          unwrapped ? 'other bytes' : 'unwrap failed',
          'the exported key',
          `version ${v} unwraps with the destination key to the source's key material`,
        );
      }
    }
  },
);

async function backupKey(t: T, name: string): Promise<string> {
  const ex = await t.svc.get(`${transit.path}/backup/${name}`);
  t.check(ex, statusIs(200));
  const backup = String(data(ex).backup);
  t.secret(backup);
  return backup;
}

conformance(
  {
    id: 'transit.backup.restore',
    level: 'MUST',
    title: 'POST /transit/restore/:name of a backup gives a key that decrypts ciphertexts of every version',
  },
  async (t) => {
    const name = await createKey(t, transit, 'backup', { exportable: true, allow_plaintext_backup: true });
    const v1 = await encrypt(t, transit, name, 'first');
    await rotate(t, transit, name);
    const v2 = await encrypt(t, transit, name, 'second');
    const backup = await backupKey(t, name);
    const restored = t.unique('restored');
    t.check(await t.svc.post(`${transit.path}/restore/${restored}`, { body: { backup } }), success);
    t.check(
      await t.svc.post(`${transit.path}/decrypt/${restored}`, { body: { ciphertext: v1 } }),
      statusIs(200),
      bodyAt('/data/plaintext', b64('first'), 'is the v1 plaintext'),
    );
    t.check(
      await t.svc.post(`${transit.path}/decrypt/${restored}`, { body: { ciphertext: v2 } }),
      statusIs(200),
      bodyAt('/data/plaintext', b64('second'), 'is the v2 plaintext'),
    );
  },
);

conformance(
  {
    id: 'transit.restore.refused-without-force',
    level: 'MUST',
    also: ['transit.restore.force'],
    title: 'POST /transit/restore onto an existing key without force is refused and with force overwrites it',
  },
  async (t) => {
    const source = await createKey(t, transit, 'rs-src', { exportable: true, allow_plaintext_backup: true });
    const fromBackup = await encrypt(t, transit, source, 'from backup');
    const backup = await backupKey(t, source);
    const target = await createKey(t, transit, 'rs-target');
    const own = await encrypt(t, transit, target, 'own');
    t.check(await t.svc.post(`${transit.path}/restore/${target}`, { body: { backup } }), fails);
    t.check(
      await t.svc.post(`${transit.path}/decrypt/${target}`, { body: { ciphertext: own } }),
      statusIs(200),
      bodyAt('/data/plaintext', b64('own'), 'still decrypts: the key was not replaced'),
    );
    const forced = t.as('transit.restore.force');
    forced.check(await t.svc.post(`${transit.path}/restore/${target}`, { body: { backup, force: true } }), success);
    forced.check(
      await t.svc.post(`${transit.path}/decrypt/${target}`, { body: { ciphertext: fromBackup } }),
      statusIs(200),
      bodyAt('/data/plaintext', b64('from backup'), 'decrypts with the restored key'),
    );
  },
);

conformance(
  {
    id: 'transit.backup.requires-plaintext-backup',
    level: 'MUST',
    title: 'GET /transit/backup/:name of a key without allow_plaintext_backup fails',
  },
  async (t) => {
    const name = await createKey(t, transit, 'nobackup', { exportable: true });
    t.check(await t.svc.get(`${transit.path}/backup/${name}`), fails);
  },
);

conformance(
  {
    id: 'transit.restore.name',
    level: 'MUST',
    title:
      "POST /transit/restore/:name restores under the path's name, and POST /transit/restore under the key's own name",
  },
  async (t) => {
    const name = await createKey(t, transit, 'rs-own', { exportable: true, allow_plaintext_backup: true });
    const ct = await encrypt(t, transit, name, 'restored by name');
    const backup = await backupKey(t, name);
    const other = t.unique('rs-other');
    t.check(await t.svc.post(`${transit.path}/restore/${other}`, { body: { backup } }), success);
    t.check(
      await t.svc.post(`${transit.path}/decrypt/${other}`, { body: { ciphertext: ct } }),
      statusIs(200),
      bodyAt('/data/plaintext', b64('restored by name'), "decrypts under the path's name"),
    );
    await removeKey(t, name);
    t.check(await t.svc.post(`${transit.path}/restore`, { body: { backup } }), success);
    t.check(
      await t.svc.post(`${transit.path}/decrypt/${name}`, { body: { ciphertext: ct } }),
      statusIs(200),
      bodyAt('/data/plaintext', b64('restored by name'), "decrypts under the key's own name"),
    );
  },
);

/** Deletes a key the test made (deletion allowed first): set-up of what comes next. */
async function removeKey(t: T, name: string): Promise<void> {
  t.precondition(
    await t.svc.post(`${transit.path}/keys/${name}/config`, { body: { deletion_allowed: true } }),
    success,
  );
  t.precondition(await t.svc.delete(`${transit.path}/keys/${name}`), success);
}

conformance(
  {
    id: 'transit.restore.body-name',
    level: 'MUST',
    title: "POST /transit/restore with name in the body restores under the body's name",
  },
  async (t) => {
    const name = await createKey(t, transit, 'rs-body', { exportable: true, allow_plaintext_backup: true });
    const ct = await encrypt(t, transit, name, 'restored by body name');
    const backup = await backupKey(t, name);
    // The key's own name is free, so a restore that ignores the body's name is seen as such
    // (restored under the own name) rather than refused as a restore onto an existing key.
    await removeKey(t, name);
    const other = t.unique('rs-body-other');
    t.check(await t.svc.post(`${transit.path}/restore`, { body: { backup, name: other } }), success);
    t.check(
      await t.svc.post(`${transit.path}/decrypt/${other}`, { body: { ciphertext: ct } }),
      statusIs(200),
      bodyAt('/data/plaintext', b64('restored by body name'), "decrypts under the body's name"),
    );
  },
);

conformance(
  {
    id: 'transit.restore.backup-required',
    level: 'MUST',
    title: 'POST /transit/restore/:name without backup is refused and creates no key',
  },
  async (t) => {
    const name = t.unique('rs-nobackup');
    t.check(await t.svc.post(`${transit.path}/restore/${name}`, { body: {} }), clientError);
    t.check(await t.svc.get(`${transit.path}/keys/${name}`), keyAbsent);
  },
);
