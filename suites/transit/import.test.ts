/**
 * BYOK import performed by the suite itself: it wraps its own key material with the target's
 * wrapping key and proves the import by local decryption and verification.
 */
import { createPublicKey, randomBytes, sign as nodeSign } from 'node:crypto';
import { conformance, suite, type T } from '../../harness/index.js';
import { bodyAt, expectThat, statusIs, success } from '../../harness/checks/index.js';
import { b64, createKey, data, encrypt, expectVersion, fails, keyAbsent, rotate, versioned } from './lib/api.js';
import { importedFixture, importKey as importWith, localPair, pkcs8, wrappingKeyOf } from './lib/imports.js';
import { aeadSeal, aeadTryOpen, byokWrap, verifyLocally } from './lib/local-crypto.js';

const s = suite('transit');
const transit = s.mount('transit', { type: 'transit' });

let wrappingPem = '';

s.setup(async (c) => {
  wrappingPem = await wrappingKeyOf(c, transit);
});

const MESSAGE = Buffer.from('imported keys sign this');
const importKey = (t: T, body: Record<string, unknown>, base = 'imp') => importWith(t, transit, body, base);
/** An imported key a test only needs as set-up (a refusal makes it not applicable). */
const importedKey = (t: T, body: Record<string, unknown>) => importedFixture(t, transit, body);

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
      `${key.asymmetricKeyType} ${key.asymmetricKeyDetails?.modulusLength}`,
      'rsa 4096',
      'the wrapping key is RSA with a 4096-bit modulus',
    );
  },
);

conformance(
  {
    id: 'transit.import.byok',
    level: 'MUST',
    also: ['transit.import.imported-flag', 'transit.import.material-format', 'transit.format.aead-layout'],
    title: 'POST /transit/keys/:name/import of suite-wrapped AES-256 material encrypts what the suite decrypts locally',
  },
  async (t) => {
    const material = randomBytes(32);
    t.secret(material.toString('base64'));
    // The import accepts the material as the suite encodes it (raw key bytes): the assumption.
    const name = await t.proving('transit.import.material-format', () =>
      importKey(t, { type: 'aes256-gcm96', ciphertext: byokWrap(material, wrappingPem) }),
    );
    const ct = versioned(t, await encrypt(t, transit, name, 'byok'), 'ciphertext');
    const opened = aeadTryOpen('aes256-gcm96', material, ct.bytes);
    expectThat(
      opened?.toString() === 'byok',
      'byok-encrypt',
      '?',
      'byok',
      'the target encrypts with the imported material',
    );
    const sealed = `${t.config.dialect.outputPrefix}:v1:${aeadSeal('aes256-gcm96', material, Buffer.from('sealed locally')).toString('base64')}`;
    t.check(
      await t.svc.post(`${transit.path}/decrypt/${name}`, { body: { ciphertext: sealed } }),
      statusIs(200),
      bodyAt('/data/plaintext', b64('sealed locally'), 'is what the suite sealed with the material'),
    );
    t.as('transit.import.imported-flag').check(
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
      // The import accepts a PKCS#8 DER private key as the material: the assumption.
      const name = await t.proving('transit.import.material-format', () =>
        importKey(t, { type, ciphertext: byokWrap(pkcs8(pair.privateKey), wrappingPem) }),
      );
      const ex = await t.svc.post(`${transit.path}/sign/${name}`, { body: { input: MESSAGE.toString('base64') } });
      t.check(ex, statusIs(200));
      const ok = verifyLocally(pair.publicKey, MESSAGE, versioned(t, data(ex).signature, 'signature').bytes);
      expectThat(
        ok,
        'byok-sign',
        ok,
        true,
        `the imported ${type} key signs verifiably with the suite's own public key`,
      );
    },
  );
}

