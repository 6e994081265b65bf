// The mutation run's references (compose/reference-host.ts): one worker thread of the run's main
// process holding every reference a round needs, each with its own switches and ports, started
// and stopped on request. One thread, so the reference's modules load once for the whole run.
// JavaScript, so the thread starts without its parent's loaders: it loads the reference compiled
// (compiled.mjs) or registers tsx itself.
//
// RSA keys come from the run's tape (harness/cli/mutation-key-tape.ts): the n-th key a reference
// asks for is the n-th of the tape, made once for the whole run. Installed before the reference's
// modules load (they bind node's generateKeyPair when they load); the context is the reference
// the request reached, known by the port it arrived on.
import { AsyncLocalStorage } from 'node:async_hooks';
import diagnostics from 'node:diagnostics_channel';
import { parentPort, workerData } from 'node:worker_threads';
import { enableNodeCompileCache, importCompiledOrSource } from './compiled.mjs';

enableNodeCompileCache();

const owner = new AsyncLocalStorage();
/** Port -> the id of the reference listening on it. */
const byPort = new Map();
diagnostics.subscribe('http.server.request.start', ({ request }) => {
  owner.enterWith(byPort.get(request.socket?.localPort));
});
const { installKeyTape } = await importCompiledOrSource('harness/cli/mutation-key-tape.ts', workerData?.compiled);
const forgetKeys = installKeyTape(() => owner.getStore());

const loading = Promise.all([
  importCompiledOrSource('reference/start.ts', workerData?.compiled),
  importCompiledOrSource('reference/trace.ts', workerData?.compiled),
]);
const running = new Map();
let nextId = 1;

const portOf = (addr) => (addr ? Number(new URL(addr).port) : undefined);
const portsOf = (ref) => [ref.svcAddr, ref.schedAddr, ref.cloud?.directoryAddr].map(portOf).filter(Boolean);

async function stopAll(ids) {
  await Promise.all(
    ids.map(async (id) => {
      const ref = running.get(id);
      running.delete(id);
      if (!ref) return;
      for (const port of portsOf(ref)) if (byPort.get(port) === String(id)) byPort.delete(port);
      forgetKeys(String(id));
      await ref.stop().catch(() => undefined);
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
        for (const port of portsOf(ref)) byPort.set(port, String(id));
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
