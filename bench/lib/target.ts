/**
 * Child process of the bench: the reference started alone, as the embedded run starts it (same
 * options as harness/setup/target.ts), announcing its addresses on one stdout line. It ends on
 * SIGTERM, or when the bench's end of stdin closes (the bench died without ending it).
 * The root token comes from the environment (BENCH_ROOT_TOKEN), never the command line.
 */
import { startReference } from '../../reference/start.js';

const rootToken = process.env.BENCH_ROOT_TOKEN;
if (!rootToken) {
  console.error('BENCH_ROOT_TOKEN is not set');
  process.exit(2);
}
// Variants and scheduler delays for the bench's asynchronous-scheduler phase (bench/lib/async-jobs.ts).
const variants = (process.env.BENCH_VARIANTS ?? '').split(',').filter(Boolean);
const ref = await startReference({
  rootToken,
  requireRequestHeader: false,
  quiet: true,
  env: {},
  variants,
  schedDelays: process.env.BENCH_SCHED_DELAYS,
});
let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  const timer = setTimeout(() => process.exit(1), 5000);
  await ref.stop().catch(() => undefined);
  clearTimeout(timer);
  process.exit(0);
};
process.on('SIGTERM', stop);
process.stdin.on('end', stop);
process.stdin.on('error', stop);
process.stdin.resume();
console.log(
  `BENCH_TARGET ${JSON.stringify({ svcAddr: ref.svcAddr, schedAddr: ref.schedAddr, cloud: ref.cloud ?? null })}`,
);
