// size: one test per version rule (rotate, trim, minimum versions), which share the rotated keys' set-up
/** Key versions: rotation, trim, minimum decryption and encryption versions. */
import { conformance, suite, type T } from '../../harness/index.js';
import { bodyAt, clientError, expectThat, statusIs, success } from '../../harness/checks/index.js';
import {
  b64,
  createKey,
  encrypt,
  expectVersion,
  exported,
  fails,
  keygenTimeout,
  readKey,
  rotate,
  unb64,
} from './lib/api.js';
import { publicKeyFrom } from './lib/local-crypto.js';

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
      Object.keys(key.keys),
      '1,2',
      'the key has versions 1 and 2 after one rotation',
    );
    expectVersion(t, await encrypt(t, transit, name, 'after'), 2, 'ciphertext after rotation');
    // "new encryption uses it": a data key is encrypted too, so it is wrapped with the new version.
    const dk = await t.svc.post(`${transit.path}/datakey/wrapped/${name}`);
    t.check(dk, statusIs(200));
    expectVersion(
      t,
      (dk.response.body as { data?: { ciphertext?: unknown } }).data?.ciphertext,
      2,
      'datakey after rotation',
    );
  },
);

/** The size of a version's key: AES key bytes from the export, RSA modulus or EC curve from the read. */
async function versionSize(t: T, name: string, type: string, version: string): Promise<number | string | undefined> {
  if (type === 'hmac') return unb64((await exported(t, transit, 'hmac-key', name))[version]).length;
  if (!type.startsWith('rsa') && !type.startsWith('ecdsa'))
    return unb64((await exported(t, transit, 'encryption-key', name))[version]).length;
  const info = (await readKey(t, transit, name)).keys?.[version];
  const details = publicKeyFrom(String(info?.public_key ?? '')).asymmetricKeyDetails;
  return details?.modulusLength ?? details?.namedCurve;
}

