/**
 * The lock service over its socket (harness/domain-locks/service.ts, client.ts): leases of several
 * connections exclude each other as the locks say, a holder's locks come back when its process
 * dies, and a wait that runs out of time fails with a message naming the file and the holder.
 */
import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acquireLease, LockWaitError } from '../../harness/domain-locks/client.js';
import { type LockService, startLockService, timeoutMessage } from '../../harness/domain-locks/service.js';
import { spawnGroup, stopGroup } from '../../harness/cli/process.js';

let service: LockService;
beforeAll(async () => {
  service = await startLockService();
});
afterAll(async () => {
  await service.close();
});

/** Waits (bounded) until the service's bookkeeping shows what `cond` asks for. */
async function until(cond: () => boolean, ms = 2000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!cond() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
}

/** Resolves when `p` settles, or to 'pending' after `ms` (the grant must not come in that time). */
function within<T>(p: Promise<T>, ms: number): Promise<T | 'pending'> {
  return Promise.race([p, new Promise<'pending'>((r) => setTimeout(() => r('pending'), ms))]);
}

describe('lock service', () => {
  it('listens on loopback only', () => {
    expect(service.address.host).toBe('127.0.0.1');
    expect(service.address.port).toBeGreaterThan(0);
  });

  it('grants shared leases together and an exclusive one after they are released', async () => {
    const a = await acquireLease(service.address, 'suites/kv/list.test.ts', { secrets: 'shared' }, 5000);
    const b = await acquireLease(service.address, 'suites/kv/v1.test.ts', { secrets: 'shared' }, 5000);
    const writer = acquireLease(service.address, 'suites/kv/v2-lifecycle.test.ts', { secrets: 'exclusive' }, 5000);
    expect(await within(writer, 200)).toBe('pending');
    await a.release();
    await b.release();
    const w = await writer;
    expect(w.waitedMs).toBeGreaterThanOrEqual(150);
    expect(service.locks.state().held.map((e) => e.label)).toEqual(['suites/kv/v2-lifecycle.test.ts']);
    await w.release();
    expect(service.locks.state()).toEqual({ held: [], waiting: [] });
  });

  it("gives a dead holder's locks back when its connection closes", async () => {
    // Another process takes the scheduler exclusively, the way a worker does, and is then killed.
    const script = `
      const s = require('node:net').connect(${service.address.port}, '127.0.0.1', () => {
        s.write(JSON.stringify({ op: 'acquire', label: 'suites/jobs/acl.test.ts', wants: { scheduler: 'exclusive' }, timeoutMs: 60000 }) + '\\n');
      });
      s.on('data', (d) => { if (String(d).includes('granted')) console.log('granted'); });
      setInterval(() => {}, 1000);`;
    const child = spawnGroup(process.execPath, ['-e', script]);
    try {
      let out = '';
      child.stdout!.setEncoding('utf8');
      const granted = new Promise<void>((resolve) =>
        child.stdout!.on('data', (d: string) => {
          out += d;
          if (out.includes('granted')) resolve();
        }),
      );
      expect(await within(granted, 10_000), 'the child got its lease').not.toBe('pending');
      const next = acquireLease(service.address, 'suites/jobs/list.test.ts', { scheduler: 'shared' }, 10_000);
      expect(await within(next, 200), 'held by the child').toBe('pending');
      const exited = once(child, 'exit');
      await stopGroup(child, { signal: 'SIGKILL' });
      await exited;
      const lease = await next;
      expect(service.locks.state().held.map((e) => e.label)).toEqual(['suites/jobs/list.test.ts']);
      await lease.release();
    } finally {
      await stopGroup(child, { signal: 'SIGKILL' });
    }
  }, 30_000);

  it('refuses a wait that outlasts its limit, naming the file, the holder and who is queued ahead', async () => {
    const holder = await acquireLease(
      service.address,
      'suites/robustness/robustness.test.ts',
      { secrets: 'shared', scheduler: 'shared' },
      5000,
    );
    const queued = acquireLease(service.address, 'suites/jobs/scale.test.ts', { scheduler: 'exclusive' }, 5000);
    const started = Date.now();
    const err = await acquireLease(service.address, 'suites/jobs/stop.test.ts', { scheduler: 'exclusive' }, 300).catch(
      (e: unknown) => e,
    );
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    expect(err).toBeInstanceOf(LockWaitError);
    const message = (err as Error).message;
    expect(message).toMatch(
      /^suites\/jobs\/stop\.test\.ts waited 0\.\d s for its domain locks \(exclusive: scheduler\)/,
    );
    expect(message).toContain('held by suites/robustness/robustness.test.ts (shared: scheduler, secrets)');
    expect(message).toContain('queued ahead: suites/jobs/scale.test.ts (exclusive: scheduler)');
    expect(message).toContain('timeouts.lockWaitMs');
    // The refused request is withdrawn: it holds nothing back.
    expect(service.locks.state().waiting.map((e) => e.label)).toEqual(['suites/jobs/scale.test.ts']);
    await holder.release();
    await (await queued).release();
  });

  it('ends a lease whose connection closes while it waits', async () => {
    const holder = await acquireLease(service.address, 'a', { secrets: 'exclusive' }, 5000);
    const { connect } = await import('node:net');
    const raw = connect(service.address.port, '127.0.0.1');
    await once(raw, 'connect');
    raw.write(`${JSON.stringify({ op: 'acquire', label: 'b', wants: { secrets: 'exclusive' }, timeoutMs: 5000 })}\n`);
    // The service has the request once it shows as waiting.
    await until(() => service.locks.state().waiting.length > 0);
    expect(service.locks.state().waiting.map((e) => e.label)).toEqual(['b']);
    raw.destroy();
    await until(() => service.locks.state().waiting.length === 0);
    expect(service.locks.state().waiting).toEqual([]);
    await holder.release();
  });

  it('answers a malformed line with a refusal', async () => {
    const { connect } = await import('node:net');
    const raw = connect(service.address.port, '127.0.0.1');
    await once(raw, 'connect');
    raw.setEncoding('utf8');
    raw.write('{"op":"acquire","label":"x","wants":{"secrets":"sometimes"},"timeoutMs":5}\n');
    const [line] = (await once(raw, 'data')) as [string];
    expect(JSON.parse(line)).toMatchObject({ op: 'refused' });
    raw.destroy();
  });

  it('says so when nothing holds the request back any more', () => {
    expect(timeoutMessage({ label: 'f', wants: { secrets: 'shared' } }, 1234, [], 0)).toMatch(
      /f waited 1\.2 s .*nothing held it back any more/,
    );
  });
});