conformance(
  {
    id: 'transit.import.hash-function',
    level: 'MUST',
    also: ['transit.import.material-format', 'transit.format.aead-layout'],
    title:
      'POST /transit/keys/:name/import uses hash_function for RSA-OAEP: each of SHA1 to SHA512 works and a mismatched hash fails',
  },
  async (t) => {
    const material = randomBytes(32);
    t.secret(material.toString('base64'));
    for (const [hashFunction, oaep] of [
      ['SHA1', 'sha1'],
      ['SHA224', 'sha224'],
      ['SHA256', 'sha256'],
      ['SHA384', 'sha384'],
      ['SHA512', 'sha512'],
    ] as const) {
      const name = await importKey(t, {
        type: 'aes256-gcm96',
        hash_function: hashFunction,
        ciphertext: byokWrap(material, wrappingPem, oaep),
      });
      const ct = versioned(t, await encrypt(t, transit, name, hashFunction), 'ciphertext');
      const opened = aeadTryOpen('aes256-gcm96', material, ct.bytes);
      expectThat(
        opened?.toString() === hashFunction,
        `oaep-${oaep}`,
        '?',
        hashFunction,
        `the key imported with hash_function ${hashFunction} uses the material`,
      );
    }
    const mismatch = t.unique('imp-mismatch');
    t.check(
      await t.svc.post(`${transit.path}/keys/${mismatch}/import`, {
        body: { type: 'aes256-gcm96', hash_function: 'SHA256', ciphertext: byokWrap(material, wrappingPem, 'sha1') },
      }),
      fails,
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
      fails,
    );
    t.check(await t.svc.get(`${transit.path}/keys/${name}`), keyAbsent);
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
    t.check(await t.svc.post(`${transit.path}/sign/${name}`, { body: { input: MESSAGE.toString('base64') } }), fails);
  },
);

conformance(
  {
    id: 'transit.rotate.imported-needs-allow-rotation',
    level: 'MUST',
    also: ['transit.import.material-format'],
    title: 'POST /transit/keys/:name/rotate on an imported key fails without allow_rotation and succeeds with it',
  },
  async (t) => {
    const fixed = await importedKey(t, { type: 'aes256-gcm96', ciphertext: byokWrap(randomBytes(32), wrappingPem) });
    t.check(await t.svc.post(`${transit.path}/keys/${fixed}/rotate`), fails);
    const rotating = await importedKey(t, {
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
    also: ['transit.import.material-format', 'transit.format.aead-layout'],
    title: "POST /transit/keys/:name/import_version adds version 2 with the suite's new material",
  },
  async (t) => {
    const name = await importedKey(t, { type: 'aes256-gcm96', ciphertext: byokWrap(randomBytes(32), wrappingPem) });
    const second = randomBytes(32);
    t.check(
      await t.svc.post(`${transit.path}/keys/${name}/import_version`, {
        body: { ciphertext: byokWrap(second, wrappingPem) },
      }),
      success,
    );
    const ct = expectVersion(t, await encrypt(t, transit, name, 'v2 material'), 2, 'ciphertext after import_version');
    const opened = aeadTryOpen('aes256-gcm96', second, ct.bytes);
    expectThat(
      opened?.toString() === 'v2 material',
      'import-version',
      '?',
      'v2 material',
      'version 2 uses the newly imported material',
    );
  },
);

conformance(
  {
    id: 'transit.import-version.after-rotate-refused',
    level: 'MUST',
    also: ['transit.import.material-format'],
    title: 'POST /transit/keys/:name/import_version after the imported key was rotated fails',
  },
  async (t) => {
    const name = await importedKey(t, {
      type: 'aes256-gcm96',
      allow_rotation: true,
      ciphertext: byokWrap(randomBytes(32), wrappingPem),
    });
    t.precondition(await t.svc.post(`${transit.path}/keys/${name}/rotate`), success);
    t.check(
      await t.svc.post(`${transit.path}/keys/${name}/import_version`, {
        body: { ciphertext: byokWrap(randomBytes(32), wrappingPem) },
      }),
      fails,
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
      fails,
    );
  },
);
