#!/usr/bin/env node
// Entry point of the `svc-conformance` command. The TypeScript CLI runs in this very process
// (tsx's loader registered here, resolved from this package, not from the caller's directory),
// so Ctrl-C or a SIGTERM to this process reaches the run itself: no wrapper is left in between.
import { register } from 'tsx/esm/api';

register();
await import('../compose/cli.ts');
