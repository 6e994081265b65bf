// size: one test per shared parameter of the document, run on every operation that takes it
/**
 * The shared parameters (Endpoints > Shared parameters) on the operations the other files do not
 * send them to: the hash algorithm in the verify URL and every listed value on hmac and verify,
 * hash_algorithm none and prehashed on verify, reference without batch_input and on items without
 * one, single fields beside batch_input, key_version and min_encryption_version on sign, rewrap and
 * hmac, context on rewrap, datakey, sign and verify, signature_algorithm and salt_length on verify.
 */
import { createHash, createHmac } from 'node:crypto';
import { conformance, suite, type T } from '../../harness/index.js';
import { bodyAt, clientError, expectThat, statusIs, success } from '../../harness/checks/index.js';
import {
  b64,
  batchResults,
  createKey,
  data,
  encrypt,
  expectVersion,
  exported,
  fails,
  keygenTimeout,
  notAccepted,
  readKey,
  rotate,
  unb64,
} from './lib/api.js';
import { HASH, publicKeyFrom, verifyLocally } from './lib/local-crypto.js';

const s = suite('transit');
const transit = s.mount('transit', { type: 'transit' });

const MESSAGE = Buffer.from('shared parameters travel with every operation');
const LISTED = ['sha1', 'sha2-256', 'sha2-512', 'sha3-224', 'sha3-256', 'sha3-384', 'sha3-512'];
let rsa = '';
let ecdsa = '';

s.setup(async (c) => {
  for (const [type, assign] of [
    ['rsa-2048', (n: string) => (rsa = n)],
    ['ecdsa-p256', (n: string) => (ecdsa = n)],
  ] as const) {
    const name = c.unique(type);
    c.precondition(
      await c.svc.post(`${transit.path}/keys/${name}`, { body: { type }, timeoutMs: keygenTimeout(type) }),
      success,
    );
    assign(name);
  }
});

async function signature(
  t: T,
  name: string,
  body: Record<string, unknown> = {},
  path = `sign/${name}`,
): Promise<string> {
  const ex = await t.svc.post(`${transit.path}/${path}`, { body: { input: b64(MESSAGE), ...body } });
  t.check(ex, statusIs(200));
  return String(data(ex).signature);
}

const verify = (t: T, name: string, body: Record<string, unknown>, path = `verify/${name}`) =>
  t.svc.post(`${transit.path}/${path}`, { body: { input: b64(MESSAGE), ...body } });

const valid = (expected: boolean, what: string) => bodyAt('/data/valid', expected, what);

conformance(
  {
    id: 'transit.params.hash-in-url',
    level: 'MUST',
    title: 'POST /transit/verify/:name/:hash_algorithm verifies with the algorithm of the URL',
  },
  async (t) => {
    const sig = await signature(t, ecdsa, {}, `sign/${ecdsa}/sha2-512`);
    t.check(
      await verify(t, ecdsa, { signature: sig }, `verify/${ecdsa}/sha2-512`),
      statusIs(200),
      valid(true, 'is true with sha2-512 in the URL'),
    );
    t.check(
      await verify(t, ecdsa, { signature: sig }, `verify/${ecdsa}/sha2-256`),
      statusIs(200),
      valid(false, 'is false with sha2-256 in the URL'),
    );
  },
);

conformance(
  {
    id: 'transit.params.hash-algorithms',
    level: 'MUST',
    also: ['transit.format.export-encoding', 'transit.hmac.compute', 'transit.verify.options'],
    title:
      'POST /transit/hmac/:name with each listed algorithm is that HMAC, and verify takes each listed hash_algorithm',
  },
  async (t) => {
    const name = await createKey(t, transit, 'hmac-algs', { exportable: true });
    const key = unb64((await exported(t, transit, 'hmac-key', name))['1']);
    for (const algorithm of LISTED) {
      const ex = await t.svc.post(`${transit.path}/hmac/${name}`, { body: { input: b64(MESSAGE), algorithm } });
      if (algorithm === 'sha1' && ex.response.status >= 400 && ex.response.status < 500) continue;
      t.check(ex, statusIs(200));
      const mac = String(data(ex).hmac).split(':').pop() ?? '';
      const local = createHmac(HASH[algorithm]!, key).update(MESSAGE).digest('base64');
      // Accepting the algorithm is the assumption; an HMAC answered for it is the HMAC rule's.
      t.proving('transit.hmac.compute', () =>
        expectThat(
          mac === local,
          `hmac-${algorithm}`,
          mac,
          local,
          `hmac with algorithm ${algorithm} is HMAC-${algorithm} under the HMAC key`,
        ),
      );
    }
    for (const hash_algorithm of LISTED) {
      const sig = await signature(t, rsa, { hash_algorithm });
      const ex = await verify(t, rsa, { signature: sig, hash_algorithm });
      // Accepting the algorithm is the assumption; that a signature the service made with it then
      // verifies with it is verify's rule ("with the options it was made with").
      t.check(ex, statusIs(200));
      t.as('transit.verify.options').check(ex, valid(true, `is true with hash_algorithm ${hash_algorithm}`));
    }
  },
);

