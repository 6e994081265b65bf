// size: one test per import option of the document, each needing the wrapping steps above it
/**
 * Import parameters one by one (Import key and Import key version tables): every listed type,
 * the required fields, derived and context, the flags, the minimum rotation period, hmac keys, the
 * public key derived from a private one, public-key-only keys, and import_version's version. The
 * suite wraps its own material (assumption transit.import.material-format) and checks the result
 * with its own cryptography.
 */
import { constants, createHmac, type KeyObject, randomBytes, sign as nodeSign } from 'node:crypto';
import { conformance, suite, type T } from '../../harness/index.js';
import { bodyAt, clientError, expectThat, statusIs, success } from '../../harness/checks/index.js';
import { b64, data, encrypt, expectVersion, exported, fails, keyAbsent, readKey, unb64, versioned } from './lib/api.js';
import {
  importedFixture,
  importKey,
  type LocalType,
  localPair,
  pkcs8,
  spkiHex,
  spkiPem,
  wrappingKeyOf,
} from './lib/imports.js';
import { aeadTryOpen, byokWrap, publicKeyFrom, verifyLocally } from './lib/local-crypto.js';

const s = suite('transit');
const transit = s.mount('transit', { type: 'transit' });

let wrappingPem = '';

s.setup(async (c) => {
  wrappingPem = await wrappingKeyOf(c, transit);
});

const MESSAGE = Buffer.from('imported material signs and encrypts this');
const FORMAT = 'transit.import.material-format';

/** Material for a symmetric import, masked in reports. */
function material(t: T, bytes = 32): Buffer {
  const m = randomBytes(bytes);
  t.secret(m.toString('base64'));
  return m;
}

/** A signature made locally with `privateKey` as the service signs by default (RSA: PSS), in its output form. */
function localSignature(t: T, type: LocalType, privateKey: KeyObject): string {
  const sig =
    type === 'ed25519'
      ? nodeSign(null, MESSAGE, privateKey)
      : type.startsWith('rsa')
        ? nodeSign('sha256', MESSAGE, { key: privateKey, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: 32 })
        : nodeSign('sha256', MESSAGE, privateKey);
  return `${t.config.dialect.outputPrefix}:v1:${sig.toString('base64')}`;
}

conformance(
  {
    id: 'transit.import.byok',
    level: 'MUST',
    also: [FORMAT, 'transit.format.aead-layout'],
    title: 'POST /transit/keys/:name/import of aes128-gcm96 and chacha20-poly1305 material encrypts with that material',
  },
  async (t) => {
    for (const [type, bytes] of [
      ['aes128-gcm96', 16],
      ['chacha20-poly1305', 32],
    ] as const) {
      const key = material(t, bytes);
      const name = await importKey(t, transit, { type, ciphertext: byokWrap(key, wrappingPem) });
      const ct = versioned(t, await encrypt(t, transit, name, type), 'ciphertext');
      const opened = aeadTryOpen(type, key, ct.bytes);
      expectThat(
        opened?.toString() === type,
        'byok-type',
        '?',
        type,
        `the imported ${type} key encrypts with its material`,
      );
    }
  },
);

for (const type of ['ecdsa-p384', 'ecdsa-p521', 'rsa-3072', 'rsa-4096'] as const) {
  conformance(
    {
      id: 'transit.import.byok',
      level: 'MUST',
      also: [FORMAT],
      title: `POST /transit/keys/:name/import of a ${type} private key signs verifiably with the suite's public key`,
    },
    async (t) => {
      const pair = await localPair(type);
      const name = await importKey(t, transit, { type, ciphertext: byokWrap(pkcs8(pair.privateKey), wrappingPem) });
      const ex = await t.svc.post(`${transit.path}/sign/${name}`, { body: { input: b64(MESSAGE) } });
      t.check(ex, statusIs(200));
      const ok = verifyLocally(pair.publicKey, MESSAGE, versioned(t, data(ex).signature, 'signature').bytes);
      expectThat(ok, 'byok-sign', ok, true, `the imported ${type} key signs verifiably with the suite's public key`);
    },
  );
}

conformance(
  {
    id: 'transit.import.type-required',
    level: 'MUST',
    also: [FORMAT],
    title: 'POST /transit/keys/:name/import without type is refused and creates no key',
  },
  async (t) => {
    const name = t.unique('imp-notype');
    const ex = await t.svc.post(`${transit.path}/keys/${name}/import`, {
      body: { ciphertext: byokWrap(material(t), wrappingPem) },
    });
    t.check(ex, clientError);
    t.check(await t.svc.get(`${transit.path}/keys/${name}`), keyAbsent);
  },
);

