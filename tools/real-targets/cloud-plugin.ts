/**
 * The upstream cloud engine plugin (v0.20.3) in OpenBao 2.7.2, pointed at the reference's simulated
 * cloud without changing the machine:
 * - the simulated cloud listens on port 443 of a loopback address of this run's own (127.57.x.y),
 *   with a certificate for the real cloud's host names signed by its own CA;
 * - OpenBao runs in a private mount namespace whose /etc/hosts (bind-mounted over the machine's, for
 *   that process and the plugin it starts only) maps those names to that address;
 * - the plugin trusts the CA through SSL_CERT_FILE (the system's CAs and the simulation's);
 * - the plugin is registered in the catalog as `azure` (the upstream name of the engine type) from
 *   `-dev-plugin-dir`.
 * Needs root (unshare -m, mount --bind, port 443). The suite reads the simulation at its address.
 */
import { createHash, randomInt } from 'node:crypto';
import { createReadStream, existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { rootCertificates } from 'node:tls';
import { ControllableClock } from '../../reference/clock.js';
import { Faults } from '../../reference/faults.js';
import {
  PUBLIC_HOSTS,
  startCloudDirectory,
  type RunningCloudDirectory,
} from '../../reference/cloud-directory/server.js';
import { envOf } from '../../harness/config/settings.js';
import { INSTALL_COMMAND, binaries, startOpenBao, type RunningTarget } from './launch.js';

/** The sign-in audiences of the upstream product (the documents' names renamed). */
export const UPSTREAM_AUDIENCES = [
  'AzureADMyOrg',
  'AzureADMultipleOrgs',
  'AzureADandPersonalMicrosoftAccount',
  'PersonalMicrosoftAccount',
];

export interface CloudPluginOptions {
  /** Start OpenBao with the engine's environment variables (AZURE_*) naming the simulation's root client. */
  engineEnv?: boolean;
}

export interface RunningCloudPlugin {
  openbao: RunningTarget;
  cloud: RunningCloudDirectory;
  /** What the simulated cloud holds now that it did not hold at start (what a run left behind). */
  leftovers(): string[];
  /** The settings that point a conformance run at both (SVC_*, CLOUD_*). */
  env: Record<string, string>;
  stop(): Promise<void>;
}

const SYSTEM_CA_FILES = ['/etc/ssl/certs/ca-certificates.crt', '/etc/pki/tls/certs/ca-bundle.crt', '/etc/ssl/cert.pem'];

async function sha256(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

async function bao(target: RunningTarget, method: string, path: string, body?: unknown): Promise<void> {
  const res = await fetch(`${target.addr}/v1/${path}`, {
    method,
    headers: { 'X-Vault-Token': target.token, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(30_000),
  });
  if (res.status >= 300) throw new Error(`OpenBao ${method} ${path} answered ${res.status}: ${await res.text()}`);
}

/** Every object of the simulated cloud, named by kind and id (and display name, to read it). */
function contents(cloud: RunningCloudDirectory): string[] {
  const { store, arm } = cloud;
  return [
    ...[...store.applications.values()].map((a) => `application ${a.id} ${a.displayName} (client id ${a.appId})`),
    ...[...store.applications.values()].flatMap((a) =>
      a.passwordCredentials.map((c) => `secret ${c.keyId} of application ${a.displayName}`),
    ),
    ...[...store.servicePrincipals.values()].map((p) => `service principal ${p.id} ${p.displayName}`),
    ...[...store.servicePrincipals.values()].flatMap((p) =>
      p.passwordCredentials.map((c) => `secret ${c.keyId} of principal ${p.displayName}`),
    ),
    ...[...store.deletedItems.values()].map((d) => `deleted ${d.kind} ${d.id} ${d.object.displayName}`),
    ...[...store.appRoleAssignments.values()].map((a) => `app role grant ${a.id} to ${a.principalDisplayName}`),
    ...[...store.groups.values()].flatMap((g) => [...g.members].map((m) => `member ${m} of ${g.displayName}`)),
    ...[...arm.roleAssignments.values()].map((a) => `role assignment ${a.id}`),
    ...[...arm.resources.values()].map((r) => `resource ${r.id}`),
  ];
}

/** Whether this machine can run it: the binaries, `unshare` and root. */
export function cloudPluginPresent(): boolean {
  return (
    existsSync(binaries.openbao) &&
    existsSync(binaries.cloudPlugin) &&
    process.getuid?.() === 0 &&
    ['/usr/bin/unshare', '/bin/unshare'].some((f) => existsSync(f))
  );
}

export async function startCloudPlugin(opts: CloudPluginOptions = {}): Promise<RunningCloudPlugin> {
  for (const f of [binaries.openbao, binaries.cloudPlugin])
    if (!existsSync(f)) throw new Error(`${f} is not installed: ${INSTALL_COMMAND}`);
  if (process.getuid?.() !== 0)
    throw new Error('the cloud plugin target needs root (unshare -m, mount --bind, port 443)');
  // A loopback address of this run's own: another run (or a service on 127.0.0.1:443) never collides.
  const address = `127.57.${randomInt(1, 255)}.${randomInt(1, 255)}`;
  const clock = new ControllableClock();
  const cloud = await startCloudDirectory({
    host: address,
    port: 443,
    clock,
    faults: new Faults(),
    audiences: UPSTREAM_AUDIENCES,
    hostNames: PUBLIC_HOSTS,
  });
  const seeded = new Set(contents(cloud));
  const dir = mkdtempSync(join(tmpdir(), 'cloud-plugin-'));
  const hosts = join(dir, 'hosts');
  writeFileSync(hosts, `127.0.0.1 localhost\n::1 localhost\n${address} ${PUBLIC_HOSTS.join(' ')}\n`);
  const system = SYSTEM_CA_FILES.find((f) => existsSync(f));
  const bundle = join(dir, 'ca-bundle.pem');
  writeFileSync(bundle, `${system ? readFileSync(system, 'utf8') : rootCertificates.join('\n')}\n${cloud.ca}`);
  const engineEnv: Record<string, string> = opts.engineEnv
    ? {
        AZURE_TENANT_ID: cloud.tenantId,
        AZURE_SUBSCRIPTION_ID: cloud.subscriptionId,
        AZURE_CLIENT_ID: cloud.rootClientId,
        AZURE_CLIENT_SECRET: cloud.rootClientSecret,
        AZURE_ENVIRONMENT: 'AzurePublicCloud',
      }
    : {};
  let openbao: RunningTarget;
  try {
    openbao = await startOpenBao({
      // OpenBao runs only files inside its plugin directory as it resolves them: a link on the way
      // (a .real-targets/ linked from another checkout) would put the plugin outside of it.
      pluginDir: dirname(realpathSync(binaries.cloudPlugin)),
      env: { SSL_CERT_FILE: bundle, ...engineEnv },
      // The hosts file holds for OpenBao and the plugin it starts, in their own mount namespace only.
      wrap: (cmd, args) => [
        'unshare',
        [
          '-m',
          '--propagation',
          'private',
          'sh',
          '-c',
          'mount --bind "$0" /etc/hosts && exec "$@"',
          hosts,
          cmd,
          ...args,
        ],
      ],
    });
    await bao(openbao, 'PUT', 'sys/plugins/catalog/secret/azure', {
      sha256: await sha256(binaries.cloudPlugin),
      command: basename(binaries.cloudPlugin),
    });
  } catch (err) {
    await cloud.close();
    clock.close();
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  const endpoint = cloud.addr;
  // The run's settings by their paths; their environment variables come from their declarations.
  const settingsOfRun: Record<string, string> = {
    'svc.addr': openbao.addr,
    'svc.token': openbao.token,
    'cloud.loginEndpoint': endpoint,
    'cloud.graphEndpoint': endpoint,
    'cloud.managementEndpoint': endpoint,
    'cloud.cacert': cloud.caFile,
    'cloud.rootClientId': cloud.rootClientId,
    'cloud.rootClientSecret': cloud.rootClientSecret,
    'cloud.tenantId': cloud.tenantId,
    'cloud.subscriptionId': cloud.subscriptionId,
    'cloud.resourceGroup': cloud.fixtures.resourceGroup,
    'cloud.roleNames': cloud.fixtures.roleNames.join(','),
    'cloud.groupNames': cloud.fixtures.groupNames.join(','),
    'cloud.applicationObjectId': cloud.fixtures.applicationObjectId,
  };
  if (opts.engineEnv) {
    // The variables the engine was started with, in the target's names (a secret's value left out).
    settingsOfRun['cloud.envOverrides'] = JSON.stringify(
      Object.fromEntries(Object.entries(engineEnv).map(([k, v]) => [k, k.endsWith('_SECRET') ? '' : v])),
    );
  }
  const env = Object.fromEntries(Object.entries(settingsOfRun).map(([path, v]) => [envOf(path), v]));
  return {
    openbao,
    cloud,
    env,
    leftovers: () => contents(cloud).filter((c) => !seeded.has(c)),
    async stop() {
      await openbao.stop();
      await cloud.close();
      clock.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
