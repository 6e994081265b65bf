/**
 * Output formats (Resources and their fields > Output formats), clause by clause: each kind of
 * versioned string (HMAC, signature, CMAC; ciphertexts in encrypt.test.ts) has the form
 * `<prefix>:v<n>:<base64>`, and the base64 inputs (input, associated_data; plaintext and context in
 * encrypt.test.ts and key-types.test.ts) are read as their decoded bytes: binary values that are not
 * text, so a service that reads the text instead cannot pass.
 */
import { createHash, createHmac } from 'node:crypto';
import { conformance, suite } from '../../harness/index.js';
import { expectThat, statusIs } from '../../harness/checks/index.js';
import { b64, createKey, data, encrypt, exported, rotate, unb64, versioned } from './lib/api.js';
import { aeadTryOpen } from './lib/local-crypto.js';

const s = suite('transit');
const transit = s.mount('transit', { type: 'transit' });

// Bytes that are not valid UTF-8 text.
const BINARY = Buffer.from([0x00, 0xff, 0xfe, 0x80, 0x41, 0x0a, 0xc3]);

conformance(
  {
    id: 'transit.format.versioned-output',
    level: 'MUST',
    title:
      'POST /transit/hmac/:name and /transit/sign/:name answer <prefix>:v<n>:<base64> strings (the HMAC v2 after a rotation)',
  },
  async (t) => {
    const mac = await createKey(t, transit, 'fmt-hmac');
    const signer = await createKey(t, transit, 'fmt-sign', { type: 'ed25519' });
    // Only the AES key is rotated: the rotate row's condition is "key supports encryption and
    // decryption", so an ed25519 key may refuse rotation.
    await rotate(t, transit, mac);
    const hmac = await t.svc.post(`${transit.path}/hmac/${mac}`, { body: { input: b64(BINARY) } });
    t.check(hmac, statusIs(200));
    const h = versioned(t, data(hmac).hmac, 'the HMAC string');
    expectThat(h.version === 2, 'hmac-version', h.version, 2, 'the HMAC string names version 2');
    const sign = await t.svc.post(`${transit.path}/sign/${signer}`, { body: { input: b64(BINARY) } });
    t.check(sign, statusIs(200));
    const sig = versioned(t, data(sign).signature, 'the signature string');
    expectThat(sig.version === 1, 'signature-version', sig.version, 1, 'the signature string names version 1');
    expectThat(
      sig.bytes.length === 64,
      'signature-bytes',
      sig.bytes.length,
      64,
      'the base64 data is the 64-byte ed25519 signature',
    );
  },
);

conformance(
  {
    id: 'transit.format.versioned-output',
    level: 'MUST',
    requires: ['cmac'],
    title: 'POST /transit/cmac/:name answers a <prefix>:v<n>:<base64> string',
  },
  async (t) => {
    const name = await createKey(t, transit, 'fmt-cmac', { type: 'aes256-cmac' });
    const ex = await t.svc.post(`${transit.path}/cmac/${name}`, { body: { input: b64(BINARY) } });
    t.check(ex, statusIs(200));
    const mac = versioned(t, data(ex).cmac, 'the CMAC string');
    expectThat(mac.version === 1, 'cmac-version', mac.version, 1, 'the CMAC string names version 1');
  },
);

conformance(
  {
    id: 'transit.format.base64-fields',
    level: 'MUST',
    title: 'POST /transit/hash and /transit/hmac/:name read input as base64: a binary input is digested as its bytes',
  },
  async (t) => {
    const sum = await t.svc.post(`${transit.path}/hash`, { body: { input: b64(BINARY), format: 'base64' } });
    t.check(sum, statusIs(200));
    const digest = createHash('sha256').update(BINARY).digest('base64');
    expectThat(
      data(sum).sum === digest,
      'hash-input',
      data(sum).sum,
      digest,
      'the sum is that of the decoded input bytes',
    );
    const name = await createKey(t, transit, 'b64-hmac', { exportable: true });
    const key = unb64((await exported(t, transit, 'hmac-key', name))['1']);
    const ex = await t.svc.post(`${transit.path}/hmac/${name}`, { body: { input: b64(BINARY) } });
    t.check(ex, statusIs(200));
    // The bytes after the last colon: the form of the string is the versioned-output rule's.
    const mac = {
      bytes: unb64(
        String(data(ex).hmac ?? '')
          .split(':')
          .pop(),
      ),
    };
    const local = createHmac('sha256', key).update(BINARY).digest();
    expectThat(
      local.equals(mac.bytes),
      'hmac-input',
      mac.bytes.toString('base64'),
      local.toString('base64'),
      'the HMAC is that of the decoded input bytes',
    );
  },
);

conformance(
  {
    id: 'transit.format.base64-fields',
    level: 'MUST',
    title:
      'POST /transit/encrypt/:name reads associated_data as base64: the ciphertext opens with the decoded bytes as AAD',
  },
  async (t) => {
    const name = await createKey(t, transit, 'b64-aad', { exportable: true });
    const ct = versioned(t, await encrypt(t, transit, name, 'bound', { associated_data: b64(BINARY) }), 'ciphertext');
    const key = unb64((await exported(t, transit, 'encryption-key', name))['1']);
    // The layout inside the data is the aead-layout assumption's: a ciphertext that opens with no
    // AAD layout at all says nothing here, so it must open with the decoded bytes and not with the text.
    const opened = aeadTryOpen('aes256-gcm96', key, ct.bytes, BINARY);
    const asText = aeadTryOpen('aes256-gcm96', key, ct.bytes, Buffer.from(b64(BINARY)));
    if (!opened && !asText)
      t.notApplicable(
        'the ciphertext opens locally neither way (its layout is the transit.format.aead-layout assumption)',
      );
    expectThat(
      opened?.toString() === 'bound',
      'aad-bytes',
      opened?.toString() ?? (asText ? 'opens with the base64 text as AAD' : 'does not open'),
      'bound',
      'the ciphertext opens with the decoded associated_data bytes as AAD',
    );
  },
);
