/**
 * `npm run reference -- --port 8200 --sched-port 4646 --cloud-port 8300 --root-token root`
 * Runs the reference in the foreground and prints its addresses when ready.
 */
import { Command, InvalidArgumentError } from 'commander';
import { startReference } from './start.js';

function port(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new InvalidArgumentError('must be a port number 0-65535');
  return n;
}
function positive(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new InvalidArgumentError('must be a positive number');
  return n;
}

const program = new Command('reference')
  .description('Reference implementation of the secrets service and the job scheduler')
  .option('--host <host>', 'listen address', '127.0.0.1')
  .option('--port <port>', 'secrets service port', port, 8200)
  .option('--sched-port <port>', 'scheduler port', port, 4646)
  .option('--cloud-port <port>', 'simulated cloud directory port', port, 8300)
  .option('--root-token <token>', 'root token of the secrets service (and the scheduler management token)', 'root')
  .option('--version <semver>', 'version the reference reports and whose known issues it carries', '1.13.10')
  .option('--faults <names>', 'comma-separated fault switches (also REF_FAULTS)', process.env.REF_FAULTS ?? '')
  .option('--variants <names>', 'comma-separated legal variants (also REF_VARIANTS)', process.env.REF_VARIANTS ?? '')
  .option('--sched-no-acl', 'run the scheduler without ACLs', false)
  .option(
    '--sched-delays <name=ms,...>',
    "the scheduler's delays after it answers: evaluationMs, gcMs, defaultMinHealthyMs, allocationStartMs, batchRunMs (also REF_SCHED_DELAYS)",
    process.env.REF_SCHED_DELAYS ?? '',
  )
  .option('--max-request-bytes <n>', 'maximum request body size', positive, 32 * 1024 * 1024)
  .option('--require-request-header', 'require the X-Svc-Request header on every request', false)
  .option('--lockout-threshold <n>', 'user lockout threshold (attempts)', positive, 5)
  .option('--lockout-duration <seconds>', 'user lockout duration in seconds', positive, 900)
  .option(
    '--tls-ca-out <file>',
    'serve the secrets service over TLS with a fresh self-signed certificate, written to this file for clients (SVC_CACERT)',
  )
  .option('--lockout-reset <seconds>', 'user lockout counter reset window in seconds', positive, 900)
  .option(
    '--cloud-config-out <file>',
    "write the simulated cloud directory's settings (the run's `cloud` section, with its root client secret) to this config file (--config FILE)",
  )
  .showHelpAfterError();

program.parse();
const o = program.opts();
let tls: { cert: string; key: string } | undefined;
if (o.tlsCaOut) {
  const { selfSignedCertificate } = await import('./tls.js');
  const { writeFileSync } = await import('node:fs');
  tls = await selfSignedCertificate();
  writeFileSync(o.tlsCaOut, tls.cert);
}
const ref = await startReference({
  tls,
  host: o.host,
  port: o.port,
  schedPort: o.schedPort,
  cloudPort: o.cloudPort,
  rootToken: o.rootToken,
  version: o.version,
  faults: String(o.faults)
    .split(',')
    .map((s: string) => s.trim())
    .filter(Boolean),
  variants: String(o.variants)
    .split(',')
    .map((s: string) => s.trim())
    .filter(Boolean),
  maxRequestBytes: o.maxRequestBytes,
  schedAcl: !o.schedNoAcl,
  schedDelays: o.schedDelays,
  requireRequestHeader: o.requireRequestHeader,
  lockoutThreshold: o.lockoutThreshold,
  lockoutDurationSeconds: o.lockoutDuration,
  lockoutResetSeconds: o.lockoutReset,
});
console.log(`secrets service: ${ref.svcAddr}`);
if (ref.schedAddr) console.log(`scheduler:       ${ref.schedAddr}`);
if (ref.cloudAddr) console.log(`cloud directory: ${ref.cloudAddr}`);
// The settings carry a client secret: they go to a file of the operator's choosing (mode 0600), never to the console.
if (o.cloudConfigOut && ref.cloud) {
  const { writeFileSync } = await import('node:fs');
  writeFileSync(o.cloudConfigOut, JSON.stringify({ cloud: ref.cloud }, null, 2), { mode: 0o600 });
}
console.log('ready');
const shutdown = async () => {
  await ref.stop();
  process.exit(0);
};
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);
