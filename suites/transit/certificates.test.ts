/**
 * CSR and certificate chains per key version (Key management: csr, set-certificate, export
 * certificate-chain): the version a request names, the version a CSR answer reports, a chain of one
 * block and a request without a chain. An rsa-2048 key is used: it signs and, encrypting and
 * decrypting too, rotates under the rotate row's condition. The keys are created exportable: the
 * chain is read back through export, and "The key must be exportable" (Export key) names no key
 * type as an exception, so a service may refuse certificate-chain export of other keys.
 */
import { conformance, suite, type T } from '../../harness/index.js';
import { bodyAt, clientError, expectThat, statusIs, statusBetween } from '../../harness/checks/index.js';
import { createKey, data, readKey, rotate } from './lib/api.js';
import { publicKeyFrom } from './lib/local-crypto.js';
import { chainDer, issue, localCa, x509 } from './lib/x509.js';

const s = suite('transit');
const transit = s.mount('transit', { type: 'transit' });

/** An exportable rsa-2048 key with versions 1 and 2. */
async function twoVersions(t: T, base: string): Promise<string> {
  const name = await createKey(t, transit, base, { type: 'rsa-2048', exportable: true });
  await rotate(t, transit, name);
  return name;
}

/** The SPKI (hex) of a version's public key as the key read shows it. */
async function versionKey(t: T, name: string, version: string): Promise<string> {
  const info = (await readKey(t, transit, name)).keys?.[version];
  return publicKeyFrom(String(info?.public_key ?? ''))
    .export({ format: 'der', type: 'spki' })
    .toString('hex');
}

/** POST keys/:name/csr with `body`; the CSR's public key (SPKI hex) and the version the answer reports. */
async function csrOf(t: T, name: string, body: Record<string, unknown>) {
  const ex = await t.svc.post(`${transit.path}/keys/${name}/csr`, { body });
  t.check(ex, statusIs(200));
  const csr = new x509.Pkcs10CertificateRequest(String(data(ex).csr));
  return {
    pem: String(data(ex).csr),
    spki: Buffer.from(csr.publicKey.rawData).toString('hex'),
    version: data(ex).version,
  };
}

conformance(
  {
    id: 'transit.csr.version',
    level: 'MUST',
    title: 'POST /transit/keys/:name/csr uses the version named (unset: the current one) and answers it',
  },
  async (t) => {
    const name = await twoVersions(t, 'csrver');
    const [v1, v2] = [await versionKey(t, name, '1'), await versionKey(t, name, '2')];
    for (const [body, version, key] of [
      [{}, 2, v2],
      [{ version: '1' }, 1, v1],
    ] as const) {
      const csr = await csrOf(t, name, body);
      const asked = JSON.stringify(body);
      expectThat(
        csr.spki === key,
        'csr-version-key',
        csr.spki.slice(-24),
        key.slice(-24),
        `the CSR for ${asked} carries version ${version}'s public key`,
      );
      expectThat(
        csr.version === version || csr.version === String(version),
        'csr-version-field',
        csr.version,
        version,
        `the CSR answer for ${asked} reports version ${version}`,
      );
    }
  },
);

// `latest` is its own case ("`latest` or unset means current key"): a service that takes only
// numbers fails this test and not the one above.
conformance(
  {
    id: 'transit.csr.version',
    level: 'MUST',
    title: 'POST /transit/keys/:name/csr with version latest uses the current version',
  },
  async (t) => {
    const name = await twoVersions(t, 'csrlatest');
    const v2 = await versionKey(t, name, '2');
    const csr = await csrOf(t, name, { version: 'latest' });
    expectThat(
      csr.spki === v2,
      'csr-version-key',
      csr.spki.slice(-24),
      v2.slice(-24),
      'the CSR for version latest carries version 2 (the current one) public key',
    );
  },
);

/** A PEM chain: a certificate for the CSR, then the CA. */
async function chainFor(ca: Awaited<ReturnType<typeof localCa>>, csrPem: string, serial: string): Promise<string> {
  const leaf = await issue(ca, csrPem, serial);
  return `${leaf.toString('pem')}\n${ca.cert.toString('pem')}\n`;
}

