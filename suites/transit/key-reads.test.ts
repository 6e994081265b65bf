/**
 * What a key read shows (Resources > Named key) read back with values that tell a default from a
 * coincidence: the flags of a fresh key, the minimum versions as configured and as defaulted on a
 * key with three versions, supports_* of the asymmetric types, no private key material; and the
 * mount's cache size before any write.
 */
import { conformance, suite, type T } from '../../harness/index.js';
import { bodyAt, expectThat, statusIs, success } from '../../harness/checks/index.js';
import { b64, createKey, exported, keygenTimeout, readKey, rotate } from './lib/api.js';
import { privateKeyFrom, publicKeyFrom } from './lib/local-crypto.js';

const s = suite('transit');
const transit = s.mount('transit', { type: 'transit' });

/** A key with versions 1 to 3, never configured. */
async function threeVersions(t: T, base: string): Promise<string> {
  const name = await createKey(t, transit, base);
  await rotate(t, transit, name);
  await rotate(t, transit, name);
  return name;
}

conformance(
  {
    id: 'transit.key.read-fields',
    level: 'MUST',
    title:
      'GET /transit/keys/:name of a key created without options reads deletion_allowed, exportable, allow_plaintext_backup, imported and derived false',
  },
  async (t) => {
    const name = await createKey(t, transit, 'fresh');
    const key = await readKey(t, transit, name);
    for (const field of ['deletion_allowed', 'exportable', 'allow_plaintext_backup', 'imported', 'derived'])
      expectThat(key[field] === false, field, key[field], false, `a key created without options reads ${field} false`);
  },
);

conformance(
  {
    id: 'transit.key.read-fields',
    level: 'MUST',
    title:
      'GET /transit/keys/:name of a three-version key reads the default minimum versions, then the configured ones',
  },
  async (t) => {
    const name = await threeVersions(t, 'minread');
    const before = await readKey(t, transit, name);
    // Default 0 for both; a product may show min_decryption_version 0 as 1 (versions start at 1).
    expectThat(
      before.min_decryption_version === 0 || before.min_decryption_version === 1,
      'min-decryption-default',
      before.min_decryption_version,
      '0 or 1',
      'a key never configured reads min_decryption_version 0 (or 1: every version decrypts)',
    );
    expectThat(
      before.min_encryption_version === 0,
      'min-encryption-default',
      before.min_encryption_version,
      0,
      'a key never configured reads min_encryption_version 0 (latest)',
    );
    for (const [dec, enc] of [
      [2, 3],
      [2, 0],
    ] as const) {
      t.check(
        await t.svc.post(`${transit.path}/keys/${name}/config`, {
          body: { min_decryption_version: dec, min_encryption_version: enc },
        }),
        success,
      );
      const key = await readKey(t, transit, name);
      expectThat(
        key.min_decryption_version === dec && key.min_encryption_version === enc,
        'min-versions',
        { min_decryption_version: key.min_decryption_version, min_encryption_version: key.min_encryption_version },
        { min_decryption_version: dec, min_encryption_version: enc },
        `the read shows min_decryption_version ${dec} and min_encryption_version ${enc} as configured`,
      );
    }
  },
);

conformance(
  {
    id: 'transit.config.omitted-unchanged',
    level: 'MUST',
    title: 'POST /transit/keys/:name/config without the minimum versions leaves them as configured',
  },
  async (t) => {
    const name = await threeVersions(t, 'omitted');
    const old = await t.svc.post(`${transit.path}/encrypt/${name}`, { body: { plaintext: b64('v3'), key_version: 1 } });
    t.check(old, statusIs(200));
    t.check(
      await t.svc.post(`${transit.path}/keys/${name}/config`, {
        body: { min_decryption_version: 2, min_encryption_version: 3 },
      }),
      success,
    );
    t.check(await t.svc.post(`${transit.path}/keys/${name}/config`, { body: { deletion_allowed: true } }), success);
    const key = await readKey(t, transit, name);
    expectThat(
      key.min_decryption_version === 2 && key.min_encryption_version === 3,
      'omitted-unchanged',
      { min_decryption_version: key.min_decryption_version, min_encryption_version: key.min_encryption_version },
      { min_decryption_version: 2, min_encryption_version: 3 },
      'a config write of deletion_allowed only leaves min_decryption_version 2 and min_encryption_version 3',
    );
    // And the other way: a write of the minimum versions only leaves deletion_allowed true.
    t.check(await t.svc.post(`${transit.path}/keys/${name}/config`, { body: { min_encryption_version: 3 } }), success);
    const again = await readKey(t, transit, name);
    expectThat(
      again.deletion_allowed === true,
      'omitted-unchanged',
      again.deletion_allowed,
      true,
      'a config write of min_encryption_version only leaves deletion_allowed true',
    );
    const v1 = (old.response.body as { data?: { ciphertext?: string } }).data?.ciphertext;
    const ex = await t.svc.post(`${transit.path}/decrypt/${name}`, { body: { ciphertext: v1 } });
    expectThat(
      ex.response.status >= 400,
      'still-bounded',
      ex.response.status,
      'an error status',
      'a version 1 ciphertext still does not decrypt',
    );
  },
);

