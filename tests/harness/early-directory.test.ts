/**
 * The directory's start-up beside vitest's (docs/SPEED.md "Start-up of the command"): its TLS
 * material is made on a thread of its own when the harness runs compiled, the same material as on
 * the calling thread; a directory provisioned early is taken over by the global setup only for the
 * settings it was provisioned from, and one nobody took over is stopped.
 */
import { X509Certificate, createPrivateKey } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { compiledTree } from '../../compose/compiled.mjs';
import type { TargetConfig } from '../../harness/config/types.js';
import type { ProvisionedDirectory } from '../../harness/directory/provision.js';
import { tlsMaterialOffThread } from '../../harness/directory/tls-off-thread.js';
import {
  type DirectoryProvision,
  startDirectoryEarly,
  stopUntakenEarlyStart,
  takeEarlyDirectory,
} from '../../harness/setup/early-start.js';

const holder = globalThis as { __conformanceCompiledTree?: unknown };

afterEach(async () => {
  delete holder.__conformanceCompiledTree;
  await stopUntakenEarlyStart();
});

/** The material's certificates chain to its CA, for the loopback names, with keys that match. */
function expectUsable(m: Awaited<ReturnType<typeof tlsMaterialOffThread>>): void {
  const ca = new X509Certificate(m.ca);
  const server = new X509Certificate(m.serverCert);
  const client = new X509Certificate(m.clientCert);
  expect(server.verify(ca.publicKey)).toBe(true);
  expect(client.verify(ca.publicKey)).toBe(true);
  expect(server.checkIP('127.0.0.1')).toBe('127.0.0.1');
  expect(server.checkHost('localhost')).toBe('localhost');
  expect(server.checkPrivateKey(createPrivateKey(m.serverKey))).toBe(true);
  expect(client.checkPrivateKey(createPrivateKey(m.clientKey))).toBe(true);
}

describe('the directory’s TLS material', () => {
  it('is made on a thread of its own from the compiled tree', async () => {
    const tree = await compiledTree();
    expect(tree, 'the package compiles').not.toBeNull();
    holder.__conformanceCompiledTree = tree;
    expectUsable(await tlsMaterialOffThread());
  });

  it('is made on the calling thread without a compiled tree', async () => {
    expectUsable(await tlsMaterialOffThread());
  });
});

describe('a directory provisioned early', () => {
  const cfg = (ldap: Record<string, string>) => ({ run: { suites: ['ldap'] }, ldap }) as unknown as TargetConfig;

  function fakeDirectory(): { provision: Promise<DirectoryProvision>; stopped: () => number } {
    let stops = 0;
    const dir = { url: 'ldap://127.0.0.1:1', stop: async () => void stops++ } as unknown as ProvisionedDirectory;
    return { provision: Promise.resolve(dir), stopped: () => stops };
  }

  it('is taken over once, for the settings it was provisioned from', async () => {
    const fake = fakeDirectory();
    startDirectoryEarly(cfg({ baseDn: 'dc=a' }), () => fake.provision);
    expect(takeEarlyDirectory({ baseDn: 'dc=b' })).toBeUndefined();
    expect(takeEarlyDirectory({ baseDn: 'dc=a' })).toBe(fake.provision);
    expect(takeEarlyDirectory({ baseDn: 'dc=a' })).toBeUndefined();
    await stopUntakenEarlyStart();
    expect(fake.stopped(), 'what the global setup took over, it stops').toBe(0);
  });

  it('is stopped when nobody took it over, and not provisioned for a run without the ldap suite', async () => {
    const fake = fakeDirectory();
    startDirectoryEarly(cfg({}), () => fake.provision);
    await stopUntakenEarlyStart();
    expect(fake.stopped()).toBe(1);
    let asked = false;
    startDirectoryEarly({ run: { suites: ['core'] } } as unknown as TargetConfig, () => {
      asked = true;
      return fake.provision;
    });
    expect(asked).toBe(false);
    expect(takeEarlyDirectory({})).toBeUndefined();
  });
});
