/**
 * Certificates of asymmetric keys: the CSR a key makes (signed by it, with an empty subject or a
 * template's) and the chain set-certificate stores, each checked locally.
 */
import { conformance, suite } from '../../harness/index.js';
import { bodyAt, expectThat, statusBetween, statusIs, success } from '../../harness/checks/index.js';
import { createKey, data, keygenTimeout } from './lib/api.js';
import { publicKeyOf } from './lib/public-key.js';
import { chainDer, issue, localCa, templateCsr, x509 } from './lib/x509.js';

const s = suite('transit');
const transit = s.mount('transit', { type: 'transit' });
const keys: Record<string, string> = {};

s.setup(async (c) => {
  await Promise.all(
    (['ecdsa-p256', 'rsa-2048'] as const).map(async (type) => {
      const name = c.unique(type);
      const ex = await c.svc.post(`${transit.path}/keys/${name}`, { body: { type }, timeoutMs: keygenTimeout(type) });
      c.precondition(ex, success);
      keys[type] = name;
    }),
  );
});

const publicKey = (t: Parameters<typeof publicKeyOf>[0], name: string) => publicKeyOf(t, transit, name);

conformance(
  {
    id: 'transit.csr.create',
    level: 'MUST',
    title:
      'POST /transit/keys/:name/csr returns a PKCS#10 CSR for the key version, signed by it, with an empty subject',
  },
  async (t) => {
    for (const type of ['ecdsa-p256', 'rsa-2048'] as const) {
      const name = keys[type]!;
      const ex = await t.svc.post(`${transit.path}/keys/${name}/csr`);
      t.check(ex, statusIs(200), bodyAt('/data/name', name, 'names the key'));
      const csr = new x509.Pkcs10CertificateRequest(String(data(ex).csr));
      const verified = await csr.verify();
      expectThat(verified, 'csr-signature', verified, true, `the ${type} CSR's signature verifies`);
      const spki = Buffer.from(csr.publicKey.rawData).toString('hex');
      const own = (await publicKey(t, name)).export({ format: 'der', type: 'spki' }).toString('hex');
      expectThat(
        spki === own,
        'csr-key',
        spki.slice(0, 40),
        own.slice(0, 40),
        `the ${type} CSR carries the key's public key`,
      );
      expectThat(
        csr.subject === '',
        'csr-subject',
        csr.subject,
        '',
        'a CSR made without template has an empty subject',
      );
    }
  },
);

conformance(
  {
    id: 'transit.csr.template',
    level: 'MUST',
    title: 'POST /transit/keys/:name/csr with a template keeps the template subject and uses the key',
  },
  async (t) => {
    const name = keys['ecdsa-p256']!;
    const ex = await t.svc.post(`${transit.path}/keys/${name}/csr`, {
      body: { csr: await templateCsr('CN=conformance.example, O=Conformance') },
    });
    t.check(ex, statusIs(200));
    const csr = new x509.Pkcs10CertificateRequest(String(data(ex).csr));
    expectThat(
      csr.subject.includes('CN=conformance.example'),
      'template-subject',
      csr.subject,
      'CN=conformance.example, O=Conformance',
      'the CSR keeps the template subject',
    );
    const own = (await publicKey(t, name)).export({ format: 'der', type: 'spki' }).toString('hex');
    expectThat(
      Buffer.from(csr.publicKey.rawData).toString('hex') === own,
      'csr-key',
      'another key',
      'the transit key',
      'the CSR carries the transit key, not the template key',
    );
  },
);

conformance(
  {
    id: 'transit.set-certificate.store',
    level: 'MUST',
    title: 'POST /transit/keys/:name/set-certificate stores the chain export returns, and a second call overwrites it',
  },
  async (t) => {
    const name = await createKey(t, transit, 'certkey', { type: 'ecdsa-p256', exportable: true });
    const csr = String(
      data(
        await t.svc.post(`${transit.path}/keys/${name}/csr`, { body: { csr: await templateCsr('CN=leaf.example') } }),
      ).csr,
    );
    const ca = await localCa();
    for (const serial of ['1001', '1002']) {
      const leaf = await issue(ca, csr, serial);
      const chain = `${leaf.toString('pem')}\n${ca.cert.toString('pem')}\n`;
      t.check(
        await t.svc.post(`${transit.path}/keys/${name}/set-certificate`, { body: { certificate_chain: chain } }),
        statusBetween(200, 204),
      );
      const ex = await t.svc.get(`${transit.path}/export/certificate-chain/${name}/1`);
      t.check(ex, statusIs(200));
      const stored = chainDer(String(data(ex).keys?.['1'] ?? ''));
      const sent = chainDer(chain);
      expectThat(
        stored.join() === sent.join(),
        'chain',
        stored.map((d) => d.slice(-16)),
        sent.map((d) => d.slice(-16)),
        `export certificate-chain returns the chain with leaf serial ${serial}, end-entity first`,
      );
    }
  },
);
