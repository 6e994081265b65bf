/**
 * RSA key pairs for the mutation run from a tape: the n-th pair of a size asked for in a context
 * (a reference of the run, or a test file in a worker) is the n-th pair of the tape, made once for
 * the whole run. A mutation run starts the same files hundreds of times, each on a fresh
 * reference, and each start would make its RSA keys again (the transit engine's keys and its
 * 4096-bit wrapping key, the keys the suite imports): more than half of the transit suite's CPU.
 * Within a context every pair is still a new one, so nothing a test or a reference sees changes:
 * keys are distinct where they were, and random-looking as before. Other key types are cheap and
 * made as before.
 *
 * Installed by the reference host's thread (compose/reference-host-thread.mjs; the context is the
 * reference a request reached) and by the workers' set-up file (mutation-lane-setup.ts; the context
 * is the file, and the tape is kept in a folder so that the workers of later rounds find it).
 */
import crypto, { createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { join } from 'node:path';
import { promisify } from 'node:util';

interface Pair {
  publicKey: KeyObject;
  privateKey: KeyObject;
}

type Callback = (err: Error | null, publicKey?: KeyObject, privateKey?: KeyObject) => void;

const holder = globalThis as { __mutationKeyTape?: { counts: Map<string, Map<string, number>> } };

/** A folder that keeps the tape across processes: pairs as PEM, written once (atomically). */
export function folderTape(dir: string): {
  read(name: string): Pair | undefined;
  write(name: string, pair: Pair): void;
} {
  return {
    read(name) {
      try {
        const { pub, priv } = JSON.parse(readFileSync(join(dir, `${name}.json`), 'utf8')) as {
          pub: string;
          priv: string;
        };
        return { publicKey: createPublicKey(pub), privateKey: createPrivateKey(priv) };
      } catch {
        return undefined;
      }
    },
    write(name, pair) {
      try {
        mkdirSync(dir, { recursive: true });
        const tmp = join(dir, `${name}.${process.pid}.tmp`);
        writeFileSync(
          tmp,
          JSON.stringify({
            pub: pair.publicKey.export({ type: 'spki', format: 'pem' }),
            priv: pair.privateKey.export({ type: 'pkcs8', format: 'pem' }),
          }),
        );
        renameSync(tmp, join(dir, `${name}.json`));
      } catch {
        /* an unwritable folder: the next process makes its own */
      }
    },
  };
}

/**
 * Puts node's `crypto.generateKeyPair` on the tape in this thread (once): an RSA pair asked for
 * without encodings, in a context `contextOf` names, comes from the tape; anything else is made
 * as before. Returns `forget(context)`, which starts a context's count again.
 */
export function installKeyTape(
  contextOf: () => string | undefined,
  store?: ReturnType<typeof folderTape>,
): (context: string) => void {
  if (holder.__mutationKeyTape) {
    const { counts } = holder.__mutationKeyTape;
    return (context) => counts.delete(context);
  }
  const counts = new Map<string, Map<string, number>>();
  holder.__mutationKeyTape = { counts };
  const forget = (context: string) => {
    counts.delete(context);
  };
  const real = crypto.generateKeyPair as unknown as (type: string, options: unknown, cb: Callback) => void;
  const make = promisify(real) as unknown as (type: string, options: unknown) => Promise<Pair>;
  const tape = new Map<string, Promise<Pair>>();
  const taped = (type: string, options: Record<string, unknown> | undefined): Promise<Pair> | undefined => {
    if (type !== 'rsa' || !options || options.publicKeyEncoding || options.privateKeyEncoding) return undefined;
    const context = contextOf();
    if (!context) return undefined;
    const kind = `rsa-${options.modulusLength}-${options.publicExponent ?? 65537}`;
    const byKind = counts.get(context) ?? new Map<string, number>();
    counts.set(context, byKind);
    const n = byKind.get(kind) ?? 0;
    byKind.set(kind, n + 1);
    const name = `${kind}-${n}`;
    let pair = tape.get(name);
    if (!pair) {
      const kept = store?.read(name);
      pair = kept
        ? Promise.resolve(kept)
        : make(type, options).then((p) => {
            store?.write(name, p);
            return p;
          });
      tape.set(name, pair);
    }
    return pair;
  };
  const generateKeyPair = (type: string, options: unknown, callback?: Callback) => {
    const cb = (typeof options === 'function' ? options : callback) as Callback;
    const opts = typeof options === 'function' ? undefined : (options as Record<string, unknown> | undefined);
    const pair = taped(type, opts);
    if (!pair) return real(type, opts ?? {}, cb);
    pair.then(
      (p) => cb(null, p.publicKey, p.privateKey),
      (err: Error) => cb(err),
    );
  };
  Object.defineProperty(generateKeyPair, promisify.custom, {
    value: (type: string, options?: Record<string, unknown>) => taped(type, options) ?? make(type, options ?? {}),
  });
  (crypto as { generateKeyPair: unknown }).generateKeyPair = generateKeyPair;
  syncBuiltinESMExports();
  return forget;
}