conformance(
  {
    id: 'transit.sign.hash-none',
    level: 'MUST',
    title: 'POST /transit/verify/:name with hash_algorithm none, prehashed and pkcs1v15 verifies the raw input',
  },
  async (t) => {
    const raw = createHash('sha256').update(MESSAGE).digest();
    const opts = { hash_algorithm: 'none', prehashed: true, signature_algorithm: 'pkcs1v15' };
    const sig = await signature(t, rsa, { ...opts, input: raw.toString('base64') });
    t.check(
      await verify(t, rsa, { ...opts, input: raw.toString('base64'), signature: sig }),
      statusIs(200),
      valid(true, 'is true for the same raw input'),
    );
    t.check(
      await verify(t, rsa, { ...opts, input: b64('other input'), signature: sig }),
      statusIs(200),
      valid(false, 'is false for other input'),
    );
  },
);

conformance(
  {
    id: 'transit.verify.prehashed',
    level: 'MUST',
    title:
      'POST /transit/verify/:name with prehashed true verifies a signature of a SHA-256 digest; without it the digest is hashed again',
  },
  async (t) => {
    const digest = createHash('sha256').update(MESSAGE).digest().toString('base64');
    for (const [name, extra] of [
      [rsa, {}],
      [rsa, { signature_algorithm: 'pkcs1v15' }],
      [ecdsa, {}],
    ] as const) {
      const body = { ...extra, hash_algorithm: 'sha2-256', input: digest };
      const sig = await signature(t, name, { ...body, prehashed: true });
      t.check(
        await verify(t, name, { ...body, prehashed: true, signature: sig }),
        statusIs(200),
        valid(true, `is true with prehashed (${JSON.stringify(extra)})`),
      );
      t.check(
        await verify(t, name, { ...body, prehashed: false, signature: sig }),
        statusIs(200),
        valid(false, 'is false when the digest is hashed again'),
      );
    }
  },
);

conformance(
  {
    id: 'transit.params.signature-algorithm',
    level: 'MUST',
    title: 'POST /transit/verify/:name with signature_algorithm pkcs1v15 verifies a PKCS#1 v1.5 signature',
  },
  async (t) => {
    const sig = await signature(t, rsa, { signature_algorithm: 'pkcs1v15' });
    const pub = publicKeyFrom((await readKey(t, transit, rsa)).keys['1'].public_key);
    const ok = verifyLocally(pub, MESSAGE, Buffer.from(sig.split(':').pop() ?? '', 'base64'), { pss: false });
    expectThat(ok, 'pkcs1v15', ok, true, 'the signature is PKCS#1 v1.5');
    t.check(
      await verify(t, rsa, { signature: sig, signature_algorithm: 'pkcs1v15' }),
      statusIs(200),
      valid(true, 'is true with pkcs1v15'),
    );
  },
);

conformance(
  {
    id: 'transit.params.salt-length-default',
    level: 'MUST',
    title: 'POST /transit/verify/:name without salt_length verifies a PSS signature made without salt_length',
  },
  async (t) => {
    const sig = await signature(t, rsa);
    t.check(
      await verify(t, rsa, { signature: sig }),
      statusIs(200),
      valid(true, 'is true with the default salt_length (auto)'),
    );
  },
);

