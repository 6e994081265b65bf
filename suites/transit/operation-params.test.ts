/**
 * Contexts of derived keys where the data operations take them: batch items of encrypt and
 * decrypt (each its own context), rewrap, datakey, an encrypt that creates a convergent key, and
 * the context that makes an upserted key derived.
 */
import { conformance, suite, type T } from '../../harness/index.js';
import { bodyAt, clientError, expectThat, statusIs } from '../../harness/checks/index.js';
import { b64, batchResults, createKey, data, encrypt, expectVersion, fails, rotate } from './lib/api.js';

const s = suite('transit');
const transit = s.mount('transit', { type: 'transit' });

const C1 = b64('tenant-1');
const C2 = b64('tenant-2');

async function decrypt(t: T, name: string, ciphertext: unknown, context: string) {
  return t.svc.post(`${transit.path}/decrypt/${name}`, { body: { ciphertext, context } });
}

conformance(
  {
    id: 'transit.batch.item-context',
    level: 'MUST',
    title: "POST /transit/encrypt/:name batch on a derived key encrypts each item with its own item's context",
  },
  async (t) => {
    const name = await createKey(t, transit, 'ctx-encb', { derived: true });
    const ex = await t.svc.post(`${transit.path}/encrypt/${name}`, {
      body: {
        batch_input: [
          { plaintext: b64('first'), context: C1 },
          { plaintext: b64('second'), context: C2 },
        ],
      },
    });
    t.check(ex, statusIs(200));
    const [a, b] = batchResults(ex);
    t.check(await decrypt(t, name, a?.ciphertext, C1), statusIs(200));
    t.check(await decrypt(t, name, b?.ciphertext, C2), statusIs(200));
    t.check(await decrypt(t, name, b?.ciphertext, C1), fails);
  },
);

conformance(
  {
    id: 'transit.batch.item-context',
    level: 'MUST',
    title:
      "POST /transit/decrypt/:name batch on a derived key decrypts each item with its own context; a wrong item's context fails in its position",
  },
  async (t) => {
    const name = await createKey(t, transit, 'ctx-decb', { derived: true });
    const a = await encrypt(t, transit, name, 'first', { context: C1 });
    const b = await encrypt(t, transit, name, 'second', { context: C2 });
    const ok = await t.svc.post(`${transit.path}/decrypt/${name}`, {
      body: {
        batch_input: [
          { ciphertext: a, context: C1 },
          { ciphertext: b, context: C2 },
        ],
      },
    });
    t.check(ok, statusIs(200));
    const plain = batchResults(ok).map((r) => r.plaintext);
    expectThat(
      plain[0] === b64('first') && plain[1] === b64('second'),
      'item-context',
      plain,
      [b64('first'), b64('second')],
      'each item decrypts with its own context',
    );
    // Whatever status a partial failure answers (another rule), the wrong context fails its own item.
    const mixed = await t.svc.post(`${transit.path}/decrypt/${name}`, {
      body: {
        batch_input: [
          { ciphertext: a, context: C2 },
          { ciphertext: b, context: C2 },
        ],
      },
    });
    t.check(mixed, statusIs(200, 400));
    const [wrong, right] = batchResults(mixed);
    expectThat(
      typeof wrong?.error === 'string' && wrong.error.length > 0 && right?.plaintext === b64('second'),
      'item-context-error',
      [wrong, right],
      { 0: 'error', 1: b64('second') },
      "the item with another item's context fails in its position; the other decrypts",
    );
  },
);

conformance(
  {
    id: 'transit.rewrap.derived-context',
    level: 'MUST',
    title: 'POST /transit/rewrap/:name with the context of a derived key gives a ciphertext that decrypts with it only',
  },
  async (t) => {
    const name = await createKey(t, transit, 'ctx-rew', { derived: true });
    const v1 = await encrypt(t, transit, name, 'moved', { context: C1 });
    await rotate(t, transit, name);
    const ex = await t.svc.post(`${transit.path}/rewrap/${name}`, { body: { ciphertext: v1, context: C1 } });
    t.check(ex, statusIs(200));
    const v2 = data(ex).ciphertext;
    expectVersion(t, v2, 2, 'rewrapped ciphertext');
    const back = await decrypt(t, name, v2, C1);
    t.check(back, statusIs(200));
    expectThat(
      data(back).plaintext === b64('moved'),
      'rewrap-context',
      data(back).plaintext,
      b64('moved'),
      'it decrypts with the context',
    );
    t.check(await decrypt(t, name, v2, C2), fails);
  },
);

