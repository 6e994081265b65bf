/**
 * The mutation run's reference host (contract/reference-host.ts): the references of a round on one
 * worker thread of their own (reference-host-thread.mjs), beside vitest's main thread as the
 * embedded reference of a run is (compose/reference.ts).
 */
import { Worker } from 'node:worker_threads';
import type { LaneStartOptions, LaneTarget, ReferenceHost } from '../contract/reference-host.js';

/** How long one request to the thread may take (a round's starts, a stop, the reach). */
const REQUEST_TIMEOUT_MS = 120_000;

type Answer = { req: number; ok: true; result: unknown } | { req: number; ok: false; message: string };

export async function startReferenceHost(): Promise<ReferenceHost> {
  const compiled = (globalThis as { __conformanceCompiledTree?: unknown }).__conformanceCompiledTree;
  const worker = new Worker(new URL('./reference-host-thread.mjs', import.meta.url), { workerData: { compiled } });
  const pending = new Map<number, { resolve(v: unknown): void; reject(e: Error): void; timer: NodeJS.Timeout }>();
  let nextReq = 1;
  let ended: Error | undefined;
  const failAll = (err: Error) => {
    ended = err;
    for (const [req, p] of pending) {
      clearTimeout(p.timer);
      p.reject(err);
      pending.delete(req);
    }
  };
  worker.on('message', (m: Answer) => {
    const p = pending.get(m.req);
    if (!p) return;
    pending.delete(m.req);
    clearTimeout(p.timer);
    if (m.ok) p.resolve(m.result);
    else p.reject(new Error(m.message));
  });
  worker.on('error', (err) => failAll(new Error(`the mutation run's reference thread failed: ${err.message}`)));
  worker.on('exit', (code) => failAll(new Error(`the mutation run's reference thread ended (exit ${code})`)));
  const ask = <T>(type: string, body: Record<string, unknown> = {}): Promise<T> => {
    if (ended) return Promise.reject(ended);
    const req = nextReq++;
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        pending.delete(req);
        reject(new Error(`the reference thread did not answer ${type} within ${REQUEST_TIMEOUT_MS / 1000} s`));
      }, REQUEST_TIMEOUT_MS);
      pending.set(req, { resolve: resolve as (v: unknown) => void, reject, timer });
      worker.postMessage({ type, req, ...body });
    });
  };
  return {
    start: (options: LaneStartOptions[]) => ask<LaneTarget[]>('start', { options }),
    stop: (ids: number[]) => ask<void>('stop', { ids }),
    takeReach: () => ask<Record<string, string[]>>('reach'),
    async close() {
      await ask('close').catch(() => undefined);
      await worker.terminate();
    },
  };
}
