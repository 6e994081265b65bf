/** Certificate helpers for the CSR and set-certificate checks: a local CA on WebCrypto via @peculiar/x509. */
import 'reflect-metadata';
import { webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';

x509.cryptoProvider.set(webcrypto as unknown as Crypto);

const ALG = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' };

export { x509 };

export async function localCa(): Promise<{ cert: x509.X509Certificate; keys: CryptoKeyPair }> {
  const keys = (await webcrypto.subtle.generateKey(ALG, true, ['sign', 'verify'])) as unknown as CryptoKeyPair;
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: '01',
    name: 'CN=conformance test CA',
    keys,
    signingAlgorithm: ALG,
    notBefore: new Date(Date.now() - 60_000),
    notAfter: new Date(Date.now() + 3600_000),
    extensions: [new x509.BasicConstraintsExtension(true, 0, true)],
  });
  return { cert, keys };
}

/** Issues a certificate for the CSR's public key and subject, signed by the CA. */
export async function issue(
  ca: { cert: x509.X509Certificate; keys: CryptoKeyPair },
  csrPem: string,
  serial: string,
): Promise<x509.X509Certificate> {
  const csr = new x509.Pkcs10CertificateRequest(csrPem);
  return x509.X509CertificateGenerator.create({
    serialNumber: serial,
    subject: csr.subject || 'CN=transit key',
    issuer: ca.cert.subject,
    notBefore: new Date(Date.now() - 60_000),
    notAfter: new Date(Date.now() + 3600_000),
    signingKey: ca.keys.privateKey,
    publicKey: csr.publicKey,
    signingAlgorithm: ALG,
  });
}

/** A CSR template with the given subject, made with a throwaway key. */
export async function templateCsr(subject: string): Promise<string> {
  const keys = (await webcrypto.subtle.generateKey(ALG, true, ['sign', 'verify'])) as unknown as CryptoKeyPair;
  const csr = await x509.Pkcs10CertificateRequestGenerator.create({ name: subject, keys, signingAlgorithm: ALG });
  return csr.toString('pem');
}

/** DER of every certificate in a PEM chain, in order. */
export function chainDer(pem: string): string[] {
  return (pem.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? []).map((b) =>
    Buffer.from(new x509.X509Certificate(b).rawData).toString('hex'),
  );
}
