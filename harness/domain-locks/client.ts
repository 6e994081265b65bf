/**
 * A test file's side of the lock service (service.ts): one connection per file, held from the
 * acquire to the release. Should the worker die in between, the connection closes with it and
 * the service gives the locks back.
 */
import { connect, type Socket } from 'node:net';
import type { Wants } from './locks.js';
import { type ClientMessage, LINE_LIMIT, type LockServiceAddress, type ServiceMessage } from './protocol.js';

/** The lock service refused a request: the time limit passed, the message says who held it. */
export class LockWaitError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LockWaitError';
  }
}

export interface Lease {
  readonly label: string;
  readonly wants: Wants;
  /** How long the grant took (ms). */
  readonly waitedMs: number;
  /** Gives the locks back; resolves once the service confirmed it (or the connection is gone). */
  release(): Promise<void>;
}

/**
 * How long a file waits for its locks (`timeouts.lockWaitMs`) and the timeout of the hook that
 * waits: the hook's is longer by a margin, so that the lock service's account of who held the file
 * back arrives before vitest's plain "hook timed out".
 */
export function lockWaitLimits(lockWaitMs: number): { waitMs: number; hookMs: number } {
  return { waitMs: lockWaitMs, hookMs: lockWaitMs + Math.min(5000, Math.ceil(lockWaitMs / 10)) };
}

/** How long past its own limit the client waits for the service's answer before giving up on it. */
const ANSWER_GRACE_MS = 5_000;

/** A socket's incoming lines, one message at a time. */
function lines(socket: Socket): { next(timeoutMs: number): Promise<ServiceMessage | undefined> } {
  const queue: ServiceMessage[] = [];
  let waiter: ((m: ServiceMessage | undefined) => void) | undefined;
  let closed = false;
  let buffer = '';
  const deliver = (m: ServiceMessage | undefined) => {
    const w = waiter;
    waiter = undefined;
    if (w) w(m);
    else if (m) queue.push(m);
  };
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => {
    buffer += chunk;
    if (buffer.length > LINE_LIMIT) socket.destroy();
    for (let nl = buffer.indexOf('\n'); nl >= 0; nl = buffer.indexOf('\n')) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      try {
        deliver(JSON.parse(line) as ServiceMessage);
      } catch {
        socket.destroy();
      }
    }
  });
  socket.on('close', () => {
    closed = true;
    deliver(undefined);
  });
  return {
    next(timeoutMs) {
      if (queue.length) return Promise.resolve(queue.shift());
      if (closed) return Promise.resolve(undefined);
      return new Promise((resolve) => {
        const timer = setTimeout(() => {
          waiter = undefined;
          resolve(undefined);
        }, timeoutMs);
        waiter = (m) => {
          clearTimeout(timer);
          resolve(m);
        };
      });
    },
  };
}

function send(socket: Socket, m: ClientMessage): void {
  if (!socket.destroyed) socket.write(`${JSON.stringify(m)}\n`);
}

/**
 * Takes every domain of `wants` at once for `label` (a test file), waiting up to `timeoutMs`.
 * Throws LockWaitError with the service's account of who held it back when the time runs out.
 */
export async function acquireLease(
  address: LockServiceAddress,
  label: string,
  wants: Wants,
  timeoutMs: number,
): Promise<Lease> {
  const socket = connect({ host: address.host, port: address.port });
  socket.setNoDelay(true);
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('error', (err) =>
      reject(new Error(`${label}: the lock service at ${address.host}:${address.port} is unreachable: ${err.message}`)),
    );
  });
  // Later errors (the service went away) show as a closed connection below.
  socket.on('error', () => socket.destroy());
  const incoming = lines(socket);
  send(socket, { op: 'acquire', label, wants, timeoutMs });
  const answer = await incoming.next(timeoutMs + ANSWER_GRACE_MS);
  if (answer?.op !== 'granted') {
    socket.destroy();
    if (answer?.op === 'refused') throw new LockWaitError(answer.message);
    throw new Error(`${label}: the lock service did not answer within ${timeoutMs + ANSWER_GRACE_MS} ms`);
  }
  let released: Promise<void> | undefined;
  return {
    label,
    wants,
    waitedMs: answer.waitedMs,
    release() {
      released ??= (async () => {
        send(socket, { op: 'release' });
        await incoming.next(ANSWER_GRACE_MS);
        socket.end();
      })();
      return released;
    },
  };
}
