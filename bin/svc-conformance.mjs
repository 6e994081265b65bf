#!/usr/bin/env node
// Entry point of the `svc-conformance` command (and of `npm run conformance`). The TypeScript CLI
// runs in this very process (tsx's loader registered here, resolved from this package, not from
// the caller's directory), so Ctrl-C or a SIGTERM to this process reaches the run itself: no
// wrapper is left in between.
//
// A run loads vitest, and once tsx's loader is registered every module node loads passes through
// it: vitest's own modules then cost ~0.8 s more CPU than loaded plainly (tsx reads and checks
// each file off-thread). They hold no TypeScript, so a run loads them first, before tsx.
import { register } from 'tsx/esm/api';

if (process.argv[2] === 'run') await import('vitest/node');
register();
await import('../compose/cli.ts');
