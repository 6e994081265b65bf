/**
 * The bench's external targets: the reference started alone in a child process (target.ts), a
 * fresh directory for the ldap suite, and the config and environment of a run against them
 * (through the bench's proxies). Tokens and passwords stay in memory and environment variables;
 * the config files carry none.
 */
import type { ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { provisionDirectory, type ProvisionedDirectory } from '../../harness/directory/provision.js';
import { EMBEDDED_SCHED_CAPABILITIES, EMBEDDED_SVC_CAPABILITIES } from '../../harness/setup/target.js';
import { endGroup, spawnTsx } from './processes.js';

export interface Target {
  child: ChildProcess;
  svcAddr: string;
  schedAddr?: string;
  cloud: Record<string, unknown> | null;
  directory?: ProvisionedDirectory;
}

/**
 * The reference alone in a child process (with these variants and scheduler delays, `name=ms,...`),
 * plus a fresh directory when the ldap suite runs.
 */
export async function startTarget(
  rootToken: string,
  withDirectory: boolean,
  reference: { variants?: string[]; schedDelays?: string } = {},
): Promise<Target> {
  const child = spawnTsx('bench/lib/target.ts', [], {
    stdio: ['pipe', 'pipe', 'pipe'],
    env: {
      ...process.env,
      BENCH_ROOT_TOKEN: rootToken,
      BENCH_VARIANTS: (reference.variants ?? []).join(','),
      BENCH_SCHED_DELAYS: reference.schedDelays ?? '',
    },
  });
  const info = await new Promise<{ svcAddr: string; schedAddr?: string; cloud: Record<string, unknown> | null }>(
    (resolve, reject) => {
      let out = '';
      const timer = setTimeout(
        () => reject(new Error(`the reference did not start within 60 s: ${out.slice(-500)}`)),
        60_000,
      );
      const onData = (d: Buffer) => {
        out += d;
        const m = /BENCH_TARGET (.*)\n/.exec(out);
        if (m) {
          clearTimeout(timer);
          resolve(JSON.parse(m[1]!));
        }
      };
      child.stdout!.on('data', onData);
      child.stderr!.on('data', (d) => {
        out += d;
      });
      child.on('exit', (c) => reject(new Error(`the reference exited (${c}): ${out.slice(-500)}`)));
    },
  );
  let directory: ProvisionedDirectory | undefined;
  if (withDirectory) {
    try {
      directory = await provisionDirectory({});
    } catch (err) {
      console.log(`  (no directory: ${(err as Error).message.split('\n')[0]}; the ldap suite skips)`);
    }
  }
  return { child, ...info, directory };
}

export async function stopTarget(t: Target): Promise<void> {
  await t.directory?.stop().catch(() => undefined);
  t.child.stdin?.end();
  await endGroup(t.child);
}

/** Config file (in `dir`) and environment for a run against `svc`/`sched` (the proxies) of target `t`. */
export function targetConfig(
  dir: string,
  name: string,
  rootToken: string,
  t: Target,
  svc: string,
  sched?: string,
  /** Settings over the bench's defaults (capabilities merged, the rest replaced). */
  extra: { capabilities?: Record<string, boolean>; timing?: Record<string, number> } = {},
): { file: string; env: Record<string, string> } {
  const file = join(dir, `${name}.json`);
  const {
    stop: _stop,
    started: _started,
    bindPass: _pass,
    ...ldap
  } = t.directory ?? ({} as Partial<ProvisionedDirectory>);
  const { rootClientSecret: _secret, ...cloud } = (t.cloud ?? {}) as Record<string, unknown>;
  // The same capabilities the embedded run has, so the same tests run.
  const config = {
    capabilities: {
      ...EMBEDDED_SVC_CAPABILITIES,
      ...EMBEDDED_SCHED_CAPABILITIES,
      ...extra.capabilities,
    },
    ...(extra.timing ? { timing: extra.timing } : {}),
    ...(t.cloud ? { cloud } : {}),
  };
  writeFileSync(file, JSON.stringify(config), { mode: 0o600 });
  const env: Record<string, string> = {
    CONFORMANCE_CONFIG: file,
    SVC_ADDR: svc,
    SVC_TOKEN: rootToken,
    SCHED_ADDR: sched ?? '',
    SCHED_TOKEN: sched ? rootToken : '',
  };
  if (t.directory)
    Object.assign(env, {
      LDAP_URL: ldap.url,
      LDAP_BIND_DN: ldap.bindDn,
      LDAP_BIND_PASS: t.directory.bindPass,
      LDAP_BASE_DN: ldap.baseDn,
      LDAP_USER_DN: ldap.userDn,
      LDAP_SERVICE_ACCOUNTS: (ldap.serviceAccounts ?? []).join(','),
      LDAP_USERS: (ldap.users ?? []).join(','),
    });
  if (typeof _secret === 'string') env.CLOUD_ROOT_CLIENT_SECRET = _secret;
  return { file, env };
}

/** String leaves of two objects at the same positions: what differs between two targets' set-ups. */
export function pairs(a: unknown, b: unknown, out: Map<string, string>): void {
  if (typeof a === 'string' && typeof b === 'string') {
    if (a !== b && a.length >= 4) out.set(a, b);
  } else if (a && b && typeof a === 'object' && typeof b === 'object') {
    for (const k of Object.keys(a)) pairs((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], out);
  }
}
