/**
 * Export, secure export, backup and restore, and BYOK import performed by the suite itself: it
 * wraps its own key material with the target's wrapping key and proves the import by local
 * decryption and verification.
 */
import { createPublicKey, generateKeyPair, randomBytes, sign as nodeSign, type KeyObject } from 'node:crypto';
import { conformance, suite, type T } from '../../harness/index.js';
import { bodyAt, clientError, expectThat, statusIs, success } from '../../harness/checks/index.js';
import {
  b64,
  createKey,
  data,
  encrypt,
  expectVersion,
  exported,
  KEYGEN_TIMEOUT_MS,
  readKey,
  rotate,
  unb64,
  versioned,
} from './lib/api.js';
import {
  aeadOpen,
  aeadSeal,
  byokUnwrap,
  byokWrap,
  privateKeyFrom,
  publicKeyFrom,
  verifyLocally,
} from './lib/local-crypto.js';

const s = suite('transit');
const transit = s.mount('transit', { type: 'transit' });

let wrappingPem = '';

type LocalType = 'ecdsa-p256' | 'ed25519' | 'rsa-2048';
interface KeyPair {
  privateKey: KeyObject;
  publicKey: KeyObject;
}
const localPairs = new Map<LocalType, Promise<KeyPair>>();

/**
 * A local key pair of `type`, made once for the file when a test first needs it, on libuv's thread
 * pool: RSA generation costs 100-200 ms of CPU, which blocked the worker when done up front.
 */
function localPair(type: LocalType): Promise<KeyPair> {
  let pair = localPairs.get(type);
  if (!pair) {
    pair = new Promise<KeyPair>((resolve, reject) => {
      const done = (err: Error | null, publicKey: KeyObject, privateKey: KeyObject) =>
        err ? reject(err) : resolve({ publicKey, privateKey });
      if (type === 'ecdsa-p256') generateKeyPair('ec', { namedCurve: 'P-256' }, done);
      else if (type === 'ed25519') generateKeyPair('ed25519', {}, done);
      else generateKeyPair('rsa', { modulusLength: 2048 }, done);
    });
    localPairs.set(type, pair);
  }
  return pair;
}

s.setup(async (c) => {
  // The first read generates the 4096-bit wrapping key.
  const ex = await c.svc.get(`${transit.path}/wrapping_key`, { timeoutMs: KEYGEN_TIMEOUT_MS });
  if (ex.response.status !== 200) throw new Error(`GET wrapping_key answered ${ex.response.status}`);
  wrappingPem = String((ex.response.body as { data?: { public_key?: string } }).data?.public_key ?? '');
});

const MESSAGE = Buffer.from('imported keys sign this');
const pkcs8 = (k: KeyObject) => k.export({ format: 'der', type: 'pkcs8' });

async function importKey(t: T, body: Record<string, unknown>, base = 'imp'): Promise<string> {
  const name = t.unique(base);
  t.check(await t.svc.post(`${transit.path}/keys/${name}/import`, { body }), success);
  return name;
}

conformance(
  {
    id: 'transit.wrapping-key.rsa-4096',
    level: 'MUST',
    title: 'GET /transit/wrapping_key returns a 4096-bit RSA public key',
  },
  async (t) => {
    const ex = await t.svc.get(`${transit.path}/wrapping_key`);
    t.check(ex, statusIs(200));
    const key = createPublicKey(String(data(ex).public_key));
    expectThat(
      key.asymmetricKeyType === 'rsa' && key.asymmetricKeyDetails?.modulusLength === 4096,
      'wrapping-key',
      'the wrapping key is RSA with a 4096-bit modulus',
      'rsa 4096',
      `${key.asymmetricKeyType} ${key.asymmetricKeyDetails?.modulusLength}`,
    );
  },
);

