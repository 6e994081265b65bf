/**
 * The options sign and verify share (Data operations: sign takes `context`, `prehashed` with
 * `hash_algorithm`, `signature_algorithm`, `marshaling_algorithm`, `salt_length`; verify takes the
 * same): a single sign with a context, a prehashed SHA-512 digest, each verify option, and verify
 * batches of HMACs and of derived signatures. The keys are made once for the file.
 */
import { createHash } from 'node:crypto';
import { conformance, suite, type T } from '../../harness/index.js';
import { expectThat, statusIs, success } from '../../harness/checks/index.js';
import type { Exchange } from '../../harness/index.js';
import { b64, batchResults, data, itemNotAccepted, keygenTimeout, notAccepted, readKey, versioned } from './lib/api.js';
import { publicKeyFrom, type SigOptions, verifyLocally } from './lib/local-crypto.js';

const s = suite('transit');
const transit = s.mount('transit', { type: 'transit' });

const MESSAGE = Buffer.from('options travel with the signature');
const C1 = b64('context-1');
const C2 = b64('context-2');
const keys: Record<string, string> = {};

s.setup(async (c) => {
  const wanted: [string, Record<string, unknown>][] = [
    ['rsa-2048', { type: 'rsa-2048' }],
    ['ecdsa-p256', { type: 'ecdsa-p256' }],
    ['ed25519-derived', { type: 'ed25519', derived: true }],
    ['aes256-gcm96', {}],
  ];
  await Promise.all(
    wanted.map(async ([label, body]) => {
      const name = c.unique(label);
      const ex = await c.svc.post(`${transit.path}/keys/${name}`, { body, timeoutMs: keygenTimeout(body.type) });
      c.precondition(ex, success);
      keys[label] = name;
    }),
  );
});

type Json = Record<string, unknown>;

async function sign(t: T, key: string, body: Json): Promise<string> {
  const ex = await t.svc.post(`${transit.path}/sign/${keys[key]}`, { body: { input: b64(MESSAGE), ...body } });
  t.check(ex, statusIs(200));
  return String(data(ex).signature);
}

async function verify(t: T, key: string, body: Json): Promise<Exchange> {
  return t.svc.post(`${transit.path}/verify/${keys[key]}`, { body: { input: b64(MESSAGE), ...body } });
}

/** A signature that must not verify: valid false, or a refusal of the request. */
function notValid(ex: Exchange, what: string): void {
  expectThat(
    notAccepted(ex),
    'not-valid',
    { status: ex.response.status, valid: data(ex).valid },
    'valid false or an error status',
    `${what} does not verify (valid false or an error)`,
  );
}

function valid(t: T, ex: Exchange, what: string): void {
  t.check(ex, statusIs(200));
  expectThat(data(ex).valid === true, 'valid', data(ex).valid, true, `${what} verifies`);
}

conformance(
  {
    id: 'transit.sign.single-context',
    level: 'MUST',
    also: ['transit.sign.derived-publickey'],
    title:
      'POST /transit/sign/:name on a derived ed25519 key with context gives the signature of a batch item with that context',
  },
  async (t) => {
    const single = await sign(t, 'ed25519-derived', { context: C1 });
    // The batch item with a context is the batch rule's (transit.sign.derived-publickey covers it).
    const [item] = await t.proving('transit.sign.derived-publickey', async () => {
      const ex = await t.svc.post(`${transit.path}/sign/${keys['ed25519-derived']}`, {
        body: { batch_input: [{ input: b64(MESSAGE), context: C1 }] },
      });
      t.check(ex, statusIs(200));
      return batchResults(ex);
    });
    expectThat(
      single === item?.signature,
      'single-context',
      single,
      item?.signature,
      'the single and the batch signature are equal',
    );
    const other = await sign(t, 'ed25519-derived', { context: C2 });
    expectThat(other !== single, 'single-context-other', other, 'different', 'another context gives another signature');
  },
);

