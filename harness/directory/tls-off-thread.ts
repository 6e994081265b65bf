/**
 * The directory's TLS material (tls-material.ts) made on a thread of its own when the harness
 * runs compiled (compose/compiled.mjs): loading the certificate library and signing cost ~130 ms
 * of CPU, which on the main thread would hold up vitest's start beside which the directory is
 * provisioned. Without the compiled tree (tsx's loader, `npm test`) a thread would first have to
 * load TypeScript support (~1 s): the material is made on the calling thread then.
 */
import { Worker } from 'node:worker_threads';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { TlsMaterial } from './tls-material.js';
import { compiledTree } from '../cli/compiled-modules.js';

/** How long the thread may take before the run fails with a message (signing takes milliseconds). */
const THREAD_TIMEOUT_MS = 30_000;

function compiledModule(): string | undefined {
  const tree = compiledTree();
  if (!tree?.sources.includes('harness/directory/tls-material.ts')) return undefined;
  return pathToFileURL(join(tree.dir, 'harness/directory/tls-material.js')).href;
}

export async function tlsMaterialOffThread(hosts?: string[]): Promise<TlsMaterial> {
  const module = compiledModule();
  if (!module) return (await import('./tls-material.js')).tlsMaterial(hosts);
  const thread = new Worker(new URL('./tls-material-thread.mjs', import.meta.url), { workerData: { module, hosts } });
  try {
    return await new Promise<TlsMaterial>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`the directory's TLS material was not made within ${THREAD_TIMEOUT_MS / 1000} s`)),
        THREAD_TIMEOUT_MS,
      );
      thread.once('message', (material: TlsMaterial) => {
        clearTimeout(timer);
        resolve(material);
      });
      thread.once('error', (err) => {
        clearTimeout(timer);
        reject(err);
      });
      thread.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`the directory's TLS material thread ended (exit ${code}) without it`));
      });
    });
  } finally {
    await thread.terminate();
  }
}
