/**
 * Required inputs of the data operations (Data operations: "`plaintext` (base64, required)",
 * "`ciphertext` (required)", "input or batch_input required", "`signature` or `hmac` (one of them
 * required)"): the same request with the input is served, without it (and without batch_input) it
 * is refused.
 */
import { conformance, suite, type T } from '../../harness/index.js';
import { clientError, statusIs } from '../../harness/checks/index.js';
import { b64, createKey, data } from './lib/api.js';
import type { MountRef } from '../../harness/index.js';

const s = suite('transit');
const transit = s.mount('transit', { type: 'transit' });

type Json = Record<string, unknown>;

interface RequiredCase {
  op: string;
  /** What the refused request lacks, as the title names it. */
  lacks: string;
  requires?: ['cmac'];
  /** The path of the request, the body the operation serves, and that body without the input. */
  prepare(t: T, m: MountRef): Promise<{ path: string; full: Json; lacking: Json }>;
}

async function ciphertextOf(t: T, m: MountRef, name: string): Promise<string> {
  const ex = await t.svc.post(`${m.path}/encrypt/${name}`, { body: { plaintext: b64('kept') } });
  t.check(ex, statusIs(200));
  return String(data(ex).ciphertext);
}

async function signatureOf(t: T, m: MountRef, name: string): Promise<string> {
  const ex = await t.svc.post(`${m.path}/sign/${name}`, { body: { input: b64('signed') } });
  t.check(ex, statusIs(200));
  return String(data(ex).signature);
}

const CASES: RequiredCase[] = [
  {
    op: 'encrypt',
    lacks: 'plaintext',
    async prepare(t, m) {
      const k = await createKey(t, m, 'req-enc');
      return { path: `encrypt/${k}`, full: { plaintext: b64('x'), key_version: 1 }, lacking: { key_version: 1 } };
    },
  },
  {
    op: 'decrypt',
    lacks: 'ciphertext',
    async prepare(t, m) {
      const k = await createKey(t, m, 'req-dec');
      return { path: `decrypt/${k}`, full: { ciphertext: await ciphertextOf(t, m, k) }, lacking: {} };
    },
  },
  {
    op: 'rewrap',
    lacks: 'ciphertext',
    async prepare(t, m) {
      const k = await createKey(t, m, 'req-rew');
      return { path: `rewrap/${k}`, full: { ciphertext: await ciphertextOf(t, m, k) }, lacking: {} };
    },
  },
  {
    op: 'hash',
    lacks: 'input',
    async prepare() {
      return { path: 'hash', full: { input: b64('x'), format: 'hex' }, lacking: { format: 'hex' } };
    },
  },
  {
    op: 'hmac',
    lacks: 'input',
    async prepare(t, m) {
      const k = await createKey(t, m, 'req-hmac');
      return {
        path: `hmac/${k}`,
        full: { input: b64('x'), algorithm: 'sha2-256' },
        lacking: { algorithm: 'sha2-256' },
      };
    },
  },
  {
    op: 'sign',
    lacks: 'input',
    async prepare(t, m) {
      const k = await createKey(t, m, 'req-sign', { type: 'ed25519' });
      return { path: `sign/${k}`, full: { input: b64('x') }, lacking: {} };
    },
  },
  {
    op: 'verify',
    lacks: 'input',
    async prepare(t, m) {
      const k = await createKey(t, m, 'req-verin', { type: 'ed25519' });
      const signature = await signatureOf(t, m, k);
      return { path: `verify/${k}`, full: { input: b64('signed'), signature }, lacking: { signature } };
    },
  },
  {
    op: 'verify',
    lacks: 'signature or hmac',
    async prepare(t, m) {
      const k = await createKey(t, m, 'req-versig', { type: 'ed25519' });
      const signature = await signatureOf(t, m, k);
      return { path: `verify/${k}`, full: { input: b64('signed'), signature }, lacking: { input: b64('signed') } };
    },
  },
  {
    op: 'cmac',
    lacks: 'input',
    requires: ['cmac'],
    async prepare(t, m) {
      const k = await createKey(t, m, 'req-cmac', { type: 'aes256-cmac' });
      return { path: `cmac/${k}`, full: { input: b64('x') }, lacking: {} };
    },
  },
];

for (const c of CASES) {
  conformance(
    {
      id: 'transit.data.required-input',
      level: 'MUST',
      requires: c.requires,
      title: `POST /transit/${c.op}/:name without ${c.lacks} (and without batch_input) is refused; with it, served`,
    },
    async (t) => {
      const { path, full, lacking } = await c.prepare(t, transit);
      // The same request with the input is served, so the refusal below is about the missing input.
      t.check(await t.svc.post(`${transit.path}/${path}`, { body: full }), statusIs(200));
      t.check(await t.svc.post(`${transit.path}/${path}`, { body: lacking }), clientError);
    },
  );
}
