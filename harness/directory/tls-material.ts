/**
 * TLS material for the directory fixture, made at set-up: a CA of the run, a server certificate it
 * signed for the loopback addresses (slapd's ldaps:// listener and StartTLS, the client-certificate
 * listener), and a client certificate it signed. @peculiar/x509 (already the reference's TLS
 * dependency) signs with WebCrypto, so no openssl binary is needed.
 */
import 'reflect-metadata'; // @peculiar/x509's dependency injection needs the polyfill first
import { webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';

export interface TlsMaterial {
  /** The CA certificate (PEM) that signed the other two. */
  ca: string;
  serverCert: string;
  serverKey: string;
  clientCert: string;
  clientKey: string;
}

const ALG = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;
const DAY_MS = 86_400_000;
/** How long the material is valid from when it is made (tls-reuse.ts reuses it while it has a day left). */
export const VALIDITY_MS = 7 * DAY_MS;

function pemKey(pkcs8: ArrayBuffer): string {
  const b64 = Buffer.from(pkcs8)
    .toString('base64')
    .match(/.{1,64}/g)!
    .join('\n');
  return `-----BEGIN PRIVATE KEY-----\n${b64}\n-----END PRIVATE KEY-----\n`;
}

async function keyPair(): Promise<CryptoKeyPair> {
  return (await webcrypto.subtle.generateKey(ALG, true, ['sign', 'verify'])) as CryptoKeyPair;
}

async function exportKey(keys: CryptoKeyPair): Promise<string> {
  return pemKey(await webcrypto.subtle.exportKey('pkcs8', keys.privateKey));
}

/** A fresh CA and the server and client certificates it signed, valid for VALIDITY_MS from `now`. */
export async function tlsMaterial(hosts = ['127.0.0.1', 'localhost'], now = Date.now()): Promise<TlsMaterial> {
  x509.cryptoProvider.set(webcrypto as unknown as Crypto);
  const notBefore = new Date(now - 60_000);
  const notAfter = new Date(now + VALIDITY_MS);
  const caKeys = await keyPair();
  const caName = 'CN=conformance directory CA';
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
  const leaf = async (serial: string, name: string, usage: string, san: boolean) => {
    const keys = await keyPair();
    const cert = await x509.X509CertificateGenerator.create({
      serialNumber: serial,
      subject: name,
      issuer: caName,
      notBefore,
      notAfter,
      signingAlgorithm: ALG,
      publicKey: keys.publicKey,
      signingKey: caKeys.privateKey,
      extensions: [
        new x509.BasicConstraintsExtension(false, undefined, true),
        new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.keyAgreement, true),
        new x509.ExtendedKeyUsageExtension([usage]),
        await x509.AuthorityKeyIdentifierExtension.create(caKeys.publicKey),
        ...(san
          ? [
              new x509.SubjectAlternativeNameExtension(
                hosts.map((h) =>
                  /^[\d.]+$/.test(h) ? { type: 'ip' as const, value: h } : { type: 'dns' as const, value: h },
                ),
              ),
            ]
          : []),
      ],
    });
    return { cert: cert.toString('pem'), key: await exportKey(keys) };
  };
  const server = await leaf('02', 'CN=127.0.0.1', x509.ExtendedKeyUsage.serverAuth, true);
  const client = await leaf('03', 'CN=conformance client', x509.ExtendedKeyUsage.clientAuth, false);
  return {
    ca: ca.toString('pem'),
    serverCert: server.cert,
    serverKey: server.key,
    clientCert: client.cert,
    clientKey: client.key,
  };
}
