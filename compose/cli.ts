/**
 * The command line's entry point (`npm run conformance`, `svc-conformance`): the composition root
 * that hands the embedded reference to the harness. The harness and the reference never import
 * each other (README "Layout").
 */
import { runProgram } from '../harness/cli/program.js';
import { embeddedReference } from './reference.js';

await runProgram(process.argv, { embedded: embeddedReference, globalSetup: 'compose/global-setup.ts' });