async function storedChain(t: T, name: string, version: string): Promise<string[]> {
  const ex = await t.svc.get(`${transit.path}/export/certificate-chain/${name}/${version}`);
  t.check(ex, statusIs(200));
  return chainDer(String(data(ex).keys?.[version] ?? ''));
}

conformance(
  {
    id: 'transit.set-certificate.version',
    level: 'MUST',
    title: 'POST /transit/keys/:name/set-certificate stores the chain on the version named (unset: the current one)',
  },
  async (t) => {
    const name = await twoVersions(t, 'certver');
    const ca = await localCa();
    const first = await chainFor(ca, (await csrOf(t, name, { version: '1' })).pem, '2001');
    const current = await chainFor(ca, (await csrOf(t, name, { version: '2' })).pem, '2002');
    t.check(
      await t.svc.post(`${transit.path}/keys/${name}/set-certificate`, {
        body: { version: '1', certificate_chain: first },
      }),
      statusBetween(200, 204),
    );
    t.check(
      await t.svc.post(`${transit.path}/keys/${name}/set-certificate`, { body: { certificate_chain: current } }),
      statusBetween(200, 204),
    );
    for (const [version, sent] of [
      ['1', first],
      ['2', current],
    ] as const) {
      const stored = await storedChain(t, name, version);
      expectThat(
        stored.join() === chainDer(sent).join(),
        'chain-version',
        stored.map((d) => d.slice(-16)),
        chainDer(sent).map((d) => d.slice(-16)),
        `export certificate-chain of version ${version} returns the chain set for version ${version}`,
      );
    }
  },
);

// set-certificate's `version` is "string as above": `latest` names the current version there too.
conformance(
  {
    id: 'transit.set-certificate.version',
    level: 'MUST',
    title: 'POST /transit/keys/:name/set-certificate with version latest stores the chain on the current version',
  },
  async (t) => {
    const name = await twoVersions(t, 'certlatest');
    const ca = await localCa();
    const current = await chainFor(ca, (await csrOf(t, name, { version: '2' })).pem, '2003');
    t.check(
      await t.svc.post(`${transit.path}/keys/${name}/set-certificate`, {
        body: { version: 'latest', certificate_chain: current },
      }),
      statusBetween(200, 204),
    );
    const stored = await storedChain(t, name, '2');
    expectThat(
      stored.join() === chainDer(current).join(),
      'chain-version',
      stored.map((d) => d.slice(-16)),
      chainDer(current).map((d) => d.slice(-16)),
      'export certificate-chain of version 2 returns the chain set with version latest',
    );
  },
);

conformance(
  {
    id: 'transit.set-certificate.store',
    level: 'MUST',
    title: 'POST /transit/keys/:name/set-certificate takes a chain of one block and refuses a request without a chain',
  },
  async (t) => {
    const name = await createKey(t, transit, 'certone', { type: 'rsa-2048', exportable: true });
    const ca = await localCa();
    const leaf = (await issue(ca, (await csrOf(t, name, {})).pem, '3001')).toString('pem');
    t.check(
      await t.svc.post(`${transit.path}/keys/${name}/set-certificate`, { body: { certificate_chain: leaf } }),
      statusBetween(200, 204),
    );
    const stored = await storedChain(t, name, '1');
    expectThat(
      stored.join() === chainDer(leaf).join(),
      'one-block',
      stored.length,
      1,
      'a chain of one certificate is stored as sent',
    );
    t.check(await t.svc.post(`${transit.path}/keys/${name}/set-certificate`, { body: {} }), clientError);
    t.check(
      await t.svc.get(`${transit.path}/export/certificate-chain/${name}/1`),
      statusIs(200),
      bodyAt(
        '/data/keys/1',
        (v: unknown) => chainDer(String(v ?? '')).join() === chainDer(leaf).join(),
        'still holds the chain',
      ),
    );
  },
);
