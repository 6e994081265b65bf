#!/usr/bin/env node
// Entry point of the `svc-conformance` command (and of `npm run conformance`). The TypeScript CLI
// runs in this very process (tsx's loader registered here, resolved from this package, not from
// the caller's directory), so Ctrl-C or a SIGTERM to this process reaches the run itself: no
// wrapper is left in between.
//
// A run loads vitest, and once tsx's loader is registered every module node loads passes through
// it: vitest's own modules then cost ~0.8 s more CPU than loaded plainly (tsx reads and checks
// each file off-thread). They hold no TypeScript, so a run loads them first, before tsx.
//
// A run without SVC_ADDR most likely needs the embedded reference: its thread starts loading the
// reference now, beside vitest's loading, and starts it once the run knows it needs it
// (compose/reference.ts); unused (the config file names a target), it holds nothing up (unref'd)
// and ends with the process. With SVC_ADDR the run's target is elsewhere: nothing is loaded.
//
// The TypeScript runs compiled once into the cache (compose/compiled.mjs), not through tsx's
// loader, unless that cannot be done (then tsx's loader, as before); on Node >= 22.1 node's own
// compile cache is on for the whole run, vitest's modules included (enableNodeCompileCache).
import { Worker } from 'node:worker_threads';
import { enableNodeCompileCache, importCompiled } from '../compose/compiled.mjs';

enableNodeCompileCache();

if (process.argv[2] === 'run' && !process.env.SVC_ADDR) {
  const thread = new Worker(new URL('../compose/reference-thread.mjs', import.meta.url), {
    workerData: { preload: true },
  });
  thread.unref();
  thread.on('error', () => undefined);
  globalThis.__conformanceReferenceThread = thread;
}
if (process.argv[2] === 'run') await import('vitest/node');
if (!(await importCompiled('compose/cli.ts'))) {
  const { register } = await import('tsx/esm/api');
  register();
  await import('../compose/cli.ts');
}
