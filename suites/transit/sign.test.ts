// size: sign and verify over every asymmetric key type, each key generated once for the file (a split generates them twice).
/**
 * Signatures verified independently: every signature is checked locally with the public key the
 * key read returns. Each asymmetric key type is generated once for the file.
 */
import { constants, createHash, publicDecrypt, randomBytes } from 'node:crypto';
import { conformance, suite, type T } from '../../harness/index.js';
import {
  bodyAt,
  clientError,
  denied,
  expectThat,
  statusIs,
  statusBetween,
  success,
} from '../../harness/checks/index.js';
import {
  b64,
  batchResults,
  createKey,
  data,
  expectVersion,
  keygenTimeout,
  rotate,
  tokenWith,
  versioned,
} from './lib/api.js';
import { publicKeyFrom, verifyLocally, type SigOptions } from './lib/local-crypto.js';
import { publicKeyOf } from './lib/public-key.js';

const s = suite('transit');
const transit = s.mount('transit', { type: 'transit' });

const TYPES = ['ed25519', 'ecdsa-p256', 'ecdsa-p384', 'ecdsa-p521', 'rsa-2048', 'rsa-3072', 'rsa-4096'] as const;
const keys: Record<string, string> = {};
let derivedEd = '';

s.setup(async (c) => {
  // Generated concurrently once per file: RSA-4096 takes seconds.
  await Promise.all(
    TYPES.map(async (type) => {
      const name = c.unique(type);
      const ex = await c.svc.post(`${transit.path}/keys/${name}`, { body: { type }, timeoutMs: keygenTimeout(type) });
      c.precondition(ex, success);
      keys[type] = name;
    }),
  );
  derivedEd = c.unique('ed25519-derived');
  c.precondition(
    await c.svc.post(`${transit.path}/keys/${derivedEd}`, { body: { type: 'ed25519', derived: true } }),
    success,
  );
});

const MESSAGE = Buffer.from('the quick brown fox signs the lazy dog');

const publicKey = (t: T, name: string, version = 1) => publicKeyOf(t, transit, name, version);

async function signed(t: T, name: string, body: Record<string, unknown>, path = `sign/${name}`) {
  const ex = await t.svc.post(`${transit.path}/${path}`, { body: { input: b64(MESSAGE), ...body } });
  t.check(ex, statusIs(200));
  return versioned(t, data(ex).signature, 'signature');
}

for (const type of TYPES) {
  conformance(
    {
      id: 'transit.sign.verifiable',
      level: 'MUST',
      also: [
        'transit.params.hash-default',
        'transit.params.marshaling-default',
        'transit.params.salt-length-default',
        'transit.params.signature-algorithm',
        'transit.verify.valid',
        'transit.key.types',
      ],
      title: `POST /transit/sign/:name with a ${type} key and default options gives a signature that verifies locally with the read public key`,
    },
    async (t) => {
      const sig = await signed(t, keys[type]!, {});
      expectThat(sig.version === 1, 'version', sig.version, 1, 'the signature carries v1');
      const pub = await publicKey(t, keys[type]!);
      const ok = verifyLocally(pub, MESSAGE, sig.bytes, {});
      // A signature made with another padding or encoding than the default breaks that default's rule.
      if (!ok && pub.asymmetricKeyType === 'rsa' && verifyLocally(pub, MESSAGE, sig.bytes, { pss: false }))
        t.proving('transit.params.signature-algorithm', () =>
          expectThat(false, 'pss-default', 'PKCS#1 v1.5', 'PSS', 'the default RSA signature is PSS'),
        );
      if (
        !ok &&
        pub.asymmetricKeyType === 'ec' &&
        verifyLocally(pub, MESSAGE, sig.bytes, { dsaEncoding: 'ieee-p1363' })
      )
        t.proving('transit.params.marshaling-default', () =>
          expectThat(false, 'asn1-default', 'jws (r|s)', 'asn1', 'the default ECDSA signature is ASN.1 DER'),
        );
      expectThat(
        ok,
        'local-verify',
        ok,
        true,
        `the ${type} signature verifies locally (sha2-256, PSS for RSA, DER for ECDSA)`,
      );
      t.as('transit.verify.valid').check(
        await t.svc.post(`${transit.path}/verify/${keys[type]}`, {
          body: {
            input: b64(MESSAGE),
            signature: `${t.config.dialect.outputPrefix}:v1:${sig.bytes.toString('base64')}`,
          },
        }),
        statusIs(200),
        bodyAt('/data/valid', true, 'is true for the signature it made'),
      );
    },
  );
}

