/**
 * The simulated cloud's TLS: a CA of its own and a server certificate it signed for the names and
 * addresses the simulation answers at (the real cloud's host names among them, for a client whose
 * hosts file points them here). The CA is handed to whoever calls it (the run's `cloud.cacert`).
 */
import 'reflect-metadata'; // @peculiar/x509's dependency injection needs the polyfill first
import { webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';

export interface CloudTls {
  /** The CA certificate (PEM). */
  ca: string;
  cert: string;
  key: string;
}

const ALG = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;

async function keyPair(): Promise<CryptoKeyPair> {
  return (await webcrypto.subtle.generateKey(ALG, true, ['sign', 'verify'])) as CryptoKeyPair;
}

/** A fresh CA and a server certificate for `hosts` (names and IP addresses), valid for 30 days. */
export async function cloudTls(hosts: string[]): Promise<CloudTls> {
  x509.cryptoProvider.set(webcrypto as unknown as Crypto);
  const now = Date.now();
  const notBefore = new Date(now - 3600_000);
  const notAfter = new Date(now + 30 * 86400_000);
  const caKeys = await keyPair();
  const caName = 'CN=simulated cloud CA';
  const ca = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: '01',
    name: caName,
    notBefore,
    notAfter,
    signingAlgorithm: ALG,
    keys: caKeys,
    extensions: [
      new x509.BasicConstraintsExtension(true, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      await x509.SubjectKeyIdentifierExtension.create(caKeys.publicKey),
    ],
  });
  const keys = await keyPair();
  const cert = await x509.X509CertificateGenerator.create({
    serialNumber: '02',
    subject: `CN=${hosts[0] ?? 'localhost'}`,
    issuer: caName,
    notBefore,
    notAfter,
    signingAlgorithm: ALG,
    publicKey: keys.publicKey,
    signingKey: caKeys.privateKey,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.keyAgreement, true),
      new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
      await x509.AuthorityKeyIdentifierExtension.create(caKeys.publicKey),
      new x509.SubjectAlternativeNameExtension(
        hosts.map((h) =>
          /^[\d.]+$|:/.test(h) ? { type: 'ip' as const, value: h } : { type: 'dns' as const, value: h },
        ),
      ),
    ],
  });
  const pkcs8 = await webcrypto.subtle.exportKey('pkcs8', keys.privateKey);
  const key = `-----BEGIN PRIVATE KEY-----\n${Buffer.from(pkcs8)
    .toString('base64')
    .match(/.{1,64}/g)!
    .join('\n')}\n-----END PRIVATE KEY-----\n`;
  return { ca: ca.toString('pem'), cert: cert.toString('pem'), key };
}
