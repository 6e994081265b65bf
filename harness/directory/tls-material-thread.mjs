// The directory's TLS material made on a thread of its own (harness/directory/tls-off-thread.ts
// starts it with the compiled tls-material module to load). JavaScript: a thread starts without
// the parent's loaders, and the module it loads is compiled already.
import { createRequire } from 'node:module';
import { parentPort, workerData } from 'node:worker_threads';

// Through node's compile cache too where the run enabled one (compose/compiled.mjs).
try {
  const { enableCompileCache } = createRequire(import.meta.url)('node:module');
  if (enableCompileCache && process.env.NODE_COMPILE_CACHE) enableCompileCache(process.env.NODE_COMPILE_CACHE);
} catch {
  /* only the time is lost */
}
const { tlsMaterial } = await import(workerData.module);
parentPort.postMessage(await tlsMaterial(workerData.hosts));