conformance(
  {
    id: 'transit.params.signature-algorithm',
    level: 'MUST',
    title:
      'POST /transit/sign/:name with an RSA key signs PSS by default and PKCS#1 v1.5 with signature_algorithm pkcs1v15',
  },
  async (t) => {
    const pub = await publicKey(t, keys['rsa-2048']!);
    const pss = await signed(t, keys['rsa-2048']!, {});
    expectThat(
      verifyLocally(pub, MESSAGE, pss.bytes, { pss: true }) && !verifyLocally(pub, MESSAGE, pss.bytes, { pss: false }),
      'pss-default',
      'not PSS',
      'PSS',
      'the default RSA signature is PSS, not PKCS#1 v1.5',
    );
    const pkcs = await signed(t, keys['rsa-2048']!, { signature_algorithm: 'pkcs1v15' });
    expectThat(
      verifyLocally(pub, MESSAGE, pkcs.bytes, { pss: false }),
      'pkcs1v15',
      false,
      true,
      'signature_algorithm pkcs1v15 gives a PKCS#1 v1.5 signature',
    );
  },
);

conformance(
  {
    id: 'transit.params.hash-algorithms',
    level: 'MUST',
    also: ['transit.params.hash-in-url', 'transit.sign.verifiable'],
    title: 'POST /transit/sign/:name/:hash_algorithm signs with each documented hash, in the body or the URL',
  },
  async (t) => {
    const pub = await publicKey(t, keys['rsa-2048']!);
    // PSS is named, not left to its default (another rule); the URL form is the hash-in-url rule's.
    // Accepting an algorithm in the body is the assumption; a signature answered for it must be made
    // with that hash (the signing rule), not with another.
    for (const alg of ['sha1', 'sha2-256', 'sha2-512', 'sha3-224', 'sha3-256', 'sha3-384', 'sha3-512']) {
      for (const via of ['body', 'url'] as const) {
        const sig = await t.proving(
          via === 'url' ? 'transit.params.hash-in-url' : 'transit.params.hash-algorithms',
          () =>
            via === 'url'
              ? signed(t, keys['rsa-2048']!, { signature_algorithm: 'pss' }, `sign/${keys['rsa-2048']}/${alg}`)
              : signed(t, keys['rsa-2048']!, { hash_algorithm: alg, signature_algorithm: 'pss' }),
        );
        t.proving(via === 'url' ? 'transit.params.hash-in-url' : 'transit.sign.verifiable', () => {
          const ok = verifyLocally(pub, MESSAGE, sig.bytes, { hash: alg, pss: true });
          expectThat(
            ok,
            'hash-algorithm',
            ok,
            true,
            `the signature with ${alg} in the ${via} verifies locally with ${alg}`,
          );
        });
      }
    }
  },
);

// The request's hash_algorithm applies to every item of a batch as to the single input (Sign:
// `hash_algorithm`, `batch_input` (items with input, context)).
conformance(
  {
    id: 'transit.sign.verifiable',
    level: 'MUST',
    title: 'POST /transit/sign/:name batch with hash_algorithm sha2-512 signs every item with sha2-512 (RSA, ECDSA)',
  },
  async (t) => {
    const inputs = [MESSAGE, Buffer.from('a second item')];
    for (const type of ['rsa-2048', 'ecdsa-p256'] as const) {
      const pub = await publicKey(t, keys[type]!);
      const ex = await t.svc.post(`${transit.path}/sign/${keys[type]}`, {
        body: { hash_algorithm: 'sha2-512', batch_input: inputs.map((i) => ({ input: i.toString('base64') })) },
      });
      t.check(ex, statusIs(200));
      const results = batchResults(ex);
      expectThat(results.length === 2, 'batch-length', results.length, 2, `${type}: one result per item`);
      for (const [i, input] of inputs.entries()) {
        const sig = versioned(t, results[i]?.signature, `${type} batch signature ${i}`);
        const ok = verifyLocally(pub, input, sig.bytes, { hash: 'sha2-512' });
        expectThat(ok, 'batch-hash', ok, true, `${type} batch item ${i} is a sha2-512 signature of its input`);
      }
    }
  },
);

