/**
 * Starts a real product and keeps it running until Ctrl-C, printing the settings that point the
 * suites at it:  node --import tsx tools/real-targets/main.ts openbao|openbao-ldap|nomad|nomad-acl
 */
import { binaries, startNomad, startOpenBao } from './launch.js';

const which = process.argv[2] ?? '';
const target =
  which === 'openbao' || which === 'openbao-ldap'
    ? await startOpenBao({ binary: which === 'openbao' ? binaries.openbao : binaries.openbaoLdap })
    : which === 'nomad' || which === 'nomad-acl'
      ? await startNomad({ acl: which === 'nomad-acl' })
      : undefined;
if (!target) {
  console.error('usage: tools/real-targets/main.ts openbao|openbao-ldap|nomad|nomad-acl');
  process.exit(2);
}
const prefix = which.startsWith('openbao') ? 'SVC' : 'SCHED';
// The token is printed on purpose: this is a throw-away development server on loopback.
console.log(`${prefix}_ADDR=${target.addr} ${prefix}_TOKEN=${target.token}  # version ${target.version}`);
const stop = () => void target.stop().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
setInterval(() => {}, 1 << 30);
