// size: one test per encrypt rule of the document (inputs, contexts, nonces, versions, batches), in its order
/** Encrypt, decrypt, rewrap, datakey and upsert, with ciphertexts of exportable keys opened locally. */
import { conformance, suite } from '../../harness/index.js';
import { bodyAt, clientError, denied, expectThat, lacksField, statusIs, success } from '../../harness/checks/index.js';
import {
  b64,
  createKey,
  data,
  encrypt,
  expectVersion,
  exported,
  fails,
  keyAbsent,
  readKey,
  rotate,
  tokenWith,
  unb64,
  versioned,
} from './lib/api.js';
import { aeadOpen } from './lib/local-crypto.js';

const s = suite('transit');
const transit = s.mount('transit', { type: 'transit' });

const AEAD = ['aes128-gcm96', 'aes256-gcm96', 'chacha20-poly1305'];
// Bytes that are not valid UTF-8, so a target that treats plaintext as text cannot pass.
const BINARY = Buffer.from([0x00, 0xff, 0xfe, 0x80, 0x41, 0x0a, 0xc3]);
const isBase64 = (v: unknown) => typeof v === 'string' && /^[A-Za-z0-9+/]*={0,2}$/.test(v);

conformance(
  {
    id: 'transit.encrypt.roundtrip',
    level: 'MUST',
    also: ['transit.format.base64-fields', 'transit.format.versioned-output'],
    title: 'POST /transit/decrypt/:name returns the base64 plaintext that encrypt took, for every encryption key type',
  },
  async (t) => {
    for (const type of [...AEAD, 'rsa-2048']) {
      const name = await createKey(t, transit, `rt-${type}`, { type });
      const enc = await t.svc.post(`${transit.path}/encrypt/${name}`, {
        body: { plaintext: BINARY.toString('base64') },
      });
      // The ciphertext is this rule's answer; its form is the output-format rule's.
      t.check(
        enc,
        statusIs(200),
        bodyAt('/data/ciphertext', (v: unknown) => typeof v === 'string', 'is present'),
      );
      const ct = String(data(enc).ciphertext);
      t.proving('transit.format.versioned-output', () => expectVersion(t, ct, 1, `${type} ciphertext`));
      const ex = await t.svc.post(`${transit.path}/decrypt/${name}`, { body: { ciphertext: ct } });
      t.check(ex, statusIs(200));
      // Present first (this rule); its encoding, and the schema's pattern for it, are the base64 rule's.
      const plaintext = data(ex).plaintext;
      expectThat(
        typeof plaintext === 'string',
        'plaintext',
        typeof plaintext,
        'string',
        `decrypt answers data.plaintext (${type})`,
      );
      t.as('transit.format.base64-fields').check(ex, bodyAt('/data/plaintext', isBase64, 'is base64'));
      t.check(ex, bodyAt('/data/plaintext', BINARY.toString('base64'), `is the base64 of the plaintext (${type})`));
    }
  },
);

conformance(
  {
    id: 'transit.encrypt.local-decrypt',
    level: 'MUST',
    also: ['transit.format.aead-layout', 'transit.format.export-encoding'],
    title: 'POST /transit/encrypt/:name output of an exportable key decrypts locally with the exported encryption key',
  },
  async (t) => {
    for (const type of AEAD) {
      const name = await createKey(t, transit, `local-${type}`, { type, exportable: true });
      await rotate(t, transit, name);
      const ct = versioned(t, await encrypt(t, transit, name, BINARY), `${type} ciphertext`);
      const key = unb64((await exported(t, transit, 'encryption-key', name))[String(ct.version)]);
      let opened: Buffer | undefined;
      try {
        opened = aeadOpen(type, key, ct.bytes);
      } catch {
        opened = undefined;
      }
      expectThat(
        !!opened && opened.equals(BINARY),
        'local-decrypt',
        opened?.toString('base64') ?? 'authentication failed',
        BINARY.toString('base64'),
        `the ${type} ciphertext opens locally with exported version ${ct.version} as nonce|ciphertext|tag`,
      );
    }
  },
);