conformance(
  {
    id: 'transit.sign.prehashed',
    level: 'MUST',
    title:
      'POST /transit/sign/:name with prehashed true signs the given SHA-256 digest (RSA PSS, RSA PKCS#1 v1.5, ECDSA)',
  },
  async (t) => {
    const digest = createHash('sha256').update(MESSAGE).digest();
    // The padding and the encoding are named, not left to their defaults (other rules).
    const cases: [string, Record<string, unknown>, SigOptions][] = [
      ['rsa-2048', { signature_algorithm: 'pss' }, { pss: true }],
      ['rsa-2048', { signature_algorithm: 'pkcs1v15' }, { pss: false }],
      ['ecdsa-p256', { marshaling_algorithm: 'asn1' }, {}],
    ];
    for (const [type, extra, opts] of cases) {
      const ex = await t.svc.post(`${transit.path}/sign/${keys[type]}`, {
        body: { input: digest.toString('base64'), prehashed: true, hash_algorithm: 'sha2-256', ...extra },
      });
      t.check(ex, statusIs(200));
      const sig = versioned(t, data(ex).signature, 'signature');
      const ok = verifyLocally(await publicKey(t, keys[type]!), MESSAGE, sig.bytes, opts);
      expectThat(
        ok,
        'prehashed',
        ok,
        true,
        `the ${type} ${JSON.stringify(extra)} signature of the digest verifies as a signature of the message`,
      );
    }
  },
);

conformance(
  {
    id: 'transit.sign.hash-none',
    level: 'MUST',
    title:
      'POST /transit/sign/:name with hash_algorithm none signs raw input as PKCS#1 v1.5 without OID and refuses it without prehashed or with PSS',
  },
  async (t) => {
    const name = keys['rsa-2048']!;
    const raw = randomBytes(32);
    const ex = await t.svc.post(`${transit.path}/sign/${name}`, {
      body: { input: raw.toString('base64'), hash_algorithm: 'none', prehashed: true, signature_algorithm: 'pkcs1v15' },
    });
    t.check(ex, statusIs(200));
    const sig = versioned(t, data(ex).signature, 'signature');
    const recovered = publicDecrypt({ key: await publicKey(t, name), padding: constants.RSA_PKCS1_PADDING }, sig.bytes);
    expectThat(
      recovered.equals(raw),
      'no-oid',
      recovered.toString('hex'),
      raw.toString('hex'),
      'the signature opens to exactly the raw input (no DigestInfo)',
    );
    t.check(
      await t.svc.post(`${transit.path}/sign/${name}`, {
        body: { input: raw.toString('base64'), hash_algorithm: 'none', signature_algorithm: 'pkcs1v15' },
      }),
      clientError,
    );
    t.check(
      await t.svc.post(`${transit.path}/sign/${name}`, {
        body: { input: raw.toString('base64'), hash_algorithm: 'none', prehashed: true, signature_algorithm: 'pss' },
      }),
      clientError,
    );
  },
);

conformance(
  {
    id: 'transit.sign.derived-publickey',
    level: 'MUST',
    also: ['transit.key.ed25519-derived-deterministic'],
    title:
      'POST /transit/sign/:name batch on a derived ed25519 key returns the derived publickey, the same for the same context',
  },
  async (t) => {
    const item = (ctx: string) => ({ input: b64(MESSAGE), context: b64(ctx) });
    const ex = await t.svc.post(`${transit.path}/sign/${derivedEd}`, {
      body: { batch_input: [item('c1'), item('c1'), item('c2')] },
    });
    t.check(ex, statusIs(200));
    const [a, b, c] = batchResults(ex);
    expectThat(
      typeof a?.publickey === 'string' && a.publickey.length > 0,
      'publickey',
      a?.publickey,
      'a public key',
      'the derived ed25519 batch result carries publickey',
    );
    const sig = versioned(t, a!.signature, 'signature');
    const ok = verifyLocally(publicKeyFrom(a!.publickey), MESSAGE, sig.bytes);
    expectThat(ok, 'derived-verify', ok, true, 'the signature verifies locally with the returned publickey');
    expectThat(
      a!.publickey === b!.publickey && a!.signature === b!.signature,
      'deterministic',
      b,
      a,
      'the same context gives the same derived key and signature',
    );
    expectThat(
      a!.publickey !== c!.publickey,
      'per-context',
      c!.publickey,
      'different',
      'another context gives another derived key',
    );
  },
);

