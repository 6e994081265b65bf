/**
 * The nonce parameter on keys of this release (Shared parameters: nonce is "required for convergent
 * encryption on keys generated with an old release (0.6.1); not needed for keys created in 0.6.2 or
 * later; exactly 96 bits (12 bytes)"). A 12-byte nonce sent where none is needed may be refused
 * (the real product refuses it: "provided nonce not allowed for this key") or accepted; accepted,
 * it must leave the round trip intact. The wrong lengths are the validation cases.
 */
import { conformance, suite, type T } from '../../harness/index.js';
import { expectThat, statusIs } from '../../harness/checks/index.js';
import type { Exchange } from '../../harness/index.js';
import { b64, batchResults, createKey, data, encrypt } from './lib/api.js';

const s = suite('transit');
const transit = s.mount('transit', { type: 'transit' });

type Json = Record<string, unknown>;

const NONCE = Buffer.from('0123456789ab').toString('base64'); // 12 bytes
const ID = 'transit.params.nonce-optional';

/**
 * A refusal of the nonce (any error status: the document gives none) ends the check; anything else
 * must be a 200.
 */
function refused(t: T, ex: Exchange, what: string): boolean {
  if (ex.response.status >= 400) {
    t.note(`${what} with a 12-byte nonce was refused (${ex.response.status}): allowed, a nonce is not needed`);
    return true;
  }
  t.check(ex, statusIs(200));
  return false;
}

/** The ciphertext decrypts to `plaintext` without a nonce (`extra`: context and the like). */
async function decryptsTo(t: T, name: string, ciphertext: unknown, plaintext: string, extra: Json = {}) {
  const ex = await t.svc.post(`${transit.path}/decrypt/${name}`, { body: { ciphertext, ...extra } });
  t.check(ex, statusIs(200));
  expectThat(
    data(ex).plaintext === plaintext,
    'nonce-roundtrip',
    data(ex).plaintext,
    plaintext,
    'the output of the request with a nonce decrypts to its plaintext without the nonce',
  );
}

conformance(
  {
    id: ID,
    level: 'MUST',
    title: 'POST /transit/encrypt/:name with a 12-byte nonce is refused or its ciphertext decrypts',
  },
  async (t) => {
    const plain = await createKey(t, transit, 'nonce-enc');
    const ex = await t.svc.post(`${transit.path}/encrypt/${plain}`, { body: { plaintext: b64('one'), nonce: NONCE } });
    if (!refused(t, ex, 'encrypt')) await decryptsTo(t, plain, data(ex).ciphertext, b64('one'));
    const convergent = await createKey(t, transit, 'nonce-conv', { derived: true, convergent_encryption: true });
    const context = b64('ctx');
    const conv = await t.svc.post(`${transit.path}/encrypt/${convergent}`, {
      body: { plaintext: b64('two'), nonce: NONCE, context },
    });
    if (!refused(t, conv, 'encrypt on a convergent key'))
      await decryptsTo(t, convergent, data(conv).ciphertext, b64('two'), { context });
  },
);

conformance(
  {
    id: ID,
    level: 'MUST',
    title:
      'POST /transit/encrypt/:name batch item with a 12-byte nonce fails in its position or decrypts; the other item decrypts',
  },
  async (t) => {
    const name = await createKey(t, transit, 'nonce-encb');
    const ex = await t.svc.post(`${transit.path}/encrypt/${name}`, {
      body: { batch_input: [{ plaintext: b64('one'), nonce: NONCE }, { plaintext: b64('two') }] },
    });
    if (ex.response.status >= 400 && !Array.isArray(data(ex).batch_results)) {
      t.note(`the batch with a nonce item was refused as a whole (${ex.response.status})`);
      return;
    }
    t.check(ex, statusIs(200, 400));
    const [first, second] = batchResults(ex);
    if (typeof first?.error === 'string' && first.error.length > 0)
      t.note('the item with a nonce failed in its position');
    else await decryptsTo(t, name, first?.ciphertext, b64('one'));
    await decryptsTo(t, name, second?.ciphertext, b64('two'));
  },
);

conformance(
  {
    id: ID,
    level: 'MUST',
    title: 'POST /transit/decrypt/:name with a 12-byte nonce is refused or gives the plaintext',
  },
  async (t) => {
    const name = await createKey(t, transit, 'nonce-dec');
    const ciphertext = await encrypt(t, transit, name, 'three');
    const ex = await t.svc.post(`${transit.path}/decrypt/${name}`, { body: { ciphertext, nonce: NONCE } });
    if (refused(t, ex, 'decrypt')) return;
    expectThat(
      data(ex).plaintext === b64('three'),
      'nonce-decrypt',
      data(ex).plaintext,
      b64('three'),
      'decrypt with a nonce gives the plaintext',
    );
  },
);

conformance(
  {
    id: ID,
    level: 'MUST',
    title: 'POST /transit/decrypt/:name batch item with a 12-byte nonce fails in its position or gives the plaintext',
  },
  async (t) => {
    const name = await createKey(t, transit, 'nonce-decb');
    const [a, b] = [await encrypt(t, transit, name, 'four'), await encrypt(t, transit, name, 'five')];
    const ex = await t.svc.post(`${transit.path}/decrypt/${name}`, {
      body: { batch_input: [{ ciphertext: a, nonce: NONCE }, { ciphertext: b }] },
    });
    if (ex.response.status >= 400 && !Array.isArray(data(ex).batch_results)) {
      t.note(`the batch with a nonce item was refused as a whole (${ex.response.status})`);
      return;
    }
    t.check(ex, statusIs(200, 400));
    const [first, second] = batchResults(ex);
    const failed = typeof first?.error === 'string' && first.error.length > 0;
    expectThat(
      failed || first?.plaintext === b64('four'),
      'nonce-decrypt-item',
      first,
      b64('four'),
      'the item with a nonce failed in its position or gives its plaintext',
    );
    expectThat(
      second?.plaintext === b64('five'),
      'other-item',
      second,
      b64('five'),
      'the item without a nonce gives its plaintext',
    );
  },
);

conformance(
  {
    id: ID,
    level: 'MUST',
    title: 'POST /transit/rewrap/:name with a 12-byte nonce is refused or its ciphertext decrypts',
  },
  async (t) => {
    const name = await createKey(t, transit, 'nonce-rew');
    const ciphertext = await encrypt(t, transit, name, 'six');
    const ex = await t.svc.post(`${transit.path}/rewrap/${name}`, { body: { ciphertext, nonce: NONCE } });
    if (!refused(t, ex, 'rewrap')) await decryptsTo(t, name, data(ex).ciphertext, b64('six'));
  },
);

conformance(
  {
    id: ID,
    level: 'MUST',
    title:
      'POST /transit/datakey/plaintext/:name with a 12-byte nonce is refused or its ciphertext decrypts to the key',
  },
  async (t) => {
    const name = await createKey(t, transit, 'nonce-dk');
    const ex = await t.svc.post(`${transit.path}/datakey/plaintext/${name}`, { body: { nonce: NONCE } });
    if (refused(t, ex, 'datakey')) return;
    t.secret(data(ex).plaintext);
    await decryptsTo(t, name, data(ex).ciphertext, String(data(ex).plaintext));
  },
);