conformance(
  {
    id: 'transit.import.material-required',
    level: 'MUST',
    title: 'POST /transit/keys/:name/import with neither ciphertext nor public_key is refused and creates no key',
  },
  async (t) => {
    const name = t.unique('imp-nomaterial');
    t.check(await t.svc.post(`${transit.path}/keys/${name}/import`, { body: { type: 'aes256-gcm96' } }), clientError);
    t.check(await t.svc.get(`${transit.path}/keys/${name}`), keyAbsent);
  },
);

conformance(
  {
    id: 'transit.import.derived',
    level: 'MUST',
    also: [FORMAT],
    title:
      'POST /transit/keys/:name/import with derived true needs a context; the key then refuses encrypt without context',
  },
  async (t) => {
    const without = t.unique('imp-derived-noctx');
    t.check(
      await t.svc.post(`${transit.path}/keys/${without}/import`, {
        body: { type: 'aes256-gcm96', derived: true, ciphertext: byokWrap(material(t), wrappingPem) },
      }),
      clientError,
    );
    t.check(await t.svc.get(`${transit.path}/keys/${without}`), keyAbsent);
    const context = b64('imported context');
    const name = await importKey(t, transit, {
      type: 'aes256-gcm96',
      derived: true,
      context,
      ciphertext: byokWrap(material(t), wrappingPem),
    });
    t.check(await t.svc.get(`${transit.path}/keys/${name}`), statusIs(200), bodyAt('/data/derived', true, 'is true'));
    t.check(
      await t.svc.post(`${transit.path}/encrypt/${name}`, { body: { plaintext: b64('no context') } }),
      clientError,
    );
    const ct = await encrypt(t, transit, name, 'with context', { context });
    t.check(
      await t.svc.post(`${transit.path}/decrypt/${name}`, { body: { ciphertext: ct, context } }),
      statusIs(200),
      bodyAt('/data/plaintext', b64('with context'), 'is the plaintext encrypted under the context'),
    );
  },
);

conformance(
  {
    id: 'transit.import.flags',
    level: 'MUST',
    also: [FORMAT],
    title:
      'POST /transit/keys/:name/import sets exportable and allow_plaintext_backup only when asked, and they cannot be disabled',
  },
  async (t) => {
    const plain = await importKey(t, transit, { type: 'aes256-gcm96', ciphertext: byokWrap(material(t), wrappingPem) });
    const read = await readKey(t, transit, plain);
    expectThat(
      read.exportable === false && read.allow_plaintext_backup === false,
      'import-flags-default',
      { exportable: read.exportable, allow_plaintext_backup: read.allow_plaintext_backup },
      { exportable: false, allow_plaintext_backup: false },
      'a key imported without the flags reads exportable and allow_plaintext_backup false',
    );
    t.check(await t.svc.get(`${transit.path}/export/encryption-key/${plain}`), fails);
    const key = material(t);
    const flagged = await importKey(t, transit, {
      type: 'aes256-gcm96',
      exportable: true,
      allow_plaintext_backup: true,
      ciphertext: byokWrap(key, wrappingPem),
    });
    const out = unb64((await exported(t, transit, 'encryption-key', flagged))['1']);
    expectThat(
      out.equals(key),
      'import-exportable',
      '?',
      'the material',
      'the exportable imported key exports its material',
    );
    for (const flag of ['exportable', 'allow_plaintext_backup']) {
      const ex = await t.svc.post(`${transit.path}/keys/${flagged}/config`, { body: { [flag]: false } });
      expectThat(
        ex.response.status >= 200 && (ex.response.status < 300 || ex.response.status >= 400),
        'disable-attempt',
        ex.response.status,
        '2xx, or an error status',
        `config ${flag} false is refused or ignored`,
      );
      t.check(
        await t.svc.get(`${transit.path}/keys/${flagged}`),
        statusIs(200),
        bodyAt(`/data/${flag}`, true, 'stays true: it cannot be disabled once set'),
      );
    }
  },
);

