// The mutation run's references (compose/reference-host.ts): one worker thread of the run's main
// process holding every reference a round needs, each with its own switches and ports, started
// and stopped on request. One thread, so the reference's modules load once for the whole run.
// JavaScript, so the thread starts without its parent's loaders: it loads the reference compiled
// (compiled.mjs) or registers tsx itself.
import { parentPort, workerData } from 'node:worker_threads';
import { enableNodeCompileCache, importCompiledOrSource } from './compiled.mjs';

enableNodeCompileCache();

const loading = Promise.all([
  importCompiledOrSource('reference/start.ts', workerData?.compiled),
  importCompiledOrSource('reference/trace.ts', workerData?.compiled),
]);
const running = new Map();
let nextId = 1;

async function stopAll(ids) {
  await Promise.all(
    ids.map(async (id) => {
      const ref = running.get(id);
      running.delete(id);
      await ref?.stop().catch(() => undefined);
    }),
  );
}

const handlers = {
  async start({ options }) {
    const [{ startReference }] = await loading;
    const started = [];
    try {
      for (const o of options) {
        const ref = await startReference(o);
        const id = nextId++;
        running.set(id, ref);
        started.push({ id, svcAddr: ref.svcAddr, schedAddr: ref.schedAddr, cloud: ref.cloud });
      }
    } catch (err) {
      await stopAll(started.map((s) => s.id));
      throw err;
    }
    return started;
  },
  async stop({ ids }) {
    await stopAll(ids);
  },
  async reach() {
    const [, { takeReach }] = await loading;
    return takeReach();
  },
  async close() {
    await stopAll([...running.keys()]);
  },
};

parentPort.on('message', async (message) => {
  const handle = handlers[message?.type];
  if (!handle) return;
  try {
    parentPort.postMessage({ req: message.req, ok: true, result: await handle(message) });
  } catch (err) {
    parentPort.postMessage({ req: message.req, ok: false, message: err instanceof Error ? err.message : String(err) });
  }
});
