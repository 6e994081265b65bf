/**
 * The directory fixture: a private slapd starts, its bind entry and seeded accounts bind, and it
 * is gone after stop(). Without slapd (and without a container engine) it skips, naming the
 * install command; under CI=true it fails naming slapd, so CI cannot pass with the ldap suite
 * silently skipped.
 */
import { describe, expect, it } from 'vitest';
import { Client } from 'ldapts';
import { provisionDirectory } from '../../harness/directory/provision.js';
import { containerRuntimeAvailable } from '../../harness/directory/container.js';
import { SLAPD_INSTALL, localSlapdFound } from '../../harness/directory/slapd.js';
import { prerequisite } from '../helpers/prerequisites.js';
import { binds } from '../helpers/ldap-bind.js';

const slapd = prerequisite({
  name: 'slapd',
  present: localSlapdFound() || (await containerRuntimeAvailable()),
  install: SLAPD_INSTALL,
});

describe.skipIf(slapd.skip)(`directory fixture${slapd.note}`, () => {
  it('starts a private slapd whose bind entry binds, and stops it', async () => {
    slapd.assertPresent();
    const dir = await provisionDirectory({});
    try {
      expect(dir.started, 'the harness started the directory').toBe(true);
      expect(dir.url).toMatch(/^ldap:\/\/127\.0\.0\.1:\d+/);
      expect(await binds(dir.url, dir.bindDn, dir.bindPass), 'bind entry binds').toBe(true);
      expect(await binds(dir.url, dir.bindDn, `${dir.bindPass}x`), 'a wrong password does not bind').toBe(false);
      expect(dir.serviceAccounts.length, 'service accounts seeded').toBeGreaterThan(0);
      // The TLS side: the TLS-only administrator binds over ldaps:// with the run's CA, not in clear.
      if (dir.tls) {
        const { ldapsUrl, ca, tlsBindDn, tlsBindPass } = dir.tls;
        const overTls = new Client({ url: ldapsUrl, timeout: 5000, connectTimeout: 5000, tlsOptions: { ca: [ca] } });
        try {
          await overTls.bind(tlsBindDn, tlsBindPass);
        } finally {
          await overTls.unbind().catch(() => {});
        }
        expect(await binds(dir.url, tlsBindDn, tlsBindPass), 'the TLS-only administrator binds in clear').toBe(false);
      }
    } finally {
      await dir.stop();
    }
    expect(await binds(dir.url, dir.bindDn, dir.bindPass), 'gone after stop').toBe(false);
  }, 60_000);
});