conformance(
  {
    id: 'transit.sign.prehashed',
    level: 'MUST',
    title:
      'POST /transit/sign/:name with prehashed true and hash_algorithm sha2-512 signs the SHA-512 digest (RSA PSS and PKCS#1 v1.5)',
  },
  async (t) => {
    const digest = createHash('sha512').update(MESSAGE).digest();
    const info = (await readKey(t, transit, keys['rsa-2048']!)).keys?.['1'];
    const pub = publicKeyFrom(String(info?.public_key));
    for (const pss of [true, false]) {
      const ex = await t.svc.post(`${transit.path}/sign/${keys['rsa-2048']}`, {
        body: {
          input: digest.toString('base64'),
          prehashed: true,
          hash_algorithm: 'sha2-512',
          signature_algorithm: pss ? 'pss' : 'pkcs1v15',
        },
      });
      t.check(ex, statusIs(200));
      const sig = versioned(t, data(ex).signature, 'signature');
      const ok = verifyLocally(pub, MESSAGE, sig.bytes, { hash: 'sha2-512', pss });
      expectThat(
        ok,
        'prehashed-sha512',
        ok,
        true,
        `the ${pss ? 'PSS' : 'PKCS#1 v1.5'} signature is a SHA-512 signature of the message`,
      );
    }
    // prehashed defaults to false: an input as long as a SHA-256 digest, sent without prehashed, is
    // a message the service hashes, not a digest (the signature is that of the input's hash).
    const shaped = createHash('sha256').update(MESSAGE).digest();
    for (const label of ['rsa-2048', 'ecdsa-p256']) {
      const ex = await t.svc.post(`${transit.path}/sign/${keys[label]}`, {
        body: { input: shaped.toString('base64') },
      });
      t.check(ex, statusIs(200));
      const sig = versioned(t, data(ex).signature, 'signature');
      const pubOf = publicKeyFrom(String((await readKey(t, transit, keys[label]!)).keys?.['1']?.public_key));
      const ok = verifyLocally(pubOf, shaped, sig.bytes);
      expectThat(
        ok,
        'prehashed-default',
        ok,
        true,
        `the ${label} signature of a 32-byte input without prehashed is that of the input hashed with SHA-256`,
      );
    }
  },
);

interface VerifyCase {
  option: string;
  key: string;
  /** The options the signature is made with and verified with. */
  made: Json;
  verified?: Json;
  /** Options that must not verify it (none for the defaults, whose other values the documents do not show). */
  other?: Json;
  /** Sign another input than the message (prehashed: the digest). */
  input?: Buffer;
  /** The rule the signing step proves, and how the signature verifies locally (when it can). */
  signing: { id: string; local?: SigOptions };
}

const DIGEST = createHash('sha256').update(MESSAGE).digest();

const VERIFY_CASES: VerifyCase[] = [
  {
    option: 'signature_algorithm pkcs1v15',
    key: 'rsa-2048',
    made: { signature_algorithm: 'pkcs1v15' },
    other: {},
    signing: { id: 'transit.params.signature-algorithm', local: { pss: false } },
  },
  {
    option: 'prehashed with hash_algorithm sha2-256',
    key: 'rsa-2048',
    made: { prehashed: true, hash_algorithm: 'sha2-256' },
    other: { prehashed: false },
    input: DIGEST,
    signing: { id: 'transit.sign.prehashed', local: { pss: true } },
  },
  {
    option: 'hash_algorithm sha2-512',
    key: 'ecdsa-p256',
    made: { hash_algorithm: 'sha2-512' },
    other: {},
    signing: { id: 'transit.sign.verifiable', local: { hash: 'sha2-512' } },
  },
  {
    option: 'context',
    key: 'ed25519-derived',
    made: { context: C1 },
    other: { context: C2 },
    signing: { id: 'transit.sign.single-context' },
  },
  {
    option: 'marshaling_algorithm asn1',
    key: 'ecdsa-p256',
    made: { marshaling_algorithm: 'asn1' },
    verified: { marshaling_algorithm: 'asn1' },
    signing: { id: 'transit.params.marshaling-default', local: {} },
  },
  {
    option: 'salt_length auto',
    key: 'rsa-2048',
    made: { salt_length: 'auto' },
    verified: { salt_length: 'auto' },
    signing: { id: 'transit.params.salt-length-default', local: { pss: true } },
  },
];

for (const c of VERIFY_CASES) {
  conformance(
    {
      id: 'transit.verify.options',
      level: 'MUST',
      also: [c.signing.id],
      title: `POST /transit/verify/:name with ${c.option} verifies a signature made with it${c.other ? ' and not without it' : ''}`,
    },
    async (t) => {
      const input = b64(c.input ?? MESSAGE);
      // The signing step is sign's own rule: a signature that is wrong already fails there.
      const signature = await t.proving(c.signing.id, async () => {
        const made = await sign(t, c.key, { ...c.made, input });
        if (c.signing.local) {
          const pub = publicKeyFrom(String((await readKey(t, transit, keys[c.key]!)).keys?.['1']?.public_key));
          const ok = verifyLocally(pub, MESSAGE, versioned(t, made, 'signature').bytes, c.signing.local);
          expectThat(ok, 'local-verify', ok, true, `the signature made with ${c.option} verifies locally`);
        }
        return made;
      });
      valid(
        t,
        await verify(t, c.key, { input, signature, ...c.made, ...c.verified }),
        `the signature with ${c.option}`,
      );
      if (c.other)
        notValid(
          await verify(t, c.key, { input, signature, ...c.other }),
          `the signature made with ${c.option}, verified with ${JSON.stringify(c.other)},`,
        );
    },
  );
}

