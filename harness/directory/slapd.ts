/**
 * A private slapd from Debian's packages: its own temp config and database on a free loopback
 * port, seeded with slapadd, stopped (and its files removed) by `stop()`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'ldapts';
import { toLdif, type SeedPlan } from './seed.js';
import type { TlsMaterial } from './tls-material.js';

const SLAPD_CANDIDATES = ['/usr/sbin/slapd', '/usr/local/sbin/slapd', '/usr/local/libexec/slapd'];
const SLAPADD_CANDIDATES = ['/usr/sbin/slapadd', '/usr/local/sbin/slapadd'];
const SCHEMA_DIRS = ['/etc/ldap/schema', '/etc/openldap/schema', '/usr/local/etc/openldap/schema'];
const MODULE_DIRS = ['/usr/lib/ldap', '/usr/lib64/openldap', '/usr/lib/openldap'];

/** How a fresh Debian/Ubuntu machine gets the directory the ldap suite needs. */
export const SLAPD_INSTALL = 'apt-get install -y slapd ldap-utils';

export class SlapdMissingError extends Error {
  constructor() {
    super(
      `slapd was not found and no container engine runs: install slapd ldap-utils (${SLAPD_INSTALL}) or set LDAP_URL`,
    );
  }
}

const first = (paths: string[]) => paths.find((p) => existsSync(p));

/** slapd (SLAPD_BIN, else the usual paths), slapadd and the schema files are all there. */
export function localSlapdFound(): boolean {
  return !!(
    first(process.env.SLAPD_BIN ? [process.env.SLAPD_BIN] : SLAPD_CANDIDATES) &&
    first(SLAPADD_CANDIDATES) &&
    first(SCHEMA_DIRS)
  );
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

/**
 * The attributes the ad and racf schemas of the directory engine search and set, which OpenLDAP
 * does not ship, on an auxiliary class a test adds to its accounts: userPrincipalName and
 * unicodePwd (OIDs of Active Directory), racfid, racfPassword and racfAttributes (OpenLDAP's
 * experimental arc 1.3.6.1.4.1.4203.666).
 */
export const EXTRA_SCHEMA = [
  "attributetype ( 1.2.840.113556.1.4.656 NAME 'userPrincipalName' EQUALITY caseIgnoreMatch SUBSTR caseIgnoreSubstringsMatch SYNTAX 1.3.6.1.4.1.1466.115.121.1.15 SINGLE-VALUE )",
  "attributetype ( 1.2.840.113556.1.4.90 NAME 'unicodePwd' EQUALITY octetStringMatch SYNTAX 1.3.6.1.4.1.1466.115.121.1.40 )",
  "attributetype ( 1.3.6.1.4.1.4203.666.11.901.1 NAME 'racfid' EQUALITY caseIgnoreMatch SUBSTR caseIgnoreSubstringsMatch SYNTAX 1.3.6.1.4.1.1466.115.121.1.15 )",
  "attributetype ( 1.3.6.1.4.1.4203.666.11.901.2 NAME 'racfPassword' EQUALITY octetStringMatch SYNTAX 1.3.6.1.4.1.1466.115.121.1.40 )",
  "attributetype ( 1.3.6.1.4.1.4203.666.11.901.3 NAME 'racfAttributes' EQUALITY caseIgnoreMatch SYNTAX 1.3.6.1.4.1.1466.115.121.1.15 )",
  "objectclass ( 1.3.6.1.4.1.4203.666.11.901.10 NAME 'conformanceAccount' AUXILIARY MAY ( userPrincipalName $ unicodePwd $ racfid $ racfPassword $ racfAttributes ) )",
  '',
].join('\n');

function slapdConf(dir: string, plan: SeedPlan, schemaDir: string, moduleDir: string | undefined): string {
  const schemas = ['core', 'cosine', 'nis', 'inetorgperson'].map((s) => `include ${schemaDir}/${s}.schema`);
  const admins = `group.exact="${plan.groupDn}"`;
  return [
    ...schemas,
    `include ${dir}/conformance.schema`,
    `pidfile ${dir}/slapd.pid`,
    `argsfile ${dir}/slapd.args`,
    // StartTLS on the ldap:// listener and the ldaps:// one, with the run's CA; no client certificate asked.
    `TLSCACertificateFile ${dir}/ca.pem`,
    `TLSCertificateFile ${dir}/server.pem`,
    `TLSCertificateKeyFile ${dir}/server-key.pem`,
    ...(moduleDir ? [`modulepath ${moduleDir}`, 'moduleload back_mdb'] : []),
    'database mdb',
    'maxsize 104857600',
    `suffix "${plan.baseDn}"`,
    `directory ${dir}/db`,
    // The TLS-only administrator: its password is accepted only on a TLS connection.
    ...(plan.tlsBindDn
      ? [`access to dn.exact="${plan.tlsBindDn}" attrs=userPassword by tls_ssf=1 anonymous auth by * none`]
      : []),
    // Without these lines anonymous users could read password hashes; admins may rewrite them.
    `access to attrs=userPassword by ${admins} write by self write by anonymous auth by * none`,
    `access to * by ${admins} write by * read`,
    '',
  ].join('\n');
}

async function waitReady(url: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastError = '';
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`slapd exited with code ${child.exitCode} before it was ready`);
    const client = new Client({ url, connectTimeout: 500, timeout: 1000 });
    try {
      await client.search('', { scope: 'base', attributes: ['namingContexts'] });
      return;
    } catch (err) {
      lastError = (err as Error).message;
    } finally {
      await client.unbind().catch(() => {});
    }
    // slapd answers within ~100 ms of its start; a refused connection costs next to nothing.
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`slapd did not answer within ${timeoutMs} ms: ${lastError}`);
}