conformance(
  {
    id: 'transit.verify.valid',
    level: 'MUST',
    title: 'POST /transit/verify/:name returns valid false for a signature of other input and for a wrong HMAC',
  },
  async (t) => {
    const name = keys['ecdsa-p256']!;
    const sig = (await signed(t, name, {})).bytes.toString('base64');
    const prefix = t.config.dialect.outputPrefix;
    t.check(
      await t.svc.post(`${transit.path}/verify/${name}`, {
        body: { input: b64('other input'), signature: `${prefix}:v1:${sig}` },
      }),
      statusIs(200),
      bodyAt('/data/valid', false, 'is false for other input'),
    );
    const mac = data(await t.svc.post(`${transit.path}/hmac/${name}`, { body: { input: b64(MESSAGE) } })).hmac;
    t.check(
      await t.svc.post(`${transit.path}/verify/${name}`, { body: { input: b64(MESSAGE), hmac: mac } }),
      statusIs(200),
      bodyAt('/data/valid', true, 'is true for the HMAC'),
    );
    t.check(
      await t.svc.post(`${transit.path}/verify/${name}`, { body: { input: b64('other input'), hmac: mac } }),
      statusIs(200),
      bodyAt('/data/valid', false, 'is false for other input'),
    );
  },
);

conformance(
  {
    id: 'transit.versioning.follows-rotation',
    level: 'MUST',
    also: ['transit.config.min-decryption'],
    timeoutMs: 120_000,
    title:
      'POST /transit/sign/:name after rotation signs with v2, and a v1 signature no longer verifies under min_decryption_version 2',
  },
  async (t) => {
    // An RSA key: the rotate row's condition is "key supports encryption and decryption".
    const name = await createKey(t, transit, 'rot-sign', { type: 'rsa-2048' });
    const v1 = await signed(t, name, {});
    await rotate(t, transit, name);
    const ex = await t.svc.post(`${transit.path}/sign/${name}`, { body: { input: b64(MESSAGE) } });
    t.check(ex, statusIs(200));
    const v2 = expectVersion(t, data(ex).signature, 2, 'signature after rotation');
    const ok = verifyLocally(await publicKey(t, name, 2), MESSAGE, v2.bytes);
    expectThat(ok, 'v2-key', ok, true, 'the v2 signature verifies with the version 2 public key');
    await t.proving('transit.config.min-decryption', async () => {
      t.check(
        await t.svc.post(`${transit.path}/keys/${name}/config`, { body: { min_decryption_version: 2 } }),
        statusBetween(200, 204),
      );
      const old = await t.svc.post(`${transit.path}/verify/${name}`, {
        body: { input: b64(MESSAGE), signature: `${t.config.dialect.outputPrefix}:v1:${v1.bytes.toString('base64')}` },
      });
      const refused = old.response.status >= 400 || data(old).valid === false;
      expectThat(
        refused,
        'min-decryption',
        { status: old.response.status, valid: data(old).valid },
        'error or valid false',
        'a v1 signature is not accepted once min_decryption_version is 2 (error or valid false)',
      );
    });
  },
);

conformance(
  {
    id: 'transit.auth.hash-path-deny',
    level: 'MUST',
    title: 'POST /transit/sign/:name/sha1 and /transit/verify/:name/sha1 are refused when a policy denies those paths',
  },
  async (t) => {
    const name = keys['ecdsa-p256']!;
    const token = await tokenWith(t, {
      [`${transit.path}/sign/*`]: ['update'],
      [`${transit.path}/verify/*`]: ['update'],
      [`${transit.path}/sign/${name}/sha1`]: ['deny'],
      [`${transit.path}/verify/${name}/sha1`]: ['deny'],
    });
    const ok = await t.svc.post(`${transit.path}/sign/${name}/sha2-256`, { token, body: { input: b64(MESSAGE) } });
    t.check(ok, statusIs(200));
    t.check(await t.svc.post(`${transit.path}/sign/${name}/sha1`, { token, body: { input: b64(MESSAGE) } }), denied);
    t.check(
      await t.svc.post(`${transit.path}/verify/${name}/sha1`, {
        token,
        body: { input: b64(MESSAGE), signature: data(ok).signature },
      }),
      denied,
    );
  },
);
