/**
 * CSR creation and certificate chain checks with @peculiar/x509 on node's WebCrypto. The transit
 * key's private key is imported into WebCrypto only for the signature.
 */
import { webcrypto, type KeyObject } from 'node:crypto';
import type * as X509 from '@peculiar/x509';
import { badRequest } from '../../errors.js';

/** Loaded on first use: @peculiar/x509 needs the reflect-metadata polyfill (tsyringe) first. */
let lib: Promise<typeof X509> | undefined;
export function x509lib(): Promise<typeof X509> {
  lib ??= import('reflect-metadata').then(() => import('@peculiar/x509'));
  return lib;
}

const subtle = webcrypto.subtle as unknown as SubtleCrypto;
const crypto = webcrypto as unknown as Crypto;

function algorithms(
  kind: string,
  namedCurve?: string,
): { importAlg: Algorithm | EcKeyImportParams | RsaHashedImportParams; signAlg: Algorithm | EcdsaParams } {
  if (kind === 'rsa')
    return {
      importAlg: { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' } as RsaHashedImportParams,
      signAlg: { name: 'RSASSA-PKCS1-v1_5' },
    };
  if (kind === 'ecdsa') {
    const hash = namedCurve === 'P-384' ? 'SHA-384' : namedCurve === 'P-521' ? 'SHA-512' : 'SHA-256';
    return {
      importAlg: { name: 'ECDSA', namedCurve } as EcKeyImportParams,
      signAlg: { name: 'ECDSA', hash } as EcdsaParams,
    };
  }
  if (kind === 'ed25519') return { importAlg: { name: 'Ed25519' }, signAlg: { name: 'Ed25519' } };
  throw badRequest('key type does not support CSR creation');
}

export async function createCsr(
  kind: string,
  namedCurve: string | undefined,
  privateKey: KeyObject,
  publicKey: KeyObject,
  templatePem: string,
): Promise<string> {
  const x509 = await x509lib();
  const { importAlg, signAlg } = algorithms(kind, namedCurve);
  let name: string | undefined;
  let extensions: X509.Extension[] | undefined;
  if (templatePem.trim()) {
    let template: X509.Pkcs10CertificateRequest;
    try {
      template = new x509.Pkcs10CertificateRequest(templatePem);
    } catch {
      throw badRequest('csr is not a valid PEM certificate request');
    }
    name = template.subject;
    extensions = template.extensions;
  }
  const keys = {
    privateKey: await subtle.importKey('pkcs8', privateKey.export({ format: 'der', type: 'pkcs8' }), importAlg, false, [
      'sign',
    ]),
    publicKey: await subtle.importKey('spki', publicKey.export({ format: 'der', type: 'spki' }), importAlg, true, [
      'verify',
    ]),
  };
  const csr = await x509.Pkcs10CertificateRequestGenerator.create(
    { name: name || undefined, extensions, keys, signingAlgorithm: signAlg },
    crypto,
  );
  return csr.toString('pem');
}

/** Parses a PEM chain (end-entity first) and checks the leaf certifies `publicKey`. */
export async function checkChain(chainPem: string, publicKey: KeyObject): Promise<string> {
  const x509 = await x509lib();
  const blocks = chainPem.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g);
  if (!blocks || blocks.length === 0) throw badRequest('certificate_chain must hold at least one PEM certificate');
  let certs: X509.X509Certificate[];
  try {
    certs = blocks.map((b) => new x509.X509Certificate(b));
  } catch {
    throw badRequest('certificate_chain holds an invalid certificate');
  }
  const leafSpki = Buffer.from(certs[0]!.publicKey.rawData);
  if (!leafSpki.equals(publicKey.export({ format: 'der', type: 'spki' }))) {
    throw badRequest('the first certificate of the chain does not match the key version');
  }
  return `${blocks.join('\n')}\n`;
}
