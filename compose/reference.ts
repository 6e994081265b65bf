/**
 * The embedded reference as the harness sees it (contract/target.ts): its switch catalogue, and a
 * start() that runs the reference on a worker thread of its own (reference-thread.mjs) only when a
 * run needs it (a run against an external target never loads it).
 *
 * On its own thread the reference neither waits behind the main thread's work (vitest transforms
 * modules for the workers and collects their results there) nor holds it up, and its start-up runs
 * beside vitest's (the command line starts it before vitest: harness/setup/early-start.ts).
 */
import { Worker } from 'node:worker_threads';
import type { EmbeddedStartOptions, EmbeddedTarget, RunningEmbedded } from '../contract/target.js';

/** How long the reference may take to start, and to stop before its thread is ended. */
const START_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 10_000;

type ThreadMessage =
  | { type: 'started'; svcAddr: string; schedAddr?: string; cloud?: RunningEmbedded['cloud'] }
  | { type: 'failed'; message: string }
  | { type: 'stopped' };

/**
 * The thread bin/svc-conformance.mjs started before the run's config was read, loading the
 * reference's modules meanwhile (taken once), or a new one.
 */
function referenceThread(options: EmbeddedStartOptions): Worker {
  const holder = globalThis as { __conformanceReferenceThread?: Worker };
  const preloaded = holder.__conformanceReferenceThread;
  delete holder.__conformanceReferenceThread;
  if (!preloaded) return new Worker(new URL('./reference-thread.mjs', import.meta.url), { workerData: { options } });
  preloaded.ref();
  preloaded.postMessage({ type: 'start', options });
  return preloaded;
}

function startInThread(options: EmbeddedStartOptions): Promise<RunningEmbedded> {
  const worker = referenceThread(options);
  return new Promise<RunningEmbedded>((resolve, reject) => {
    const timer = setTimeout(() => {
      void worker.terminate();
      reject(new Error(`the embedded reference did not start within ${START_TIMEOUT_MS / 1000} s`));
    }, START_TIMEOUT_MS);
    const fail = (err: Error) => {
      clearTimeout(timer);
      void worker.terminate();
      reject(err);
    };
    worker.once('error', fail);
    worker.once('exit', (code) =>
      fail(new Error(`the embedded reference's thread ended (exit ${code}) before it started`)),
    );
    worker.once('message', (m: ThreadMessage) => {
      clearTimeout(timer);
      worker.removeAllListeners('exit');
      worker.removeAllListeners('error');
      if (m.type !== 'started') {
        void worker.terminate();
        reject(new Error(m.type === 'failed' ? m.message : 'the embedded reference stopped before it started'));
        return;
      }
      // A crash of the reference later on ends its thread: the files then fail on refused connections.
      worker.on('error', (err) => console.error(`[conformance] the embedded reference failed: ${err.message}`));
      resolve({ svcAddr: m.svcAddr, schedAddr: m.schedAddr, cloud: m.cloud, stop: () => stopThread(worker) });
    });
  });
}

async function stopThread(worker: Worker): Promise<void> {
  const stopped = new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, STOP_TIMEOUT_MS);
    const done = () => {
      clearTimeout(timer);
      resolve();
    };
    worker.on('message', (m: ThreadMessage) => m.type === 'stopped' && done());
    worker.once('exit', done);
  });
  worker.postMessage({ type: 'stop' });
  await stopped;
  await worker.terminate();
}

export const embeddedReference: EmbeddedTarget = {
  switches: async () => (await import('../reference/switch-registry.js')).switchCatalogue,
  start: startInThread,
  host: async () => (await import('./reference-host.js')).startReferenceHost(),
};
