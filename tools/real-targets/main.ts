/**
 * Starts a real product and keeps it running until Ctrl-C, printing the settings that point the
 * suites at it:  node --import tsx tools/real-targets/main.ts openbao|openbao-ldap|nomad|nomad-acl|cloud-plugin
 * (cloud-plugin: the upstream cloud engine plugin in OpenBao and the simulated cloud it manages;
 * as root. `cloud-plugin env` starts OpenBao with the engine's AZURE_* variables.)
 */
import { startCloudPlugin } from './cloud-plugin.js';
import { binaries, startNomad, startOpenBao } from './launch.js';

const which = process.argv[2] ?? '';
if (which === 'cloud-plugin') {
  const running = await startCloudPlugin({ engineEnv: process.argv[3] === 'env' });
  // Printed on purpose: a throw-away development server and simulation on loopback.
  console.log(
    Object.entries(running.env)
      .map(([k, v]) => `${k}='${v.replace(/'/g, "'\\''")}'`)
      .join(' '),
  );
  const stop = () => void running.stop().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  setInterval(() => {}, 1 << 30);
} else {
  const target =
    which === 'openbao' || which === 'openbao-ldap'
      ? await startOpenBao({ binary: which === 'openbao' ? binaries.openbao : binaries.openbaoLdap })
      : which === 'nomad' || which === 'nomad-acl'
        ? await startNomad({ acl: which === 'nomad-acl' })
        : undefined;
  if (!target) {
    console.error('usage: tools/real-targets/main.ts openbao|openbao-ldap|nomad|nomad-acl|cloud-plugin [env]');
    process.exit(2);
  }
  const prefix = which.startsWith('openbao') ? 'SVC' : 'SCHED';
  // The token is printed on purpose: this is a throw-away development server on loopback.
  console.log(`${prefix}_ADDR=${target.addr} ${prefix}_TOKEN=${target.token}  # version ${target.version}`);
  const stop = () => void target.stop().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  setInterval(() => {}, 1 << 30);
}
