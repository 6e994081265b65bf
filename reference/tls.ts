/**
 * A self-signed certificate for serving the reference over TLS (`--tls`), so the harness's CA-file
 * and skip-verify paths can be exercised against a real TLS listener.
 */
import 'reflect-metadata'; // @peculiar/x509's dependency injection needs the polyfill first
import { webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';

export interface TlsMaterial {
  cert: string;
  key: string;
}

export async function selfSignedCertificate(hosts = ['127.0.0.1', 'localhost']): Promise<TlsMaterial> {
  x509.cryptoProvider.set(webcrypto as unknown as Crypto);
  const alg = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;
  const keys = (await webcrypto.subtle.generateKey(alg, true, ['sign', 'verify'])) as CryptoKeyPair;
  const now = new Date();
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: Date.now().toString(16),
    name: 'CN=reference secrets service',
    notBefore: new Date(now.getTime() - 60_000),
    notAfter: new Date(now.getTime() + 7 * 86400_000),
    signingAlgorithm: alg,
    keys,
    extensions: [
      new x509.BasicConstraintsExtension(true, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.keyCertSign, true),
      new x509.SubjectAlternativeNameExtension(
        hosts.map((h) => (/^[\d.]+$/.test(h) ? { type: 'ip' as const, value: h } : { type: 'dns' as const, value: h })),
      ),
    ],
  });
  const pkcs8 = await webcrypto.subtle.exportKey('pkcs8', keys.privateKey);
  const key = `-----BEGIN PRIVATE KEY-----\n${Buffer.from(pkcs8)
    .toString('base64')
    .match(/.{1,64}/g)!
    .join('\n')}\n-----END PRIVATE KEY-----\n`;
  return { cert: cert.toString('pem'), key };
}
