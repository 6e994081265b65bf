/** Unit checks of the transit engine's hand-written cryptography against node:crypto and RFC vectors. */
import { constants, createHash, generateKeyPairSync, randomBytes, sign, verify } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { runBatch } from '../../../../../reference/secrets/engines/transit/batch.js';
import { documentedRules } from '../../../../../reference/secrets/engines/transit/rules.js';
import { unwrap, wrap } from '../../../../../reference/secrets/engines/transit/byok.js';
import { aesCmac } from '../../../../../reference/secrets/engines/transit/cmac.js';
import { signDigest, verifyDigest } from '../../../../../reference/secrets/engines/transit/ecdsa-raw.js';
import {
  deserialize,
  generateMaterial,
  serialize,
  type NamedKey,
} from '../../../../../reference/secrets/engines/transit/keys.js';
import {
  pkcs1SignDigest,
  pkcs1VerifyDigest,
  pssSignDigest,
  pssVerifyDigest,
} from '../../../../../reference/secrets/engines/transit/rsa-raw.js';
import { duration } from '../../../../../reference/secrets/engines/transit/params.js';

const msg = Buffer.from('unit check message');

describe('ECDSA over a digest', () => {
  for (const [curve, hash] of [
    ['P-256', 'sha256'],
    ['P-384', 'sha384'],
    ['P-521', 'sha512'],
  ] as const) {
    test(`${curve}: our signature verifies with node and node's with ours`, () => {
      const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: curve });
      const digest = createHash(hash).update(msg).digest();
      expect(verify(hash, msg, publicKey, signDigest(privateKey, digest, 'der'))).toBe(true);
      expect(
        verify(hash, msg, { key: publicKey, dsaEncoding: 'ieee-p1363' }, signDigest(privateKey, digest, 'ieee-p1363')),
      ).toBe(true);
      expect(verifyDigest(publicKey, digest, sign(hash, msg, privateKey), 'der')).toBe(true);
      expect(
        verifyDigest(publicKey, createHash(hash).update('other').digest(), sign(hash, msg, privateKey), 'der'),
      ).toBe(false);
    });
  }
});

describe('RSA over a digest', () => {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const digest = createHash('sha256').update(msg).digest();
  test("PSS: our signature verifies with node (auto salt) and node's with ours", () => {
    expect(
      verify(
        'sha256',
        msg,
        { key: publicKey, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: constants.RSA_PSS_SALTLEN_AUTO },
        pssSignDigest(privateKey, digest, 'sha256', 32),
      ),
    ).toBe(true);
    const nodeSig = sign('sha256', msg, { key: privateKey, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: 222 });
    expect(pssVerifyDigest(publicKey, digest, nodeSig, 'sha256')).toBe(true);
    expect(pssVerifyDigest(publicKey, digest, nodeSig, 'sha256', 32)).toBe(false);
  });
  test("PKCS#1 v1.5 with DigestInfo equals node's deterministic signature", () => {
    expect(pkcs1SignDigest(privateKey, digest, 'sha256').equals(sign('sha256', msg, privateKey))).toBe(true);
    expect(pkcs1VerifyDigest(publicKey, digest, sign('sha256', msg, privateKey), 'sha256')).toBe(true);
  });
});

test('AES-CMAC matches the RFC 4493 vectors', () => {
  const key = Buffer.from('2b7e151628aed2a6abf7158809cf4f3c', 'hex');
  const m = Buffer.from(
    '6bc1bee22e409f96e93d7e117393172aae2d8a571e03ac9c9eb76fac45af8e5130c81c46a35ce411e5fbc1191a0a52eff69f2445df4f9b17ad2b417be66c3710',
    'hex',
  );
  expect(aesCmac(key, Buffer.alloc(0)).toString('hex')).toBe('bb1d6929e95937287fa37d129b756746');
  expect(aesCmac(key, m.subarray(0, 16)).toString('hex')).toBe('070a16b46b4d4144f79bdd9dd04a287c');
  expect(aesCmac(key, m.subarray(0, 40)).toString('hex')).toBe('dfa66747de9ae63030ca32611497c827');
  expect(aesCmac(key, m).toString('hex')).toBe('51f0bebf7e3b9d92fc49741779363cfe');
});

test('BYOK wrap and unwrap round-trip with each OAEP hash, and a wrong hash fails', () => {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const material = randomBytes(45);
  for (const h of ['sha1', 'sha256', 'sha512'])
    expect(unwrap(wrap(material, publicKey, h), privateKey, h).equals(material)).toBe(true);
  expect(() => unwrap(wrap(material, publicKey, 'sha1'), privateKey, 'sha256')).toThrow();
});

test('a backup restores every version with its material', async () => {
  const v1 = await generateMaterial('ecdsa-p256');
  const v2 = await generateMaterial('ecdsa-p256');
  const k: NamedKey = {
    name: 'k',
    type: 'ecdsa-p256',
    derived: false,
    convergent: false,
    exportable: true,
    allowPlaintextBackup: true,
    deletionAllowed: false,
    minDecryptionVersion: 1,
    minEncryptionVersion: 0,
    minAvailableVersion: 0,
    latestVersion: 2,
    autoRotatePeriod: 0,
    lastRotatedAt: 0,
    imported: false,
    allowRotation: false,
    rotatedInService: true,
    keySize: 0,
    versions: new Map([
      [1, { version: 1, createdAt: 1, hmacKey: randomBytes(32), ...v1 }],
      [2, { version: 2, createdAt: 2, hmacKey: randomBytes(32), ...v2 }],
    ]),
  };
  const back = deserialize(serialize(k));
  expect([...back.versions.keys()]).toEqual([1, 2]);
  const sig = sign('sha256', msg, back.versions.get(2)!.privateKey!);
  expect(verify('sha256', msg, v2.publicKey!, sig)).toBe(true);
  expect(() => deserialize(Buffer.from('{"x":1}').toString('base64'))).toThrow();
});

describe('batch status rules', () => {
  const ok = (item: Record<string, unknown>) => {
    if (item.bad) throw new (class extends Error {})('bad');
    return { out: 1 };
  };
  test('all good: data without status; partial: 400 with errors; partial code honoured; total: 400', async () => {
    const rules = documentedRules;
    expect((await runBatch([{}, {}], rules, undefined, ok, 'encrypt')).status).toBeUndefined();
    const partial = await runBatch([{}, { bad: 1 }], rules, undefined, ok, 'encrypt');
    expect(partial.status).toBe(400);
    expect((partial.rawBody as { errors: string[] }).errors.length).toBe(1);
    expect((await runBatch([{}, { bad: 1 }], rules, 207, ok, 'encrypt')).status).toBe(207);
    expect((await runBatch([{ bad: 1 }, { bad: 1 }], rules, 207, ok, 'encrypt')).status).toBe(400);
  });
});

test('durations: seconds and Go-style strings', () => {
  expect(duration({ d: '1h' }, 'd')).toBe(3600);
  expect(duration({ d: '1h30m' }, 'd')).toBe(5400);
  expect(duration({ d: 90 }, 'd')).toBe(90);
  expect(() => duration({ d: 'soon' }, 'd')).toThrow();
});