conformance(
  {
    id: 'transit.verify.batch',
    level: 'MUST',
    also: ['transit.hmac.compute'],
    title:
      'POST /transit/verify/:name batch of hmac items gives valid true for a matching HMAC and false for another input',
  },
  async (t) => {
    const name = keys['aes256-gcm96']!;
    const ex = await t.svc.post(`${transit.path}/hmac/${name}`, { body: { input: b64('alpha') } });
    const mac = t.proving('transit.hmac.compute', () => {
      t.check(ex, statusIs(200));
      versioned(t, data(ex).hmac, 'hmac');
      return data(ex).hmac;
    });
    const res = await t.svc.post(`${transit.path}/verify/${name}`, {
      body: {
        batch_input: [
          { input: b64('alpha'), hmac: mac },
          { input: b64('beta'), hmac: mac },
        ],
      },
    });
    t.check(res, statusIs(200));
    const [match, other] = batchResults(res);
    // A batch item's fields are not listed: the item that does not match reads valid false, an error,
    // or no valid at all (the real product leaves a false valid out of an HMAC item).
    expectThat(
      match?.valid === true && itemNotAccepted(other),
      'verify-batch-hmac',
      [match, other],
      [true, 'false, absent or an error'],
      'valid true, then not valid (false, absent or an item error)',
    );
  },
);

conformance(
  {
    id: 'transit.verify.batch',
    level: 'MUST',
    also: ['transit.sign.single-context'],
    title: 'POST /transit/verify/:name batch on a derived ed25519 key verifies each item with its own context',
  },
  async (t) => {
    const [s1, s2] = await t.proving('transit.sign.single-context', async () => [
      await sign(t, 'ed25519-derived', { context: C1 }),
      await sign(t, 'ed25519-derived', { context: C2 }),
    ]);
    const res = await t.svc.post(`${transit.path}/verify/${keys['ed25519-derived']}`, {
      body: {
        batch_input: [
          { input: b64(MESSAGE), signature: s1, context: C1 },
          { input: b64(MESSAGE), signature: s2, context: C2 },
          { input: b64(MESSAGE), signature: s1, context: C2 },
        ],
      },
    });
    t.check(res, statusIs(200, 400));
    const [a, b, c] = batchResults(res);
    expectThat(
      a?.valid === true && b?.valid === true,
      'verify-batch-context',
      [a?.valid, b?.valid],
      [true, true],
      'each item verifies with its own context',
    );
    expectThat(
      itemNotAccepted(c),
      'verify-batch-other-context',
      c,
      'valid false or absent, or an error',
      "a signature verified with another item's context does not verify (valid false or absent, or an item error)",
    );
  },
);

// Verify takes `hmac` and `hash_algorithm`; HMAC takes `algorithm`: an HMAC made with sha2-512 is
// checked with sha2-512 when verify names it, not with the default sha2-256.
conformance(
  {
    id: 'transit.verify.hmac-hash-algorithm',
    level: 'MUST',
    title: 'POST /transit/verify/:name with an hmac made with sha2-512 and hash_algorithm sha2-512 is valid',
  },
  async (t) => {
    const name = keys['aes256-gcm96']!;
    const made = await t.svc.post(`${transit.path}/hmac/${name}`, {
      body: { input: b64(MESSAGE), algorithm: 'sha2-512' },
    });
    t.precondition(made, statusIs(200));
    const hmac = data(made).hmac;
    // An HMAC that is not 64 bytes was not made with sha2-512: that is the HMAC rule's failure, not verify's.
    if (Buffer.from(String(hmac).split(':').pop() ?? '', 'base64').length !== 64)
      t.notApplicable('the hmac endpoint did not make a sha2-512 HMAC (transit.hmac.compute)');
    valid(
      t,
      await t.svc.post(`${transit.path}/verify/${name}`, {
        body: { input: b64(MESSAGE), hmac, hash_algorithm: 'sha2-512' },
      }),
      'the sha2-512 HMAC with hash_algorithm sha2-512',
    );
  },
);