conformance(
  {
    id: 'transit.rotate.keeps-size',
    level: 'MUST',
    // Six RSA generations (create and rotate of rsa-2048, rsa-3072 and rsa-4096) take tens of
    // seconds on a busy machine: the bound is that of the key generation requests.
    timeoutMs: 180_000,
    title:
      'POST /transit/keys/:name/rotate rotates keys that encrypt and decrypt and keeps their size; other keys keep theirs if they rotate',
  },
  async (t) => {
    // The rotate row's condition is "key supports encryption and decryption": those must rotate;
    // hmac and ECDSA keys are outside it, so a refusal (any error status) is accepted for them.
    // Every type of the Key types table that encrypts and decrypts, and two outside the condition.
    const cases = [
      ['aes128-gcm96', {}, true],
      ['aes256-gcm96', {}, true],
      ['chacha20-poly1305', {}, true],
      ['rsa-2048', {}, true],
      ['rsa-3072', {}, true],
      ['rsa-4096', {}, true],
      ['hmac', { key_size: 64 }, false],
      ['ecdsa-p384', {}, false],
    ] as const;
    for (const [type, extra, mustRotate] of cases) {
      const name = await createKey(t, transit, `size-${type}`, { type, exportable: true, ...extra });
      const ex = await t.svc.post(`${transit.path}/keys/${name}/rotate`, { timeoutMs: keygenTimeout(type) });
      if (!mustRotate && ex.response.status >= 400) {
        t.note(`rotation of the ${type} key refused (${ex.response.status}): outside the documented condition`);
        continue;
      }
      t.check(ex, success);
      const [first, second] = [await versionSize(t, name, type, '1'), await versionSize(t, name, type, '2')];
      expectThat(
        first !== undefined && first === second,
        'key-size',
        second,
        first,
        `version 2 of the ${type} key has the size of version 1`,
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
      [k1.length, k2.length],
      [32, 32],
      'both versions have a 256-bit HMAC key',
    );
    expectThat(
      !k1.equals(k2),
      'hmac-key-new',
      'the same key',
      'different keys',
      'the rotation created a different HMAC key',
    );
  },
);

/**
 * A key with three versions, min_decryption_version at `min` and min_encryption_version at `enc`
 * (by default `min` too; nothing is configured when both are 0).
 */
async function threeVersions(t: T, min: number, enc = min): Promise<{ name: string; cts: string[] }> {
  const name = await createKey(t, transit, 'trim', { exportable: true });
  const cts = [await encrypt(t, transit, name, 'one')];
  await rotate(t, transit, name);
  cts.push(await encrypt(t, transit, name, 'two'));
  await rotate(t, transit, name);
  cts.push(await encrypt(t, transit, name, 'three'));
  if (min > 0 || enc > 0)
    t.check(
      await t.svc.post(`${transit.path}/keys/${name}/config`, {
        body: { min_decryption_version: min, min_encryption_version: enc },
      }),
      success,
    );
  return { name, cts };
}

/** The versions export encryption-key returns without version. */
async function exportedVersions(t: T, name: string): Promise<string> {
  return Object.keys(await exported(t, transit, 'encryption-key', name))
    .sort()
    .join(',');
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
      Object.keys(key.keys),
      '2,3',
      'only versions 2 and 3 remain after trimming to 2',
    );
    t.check(await t.svc.get(`${transit.path}/export/encryption-key/${name}/1`), fails);
    // Export without version returns every version the key holds: version 1 must be gone.
    const left = await exportedVersions(t, name);
    expectThat(left === '2,3', 'trimmed-export', left, '2,3', 'export without version returns versions 2 and 3 only');
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
    t.check(await t.svc.post(`${transit.path}/keys/${unset.name}/trim`, { body: { min_available_version: 1 } }), fails);
    const set = await threeVersions(t, 2);
    t.check(await t.svc.post(`${transit.path}/keys/${set.name}/trim`, { body: { min_available_version: 3 } }), fails);
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
    id: 'transit.trim.bounds',
    level: 'MUST',
    title:
      'POST /transit/keys/:name/trim is bounded by the lesser minimum version and refused while min_encryption_version is 0',
  },
  async (t) => {
    const lesser = await threeVersions(t, 2, 3);
    t.check(
      await t.svc.post(`${transit.path}/keys/${lesser.name}/trim`, { body: { min_available_version: 3 } }),
      fails,
    );
    t.check(
      await t.svc.post(`${transit.path}/keys/${lesser.name}/trim`, { body: { min_available_version: 2 } }),
      success,
    );
    const zero = await threeVersions(t, 2, 0);
    for (const min of [1, 2])
      t.check(
        await t.svc.post(`${transit.path}/keys/${zero.name}/trim`, { body: { min_available_version: min } }),
        fails,
      );
    t.check(
      await t.svc.post(`${transit.path}/decrypt/${zero.name}`, { body: { ciphertext: zero.cts[1] } }),
      statusIs(200),
      bodyAt('/data/plaintext', b64('two'), 'still decrypts: nothing was trimmed'),
    );
  },
);

conformance(
  {
    id: 'transit.trim.minimum-required',
    level: 'MUST',
    title: 'POST /transit/keys/:name/trim without min_available_version is refused and deletes nothing',
  },
  async (t) => {
    const { name } = await threeVersions(t, 2);
    t.check(await t.svc.post(`${transit.path}/keys/${name}/trim`, { body: {} }), clientError);
    t.check(await t.svc.get(`${transit.path}/export/encryption-key/${name}/2`), statusIs(200));
  },
);

conformance(
  {
    id: 'transit.config.min-decryption',
    level: 'MUST',
    title:
      'POST /transit/verify/:name under min_decryption_version 2 refuses a v1 signature and accepts a v2 one (rsa-2048)',
  },
  async (t) => {
    const name = await createKey(t, transit, 'mindec-sig', { type: 'rsa-2048' });
    const sign = async () => {
      const ex = await t.svc.post(`${transit.path}/sign/${name}`, { body: { input: b64('signed') } });
      t.check(ex, statusIs(200));
      return String((ex.response.body as { data?: { signature?: string } }).data?.signature);
    };
    const v1 = await sign();
    await rotate(t, transit, name);
    const v2 = await sign();
    // A third version: v2 is then the minimum without being the latest, and both must verify.
    await rotate(t, transit, name);
    const v3 = await sign();
    t.check(await t.svc.post(`${transit.path}/keys/${name}/config`, { body: { min_decryption_version: 2 } }), success);
    const verify = (signature: string) =>
      t.svc.post(`${transit.path}/verify/${name}`, { body: { input: b64('signed'), signature } });
    const old = await verify(v1);
    const refused =
      old.response.status >= 400 || (old.response.body as { data?: { valid?: unknown } }).data?.valid === false;
    expectThat(
      refused,
      'too-old',
      old.response.status,
      'error or valid false',
      'a v1 signature is not accepted (error or valid false)',
    );
    t.check(await verify(v2), statusIs(200), bodyAt('/data/valid', true, 'is true for the v2 signature'));
    t.check(await verify(v3), statusIs(200), bodyAt('/data/valid', true, 'is true for the v3 signature'));
  },
);

