/**
 * The transit engine's faults on export, backup and certificates (transit document: Key management
 * > Export key, Secure export, backup and restore, csr, set-certificate): each breaks one
 * catalogued rule by replacing rules of ../rules.ts (see reference/switches.ts). Gathered, in
 * order, by index.ts.
 */
import { createHash, generateKeyPairSync } from 'node:crypto';
import type { EngineResponse } from '../../../engine.js';
import { switchesOf } from '../../../../switches.js';
import { generateMaterial, typeInfo } from '../keys.js';
import type { TransitRules } from '../rules.js';

const { fault } = switchesOf<TransitRules>(['transit']);

const noCheck = (): void => undefined;

export const exportSwitches = [
  fault('transit.restore-overwrites-without-force', {
    breaks: 'transit.restore.refused-without-force',
    statements: [
      'doc.transit.lifecycle.restore-refused',
      'doc.transit.errors.restore-without-force',
      'doc.transit.keys-api.restore-force-default',
    ],
    description: 'restore replaces an existing key without force',
    replace: () => ({ checkRestoreTarget: noCheck }),
  }),
  fault('transit.export-signing-key-wrong', {
    breaks: 'transit.export.key-types',
    statements: ['doc.transit.export.signing-key'],
    description: 'signing-key export returns a public key',
    replace: () => ({
      signingKeyExport: (k) => k.versions.get(1)!.publicKey!.export({ format: 'pem', type: 'spki' }).toString(),
    }),
  }),
  fault('transit.export-ignores-exportable', {
    breaks: 'transit.export.requires-exportable',
    statements: ['doc.transit.create.exportable-default'],
    description: 'keys that are not exportable are exported',
    replace: () => ({ checkExportable: noCheck }),
  }),
  fault('transit.export-latest-all', {
    breaks: 'transit.export.version',
    statements: ['doc.transit.export.version-latest'],
    description: 'export `latest` returns every version',
    replace: () => ({ latestVersions: (all) => all }),
  }),
  fault('transit.byok-export-wrong-material', {
    breaks: 'transit.byok-export.wraps',
    statements: ['doc.transit.keys-api.byok-export-keys', 'doc.transit.byok.source'],
    description: 'byok-export wraps a hash of the material instead of the material',
    replace: () => ({
      byokMaterial: (material) => createHash('sha256').update(material).digest(),
    }),
  }),
  fault('transit.csr-wrong-key', {
    breaks: 'transit.csr.create',
    statements: ['doc.transit.service.csr', 'doc.transit.keys-api.csr-response-csr'],
    description: 'the CSR is made with a fresh key, not the transit key',
    replace: () => ({ csrKeyPair: (k) => generateMaterial(k.type) }),
  }),
  fault('transit.csr-template-ignored', {
    breaks: 'transit.csr.template',
    statements: ['doc.transit.keys-api.csr-template'],
    description: 'the CSR template is ignored',
    replace: () => ({ csrTemplate: () => '' }),
  }),
  fault('transit.set-certificate-not-stored', {
    breaks: 'transit.set-certificate.store',
    statements: ['doc.transit.keys-api.set-certificate-overwrites'],
    description: 'a second set-certificate keeps the first chain',
    replace: () => ({
      storeChain: (v, chain) => {
        if (!v.certificateChain) v.certificateChain = chain;
      },
    }),
  }),
  fault('transit.restore-loses-versions', {
    breaks: 'transit.backup.restore',
    statements: ['doc.transit.keys-api.restore', 'doc.transit.keys-api.backup', 'doc.transit.service.key-management'],
    description: 'the backup holds only the latest version',
    replace: () => ({
      backupCopy: (k) => ({ ...k, versions: new Map([[k.latestVersion, k.versions.get(k.latestVersion)!]]) }),
    }),
  }),
  fault('transit.backup-without-flag', {
    breaks: 'transit.backup.requires-plaintext-backup',
    statements: ['doc.transit.create.plaintext-backup-default'],
    description: 'backup ignores allow_plaintext_backup',
    replace: () => ({ checkBackupExportable: noCheck, checkBackupPlaintext: noCheck }),
  }),

  fault('transit.restore-force-ignored', {
    breaks: 'transit.restore.force',
    statements: ['doc.transit.lifecycle.restore-force'],
    description: 'restore onto an existing key is refused even with force true',
    replace: (d) => ({ checkRestoreTarget: (name, exists) => d.checkRestoreTarget(name, exists, false) }),
  }),
  fault('transit.restore-path-name-ignored', {
    breaks: 'transit.restore.name',
    statements: ['doc.transit.keys-api.restore-name'],
    description: "POST /transit/restore/:name ignores the path's name and restores under the backup's own name",
    replace: (d) => ({ restoreName: (_pathName, body, backupName) => d.restoreName(undefined, body, backupName) }),
  }),
  fault('transit.restore-body-name-ignored', {
    breaks: 'transit.restore.body-name',
    statements: ['doc.transit.keys-api.restore-name'],
    description: "POST /transit/restore ignores the body's name and restores under the backup's own name",
    replace: (d) => ({ restoreName: (pathName, _body, backupName) => d.restoreName(pathName, {}, backupName) }),
  }),
  fault('transit.restore-without-backup-accepted', {
    breaks: 'transit.restore.backup-required',
    statements: ['doc.transit.keys-api.restore-backup-required'],
    description: 'a restore without backup answers success and restores nothing',
    replace: () => ({ restoreWithoutBackup: () => ({}) }),
  }),
  fault('transit.export-signing-key-ignores-exportable', {
    breaks: 'transit.export.requires-exportable',
    statements: ['doc.transit.export.requires-exportable'],
    description: 'signing-key export does not check exportable (encryption-key and hmac-key do)',
    replace: (d) => ({
      checkExportable: (k, keyType) => (keyType === 'signing-key' ? undefined : d.checkExportable(k, keyType)),
    }),
  }),
  fault('transit.export-all-is-latest', {
    breaks: 'transit.export.version',
    statements: ['doc.transit.export.version-omitted'],
    description: 'export without version returns only the latest version',
    replace: () => ({ omittedVersions: (all, k) => all.filter((v) => v.version === k.latestVersion) }),
  }),
  fault('transit.export-version-clamped', {
    breaks: 'transit.export.version',
    statements: ['doc.transit.export.version-valid'],
    description: 'export of a version above the latest answers the latest version',
    replace: (d) => ({ exportVersion: (k, n) => d.exportVersion(k, Math.min(n, k.latestVersion)) }),
  }),
  fault('transit.byok-version-ignored', {
    breaks: 'transit.byok-export.wraps',
    statements: ['doc.transit.byok.version-latest'],
    description: 'byok-export /latest returns every version',
    replace: (d) => ({ latestVersions: (all, k, call) => (call === 'byok' ? all : d.latestVersions(all, k, call)) }),
  }),
  fault('transit.byok-destination-unchecked', {
    breaks: 'transit.byok-export.wraps',
    statements: ['doc.transit.byok.destination'],
    description:
      'byok-export with a destination that is not an RSA key wraps for a throwaway RSA key instead of refusing',
    replace: (d) => ({
      byokDestination: (dest) =>
        typeInfo(dest).kind === 'rsa'
          ? d.byokDestination(dest)
          : generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey,
    }),
  }),
  fault('transit.export-name-is-type', {
    breaks: 'transit.export.key-types',
    statements: ['doc.transit.keys-api.export-name'],
    description: 'export answers the key_type as data.name instead of the key name',
    replace: (d) => ({ answer: (a) => renamed(d.answer(a), a.seg, 'export') }),
  }),
  fault('transit.byok-export-name-is-destination', {
    breaks: 'transit.byok-export.wraps',
    statements: ['doc.transit.keys-api.byok-export-name'],
    description: 'byok-export answers the destination as data.name instead of the source key name',
    replace: (d) => ({ answer: (a) => renamed(d.answer(a), a.seg, 'byok-export') }),
  }),
  fault('transit.chain-export-leaf-only', {
    breaks: 'transit.set-certificate.store',
    statements: ['doc.transit.export.certificate-chain', 'doc.transit.service.certificate-chain'],
    description: 'export certificate-chain returns only the first certificate of the stored chain',
    replace: () => ({
      chainExport: (chain) => {
        const end = chain?.indexOf('-----END CERTIFICATE-----') ?? -1;
        return chain && end >= 0 ? `${chain.slice(0, end + '-----END CERTIFICATE-----'.length)}\n` : chain;
      },
    }),
  }),
  fault('transit.set-certificate-chain-optional', {
    breaks: 'transit.set-certificate.store',
    statements: ['doc.transit.keys-api.set-certificate-chain'],
    description: 'set-certificate without certificate_chain answers success and clears the stored chain',
    replace: () => ({
      missingChain: (v) => {
        v.certificateChain = undefined;
        return {};
      },
    }),
  }),
  fault('transit.set-certificate-version-ignored', {
    breaks: 'transit.set-certificate.version',
    statements: ['doc.transit.keys-api.set-certificate-version'],
    description: 'set-certificate stores the chain on the latest version whatever version names',
    replace: (d) => ({
      certificateVersion: (requested, call) =>
        call === 'set-certificate' ? '' : d.certificateVersion(requested, call),
    }),
  }),
  fault('transit.csr-version-ignored', {
    breaks: 'transit.csr.version',
    statements: ['doc.transit.keys-api.csr-version'],
    description: 'csr is always made with the latest version whatever version names',
    replace: (d) => ({
      certificateVersion: (requested, call) => (call === 'csr' ? '' : d.certificateVersion(requested, call)),
    }),
  }),
  fault('transit.csr-version-field-stuck', {
    breaks: 'transit.csr.version',
    statements: ['doc.transit.keys-api.csr-response-version'],
    description: 'the csr answer always reports version 1',
    replace: () => ({ csrAnswerVersion: () => '1' }),
  }),

  fault('transit.export-encryption-key-is-hmac-key', {
    breaks: 'transit.export.key-types',
    statements: ['doc.transit.export.encryption-key', 'doc.transit.keys-api.export-keys'],
    description: "export encryption-key of a symmetric key answers the version's HMAC key",
    replace: (d) => ({
      exportedValue: (keyType, v, value) =>
        keyType === 'encryption-key' && v.key ? v.hmacKey.toString('base64') : d.exportedValue(keyType, v, value),
    }),
  }),
  fault('transit.export-hmac-key-is-encryption-key', {
    breaks: 'transit.hmac.compute',
    statements: ['doc.transit.export.hmac-key'],
    description: "export hmac-key of a symmetric key answers the version's encryption key",
    replace: (d) => ({
      exportedValue: (keyType, v, value) =>
        keyType === 'hmac-key' && v.key && v.key.length === v.hmacKey.length
          ? v.key.toString('base64')
          : d.exportedValue(keyType, v, value),
    }),
  }),
  fault('transit.export-public-key-wrong', {
    breaks: 'transit.export.key-types',
    statements: ['doc.transit.export.public-key'],
    description: "export public-key answers a public key that is not the version's",
    replace: (d) => ({
      exportedValue: (keyType, v, value) => {
        if (keyType !== 'public-key' || !v.publicKey) return d.exportedValue(keyType, v, value);
        const pub = v.publicKey;
        if (pub.asymmetricKeyType === 'ed25519')
          return Buffer.from(
            generateKeyPairSync('ed25519').publicKey.export({ format: 'jwk' }).x!,
            'base64url',
          ).toString('base64');
        const other =
          pub.asymmetricKeyType === 'ec'
            ? generateKeyPairSync('ec', { namedCurve: pub.asymmetricKeyDetails!.namedCurve! }).publicKey
            : generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey;
        return other.export({ format: 'pem', type: 'spki' }).toString();
      },
    }),
  }),
  fault('transit.export-cmac-key-is-hmac-key', {
    breaks: 'transit.cmac.compute',
    statements: ['doc.transit.export.cmac-key'],
    description: "export cmac-key answers the version's HMAC key",
    replace: (d) => ({
      exportedValue: (keyType, v, value) =>
        keyType === 'cmac-key'
          ? v.hmacKey.subarray(0, v.key?.length ?? 32).toString('base64')
          : d.exportedValue(keyType, v, value),
    }),
  }),
];

/** The export answer of `head` (export or byok-export) with data.name replaced by the path's first parameter. */
function renamed(res: EngineResponse, seg: string[], head: string): EngineResponse {
  const data = res.data as Record<string, unknown> | undefined;
  if (seg[0] !== head || !data || typeof data !== 'object' || seg[1] === undefined) return res;
  return { ...res, data: { ...data, name: seg[1] } };
}