conformance(
  {
    id: 'transit.batch.reference-echo',
    level: 'MUST',
    title: 'POST /transit/encrypt/:name batch: an item without reference echoes none (empty or absent)',
  },
  async (t) => {
    const name = await createKey(t, transit, 'refdefault');
    const ex = await t.svc.post(`${transit.path}/encrypt/${name}`, {
      body: { batch_input: [{ plaintext: b64('a'), reference: 'first' }, { plaintext: b64('b') }] },
    });
    t.check(ex, statusIs(200));
    const [first, second] = batchResults(ex);
    expectThat(
      first?.reference === 'first',
      'reference-echo',
      first?.reference,
      'first',
      'the first item echoes its reference',
    );
    expectThat(
      second?.reference === undefined || second?.reference === '',
      'reference-default',
      second?.reference,
      "'' or absent",
      'the item sent without reference echoes an empty one or none',
    );
  },
);

conformance(
  {
    id: 'transit.params.reference-batch-only',
    level: 'MUST',
    title: 'POST /transit/encrypt/:name and /transit/sign/:name with reference and no batch_input refuse or ignore it',
  },
  async (t) => {
    const name = await createKey(t, transit, 'refsingle');
    for (const [path, body] of [
      [`encrypt/${name}`, { plaintext: b64('x') }],
      [`sign/${ecdsa}`, { input: b64(MESSAGE) }],
    ] as const) {
      const ex = await t.svc.post(`${transit.path}/${path}`, { body: { ...body, reference: 'lonely' } });
      const status = ex.response.status;
      expectThat(
        (status >= 400 && status < 500) || (status === 200 && data(ex).reference === undefined),
        'reference-single',
        { status, reference: data(ex).reference },
        '4xx, or 200 without data.reference',
        `POST ${path} with reference but no batch_input is refused, or answered without echoing it`,
      );
    }
  },
);

conformance(
  {
    id: 'transit.batch.single-fields-ignored',
    level: 'MUST',
    title:
      'POST decrypt, rewrap, hmac, sign and verify with the single fields beside batch_input answer only the batch items',
  },
  async (t) => {
    const name = await createKey(t, transit, 'single-fields');
    const [one, two, single] = [
      await encrypt(t, transit, name, 'one'),
      await encrypt(t, transit, name, 'two'),
      await encrypt(t, transit, name, 'single'),
    ];
    const sig = await signature(t, ecdsa);
    const requests: [string, Record<string, unknown>, Record<string, unknown>[]][] = [
      [`decrypt/${name}`, { ciphertext: single }, [{ ciphertext: one }, { ciphertext: two }]],
      [`rewrap/${name}`, { ciphertext: single }, [{ ciphertext: one }, { ciphertext: two }]],
      [`hmac/${name}`, { input: b64('single') }, [{ input: b64('one') }, { input: b64('two') }]],
      [`sign/${ecdsa}`, { input: b64('single') }, [{ input: b64('one') }, { input: b64('two') }]],
      [
        `verify/${ecdsa}`,
        { input: b64(MESSAGE), signature: sig },
        [
          { input: b64(MESSAGE), signature: sig },
          { input: b64('two'), signature: sig },
        ],
      ],
    ];
    for (const [path, singleFields, items] of requests) {
      const ex = await t.svc.post(`${transit.path}/${path}`, { body: { ...singleFields, batch_input: items } });
      t.check(ex, statusIs(200));
      const results = batchResults(ex);
      expectThat(
        results.length === 2,
        'batch-only',
        results.length,
        2,
        `POST ${path} answers the two batch items only`,
      );
      const top = data(ex);
      expectThat(
        ['plaintext', 'ciphertext', 'hmac', 'signature', 'valid'].every((f) => top[f] === undefined),
        'no-single',
        Object.keys(top),
        'absent',
        `POST ${path} answers no single result beside batch_results`,
      );
    }
  },
);

