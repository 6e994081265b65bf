/**
 * The target config handed to the workers once the target is ready (harness/config/target-handoff.ts):
 * a worker that asks before then waits for it, one that asks after gets it at once, a failure
 * comes back with its reason, a client without the run's key gets nothing, and a worker gives up
 * after its time limit naming the setting.
 */
import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { receiveTarget, serveTarget, type TargetHandoff } from '../../harness/config/target-handoff.js';
import type { TargetConfig } from '../../harness/config/types.js';

const config = { svc: { addr: 'http://127.0.0.1:1', token: 'root-secret-token' } } as unknown as TargetConfig;

let handoff: TargetHandoff | undefined;
afterEach(async () => {
  await handoff?.close();
  handoff = undefined;
});

/** A promise and the functions that settle it. */
function pending<T>() {
  let resolve!: (v: T) => void;
  let reject!: (e: Error) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('target hand-off', () => {
  it('answers a worker that asked before the target was ready once it is, and later ones at once', async () => {
    const ready = pending<TargetConfig>();
    handoff = await serveTarget(ready.promise, 10_000);
    let answered = false;
    const early = receiveTarget(handoff.address).then((c) => {
      answered = true;
      return c;
    });
    // A round trip to the service: the early worker has asked and is still waiting.
    await receiveTarget({ ...handoff.address, key: 'not-the-key', waitMs: 2_000 }).catch(() => undefined);
    expect(answered, 'no answer before the target is ready').toBe(false);
    ready.resolve(config);
    expect(await early).toEqual(config);
    expect(await receiveTarget(handoff.address)).toEqual(config);
  });

  it('tells the workers that the target could not be prepared, pointing at the reason the main process prints once', async () => {
    handoff = await serveTarget(Promise.reject(new Error('unknown fault switch(es) x (setting REF_FAULTS)')), 10_000);
    await expect(receiveTarget(handoff.address)).rejects.toMatchObject({
      name: 'TargetNotPrepared',
      message:
        'no target for this file: its preparation failed (unknown fault switch(es) x…; the whole reason is printed once, above)',
    });
  });

  it('gives a client without the run’s key nothing, not even the config', async () => {
    handoff = await serveTarget(Promise.resolve(config), 10_000);
    const { host, port } = handoff.address;
    const received = await new Promise<string>((resolve) => {
      const socket = connect({ host, port }, () => socket.write('guessed-key\n'));
      let text = '';
      socket.setEncoding('utf8');
      socket.on('data', (chunk: string) => {
        text += chunk;
      });
      socket.on('error', () => undefined);
      socket.on('close', () => resolve(text));
    });
    expect(received).toBe('');
    await expect(receiveTarget({ ...handoff.address, key: 'guessed-key' })).rejects.toThrow(
      /ended before its target was ready/,
    );
  });

  it('gives up after its time limit, naming the setting', async () => {
    handoff = await serveTarget(new Promise<TargetConfig>(() => {}), 10_000);
    await expect(receiveTarget({ ...handoff.address, waitMs: 50 })).rejects.toThrow(
      /not ready after 0 s \(setting timeouts\.lockWaitMs\)/,
    );
  });
});
