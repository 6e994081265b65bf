/**
 * key_version on the operations other than encrypt (rewrap, sign, HMAC, CMAC), and the bounds
 * min_encryption_version and min_decryption_version put on them (Versioning 2: "min_decryption_version
 * and min_encryption_version bound usable versions"). Signing keys that rotate are RSA keys: the
 * rotate row's condition is "key supports encryption and decryption".
 */
import { conformance, suite, type T } from '../../harness/index.js';
import { expectThat, statusIs, success } from '../../harness/checks/index.js';
import {
  b64,
  createKey,
  data,
  encrypt,
  expectVersion,
  exported,
  fails,
  type KeyOptions,
  notAccepted,
  readKey,
  rotate,
  unb64,
} from './lib/api.js';
import { cmacLocal, publicKeyFrom, verifyLocally } from './lib/local-crypto.js';

const s = suite('transit');
const transit = s.mount('transit', { type: 'transit' });

const MESSAGE = Buffer.from('versions of one key');

/** A key with versions 1 to 3 (two rotations). */
async function threeVersions(t: T, base: string, options: KeyOptions = {}): Promise<string> {
  const name = await createKey(t, transit, base, options);
  await rotate(t, transit, name);
  await rotate(t, transit, name);
  return name;
}

async function configure(t: T, name: string, body: Record<string, unknown>): Promise<void> {
  t.check(await t.svc.post(`${transit.path}/keys/${name}/config`, { body }), success);
}

conformance(
  {
    id: 'transit.rewrap.latest',
    level: 'MUST',
    title: 'POST /transit/rewrap/:name with key_version 2 on a three-version key re-encrypts a v1 ciphertext under v2',
  },
  async (t) => {
    const name = await createKey(t, transit, 'rew-version');
    const v1 = await encrypt(t, transit, name, 'given version');
    await rotate(t, transit, name);
    await rotate(t, transit, name);
    const ex = await t.svc.post(`${transit.path}/rewrap/${name}`, { body: { ciphertext: v1, key_version: 2 } });
    t.check(ex, statusIs(200));
    expectVersion(t, data(ex).ciphertext, 2, 'ciphertext rewrapped with key_version 2');
    const back = await t.svc.post(`${transit.path}/decrypt/${name}`, { body: { ciphertext: data(ex).ciphertext } });
    t.check(back, statusIs(200));
    expectThat(
      data(back).plaintext === b64('given version'),
      'rewrap-version',
      data(back).plaintext,
      b64('given version'),
      'it decrypts to the plaintext',
    );
  },
);

conformance(
  {
    id: 'transit.params.key-version-latest',
    level: 'MUST',
    timeoutMs: 120_000,
    title:
      'POST /transit/sign/:name with key_version 1 on a three-version RSA key signs with version 1, without it with the latest',
  },
  async (t) => {
    const name = await threeVersions(t, 'sign-version', { type: 'rsa-2048' });
    const key = await readKey(t, transit, name);
    const pub = (v: string) => publicKeyFrom(String(key.keys?.[v]?.public_key));
    const old = await t.svc.post(`${transit.path}/sign/${name}`, { body: { input: b64(MESSAGE), key_version: 1 } });
    t.check(old, statusIs(200));
    const sig = expectVersion(t, data(old).signature, 1, 'signature with key_version 1');
    expectThat(
      verifyLocally(pub('1'), MESSAGE, sig.bytes, { pss: true }) &&
        !verifyLocally(pub('3'), MESSAGE, sig.bytes, { pss: true }),
      'sign-version',
      'another version',
      'version 1',
      'the signature verifies with the version 1 public key, not with version 3',
    );
    const latest = await t.svc.post(`${transit.path}/sign/${name}`, { body: { input: b64(MESSAGE) } });
    t.check(latest, statusIs(200));
    expectVersion(t, data(latest).signature, 3, 'signature without key_version');
  },
);

