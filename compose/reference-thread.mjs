// The embedded reference in a worker thread of the run's main process (compose/reference.ts starts
// it). On a thread of its own the reference answers the test files while the main thread does
// vitest's work (transforming modules for the workers, collecting results), and its start-up runs
// beside vitest's own. JavaScript, so the thread starts whatever loader its parent has: it loads
// the reference compiled (compiled.mjs) or registers tsx itself.
//
// Started with `options`, it starts the reference at once. Started with `preload` (by
// bin/svc-conformance.mjs, before the run's config is even read), it only loads the reference's
// modules and starts it when a `start` message brings the options.
import { parentPort, workerData } from 'node:worker_threads';
import { enableNodeCompileCache, importCompiledOrSource } from './compiled.mjs';

// The thread's own modules through node's compile cache too (the main thread set its folder).
enableNodeCompileCache();

/**
 * The reference compiled once (compiled.mjs), or its source through tsx's loader. A preloaded
 * thread is handed the compiled tree the command line found (no second hashing of every source).
 */
const loadReference = () => importCompiledOrSource('reference/start.ts', workerData?.tree);

/** Messages to the parent: `started` with the addresses, `failed` with the message, `stopped`. */
const post = (message) => parentPort.postMessage(message);

// Loading starts at once, while a preloaded thread still waits for its options (and meanwhile
// loads what the start would load lazily).
const loading = loadReference();
if (workerData?.preload) loading.then((m) => m.preloadReference()).catch(() => undefined);
const options =
  workerData?.options ??
  (await new Promise((resolve) => {
    const onStart = (message) => {
      if (message?.type !== 'start') return;
      parentPort.off('message', onStart);
      resolve(message.options);
    };
    parentPort.on('message', onStart);
  }));

try {
  const { startReference } = await loading;
  const ref = await startReference(options);
  parentPort.on('message', async (message) => {
    if (message?.type !== 'stop') return;
    await ref.stop().catch(() => undefined);
    post({ type: 'stopped' });
    parentPort.close();
  });
  post({ type: 'started', svcAddr: ref.svcAddr, schedAddr: ref.schedAddr, cloud: ref.cloud });
} catch (err) {
  post({ type: 'failed', message: err instanceof Error ? err.message : String(err) });
}