conformance(
  {
    id: 'transit.datakey.context',
    level: 'MUST',
    title:
      'POST /transit/datakey/plaintext/:name on a derived key needs context; its ciphertext decrypts to the key with that context only',
  },
  async (t) => {
    const name = await createKey(t, transit, 'ctx-dk', { derived: true });
    t.check(await t.svc.post(`${transit.path}/datakey/plaintext/${name}`), clientError);
    const ex = await t.svc.post(`${transit.path}/datakey/plaintext/${name}`, { body: { context: C1 } });
    t.check(ex, statusIs(200));
    const { plaintext, ciphertext } = data(ex);
    t.secret(plaintext);
    const back = await decrypt(t, name, ciphertext, C1);
    t.check(back, statusIs(200));
    expectThat(
      data(back).plaintext === plaintext,
      'datakey-context',
      'another value',
      'the data key',
      'it decrypts to the data key',
    );
    t.check(await decrypt(t, name, ciphertext, C2), fails);
  },
);

conformance(
  {
    id: 'transit.upsert.convergent',
    level: 'MUST',
    also: ['transit.upsert.convergent-nonce-not-needed'],
    title:
      'POST /transit/encrypt/:name on a missing key with convergent_encryption and a context creates a convergent key',
  },
  async (t) => {
    const name = t.unique('upsert-conv');
    const body = (plaintext: string, context: string) => ({
      body: { plaintext: b64(plaintext), context, convergent_encryption: 'true' },
    });
    const first = await t.svc.post(`${transit.path}/encrypt/${name}`, body('same', C1));
    // No nonce is sent: the convergent keys this release creates do not need one (the assumption).
    t.as('transit.upsert.convergent-nonce-not-needed').check(first, statusIs(200));
    const again = await t.svc.post(`${transit.path}/encrypt/${name}`, body('same', C1));
    t.check(again, statusIs(200));
    expectThat(
      data(first).ciphertext === data(again).ciphertext,
      'convergent',
      data(again).ciphertext,
      data(first).ciphertext,
      'the same plaintext and context give the same ciphertext',
    );
    const other = await t.svc.post(`${transit.path}/encrypt/${name}`, body('same', C2));
    t.check(other, statusIs(200));
    expectThat(
      data(other).ciphertext !== data(first).ciphertext,
      'convergent-context',
      data(other).ciphertext,
      'different',
      'another context gives another ciphertext',
    );
  },
);

// "key created with defaults (derived if context is non-empty)": with batch_input the context is the
// items' (the single-item fields are ignored); an empty context leaves the default, not derived.
conformance(
  {
    id: 'transit.upsert.derived-with-context',
    level: 'MUST',
    title: 'POST /transit/encrypt/:name batch on a missing key with contexts in its items creates a derived key',
  },
  async (t) => {
    const name = t.unique('upsertbatchctx');
    const ex = await t.svc.post(`${transit.path}/encrypt/${name}`, {
      body: {
        batch_input: [
          { plaintext: b64('one'), context: C1 },
          { plaintext: b64('two'), context: C2 },
        ],
      },
    });
    t.check(ex, statusIs(200));
    t.check(
      await t.svc.get(`${transit.path}/keys/${name}`),
      statusIs(200),
      bodyAt('/data/derived', true, 'is true for a key upserted by a batch whose items carry a context'),
    );
  },
);

conformance(
  {
    id: 'transit.upsert.derived-with-context',
    level: 'MUST',
    title: 'POST /transit/encrypt/:name on a missing key with an empty context creates a key that is not derived',
  },
  async (t) => {
    const name = t.unique('upsertemptyctx');
    // Whether a context is taken on a key that is not derived is not said: only the key made counts.
    await t.svc.post(`${transit.path}/encrypt/${name}`, { body: { plaintext: b64('plain'), context: '' } });
    const read = await t.svc.get(`${transit.path}/keys/${name}`);
    if (read.response.status !== 200) t.notApplicable('the encrypt with an empty context created no key');
    t.check(read, bodyAt('/data/derived', false, 'is false for a key upserted with an empty context'));
  },
);
