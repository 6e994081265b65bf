/**
 * The lock service of a conformance run: DomainLocks behind a loopback TCP socket, started in the
 * main vitest process by the global setup; the test workers reach it at the address the setup
 * provides (vitest `provide`/`inject`).
 *
 * One connection is one file's lease: the client sends one `acquire`, gets `granted` (or
 * `refused` with the reason when the time limit passes first), later sends `release`. The lease
 * also ends when the connection does, so a worker that crashes or is killed gives its locks
 * back without anyone's help. Messages are JSON, one per line (protocol.ts).
 */
import { createServer, type Server, type Socket } from 'node:net';
import { DomainLocks, describeWants, type LockEntry } from './locks.js';
import {
  type AcquireMessage,
  LINE_LIMIT,
  type LockServiceAddress,
  parseLine,
  type ServiceMessage,
} from './protocol.js';

export interface LockService {
  readonly address: LockServiceAddress;
  /** The bookkeeping (for tests): who holds and who waits. */
  readonly locks: DomainLocks;
  close(): Promise<void>;
}

const seconds = (ms: number) => `${Math.round(ms / 100) / 10} s`;

/** Why `label` gave up waiting: what it asked for, and who held it back. */
export function timeoutMessage(
  entry: { label: string; wants: LockEntry['wants'] },
  waitedMs: number,
  blockers: LockEntry[],
  now: number,
): string {
  const held = blockers.filter((b) => b.grantedAt !== undefined);
  const ahead = blockers.filter((b) => b.grantedAt === undefined);
  const who = [
    ...held.map((b) => `held by ${b.label} (${describeWants(b.wants)}) for ${seconds(now - (b.grantedAt ?? now))}`),
    ...ahead.map((b) => `queued ahead: ${b.label} (${describeWants(b.wants)})`),
  ];
  return (
    `${entry.label} waited ${seconds(waitedMs)} for its domain locks (${describeWants(entry.wants)}) and gave up ` +
    `(setting timeouts.lockWaitMs): ${who.join('; ') || 'nothing held it back any more'}. ` +
    'Exclusive files are listed in suites/domain-locks.yaml.'
  );
}

export async function startLockService(opts: { now?: () => number } = {}): Promise<LockService> {
  const now = opts.now ?? Date.now;
  const locks = new DomainLocks(now);
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.setNoDelay(true);
    let lease: ReturnType<DomainLocks['request']> | undefined;
    let timer: NodeJS.Timeout | undefined;
    let buffer = '';
    const send = (m: ServiceMessage) => {
      if (!socket.destroyed) socket.write(`${JSON.stringify(m)}\n`);
    };
    const end = () => {
      clearTimeout(timer);
      lease?.release();
      lease = undefined;
    };
    const acquire = (m: AcquireMessage) => {
      if (lease) return send({ op: 'refused', message: 'one acquire per connection' });
      const askedAt = now();
      const mine = locks.request(m.label, m.wants);
      lease = mine;
      // Whichever comes first, the grant or the time limit, answers; the other then does nothing.
      let answered = false;
      timer = setTimeout(() => {
        if (answered) return;
        answered = true;
        const message = timeoutMessage(m, now() - askedAt, locks.blockers(mine.id), now());
        mine.release();
        send({ op: 'refused', message });
      }, m.timeoutMs);
      void mine.granted.then(() => {
        if (answered) return;
        answered = true;
        clearTimeout(timer);
        send({ op: 'granted', waitedMs: now() - askedAt });
      });
    };
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      buffer += chunk;
      if (buffer.length > LINE_LIMIT) {
        socket.destroy();
        return;
      }
      for (let nl = buffer.indexOf('\n'); nl >= 0; nl = buffer.indexOf('\n')) {
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 1);
        const m = parseLine(line);
        if (!m) send({ op: 'refused', message: `not a lock request: ${line.slice(0, 200)}` });
        else if (m.op === 'acquire') acquire(m);
        else {
          end();
          send({ op: 'released' });
        }
      }
    });
    // A closed or broken connection ends the lease: the file is over, or its worker is gone.
    socket.on('close', () => {
      end();
      sockets.delete(socket);
    });
    socket.on('error', () => socket.destroy());
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    // Loopback only: the workers run on this machine, and nobody else has business here.
    server.listen(0, '127.0.0.1', () => resolve());
  });
  // The run's end closes it; until then it must not be what keeps the process alive.
  server.unref();
  const addr = server.address();
  if (!addr || typeof addr === 'string') throw new Error('the lock service has no TCP address');
  return {
    address: { host: '127.0.0.1', port: addr.port },
    locks,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