// The watchdog's `sleep` gets no stderr and is ended with it: a sleep holding the stderr pipe
// kept the run's process alive up to a second after stop() (the pipe never reached its end).
const WATCHDOG = [
  '"$1" -d 0 -h "$2" -f "$3" & s=$!',
  'w=',
  'trap \'kill $s $w 2>/dev/null; wait $s; rm -rf "$5"; exit 0\' TERM INT',
  'while kill -0 "$4" 2>/dev/null && kill -0 $s 2>/dev/null; do sleep 1 >/dev/null 2>&1 & w=$!; wait $w; done',
  'kill $s 2>/dev/null; wait $s; rm -rf "$5"',
].join('\n');

export interface LocalSlapd {
  url: string;
  /** The same directory over TLS from the first byte. */
  ldapsUrl: string;
  stop(): Promise<void>;
}

/** A command's exit status and standard error; killed after `timeoutMs` (status null). */
function run(command: string, args: string[], timeoutMs: number): Promise<{ status: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: ['ignore', 'ignore', 'pipe'], timeout: timeoutMs });
    let stderr = '';
    child.stderr?.on('data', (b: Buffer) => {
      stderr = (stderr + b.toString()).slice(-2000);
    });
    child.once('error', (err) => resolve({ status: null, stderr: err.message }));
    child.once('close', (status) => resolve({ status, stderr }));
  });
}

export async function startLocalSlapd(plan: SeedPlan, tls: TlsMaterial): Promise<LocalSlapd> {
  const slapd = first(process.env.SLAPD_BIN ? [process.env.SLAPD_BIN] : SLAPD_CANDIDATES);
  const slapadd = first(SLAPADD_CANDIDATES);
  const schemaDir = first(SCHEMA_DIRS);
  if (!slapd || !slapadd || !schemaDir) throw new SlapdMissingError();
  const moduleDir = MODULE_DIRS.find((d) => existsSync(join(d, 'back_mdb.la')) || existsSync(join(d, 'back_mdb.so')));

  const dir = await mkdtemp(join(tmpdir(), 'conformance-slapd-'));
  await mkdir(join(dir, 'db'));
  const conf = join(dir, 'slapd.conf');
  await writeFile(conf, slapdConf(dir, plan, schemaDir, moduleDir));
  await writeFile(join(dir, 'conformance.schema'), EXTRA_SCHEMA);
  await writeFile(join(dir, 'ca.pem'), tls.ca);
  await writeFile(join(dir, 'server.pem'), tls.serverCert);
  await writeFile(join(dir, 'server-key.pem'), tls.serverKey, { mode: 0o600 });
  await writeFile(join(dir, 'seed.ldif'), toLdif(plan.entries));
  // Not spawnSync: the directory is provisioned beside the run's start, which goes on meanwhile.
  const added = await run(slapadd, ['-q', '-f', conf, '-l', join(dir, 'seed.ldif')], 30_000);
  if (added.status !== 0) {
    await rm(dir, { recursive: true, force: true });
    throw new Error(`slapadd failed (${added.status}): ${(added.stderr || '').slice(0, 500)}`);
  }

  const port = await freePort();
  const url = `ldap://127.0.0.1:${port}`;
  const ldapsUrl = `ldaps://127.0.0.1:${await freePort()}`;
  // -d keeps slapd in the foreground. A small shell watchdog owns it: SIGTERM from stop() ends
  // slapd, and if this process dies without stopping it (killed run), slapd and its files go too.
  const listeners = `${url}/ ${ldapsUrl}/`;
  const child = spawn('/bin/sh', ['-c', WATCHDOG, 'slapd-watchdog', slapd, listeners, conf, String(process.pid), dir], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (b: Buffer) => {
    stderr = (stderr + b.toString()).slice(-2000);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
      await exited;
      clearTimeout(timer);
    }
    await rm(dir, { recursive: true, force: true });
  };
  try {
    await waitReady(url, child, 10_000);
  } catch (err) {
    await stop();
    throw new Error(`${(err as Error).message}${stderr ? `; slapd said: ${stderr.trim().slice(-300)}` : ''}`);
  }
  return { url, ldapsUrl, stop };
}
