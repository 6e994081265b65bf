// The ldap suite's directory (harness/directory/provision.ts: its TLS material, slapadd, slapd)
// provisioned on a worker thread of the run's main process (compose/directory.ts starts it with
// the directory's settings), which keeps slapd until told to stop. JavaScript, so the thread
// starts without its parent's loaders: it loads the harness compiled (compiled.mjs) or registers
// tsx itself.
import { parentPort, workerData } from 'node:worker_threads';
import { enableNodeCompileCache, importCompiledOrSource } from './compiled.mjs';

enableNodeCompileCache();

/** Messages to the parent: `provisioned` with the directory (its stop() stays here), `failed`, `stopped`. */
const post = (message) => parentPort.postMessage(message);

try {
  const { provisionDirectory } = await importCompiledOrSource('harness/directory/provision.ts', workerData.compiled);
  const { stop, ...directory } = await provisionDirectory(workerData.input);
  parentPort.on('message', async (message) => {
    if (message?.type !== 'stop') return;
    await stop().catch(() => undefined);
    post({ type: 'stopped' });
    parentPort.close();
  });
  post({ type: 'provisioned', directory });
} catch (err) {
  post({ type: 'failed', name: err?.name ?? 'Error', message: err instanceof Error ? err.message : String(err) });
}
