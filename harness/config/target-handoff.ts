/**
 * The run's target config, handed to the test workers once the target is ready.
 *
 * The global setup returns while the target is still being prepared (the reference starting, the
 * directory provisioned, probes, the version), so vitest starts its workers meanwhile: a worker's
 * own start (its process, vitest's runtime, the harness's modules: a few hundred milliseconds)
 * overlaps the target's instead of following it. Before its first file a worker asks here
 * (harness/config/target-config.ts, from the setup file harness/domain-locks/file-lease.ts) and is
 * answered once the target is ready, or with why it could not be prepared.
 *
 * The config carries the target's tokens: the service listens on loopback only and answers only a
 * client that first sends the run's key, which reaches the workers through vitest's `provide` (its
 * private channel to them). One line each way: the key, then the answer as JSON.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { connect, createServer, type Socket } from 'node:net';
import type { TargetConfig } from './types.js';

/** Where and how a worker asks for the target config (provided to the workers by the global setup). */
export interface HandoffAddress {
  host: string;
  port: number;
  /** The run's key: the service answers nobody else. */
  key: string;
  /** How long a worker waits for the answer (the setting timeouts.lockWaitMs). */
  waitMs: number;
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** Where the workers ask for the target config (harness/setup/global-setup.ts). */
    targetHandoff?: HandoffAddress;
  }
}

type Answer = { ok: true; config: TargetConfig } | { ok: false; name: string; message: string; setting?: string };

/** Why a worker has no target config: the target could not be prepared, or was not ready in time. */
export class TargetNotPrepared extends Error {
  override name = 'TargetNotPrepared';
}

export interface TargetHandoff {
  readonly address: HandoffAddress;
  close(): Promise<void>;
}

/** A key line is short; anything longer is not a client of this run. */
const KEY_LINE_LIMIT = 256;

/** Serves `ready` (the prepared target's config, or why it failed) to the run's workers. */
export async function serveTarget(ready: Promise<TargetConfig>, waitMs: number): Promise<TargetHandoff> {
  const key = randomBytes(24).toString('base64url');
  const answer: Promise<string> = ready.then(
    (config) => JSON.stringify({ ok: true, config } satisfies Answer),
    (err: Error & { setting?: string }) =>
      JSON.stringify({ ok: false, name: err.name, message: err.message, setting: err.setting } satisfies Answer),
  );
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    let line = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      line += chunk;
      const nl = line.indexOf('\n');
      if (nl < 0) {
        if (line.length > KEY_LINE_LIMIT) socket.destroy();
        return;
      }
      socket.removeAllListeners('data');
      const sent = Buffer.from(line.slice(0, nl));
      const expected = Buffer.from(key);
      if (sent.length !== expected.length || !timingSafeEqual(sent, expected)) return socket.destroy();
      void answer.then((text) => {
        if (!socket.destroyed) socket.end(`${text}\n`);
      });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as { port: number };
  return {
    address: { host: '127.0.0.1', port, key, waitMs },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The target config from the run's hand-off service: waits until the target is ready. */
export function receiveTarget(address: HandoffAddress): Promise<TargetConfig> {
  return new Promise<TargetConfig>((resolve, reject) => {
    const socket = connect({ host: address.host, port: address.port });
    let text = '';
    let settled = false;
    const settle = (err: Error | undefined, config?: TargetConfig) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      if (err) reject(err);
      else resolve(config!);
    };
    const timer = setTimeout(
      () =>
        settle(
          new TargetNotPrepared(
            `the target was not ready after ${Math.round(address.waitMs / 1000)} s (setting timeouts.lockWaitMs)`,
          ),
        ),
      address.waitMs,
    );
    socket.setEncoding('utf8');
    socket.once('connect', () => socket.write(`${address.key}\n`));
    socket.on('data', (chunk: string) => {
      text += chunk;
    });
    socket.on('error', (err) =>
      settle(
        new TargetNotPrepared(`the run's target hand-off at ${address.host}:${address.port} failed: ${err.message}`),
      ),
    );
    socket.on('close', () => {
      const line = text.split('\n', 1)[0] ?? '';
      let answer: Answer | undefined;
      try {
        answer = JSON.parse(line) as Answer;
      } catch {
        answer = undefined;
      }
      if (!answer) return settle(new TargetNotPrepared('the run ended before its target was ready'));
      if (answer.ok) return settle(undefined, answer.config);
      // The main process prints the reason once; a file that had started before the run was
      // cancelled fails with a pointer to it, so the reason is not said once per such file.
      settle(
        new TargetNotPrepared(
          `no target for this file: its preparation failed (${firstWords(answer.message)}…; the whole reason is printed once, above)`,
        ),
      );
    });
  });
}

/** The start of a reason, enough to tell which one it points at. */
function firstWords(message: string): string {
  return message.split(/\s+/).slice(0, 4).join(' ');
}