conformance(
  {
    id: 'transit.encrypt.associated-data',
    level: 'MUST',
    also: ['transit.encrypt.local-decrypt'],
    title: 'POST /transit/decrypt/:name with different associated_data fails and with the same succeeds',
  },
  async (t) => {
    const name = await createKey(t, transit, 'aad', { exportable: true });
    const ad = b64('header-v1');
    const ct = await encrypt(t, transit, name, 'bound', { associated_data: ad });
    t.check(
      await t.svc.post(`${transit.path}/decrypt/${name}`, {
        body: { ciphertext: ct, associated_data: b64('header-v2') },
      }),
      fails,
    );
    t.check(await t.svc.post(`${transit.path}/decrypt/${name}`, { body: { ciphertext: ct } }), fails);
    t.check(
      await t.svc.post(`${transit.path}/decrypt/${name}`, { body: { ciphertext: ct, associated_data: ad } }),
      statusIs(200),
      bodyAt('/data/plaintext', b64('bound')),
    );
    // Opening it locally is the local-decrypt rule's (with its layout assumption).
    const key = unb64((await exported(t, transit, 'encryption-key', name))['1']);
    let opened: Buffer | undefined;
    try {
      opened = aeadOpen('aes256-gcm96', key, versioned(t, ct, 'ciphertext').bytes, Buffer.from('header-v1'));
    } catch {
      opened = undefined;
    }
    t.proving('transit.encrypt.local-decrypt', () =>
      expectThat(
        opened?.toString() === 'bound',
        'local-aad',
        opened?.toString(),
        'bound',
        'the ciphertext opens locally only with the associated data as AAD',
      ),
    );
  },
);

conformance(
  {
    id: 'transit.decrypt.tampered',
    level: 'MUST',
    title: 'POST /transit/decrypt/:name of a ciphertext with one changed byte fails',
  },
  async (t) => {
    const name = await createKey(t, transit, 'tamper');
    const ct = versioned(t, await encrypt(t, transit, name, 'integrity matters'), 'ciphertext');
    const bytes = Buffer.from(ct.bytes);
    bytes[14]! ^= 0x01;
    const forged = `${t.config.dialect.outputPrefix}:v${ct.version}:${bytes.toString('base64')}`;
    t.check(await t.svc.post(`${transit.path}/decrypt/${name}`, { body: { ciphertext: forged } }), fails);
  },
);

conformance(
  {
    id: 'transit.params.context-required',
    level: 'MUST',
    also: ['transit.encrypt.context-bound'],
    title: 'POST /transit/encrypt/:name on a derived key without context fails; with context it round-trips',
  },
  async (t) => {
    const name = await createKey(t, transit, 'derived', { derived: true });
    t.check(await t.svc.post(`${transit.path}/encrypt/${name}`, { body: { plaintext: b64('x') } }), clientError);
    const context = b64('tenant-1');
    const ct = await encrypt(t, transit, name, 'per tenant', { context });
    t.check(await t.svc.post(`${transit.path}/decrypt/${name}`, { body: { ciphertext: ct } }), clientError);
    t.check(
      await t.svc.post(`${transit.path}/decrypt/${name}`, { body: { ciphertext: ct, context } }),
      statusIs(200),
      bodyAt('/data/plaintext', b64('per tenant')),
    );
    // That the context selects the derived key (another one does not open it) is the binding rule.
    t.as('transit.encrypt.context-bound').check(
      await t.svc.post(`${transit.path}/decrypt/${name}`, { body: { ciphertext: ct, context: b64('tenant-2') } }),
      fails,
    );
  },
);

conformance(
  {
    id: 'transit.create.convergent-deterministic',
    level: 'MUST',
    title:
      'POST /transit/encrypt/:name on a convergent key gives the same ciphertext for the same plaintext and context only',
  },
  async (t) => {
    const name = await createKey(t, transit, 'convergent', { derived: true, convergent_encryption: true });
    const [a, b] = [
      await encrypt(t, transit, name, 'same', { context: b64('c1') }),
      await encrypt(t, transit, name, 'same', { context: b64('c1') }),
    ];
    expectThat(a === b, 'convergent', b, a, 'two encryptions of the same plaintext and context are identical');
    const other = await encrypt(t, transit, name, 'same', { context: b64('c2') });
    expectThat(other !== a, 'convergent-context', other, 'different', 'another context gives another ciphertext');
    const otherText = await encrypt(t, transit, name, 'different', { context: b64('c1') });
    expectThat(
      otherText !== a,
      'convergent-plaintext',
      otherText,
      'different',
      'another plaintext gives another ciphertext',
    );
  },
);

conformance(
  {
    id: 'transit.rewrap.latest',
    level: 'MUST',
    also: ['transit.versioning.follows-rotation'],
    title: 'POST /transit/rewrap/:name moves a v1 ciphertext to v2 after rotation without returning plaintext',
  },
  async (t) => {
    const name = await createKey(t, transit, 'rewrap');
    const v1 = await encrypt(t, transit, name, 'carry over');
    await rotate(t, transit, name);
    const ex = await t.svc.post(`${transit.path}/rewrap/${name}`, { body: { ciphertext: v1 } });
    t.check(ex, statusIs(200), lacksField('/data/plaintext'));
    const v2 = data(ex).ciphertext;
    expectVersion(t, v2, 2, 'rewrapped ciphertext');
    expectThat(
      !ex.response.text.includes(b64('carry over')),
      'no-plaintext',
      '[plaintext found]',
      'absent',
      'the rewrap response does not contain the plaintext',
    );
    t.check(
      await t.svc.post(`${transit.path}/decrypt/${name}`, { body: { ciphertext: v2 } }),
      statusIs(200),
      bodyAt('/data/plaintext', b64('carry over')),
    );
  },
);