conformance(
  {
    id: 'transit.config.min-decryption',
    level: 'MUST',
    title: 'POST /transit/verify/:name under min_decryption_version 2 refuses a v1 HMAC and accepts a v2 one',
  },
  async (t) => {
    const { name } = await threeVersions(t, 0);
    const hmac = async (keyVersion: number) => {
      const ex = await t.svc.post(`${transit.path}/hmac/${name}`, {
        body: { input: b64('mac'), key_version: keyVersion },
      });
      t.check(ex, statusIs(200));
      return String((ex.response.body as { data?: { hmac?: string } }).data?.hmac);
    };
    const [v1, v2] = [await hmac(1), await hmac(2)];
    t.check(await t.svc.post(`${transit.path}/keys/${name}/config`, { body: { min_decryption_version: 2 } }), success);
    const verify = (mac: string) =>
      t.svc.post(`${transit.path}/verify/${name}`, { body: { input: b64('mac'), hmac: mac } });
    const old = await verify(v1);
    const refused =
      old.response.status >= 400 || (old.response.body as { data?: { valid?: unknown } }).data?.valid === false;
    expectThat(
      refused,
      'too-old',
      old.response.status,
      'error or valid false',
      'a v1 HMAC is not accepted (error or valid false)',
    );
    t.check(await verify(v2), statusIs(200), bodyAt('/data/valid', true, 'is true for the v2 HMAC'));
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
    // ">= min_decryption_version": equal is allowed.
    t.check(
      await t.svc.post(`${transit.path}/keys/${name}/config`, {
        body: { min_decryption_version: 3, min_encryption_version: 3 },
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
    // min_encryption_version 3 above min_decryption_version 2: decryption is bounded by the latter only.
    const { name, cts } = await threeVersions(t, 2, 3);
    t.check(await t.svc.post(`${transit.path}/decrypt/${name}`, { body: { ciphertext: cts[0] } }), fails);
    const ok = await t.svc.post(`${transit.path}/decrypt/${name}`, { body: { ciphertext: cts[1] } });
    t.check(ok, statusIs(200), bodyAt('/data/plaintext', b64('two'), 'is the version 2 plaintext'));
    const latest = await t.svc.post(`${transit.path}/decrypt/${name}`, { body: { ciphertext: cts[2] } });
    t.check(latest, statusIs(200), bodyAt('/data/plaintext', b64('three'), 'is the version 3 plaintext'));
  },
);

conformance(
  {
    id: 'transit.params.key-version-min-encryption',
    level: 'MUST',
    also: ['transit.key.min-encryption-zero-latest', 'transit.params.key-version-latest'],
    title: 'POST /transit/encrypt/:name with key_version below min_encryption_version fails; 0 uses the latest',
  },
  async (t) => {
    const { name } = await threeVersions(t, 2);
    t.check(
      await t.svc.post(`${transit.path}/encrypt/${name}`, { body: { plaintext: b64('x'), key_version: 1 } }),
      fails,
    );
    // min_encryption_version is a lower bound, not the version used: without key_version (default 0 =
    // latest) the output is still of the latest version.
    await t.proving('transit.params.key-version-latest', async () =>
      expectVersion(t, await encrypt(t, transit, name, 'bounded'), 3, 'ciphertext without key_version, min 2'),
    );
    t.check(await t.svc.post(`${transit.path}/keys/${name}/config`, { body: { min_encryption_version: 0 } }), success);
    await t.proving('transit.key.min-encryption-zero-latest', async () =>
      expectVersion(t, await encrypt(t, transit, name, 'latest'), 3, 'ciphertext with min_encryption_version 0'),
    );
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