conformance(
  {
    id: 'transit.create.auto-rotate-min',
    level: 'MUST',
    also: [FORMAT],
    title: 'POST /transit/keys/:name/import with auto_rotate_period under one hour is refused; one hour is accepted',
  },
  async (t) => {
    const short = t.unique('imp-rot30m');
    t.check(
      await t.svc.post(`${transit.path}/keys/${short}/import`, {
        body: {
          type: 'aes256-gcm96',
          allow_rotation: true,
          auto_rotate_period: '30m',
          ciphertext: byokWrap(material(t), wrappingPem),
        },
      }),
      clientError,
    );
    t.check(await t.svc.get(`${transit.path}/keys/${short}`), keyAbsent);
    await importKey(t, transit, {
      type: 'aes256-gcm96',
      allow_rotation: true,
      auto_rotate_period: '1h',
      ciphertext: byokWrap(material(t), wrappingPem),
    });
  },
);

conformance(
  {
    id: 'transit.import.hmac',
    level: 'MUST',
    also: [FORMAT, 'transit.import.byok'],
    title: 'POST /transit/keys/:name/import of type hmac computes HMACs with the imported material',
  },
  async (t) => {
    const key = material(t);
    const name = await importKey(t, transit, { type: 'hmac', ciphertext: byokWrap(key, wrappingPem) });
    const ex = await t.svc.post(`${transit.path}/hmac/${name}`, { body: { input: b64(MESSAGE) } });
    t.check(ex, statusIs(200));
    const mac = versioned(t, data(ex).hmac, 'hmac').bytes;
    const local = createHmac('sha256', key).update(MESSAGE).digest();
    // Accepting an hmac import is the assumption; an accepted import then uses the material sent
    // (the import rule: the key is usable with that material).
    t.proving('transit.import.byok', () =>
      expectThat(
        mac.equals(local),
        'hmac-import',
        'different',
        'equal',
        'the HMAC is HMAC-SHA256 under the imported material',
      ),
    );
  },
);

for (const type of ['ecdsa-p256', 'ed25519', 'rsa-2048'] as const) {
  conformance(
    {
      id: 'transit.import.derived-public-key',
      level: 'MUST',
      also: [FORMAT],
      title: `POST /transit/keys/:name/import of a ${type} private key derives its public key: the read shows it and verify uses it`,
    },
    async (t) => {
      const pair = await localPair(type);
      const name = await importKey(t, transit, { type, ciphertext: byokWrap(pkcs8(pair.privateKey), wrappingPem) });
      const shown = (await readKey(t, transit, name)).keys?.['1']?.public_key;
      let same = false;
      try {
        same = typeof shown === 'string' && spkiHex(publicKeyFrom(shown)) === spkiHex(pair.publicKey);
      } catch {
        same = false;
      }
      expectThat(
        same,
        'derived-public-key',
        shown,
        'that key',
        `keys.1.public_key is the public key of the imported ${type} key`,
      );
      t.check(
        await t.svc.post(`${transit.path}/verify/${name}`, {
          body: { input: b64(MESSAGE), signature: localSignature(t, type, pair.privateKey) },
        }),
        statusIs(200),
        bodyAt('/data/valid', true, 'is true for a signature of the imported private key'),
      );
    },
  );
}

conformance(
  {
    id: 'transit.import.public-key',
    level: 'MUST',
    title: 'POST /transit/keys/:name/import of an rsa-2048 public key only encrypts but cannot decrypt',
  },
  async (t) => {
    const pair = await localPair('rsa-2048');
    const name = await importKey(t, transit, { type: 'rsa-2048', public_key: spkiPem(pair.publicKey) });
    const ex = await t.svc.post(`${transit.path}/encrypt/${name}`, { body: { plaintext: b64('public only') } });
    t.check(ex, statusIs(200));
    const ct = expectVersion(t, data(ex).ciphertext, 1, 'ciphertext of the public-key-only key');
    t.check(
      await t.svc.post(`${transit.path}/decrypt/${name}`, {
        body: { ciphertext: `${t.config.dialect.outputPrefix}:v1:${ct.bytes.toString('base64')}` },
      }),
      fails,
    );
  },
);

