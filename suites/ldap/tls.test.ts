/**
 * TLS between the directory engine and the directory: StartTLS, the configured CA, skipping the
 * verification (insecure_tls) and the client certificate. The directory the harness starts has a
 * CA of the run, an ldaps:// listener, an administrator it accepts over TLS only, and a listener
 * that demands a client certificate; against another directory these tests are skipped.
 */
import { conformance, type T } from '../../harness/index.js';
import { statusBetween, success } from '../../harness/checks/index.js';
import { clientCertListener } from '../../harness/directory/index.js';
import type { Exchange } from '../../harness/index.js';
import { baseConfig, directory, freshMount, importRotation, ldapSuite, reachedDirectory } from './helpers.js';

ldapSuite();

type DirectoryTls = NonNullable<ReturnType<typeof directory>['tls']>;

function tlsOf(t: T): DirectoryTls {
  const tls = directory(t).tls;
  if (!tls)
    t.skip(
      'the directory has no TLS of the run (CA, ldaps:// listener): only the directory the harness starts with slapd has one',
      'ldap.url (LDAP_URL)',
      { prerequisite: true },
    );
  t.secret(tls.tlsBindPass);
  t.secret(tls.clientKey);
  return tls;
}

/** Configures `mountPath` with the base config and `extra`. */
async function configureWith(t: T, mountPath: string, extra: Record<string, unknown>): Promise<void> {
  t.check(await t.svc.post(`${mountPath}/config`, { body: baseConfig(t, extra) }), success);
}

/**
 * Takes the engine to the directory (`importRotation`: a static role created with import rotation,
 * so the engine binds, searches and sets a password) and returns its answer once it is known that
 * a success did reach the directory; a success that changed nothing there makes the test not
 * applicable (its trigger never happened).
 */
async function useDirectory(t: T, mountPath: string): Promise<Exchange> {
  const use = await importRotation(t, mountPath, 'tls');
  await reachedDirectory(t, use, 'the engine configured for TLS');
  return use.ex;
}

/** The engine could not reach or bind to the directory: the document names no status, so any error. */
const failed = statusBetween(400, 599);

conformance(
  {
    id: 'ldap.config.starttls',
    level: 'MUST',
    title: 'With starttls the engine binds as an entry the directory accepts over TLS only; without it, it cannot',
  },
  async (t) => {
    const tls = tlsOf(t);
    const m = await freshMount(t, null);
    const tlsOnly = { binddn: tls.tlsBindDn, bindpass: tls.tlsBindPass, certificate: tls.ca };
    await configureWith(t, m, { ...tlsOnly, starttls: true });
    t.check(await useDirectory(t, m), success);
    await configureWith(t, m, { ...tlsOnly, starttls: false });
    t.check(await useDirectory(t, m), failed);
  },
);

conformance(
  {
    id: 'ldap.config.certificate',
    level: 'MUST',
    title: 'With the directory CA in certificate the engine verifies and reaches an ldaps:// directory',
  },
  async (t) => {
    const tls = tlsOf(t);
    const m = await freshMount(t, null);
    await configureWith(t, m, { url: tls.ldapsUrl, certificate: tls.ca, insecure_tls: false });
    t.check(await useDirectory(t, m), success);
  },
);

conformance(
  {
    id: 'ldap.config.insecure-tls',
    level: 'MUST',
    title: 'An ldaps:// directory with a certificate of an unknown CA is refused, and reached with insecure_tls',
  },
  async (t) => {
    const tls = tlsOf(t);
    const m = await freshMount(t, null);
    await configureWith(t, m, { url: tls.ldapsUrl, insecure_tls: false });
    t.check(await useDirectory(t, m), failed);
    await configureWith(t, m, { url: tls.ldapsUrl, insecure_tls: true });
    t.check(await useDirectory(t, m), success);
  },
);

conformance(
  {
    id: 'ldap.config.client-certificate',
    level: 'MUST',
    title: 'A directory demanding a client certificate is reached with client_tls_cert and client_tls_key only',
  },
  async (t) => {
    const tls = tlsOf(t);
    const listener = await clientCertListener(new URL(directory(t).url).host, tls);
    t.track('client-certificate listener', () => listener.close());
    const m = await freshMount(t, null);
    const url = `ldaps://${listener.address}`;
    await configureWith(t, m, { url, certificate: tls.ca });
    t.check(await useDirectory(t, m), failed);
    await configureWith(t, m, {
      url,
      certificate: tls.ca,
      client_tls_cert: tls.clientCert,
      client_tls_key: tls.clientKey,
    });
    t.check(await useDirectory(t, m), success);
  },
);
