/**
 * What the import tests share: the mount's wrapping key, the suite's own key pairs (made once per
 * file, on libuv's thread pool) and the import request itself.
 */
import { generateKeyPair, type KeyObject } from 'node:crypto';
import type { MountRef, SuiteContext, T } from '../../../harness/index.js';
import { success } from '../../../harness/checks/index.js';
import { KEYGEN_TIMEOUT_MS } from './api.js';

export type LocalType = 'ecdsa-p256' | 'ecdsa-p384' | 'ecdsa-p521' | 'ed25519' | 'rsa-2048' | 'rsa-3072' | 'rsa-4096';

export interface KeyPair {
  privateKey: KeyObject;
  publicKey: KeyObject;
}

const CURVES: Record<string, string> = { 'ecdsa-p256': 'P-256', 'ecdsa-p384': 'P-384', 'ecdsa-p521': 'P-521' };
const localPairs = new Map<string, Promise<KeyPair>>();

/**
 * A local key pair of `type`, made once for the file when a test first needs it (`slot` asks for
 * another pair of the same type), on libuv's thread pool: RSA generation costs 100 ms to seconds of
 * CPU, which blocked the worker when done up front.
 */
export function localPair(type: LocalType, slot = 0): Promise<KeyPair> {
  const key = `${type}#${slot}`;
  let pair = localPairs.get(key);
  if (!pair) {
    pair = new Promise<KeyPair>((resolve, reject) => {
      const done = (err: Error | null, publicKey: KeyObject, privateKey: KeyObject) =>
        err ? reject(err) : resolve({ publicKey, privateKey });
      if (type === 'ed25519') generateKeyPair('ed25519', {}, done);
      else if (type.startsWith('ecdsa')) generateKeyPair('ec', { namedCurve: CURVES[type]! }, done);
      else generateKeyPair('rsa', { modulusLength: Number(type.slice(4)) }, done);
    });
    localPairs.set(key, pair);
  }
  return pair;
}

export const pkcs8 = (k: KeyObject) => k.export({ format: 'der', type: 'pkcs8' });
export const spkiPem = (k: KeyObject) => k.export({ format: 'pem', type: 'spki' }).toString();
export const spkiHex = (k: KeyObject) => k.export({ format: 'der', type: 'spki' }).toString('hex');

/** The mount's wrapping key (PEM); the first read generates the 4096-bit key. */
export async function wrappingKeyOf(c: SuiteContext, mount: MountRef): Promise<string> {
  const ex = await c.svc.get(`${mount.path}/wrapping_key`, { timeoutMs: KEYGEN_TIMEOUT_MS });
  c.precondition(ex, success);
  return String((ex.response.body as { data?: { public_key?: string } }).data?.public_key ?? '');
}

/** Imports a key with `body`; the import is the behaviour under test, so a refusal fails. */
export async function importKey(t: T, mount: MountRef, body: Record<string, unknown>, base = 'imp'): Promise<string> {
  const name = t.unique(base);
  t.check(await t.svc.post(`${mount.path}/keys/${name}/import`, { body, timeoutMs: KEYGEN_TIMEOUT_MS }), success);
  return name;
}

/** Imports a key a test only needs as set-up: a refusal makes the test not applicable. */
export async function importedFixture(
  t: T,
  mount: MountRef,
  body: Record<string, unknown>,
  base = 'imp',
): Promise<string> {
  const name = t.unique(base);
  t.precondition(
    await t.svc.post(`${mount.path}/keys/${name}/import`, { body, timeoutMs: KEYGEN_TIMEOUT_MS }),
    success,
  );
  return name;
}