conformance(
  {
    id: 'transit.import-version.new-version',
    level: 'MUST',
    also: [FORMAT, 'transit.format.aead-layout'],
    title: 'POST /transit/keys/:name/import_version with hash_function SHA512 adds a version with that material',
  },
  async (t) => {
    const name = await importedFixture(t, transit, {
      type: 'aes256-gcm96',
      ciphertext: byokWrap(material(t), wrappingPem),
    });
    const second = material(t);
    t.check(
      await t.svc.post(`${transit.path}/keys/${name}/import_version`, {
        body: { hash_function: 'SHA512', ciphertext: byokWrap(second, wrappingPem, 'sha512') },
      }),
      success,
    );
    const ct = expectVersion(
      t,
      await encrypt(t, transit, name, 'sha512 version'),
      2,
      'ciphertext after import_version',
    );
    const opened = aeadTryOpen('aes256-gcm96', second, ct.bytes);
    expectThat(
      opened?.toString() === 'sha512 version',
      'import-version-hash',
      '?',
      'equal',
      'version 2 uses the SHA512-wrapped material',
    );
  },
);

conformance(
  {
    id: 'transit.import-version.new-version',
    level: 'MUST',
    title: 'POST /transit/keys/:name/import_version with public_key adds a version that verifies the new key pair',
  },
  async (t) => {
    const [first, next] = [await localPair('ecdsa-p256'), await localPair('ecdsa-p256', 1)];
    const name = await importedFixture(t, transit, { type: 'ecdsa-p256', public_key: spkiPem(first.publicKey) });
    t.check(
      await t.svc.post(`${transit.path}/keys/${name}/import_version`, {
        body: { public_key: spkiPem(next.publicKey) },
      }),
      success,
    );
    const sig = nodeSign('sha256', MESSAGE, next.privateKey).toString('base64');
    t.check(
      await t.svc.post(`${transit.path}/verify/${name}`, {
        body: { input: b64(MESSAGE), signature: `${t.config.dialect.outputPrefix}:v2:${sig}` },
      }),
      statusIs(200),
      bodyAt('/data/valid', true, 'is true for a v2 signature of the key pair imported as version 2'),
    );
  },
);

/** Versions of the key and the version a signature of `name` carries, verified with `pair`. */
async function signsAs(t: T, name: string, pair: Awaited<ReturnType<typeof localPair>>, keyVersion: number) {
  const ex = await t.svc.post(`${transit.path}/sign/${name}`, {
    body: { input: b64(MESSAGE), key_version: keyVersion },
  });
  t.check(ex, statusIs(200));
  const sig = expectVersion(t, data(ex).signature, keyVersion, 'signature');
  const ok = verifyLocally(pair.publicKey, MESSAGE, sig.bytes);
  expectThat(ok, 'completed-version', ok, true, `version ${keyVersion} signs with the imported private key`);
}

conformance(
  {
    id: 'transit.import-version.update-version',
    level: 'MUST',
    also: [FORMAT],
    title: 'POST /transit/keys/:name/import_version with version 1 completes version 1 with its private key',
  },
  async (t) => {
    const [first, next] = [await localPair('ecdsa-p256'), await localPair('ecdsa-p256', 1)];
    const name = await importedFixture(t, transit, { type: 'ecdsa-p256', public_key: spkiPem(first.publicKey) });
    t.precondition(
      await t.svc.post(`${transit.path}/keys/${name}/import_version`, {
        body: { public_key: spkiPem(next.publicKey) },
      }),
      success,
    );
    t.check(
      await t.svc.post(`${transit.path}/keys/${name}/import_version`, {
        body: { version: 1, ciphertext: byokWrap(pkcs8(first.privateKey), wrappingPem) },
      }),
      success,
    );
    const versions = Object.keys((await readKey(t, transit, name)).keys ?? {}).sort();
    expectThat(versions.join() === '1,2', 'versions', versions, '1,2', 'the key still has versions 1 and 2');
    await signsAs(t, name, first, 1);
  },
);

conformance(
  {
    id: 'transit.import-version.update-version',
    level: 'MUST',
    also: [FORMAT],
    title:
      'POST /transit/keys/:name/import_version without version completes a latest version that lacks its private key',
  },
  async (t) => {
    const pair = await localPair('ecdsa-p256');
    const name = await importedFixture(t, transit, { type: 'ecdsa-p256', public_key: spkiPem(pair.publicKey) });
    t.check(
      await t.svc.post(`${transit.path}/keys/${name}/import_version`, {
        body: { ciphertext: byokWrap(pkcs8(pair.privateKey), wrappingPem) },
      }),
      success,
    );
    const versions = Object.keys((await readKey(t, transit, name)).keys ?? {});
    expectThat(versions.join() === '1', 'versions', versions, '1', 'the key still has version 1 only');
    await signsAs(t, name, pair, 1);
  },
);