conformance(
  {
    id: 'transit.export.key-types',
    level: 'MUST',
    also: ['transit.format.export-encoding'],
    title: 'GET /transit/export/:key_type/:name returns usable encryption, signing, HMAC and public keys',
  },
  async (t) => {
    const aes = await createKey(t, transit, 'exp-aes', { exportable: true });
    const ct = versioned(t, await encrypt(t, transit, aes, 'exported'), 'ciphertext');
    const aesKey = unb64((await exported(t, transit, 'encryption-key', aes))['1']);
    expectThat(
      aeadOpen('aes256-gcm96', aesKey, ct.bytes).toString() === 'exported',
      'encryption-key',
      'the exported encryption key opens the ciphertext',
      'exported',
      '?',
    );
    expectThat(
      unb64((await exported(t, transit, 'hmac-key', aes))['1']).length === 32,
      'hmac-key',
      'the exported HMAC key has 32 bytes',
      32,
      '?',
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
        `the ${type} signing-key, public-key export and read public key belong together`,
        'one key pair',
        'mismatch',
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
    title: 'GET /transit/export/encryption-key/:name of a key that is not exportable fails',
  },
  async (t) => {
    const name = await createKey(t, transit, 'noexport');
    t.check(await t.svc.get(`${transit.path}/export/encryption-key/${name}`), clientError);
    t.check(await t.svc.get(`${transit.path}/export/hmac-key/${name}`), clientError);
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
      'export without version returns versions 1, 2 and 3',
      '1,2,3',
      Object.keys(all),
    );
    const latest = await exported(t, transit, 'encryption-key', name, 'latest');
    expectThat(
      Object.keys(latest).join() === '3' && latest['3'] === all['3'],
      'latest',
      'export latest returns only version 3',
      ['3'],
      Object.keys(latest),
    );
    const first = await exported(t, transit, 'encryption-key', name, '1');
    expectThat(
      Object.keys(first).join() === '1' && first['1'] === all['1'],
      'one-version',
      'export /1 returns only version 1',
      ['1'],
      Object.keys(first),
    );
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
        `byok-export${suffix} returns versions ${versions.join(',')}`,
        versions,
        Object.keys(keys),
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
          `version ${v} unwraps with the destination key to the source's key material`,
          'the exported key',
          unwrapped ? 'other bytes' : 'unwrap failed',
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
    t.check(await t.svc.post(`${transit.path}/restore/${target}`, { body: { backup } }), clientError);
    t.check(
      await t.svc.post(`${transit.path}/decrypt/${target}`, { body: { ciphertext: own } }),
      statusIs(200),
      bodyAt('/data/plaintext', b64('own'), 'still decrypts: the key was not replaced'),
    );
    t.check(await t.svc.post(`${transit.path}/restore/${target}`, { body: { backup, force: true } }), success);
    t.check(
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
    t.check(await t.svc.get(`${transit.path}/backup/${name}`), clientError);
  },
);

conformance(
  {
    id: 'transit.import.byok',
    level: 'MUST',
    also: ['transit.import.imported-flag', 'transit.import.material-format'],
    title: 'POST /transit/keys/:name/import of suite-wrapped AES-256 material encrypts what the suite decrypts locally',
  },
  async (t) => {
    const material = randomBytes(32);
    t.secret(material.toString('base64'));
    const name = await importKey(t, { type: 'aes256-gcm96', ciphertext: byokWrap(material, wrappingPem) });
    const ct = versioned(t, await encrypt(t, transit, name, 'byok'), 'ciphertext');
    expectThat(
      aeadOpen('aes256-gcm96', material, ct.bytes).toString() === 'byok',
      'byok-encrypt',
      'the target encrypts with the imported material',
      'byok',
      '?',
    );
    const sealed = `${t.config.dialect.outputPrefix}:v1:${aeadSeal('aes256-gcm96', material, Buffer.from('sealed locally')).toString('base64')}`;
    t.check(
      await t.svc.post(`${transit.path}/decrypt/${name}`, { body: { ciphertext: sealed } }),
      statusIs(200),
      bodyAt('/data/plaintext', b64('sealed locally'), 'is what the suite sealed with the material'),
    );
    t.check(
      await t.svc.get(`${transit.path}/keys/${name}`),
      statusIs(200),
      bodyAt('/data/imported', true, 'is true for an imported key'),
    );
  },
);

for (const type of ['ecdsa-p256', 'ed25519', 'rsa-2048'] as const) {
  conformance(
    {
      id: 'transit.import.byok',
      level: 'MUST',
      also: ['transit.import.material-format'],
      title: `POST /transit/keys/:name/import of a suite-wrapped ${type} private key signs verifiably with the suite's public key`,
    },
    async (t) => {
      const pair = await localPair(type);
      const name = await importKey(t, { type, ciphertext: byokWrap(pkcs8(pair.privateKey), wrappingPem) });
      const ex = await t.svc.post(`${transit.path}/sign/${name}`, { body: { input: MESSAGE.toString('base64') } });
      t.check(ex, statusIs(200));
      const ok = verifyLocally(pair.publicKey, MESSAGE, versioned(t, data(ex).signature, 'signature').bytes);
      expectThat(
        ok,
        'byok-sign',
        `the imported ${type} key signs verifiably with the suite's own public key`,
        true,
        ok,
      );
    },
  );
}

conformance(
  {
    id: 'transit.import.hash-function',
    level: 'MUST',
    title: 'POST /transit/keys/:name/import uses hash_function for RSA-OAEP: SHA512 works and a mismatched hash fails',
  },
  async (t) => {
    const material = randomBytes(32);
    const name = await importKey(t, {
      type: 'aes256-gcm96',
      hash_function: 'SHA512',
      ciphertext: byokWrap(material, wrappingPem, 'sha512'),
    });
    const ct = versioned(t, await encrypt(t, transit, name, 'sha512'), 'ciphertext');
    expectThat(
      aeadOpen('aes256-gcm96', material, ct.bytes).toString() === 'sha512',
      'oaep-sha512',
      'the key imported with SHA512 uses the material',
      'sha512',
      '?',
    );
    const mismatch = t.unique('imp-mismatch');
    t.check(
      await t.svc.post(`${transit.path}/keys/${mismatch}/import`, {
        body: { type: 'aes256-gcm96', hash_function: 'SHA256', ciphertext: byokWrap(material, wrappingPem, 'sha1') },
      }),
      clientError,
    );
  },
);

conformance(
  {
    id: 'transit.import.bad-ciphertext',
    level: 'MUST',
    title: 'POST /transit/keys/:name/import with a ciphertext not wrapped by the wrapping key fails',
  },
  async (t) => {
    const name = t.unique('imp-bad');
    t.check(
      await t.svc.post(`${transit.path}/keys/${name}/import`, {
        body: { type: 'aes256-gcm96', ciphertext: randomBytes(560).toString('base64') },
      }),
      clientError,
    );
    t.check(await t.svc.get(`${transit.path}/keys/${name}`), statusIs(404));
  },
);

conformance(
  {
    id: 'transit.import.public-key',
    level: 'MUST',
    title: "POST /transit/keys/:name/import with only public_key verifies the suite's signatures and cannot sign",
  },
  async (t) => {
    const pair = await localPair('ecdsa-p256');
    const name = await importKey(t, {
      type: 'ecdsa-p256',
      public_key: pair.publicKey.export({ format: 'pem', type: 'spki' }).toString(),
    });
    const sig = nodeSign('sha256', MESSAGE, pair.privateKey).toString('base64');
    t.check(
      await t.svc.post(`${transit.path}/verify/${name}`, {
        body: { input: MESSAGE.toString('base64'), signature: `${t.config.dialect.outputPrefix}:v1:${sig}` },
      }),
      statusIs(200),
      bodyAt('/data/valid', true, 'is true for a signature of the matching private key'),
    );
    t.check(
      await t.svc.post(`${transit.path}/sign/${name}`, { body: { input: MESSAGE.toString('base64') } }),
      clientError,
    );
  },
);

conformance(
  {
    id: 'transit.rotate.imported-needs-allow-rotation',
    level: 'MUST',
    title: 'POST /transit/keys/:name/rotate on an imported key fails without allow_rotation and succeeds with it',
  },
  async (t) => {
    const fixed = await importKey(t, { type: 'aes256-gcm96', ciphertext: byokWrap(randomBytes(32), wrappingPem) });
    t.check(await t.svc.post(`${transit.path}/keys/${fixed}/rotate`), clientError);
    const rotating = await importKey(t, {
      type: 'aes256-gcm96',
      allow_rotation: true,
      ciphertext: byokWrap(randomBytes(32), wrappingPem),
    });
    await rotate(t, transit, rotating);
    expectVersion(t, await encrypt(t, transit, rotating, 'x'), 2, 'ciphertext after rotating the imported key');
  },
);

conformance(
  {
    id: 'transit.import-version.new-version',
    level: 'MUST',
    title: "POST /transit/keys/:name/import_version adds version 2 with the suite's new material",
  },
  async (t) => {
    const name = await importKey(t, { type: 'aes256-gcm96', ciphertext: byokWrap(randomBytes(32), wrappingPem) });
    const second = randomBytes(32);
    t.check(
      await t.svc.post(`${transit.path}/keys/${name}/import_version`, {
        body: { ciphertext: byokWrap(second, wrappingPem) },
      }),
      success,
    );
    const ct = expectVersion(t, await encrypt(t, transit, name, 'v2 material'), 2, 'ciphertext after import_version');
    expectThat(
      aeadOpen('aes256-gcm96', second, ct.bytes).toString() === 'v2 material',
      'import-version',
      'version 2 uses the newly imported material',
      'v2 material',
      '?',
    );
  },
);

conformance(
  {
    id: 'transit.import-version.after-rotate-refused',
    level: 'MUST',
    title: 'POST /transit/keys/:name/import_version after the imported key was rotated fails',
  },
  async (t) => {
    const name = await importKey(t, {
      type: 'aes256-gcm96',
      allow_rotation: true,
      ciphertext: byokWrap(randomBytes(32), wrappingPem),
    });
    await rotate(t, transit, name);
    t.check(
      await t.svc.post(`${transit.path}/keys/${name}/import_version`, {
        body: { ciphertext: byokWrap(randomBytes(32), wrappingPem) },
      }),
      clientError,
    );
  },
);

conformance(
  {
    id: 'transit.import-version.imported-only',
    level: 'MUST',
    title: 'POST /transit/keys/:name/import_version on a key generated by the service fails',
  },
  async (t) => {
    const name = await createKey(t, transit, 'generated');
    t.check(
      await t.svc.post(`${transit.path}/keys/${name}/import_version`, {
        body: { ciphertext: byokWrap(randomBytes(32), wrappingPem) },
      }),
      clientError,
    );
  },
);