conformance(
  {
    id: 'transit.params.key-version-latest',
    level: 'MUST',
    title: 'POST /transit/sign/:name and /transit/rewrap/:name with key_version use that version',
  },
  async (t) => {
    const signer = await createKey(t, transit, 'kv-sign', { type: 'rsa-2048' });
    await rotate(t, transit, signer);
    const sig = expectVersion(t, await signature(t, signer, { key_version: 1 }), 1, 'signature with key_version 1');
    const pub = publicKeyFrom((await readKey(t, transit, signer)).keys['1'].public_key);
    const ok = verifyLocally(pub, MESSAGE, sig.bytes);
    expectThat(ok, 'sign-key-version', ok, true, 'the key_version 1 signature verifies with version 1');
    // A batch takes the request's key_version for every item, as the single input does.
    const batch = await t.svc.post(`${transit.path}/sign/${signer}`, {
      body: { key_version: 1, batch_input: [{ input: b64(MESSAGE) }, { input: b64(MESSAGE) }] },
    });
    t.check(batch, statusIs(200));
    const items = batchResults(batch);
    expectThat(items.length === 2, 'batch-length', items.length, 2, 'the sign batch answers one result per item');
    for (const [i, item] of items.entries()) {
      const got = expectVersion(t, item.signature, 1, `sign batch item ${i} with key_version 1`);
      const valid = verifyLocally(pub, MESSAGE, got.bytes);
      expectThat(valid, 'sign-batch-key-version', valid, true, `sign batch item ${i} verifies with version 1`);
    }
    const name = await createKey(t, transit, 'kv-rewrap');
    const ct = await encrypt(t, transit, name, 'rewrapped');
    await rotate(t, transit, name);
    await rotate(t, transit, name);
    const ex = await t.svc.post(`${transit.path}/rewrap/${name}`, { body: { ciphertext: ct, key_version: 2 } });
    t.check(ex, statusIs(200));
    expectVersion(t, data(ex).ciphertext, 2, 'rewrap with key_version 2');
    const v2 = String(data(ex).ciphertext);
    t.check(
      await t.svc.post(`${transit.path}/decrypt/${name}`, { body: { ciphertext: v2 } }),
      statusIs(200),
      bodyAt('/data/plaintext', b64('rewrapped'), 'is the plaintext'),
    );
  },
);

conformance(
  {
    id: 'transit.params.key-version-min-encryption',
    level: 'MUST',
    title: 'POST /transit/rewrap, /transit/hmac and /transit/sign with key_version below min_encryption_version fail',
  },
  async (t) => {
    const name = await createKey(t, transit, 'minenc');
    const ct = await encrypt(t, transit, name, 'old');
    const signer = await createKey(t, transit, 'minenc-sign', { type: 'rsa-2048' });
    for (const n of [name, signer]) {
      await rotate(t, transit, n);
      t.check(await t.svc.post(`${transit.path}/keys/${n}/config`, { body: { min_encryption_version: 2 } }), success);
    }
    t.check(await t.svc.post(`${transit.path}/rewrap/${name}`, { body: { ciphertext: ct, key_version: 1 } }), fails);
    t.check(await t.svc.post(`${transit.path}/hmac/${name}`, { body: { input: b64(MESSAGE), key_version: 1 } }), fails);
    t.check(
      await t.svc.post(`${transit.path}/sign/${signer}`, { body: { input: b64(MESSAGE), key_version: 1 } }),
      fails,
    );
    t.check(
      await t.svc.post(`${transit.path}/hmac/${name}`, { body: { input: b64(MESSAGE), key_version: 2 } }),
      statusIs(200),
    );
  },
);

conformance(
  {
    id: 'transit.params.context-required',
    level: 'MUST',
    title: 'POST /transit/rewrap, /transit/datakey and /transit/sign on derived keys without context fail',
  },
  async (t) => {
    const context = b64('ctx');
    const name = await createKey(t, transit, 'ctx-aes', { derived: true });
    const ct = await encrypt(t, transit, name, 'derived', { context });
    t.check(await t.svc.post(`${transit.path}/rewrap/${name}`, { body: { ciphertext: ct } }), clientError);
    t.check(await t.svc.post(`${transit.path}/datakey/plaintext/${name}`, { body: {} }), clientError);
    const ed = await createKey(t, transit, 'ctx-ed', { type: 'ed25519', derived: true });
    t.check(await t.svc.post(`${transit.path}/sign/${ed}`, { body: { input: b64(MESSAGE) } }), clientError);
    const sig = await signature(t, ed, { context });
    const ex = await verify(t, ed, { signature: sig });
    expectThat(
      notAccepted(ex),
      'verify-context',
      { status: ex.response.status, valid: data(ex).valid },
      'error or valid false',
      'verify of a derived ed25519 signature without context fails (an error status or valid false)',
    );
  },
);
