/**
 * The directory's start-up beside vitest's (docs/SPEED.md "Start-up of the command"): the command
 * line provisions it on a thread of its own (compose/directory.ts), which keeps slapd until stop()
 * and answers a failure with its reason; a directory of the config starts nothing; a directory
 * provisioned early is taken over by the global setup only for the settings it was provisioned
 * from, and one nobody took over is stopped.
 */
import { X509Certificate, createPrivateKey } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { provisionDirectoryOnThread } from '../../compose/directory.js';
import type { TargetConfig } from '../../harness/config/types.js';
import type { DirectoryTls, ProvisionedDirectory } from '../../harness/directory/provision.js';
import { SLAPD_INSTALL, localSlapdFound } from '../../harness/directory/slapd.js';
import { prerequisite } from '../helpers/prerequisites.js';
import { binds } from '../helpers/ldap-bind.js';
import {
  type DirectoryProvision,
  startDirectoryEarly,
  stopUntakenEarlyStart,
  takeEarlyDirectory,
} from '../../harness/setup/early-start.js';

const slapd = prerequisite({ name: 'slapd', present: localSlapdFound(), install: SLAPD_INSTALL });

afterEach(async () => {
  await stopUntakenEarlyStart();
});

/** The material's certificates chain to its CA, for the loopback names, with keys that match. */
function expectUsable(m: DirectoryTls | undefined): asserts m {
  if (!m) throw new Error('the started directory has no TLS material');
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

describe.skipIf(slapd.skip)(`a directory the command line starts${slapd.note}`, () => {
  it('is provisioned on a thread of its own, which keeps slapd until stop()', async () => {
    slapd.assertPresent();
    const dir = await provisionDirectoryOnThread({});
    try {
      expect(dir.started).toBe(true);
      expect(await binds(dir.url, dir.bindDn, dir.bindPass), 'its bind entry binds').toBe(true);
      expectUsable(dir.tls);
    } finally {
      await dir.stop();
    }
    expect(await binds(dir.url, dir.bindDn, dir.bindPass), 'gone after stop').toBe(false);
  }, 60_000);

  it('fails with the reason found on the thread', async () => {
    const before = process.env.SLAPD_BIN;
    process.env.SLAPD_BIN = '/nonexistent/slapd';
    try {
      await expect(provisionDirectoryOnThread({})).rejects.toThrow(/slapd/i);
    } finally {
      if (before === undefined) delete process.env.SLAPD_BIN;
      else process.env.SLAPD_BIN = before;
    }
  }, 60_000);
});

describe('a directory of the config', () => {
  it('is filled in with its defaults, nothing started', async () => {
    const dir = await provisionDirectoryOnThread({ url: 'ldap://directory.example:389' });
    expect(dir).toMatchObject({ url: 'ldap://directory.example:389', started: false, baseDn: 'dc=example,dc=org' });
    expect(dir.bindDn).toBe('cn=admin,dc=example,dc=org');
    await dir.stop();
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