conformance(
  {
    id: 'transit.datakey.types',
    level: 'MUST',
    also: ['transit.datakey.bits'],
    title:
      'POST /transit/datakey/plaintext returns a plaintext its ciphertext decrypts to; /wrapped returns no plaintext',
  },
  async (t) => {
    const name = await createKey(t, transit, 'datakey');
    const plain = await t.svc.post(`${transit.path}/datakey/plaintext/${name}`);
    t.check(plain, statusIs(200));
    const { plaintext, ciphertext } = data(plain);
    t.secret(plaintext);
    // The size without bits is the bits rule's default ("default 256").
    t.proving('transit.datakey.bits', () =>
      expectThat(
        unb64(plaintext).length === 32,
        'datakey-bits',
        unb64(plaintext).length,
        32,
        'the default data key has 256 bits',
      ),
    );
    expectVersion(t, ciphertext, 1, 'datakey ciphertext');
    t.check(
      await t.svc.post(`${transit.path}/decrypt/${name}`, { body: { ciphertext } }),
      statusIs(200),
      bodyAt('/data/plaintext', plaintext, 'is the data key'),
    );
    const wrapped = await t.svc.post(`${transit.path}/datakey/wrapped/${name}`);
    t.check(wrapped, statusIs(200), lacksField('/data/plaintext'));
    versioned(t, data(wrapped).ciphertext, 'wrapped datakey ciphertext');
  },
);

conformance(
  {
    id: 'transit.datakey.bits',
    level: 'MUST',
    title: 'POST /transit/datakey/plaintext with bits 128 and 512 returns keys of that size',
  },
  async (t) => {
    const name = await createKey(t, transit, 'bits');
    for (const bits of [128, 512]) {
      const ex = await t.svc.post(`${transit.path}/datakey/plaintext/${name}`, { body: { bits } });
      t.check(ex, statusIs(200));
      const key = unb64(data(ex).plaintext);
      expectThat(key.length === bits / 8, 'datakey-bits', key.length, bits / 8, `bits ${bits} gives ${bits / 8} bytes`);
    }
  },
);

conformance(
  {
    id: 'transit.upsert.create',
    level: 'MUST',
    title: 'POST /transit/encrypt/:name on a missing key with the create capability creates an aes256-gcm96 key',
  },
  async (t) => {
    const name = t.unique('upsert');
    const ct = await encrypt(t, transit, name, 'first use');
    expectVersion(t, ct, 1, 'ciphertext of the upserted key');
    const key = await readKey(t, transit, name);
    // "key created with defaults": the Create key table's defaults, as a read shows them.
    const defaults = {
      type: 'aes256-gcm96',
      derived: false,
      exportable: false,
      allow_plaintext_backup: false,
      deletion_allowed: false,
    };
    const shown = Object.fromEntries(Object.keys(defaults).map((f) => [f, key[f]]));
    expectThat(
      Object.entries(defaults).every(([f, v]) => key[f] === v),
      'upsert-defaults',
      shown,
      defaults,
      'the upserted key has the defaults: type aes256-gcm96, not derived, not exportable, no plaintext backup, no deletion',
    );
  },
);

conformance(
  {
    id: 'transit.upsert.derived-with-context',
    level: 'MUST',
    title: 'POST /transit/encrypt/:name on a missing key with a context creates a derived key',
  },
  async (t) => {
    const name = t.unique('upsertctx');
    await encrypt(t, transit, name, 'derived', { context: b64('ctx') });
    t.check(
      await t.svc.get(`${transit.path}/keys/${name}`),
      statusIs(200),
      bodyAt('/data/derived', true, 'is true for a key upserted with a context'),
    );
  },
);

conformance(
  {
    id: 'transit.upsert.type',
    level: 'MUST',
    title: 'POST /transit/encrypt/:name on a missing key with type chacha20-poly1305 creates that type',
  },
  async (t) => {
    const name = t.unique('upserttype');
    await encrypt(t, transit, name, 'typed', { type: 'chacha20-poly1305' });
    t.check(
      await t.svc.get(`${transit.path}/keys/${name}`),
      statusIs(200),
      bodyAt('/data/type', 'chacha20-poly1305', 'is the type sent with encrypt'),
    );
  },
);

