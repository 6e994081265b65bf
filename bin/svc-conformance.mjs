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
// A run that will likely need the embedded reference (the guess `embeddedLikely` of
// harness/config/target-plan.ts: the environment names no secrets service) starts the reference's
// thread now, loading its modules beside vitest's loading; the thread starts the reference only
// once the loaded config's target plan asks for it (harness/setup/early-start.ts,
// compose/reference.ts). Unused (the config file names a target), it holds nothing up (unref'd)
// and ends with the process.
//
// The TypeScript runs compiled once into the cache (compose/compiled.mjs), not through tsx's
// loader, unless that cannot be done (then tsx's loader, as before); on Node >= 22.1 node's own
// compile cache is on for the whole run, vitest's modules included (enableNodeCompileCache).
import { Worker } from 'node:worker_threads';
import { compiledTree, enableNodeCompileCache, importCompiled } from '../compose/compiled.mjs';

enableNodeCompileCache();

const run = process.argv[2] === 'run';
// Found (or compiled) once: the guess, the reference's thread and the command line share it.
const tree = (await compiledTree()) ?? undefined;

/** The guess, from the compiled harness; without a compiled tree, a preload that may stay idle. */
async function embeddedLikely() {
  const plan = tree && (await importCompiled('harness/config/target-plan.ts', tree));
  return plan ? plan.embeddedLikely(process.env) : true;
}

if (run && (await embeddedLikely())) {
  const thread = new Worker(new URL('../compose/reference-thread.mjs', import.meta.url), {
    workerData: { preload: true, tree },
  });
  thread.unref();
  thread.on('error', () => undefined);
  globalThis.__conformanceReferenceThread = thread;
}
if (run) await import('vitest/node');
if (!(await importCompiled('compose/cli.ts', tree))) {
  const { register } = await import('tsx/esm/api');
  register();
  await import('../compose/cli.ts');
}