conformance(
  {
    id: 'transit.key.supports-by-type',
    level: 'MUST',
    title: 'GET /transit/keys/:name of ed25519, ecdsa-p256 and rsa-2048 keys reads supports_* as their types give them',
  },
  async (t) => {
    const expected: Record<string, Record<string, boolean>> = {
      ed25519: { supports_signing: true, supports_derivation: true },
      'ecdsa-p256': { supports_signing: true },
      'rsa-2048': { supports_signing: true, supports_encryption: true, supports_decryption: true },
    };
    for (const [type, flags] of Object.entries(expected)) {
      const name = t.unique(type);
      t.check(
        await t.svc.post(`${transit.path}/keys/${name}`, { body: { type }, timeoutMs: keygenTimeout(type) }),
        success,
      );
      const key = await readKey(t, transit, name);
      for (const [flag, value] of Object.entries(flags))
        expectThat(key[flag] === value, flag, key[flag], value, `a ${type} key reads ${flag} ${value}`);
    }
  },
);

/**
 * Pieces of a private key that only the private key holds: its private scalar or exponent `d` in
 * base64, base64url and hex, and the characters of the PEM (PKCS#8) that encode bytes of `d` alone.
 * Other parts of the PEM are public (an RSA key's modulus and exponent, an EC key's point, the
 * algorithm header) and appear in the public key the read rightly shows.
 */
function privateFragments(pem: string): string[] {
  const key = privateKeyFrom(pem);
  const d = Buffer.from(String(key.export({ format: 'jwk' }).d), 'base64url');
  const fragments = [
    d.toString('base64').slice(0, 40),
    d.toString('base64url').slice(0, 40),
    d.toString('hex').slice(0, 40),
  ];
  const der = key.export({ format: 'der', type: 'pkcs8' });
  const at = der.indexOf(d);
  // Base64 writes bytes 3k..3k+2 as characters 4k..4k+3: 40 characters from the first whole
  // group inside `d` encode 30 of its bytes and nothing else.
  const group = Math.ceil(at / 3);
  if (at >= 0 && group * 3 + 30 <= at + d.length)
    fragments.push(der.toString('base64').slice(group * 4, group * 4 + 40));
  return fragments;
}

conformance(
  {
    id: 'transit.key.no-material-in-read',
    level: 'MUST',
    title: 'GET /transit/keys/:name of ecdsa-p256, ed25519 and rsa-2048 keys never contains their private keys',
  },
  async (t) => {
    for (const type of ['ecdsa-p256', 'ed25519', 'rsa-2048']) {
      const name = t.unique(type);
      t.check(
        await t.svc.post(`${transit.path}/keys/${name}`, {
          body: { type, exportable: true },
          timeoutMs: keygenTimeout(type),
        }),
        success,
      );
      const signing = (await exported(t, transit, 'signing-key', name))['1']!;
      const fragments = privateFragments(signing);
      const read = await t.svc.get(`${transit.path}/keys/${name}`);
      t.check(read, statusIs(200));
      // A PEM inside a JSON string has its line breaks escaped: read the text without them.
      const text = read.response.text.replace(/\\n|\s/g, '');
      expectThat(
        fragments.every((f) => !text.includes(f) && !text.toLowerCase().includes(f.toLowerCase())),
        'no-private-key',
        '[private key material found]',
        'absent',
        `the read of the ${type} key contains no part of its private key`,
      );
    }
  },
);

conformance(
  {
    id: 'transit.key.keys-map',
    level: 'MUST',
    title: 'GET /transit/keys/:name of a rotated rsa-2048 key shows each version with its own public key',
  },
  async (t) => {
    const name = await createKey(t, transit, 'pubkeys', { type: 'rsa-2048' });
    await rotate(t, transit, name);
    const keys = (await readKey(t, transit, name)).keys ?? {};
    const spki = (v: string) =>
      publicKeyFrom(String(keys[v]?.public_key ?? ''))
        .export({ format: 'der', type: 'spki' })
        .toString('hex');
    const [one, two] = [spki('1'), spki('2')];
    expectThat(
      one !== two,
      'public-key-per-version',
      'one key',
      'two keys',
      'versions 1 and 2 show different public keys',
    );
  },
);

conformance(
  {
    id: 'transit.cache-config.default',
    level: 'MUST',
    title: 'GET /transit/cache-config of a mount never configured reads 0, and POST without size sets 0',
  },
  async (t) => {
    t.check(
      await t.svc.get(`${transit.path}/cache-config`),
      statusIs(200),
      bodyAt('/data/size', 0, 'is the default, 0'),
    );
    t.track('cache size 0', () => t.svc.post(`${transit.path}/cache-config`, { body: { size: 0 } }));
    t.check(await t.svc.post(`${transit.path}/cache-config`, { body: { size: 20 } }), success);
    t.check(await t.svc.post(`${transit.path}/cache-config`, { body: {} }), success);
    t.check(
      await t.svc.get(`${transit.path}/cache-config`),
      statusIs(200),
      bodyAt('/data/size', 0, 'is 0 after a POST without size (the default)'),
    );
  },
);