conformance(
  {
    id: 'transit.upsert.type',
    level: 'MUST',
    title: 'POST /transit/encrypt/:name batch on a missing key with type chacha20-poly1305 creates that type',
  },
  async (t) => {
    const name = t.unique('upserttypebatch');
    const ex = await t.svc.post(`${transit.path}/encrypt/${name}`, {
      body: { type: 'chacha20-poly1305', batch_input: [{ plaintext: b64('one') }, { plaintext: b64('two') }] },
    });
    t.check(ex, statusIs(200));
    t.check(
      await t.svc.get(`${transit.path}/keys/${name}`),
      statusIs(200),
      bodyAt('/data/type', 'chacha20-poly1305', 'is the type sent with the encrypt batch'),
    );
  },
);

conformance(
  {
    id: 'transit.upsert.type',
    level: 'MUST',
    title:
      'POST /transit/encrypt/:name with type chacha20-poly1305 on an existing aes256-gcm96 key is served and the key keeps its type',
  },
  async (t) => {
    const name = await createKey(t, transit, 'keeps-type');
    const ct = await encrypt(t, transit, name, 'typed', { type: 'chacha20-poly1305' });
    t.check(
      await t.svc.post(`${transit.path}/decrypt/${name}`, { body: { ciphertext: ct } }),
      statusIs(200),
      bodyAt('/data/plaintext', b64('typed')),
    );
    t.check(
      await t.svc.get(`${transit.path}/keys/${name}`),
      statusIs(200),
      bodyAt('/data/type', 'aes256-gcm96', 'is the type the key was created with'),
    );
  },
);

conformance(
  {
    id: 'transit.upsert.update-only-refused',
    level: 'MUST',
    also: ['transit.upsert.update-existing'],
    title: 'POST /transit/encrypt/:name on a missing key with only the update capability fails and creates nothing',
  },
  async (t) => {
    const existing = await createKey(t, transit, 'upd-existing');
    const token = await tokenWith(t, { [`${transit.path}/encrypt/*`]: ['update'] });
    // The token works on an existing key (encrypt on an existing key is an update: that rule's own
    // assertion), so the refusal below is about creation.
    t.as('transit.upsert.update-existing').check(
      await t.svc.post(`${transit.path}/encrypt/${existing}`, { token, body: { plaintext: b64('x') } }),
      statusIs(200),
    );
    const missing = t.unique('upd-missing');
    t.check(await t.svc.post(`${transit.path}/encrypt/${missing}`, { token, body: { plaintext: b64('x') } }), fails);
    t.check(await t.svc.get(`${transit.path}/keys/${missing}`), keyAbsent);
  },
);

conformance(
  {
    id: 'transit.upsert.disabled-refused',
    level: 'MUST',
    also: ['transit.upsert.disabled-update-served'],
    title: 'POST /transit/encrypt/:name on a missing key with disable_upsert true fails and creates nothing',
    sequential: 'sets disable_upsert in the config of the mount every test of the file uses',
  },
  async (t) => {
    const existing = await createKey(t, transit, 'noup-existing');
    t.track('disable_upsert false', () =>
      t.svc.post(`${transit.path}/config/keys`, { body: { disable_upsert: false } }),
    );
    t.check(await t.svc.post(`${transit.path}/config/keys`, { body: { disable_upsert: true } }), success);
    const missing = t.unique('noup-missing');
    t.check(await t.svc.post(`${transit.path}/encrypt/${missing}`, { body: { plaintext: b64('x') } }), fails);
    t.check(await t.svc.get(`${transit.path}/keys/${missing}`), keyAbsent);
    // Upsert disabled "turns create into update": an existing key is still served (that rule's own).
    t.as('transit.upsert.disabled-update-served').check(
      await t.svc.post(`${transit.path}/encrypt/${existing}`, { body: { plaintext: b64('x') } }),
      statusIs(200),
    );
  },
);

conformance(
  {
    id: 'transit.auth.datakey-path-policy',
    level: 'MUST',
    also: ['transit.datakey.types'],
    title: 'POST /transit/datakey/plaintext/:name is refused to a token whose policy grants only datakey/wrapped',
  },
  async (t) => {
    const name = await createKey(t, transit, 'dk-policy');
    const token = await tokenWith(t, { [`${transit.path}/datakey/wrapped/*`]: ['update'] });
    const wrapped = await t.svc.post(`${transit.path}/datakey/wrapped/${name}`, { token });
    t.check(wrapped, statusIs(200));
    // That datakey/wrapped never shows a plaintext is the datakey rule; this test is about the policy.
    t.as('transit.datakey.types').check(wrapped, lacksField('/data/plaintext'));
    t.check(await t.svc.post(`${transit.path}/datakey/plaintext/${name}`, { token }), denied);
  },
);
