/**
 * The ldap suite's directory, when the harness starts one (a private slapd or a container),
 * provisioned on a worker thread of its own (directory-thread.mjs) that keeps it until stop().
 *
 * The directory is provisioned beside vitest's start, whose work keeps the main thread busy for a
 * few hundred milliseconds: there each step (loading the certificate library, signing, spawning
 * slapadd, then slapd, waiting for it) would wait for a free moment, and the directory, not the
 * test workers, would decide when the first test starts. A directory of the config (nothing to
 * start) is filled in on the calling thread.
 */
import { Worker } from 'node:worker_threads';
import type { DirectoryConfigInput, ProvisionedDirectory } from '../harness/directory/provision.js';

/** How long provisioning may take (slapd waits up to 10 s for itself, a container far longer). */
const PROVISION_TIMEOUT_MS = 180_000;
/** How long stopping may take before the thread is ended (slapd stops in milliseconds, SIGKILL after 3 s). */
const STOP_TIMEOUT_MS = 10_000;

type ThreadMessage =
  | { type: 'provisioned'; directory: Omit<ProvisionedDirectory, 'stop'> }
  | { type: 'failed'; name: string; message: string }
  | { type: 'stopped' };

/** The thread's next message of one of `types`; fails after `ms`, or when the thread ends first. */
function next<T extends ThreadMessage['type']>(
  worker: Worker,
  types: T[],
  ms: number,
  what: string,
): Promise<Extract<ThreadMessage, { type: T }>> {
  return new Promise((resolve, reject) => {
    const done = () => {
      clearTimeout(timer);
      worker.off('message', onMessage);
      worker.off('error', onError);
      worker.off('exit', onExit);
    };
    const onMessage = (m: ThreadMessage) => {
      if (!(types as string[]).includes(m.type)) return;
      done();
      resolve(m as Extract<ThreadMessage, { type: T }>);
    };
    const onError = (err: Error) => {
      done();
      reject(err);
    };
    const onExit = (code: number) => {
      done();
      reject(new Error(`the directory's thread ended (exit ${code}) before it was ${what}`));
    };
    const timer = setTimeout(() => {
      done();
      reject(new Error(`the directory was not ${what} within ${ms / 1000} s`));
    }, ms);
    worker.on('message', onMessage);
    worker.on('error', onError);
    worker.on('exit', onExit);
  });
}

export async function provisionDirectoryOnThread(input: DirectoryConfigInput = {}): Promise<ProvisionedDirectory> {
  if (input.url) return (await import('../harness/directory/provision.js')).provisionDirectory(input);
  // The compiled tree this process already found (compiled.mjs): the thread need not hash every source again.
  const compiled = (globalThis as { __conformanceCompiledTree?: unknown }).__conformanceCompiledTree;
  const worker = new Worker(new URL('./directory-thread.mjs', import.meta.url), { workerData: { input, compiled } });
  let answer: Extract<ThreadMessage, { type: 'provisioned' | 'failed' }>;
  try {
    answer = await next(worker, ['provisioned', 'failed'], PROVISION_TIMEOUT_MS, 'provisioned');
  } catch (err) {
    await worker.terminate();
    throw err;
  }
  if (answer.type === 'failed') {
    await worker.terminate();
    throw Object.assign(new Error(answer.message), { name: answer.name });
  }
  let stopped: Promise<void> | undefined;
  return {
    ...answer.directory,
    stop() {
      stopped ??= (async () => {
        try {
          const done = next(worker, ['stopped'], STOP_TIMEOUT_MS, 'stopped');
          worker.postMessage({ type: 'stop' });
          await done;
        } finally {
          await worker.terminate();
        }
      })();
      return stopped;
    },
  };
}