conformance(
  {
    id: 'transit.params.key-version-latest',
    level: 'MUST',
    requires: ['cmac'],
    title:
      'POST /transit/cmac/:name with key_version 1 on a rotated key equals the CMAC under version 1, without it version 2',
  },
  async (t) => {
    const name = await createKey(t, transit, 'cmac-version', { type: 'aes256-cmac', exportable: true });
    const rotated = await t.svc.post(`${transit.path}/keys/${name}/rotate`);
    // The rotate row's condition names keys that encrypt and decrypt; a CMAC key may not rotate.
    if (rotated.response.status >= 400)
      t.notApplicable(`rotating an aes256-cmac key was refused (${rotated.response.status})`);
    t.check(rotated, success);
    const keys = await exported(t, transit, 'cmac-key', name);
    const old = await t.svc.post(`${transit.path}/cmac/${name}`, { body: { input: b64(MESSAGE), key_version: 1 } });
    t.check(old, statusIs(200));
    const mac = expectVersion(t, data(old).cmac, 1, 'cmac with key_version 1');
    const local = cmacLocal(unb64(keys['1']), MESSAGE);
    expectThat(
      mac.bytes.equals(local),
      'cmac-version',
      mac.bytes.toString('hex'),
      local.toString('hex'),
      'it is the AES-CMAC under exported version 1',
    );
    const latest = await t.svc.post(`${transit.path}/cmac/${name}`, { body: { input: b64(MESSAGE) } });
    t.check(latest, statusIs(200));
    expectVersion(t, data(latest).cmac, 2, 'cmac without key_version');
  },
);

conformance(
  {
    id: 'transit.params.key-version-min-encryption',
    level: 'MUST',
    timeoutMs: 120_000,
    title:
      'POST /transit/hmac, rewrap and sign with key_version below min_encryption_version fail; at it they are served',
  },
  async (t) => {
    const name = await threeVersions(t, 'min-enc');
    const ciphertext = await encrypt(t, transit, name, 'bounded');
    await configure(t, name, { min_decryption_version: 2, min_encryption_version: 3 });
    const post = (op: string, key: string, body: Record<string, unknown>) =>
      t.svc.post(`${transit.path}/${op}/${key}`, { body });
    t.check(await post('hmac', name, { input: b64(MESSAGE), key_version: 2 }), fails);
    t.check(await post('rewrap', name, { ciphertext, key_version: 2 }), fails);
    t.check(await post('hmac', name, { input: b64(MESSAGE), key_version: 3 }), statusIs(200));
    t.check(await post('rewrap', name, { ciphertext, key_version: 3 }), statusIs(200));
    const signer = await threeVersions(t, 'min-enc-sign', { type: 'rsa-2048' });
    await configure(t, signer, { min_decryption_version: 2, min_encryption_version: 3 });
    t.check(await post('sign', signer, { input: b64(MESSAGE), key_version: 2 }), fails);
    t.check(await post('sign', signer, { input: b64(MESSAGE), key_version: 3 }), statusIs(200));
  },
);

conformance(
  {
    id: 'transit.config.min-decryption',
    level: 'MUST',
    title:
      'POST /transit/hmac/:name with a version below min_decryption_version fails, and its older HMAC no longer verifies',
  },
  async (t) => {
    const name = await threeVersions(t, 'min-dec-hmac');
    const before = await t.svc.post(`${transit.path}/hmac/${name}`, { body: { input: b64(MESSAGE), key_version: 1 } });
    t.check(before, statusIs(200));
    await configure(t, name, { min_decryption_version: 2 });
    t.check(await t.svc.post(`${transit.path}/hmac/${name}`, { body: { input: b64(MESSAGE), key_version: 1 } }), fails);
    const verify = await t.svc.post(`${transit.path}/verify/${name}`, {
      body: { input: b64(MESSAGE), hmac: data(before).hmac },
    });
    expectThat(
      notAccepted(verify),
      'min-decryption-hmac',
      { status: verify.response.status, valid: data(verify).valid },
      'error or valid false',
      'an HMAC of version 1 is not accepted once min_decryption_version is 2 (error or valid false)',
    );
    const usable = await t.svc.post(`${transit.path}/hmac/${name}`, { body: { input: b64(MESSAGE), key_version: 2 } });
    t.check(usable, statusIs(200));
    expectVersion(t, data(usable).hmac, 2, 'hmac with key_version 2');
  },
);
