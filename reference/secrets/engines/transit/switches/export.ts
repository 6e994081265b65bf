/**
 * The transit engine's faults on export, backup and certificates (transit document: Key management
 * > Export key, Secure export, backup and restore, csr, set-certificate): each breaks one
 * catalogued rule by replacing rules of ../rules.ts (see reference/switches.ts). Gathered, in
 * order, by index.ts.
 */
import { createHash } from 'node:crypto';
import { switchesOf } from '../../../../switches.js';
import { generateMaterial } from '../keys.js';
import type { TransitRules } from '../rules.js';

const { fault } = switchesOf<TransitRules>(['transit']);

const noCheck = (): void => undefined;

export const exportSwitches = [
  fault('transit.restore-overwrites-without-force', {
    breaks: 'transit.restore.refused-without-force',
    statements: ['doc.transit.errors.restore-without-force'],
    description: 'restore replaces an existing key without force',
    replace: () => ({ checkRestoreTarget: noCheck }),
  }),
  fault('transit.export-signing-key-wrong', {
    breaks: 'transit.export.key-types',
    description: 'signing-key export returns a public key',
    replace: () => ({
      signingKeyExport: (k) => k.versions.get(1)!.publicKey!.export({ format: 'pem', type: 'spki' }).toString(),
    }),
  }),
  fault('transit.export-ignores-exportable', {
    breaks: 'transit.export.requires-exportable',
    description: 'keys that are not exportable are exported',
    replace: () => ({ checkExportable: noCheck }),
  }),
  fault('transit.export-latest-all', {
    breaks: 'transit.export.version',
    description: 'export `latest` returns every version',
    replace: () => ({ latestVersions: (all) => all }),
  }),
  fault('transit.byok-export-wrong-material', {
    breaks: 'transit.byok-export.wraps',
    description: 'byok-export wraps a hash of the material instead of the material',
    replace: () => ({
      byokMaterial: (material) => createHash('sha256').update(material).digest(),
    }),
  }),
  fault('transit.csr-wrong-key', {
    breaks: 'transit.csr.create',
    description: 'the CSR is made with a fresh key, not the transit key',
    replace: () => ({ csrKeyPair: (k) => generateMaterial(k.type) }),
  }),
  fault('transit.csr-template-ignored', {
    breaks: 'transit.csr.template',
    description: 'the CSR template is ignored',
    replace: () => ({ csrTemplate: () => '' }),
  }),
  fault('transit.set-certificate-not-stored', {
    breaks: 'transit.set-certificate.store',
    description: 'a second set-certificate keeps the first chain',
    replace: () => ({
      storeChain: (v, chain) => {
        if (!v.certificateChain) v.certificateChain = chain;
      },
    }),
  }),
  fault('transit.restore-loses-versions', {
    breaks: 'transit.backup.restore',
    description: 'the backup holds only the latest version',
    replace: () => ({
      backupCopy: (k) => ({ ...k, versions: new Map([[k.latestVersion, k.versions.get(k.latestVersion)!]]) }),
    }),
  }),
  fault('transit.backup-without-flag', {
    breaks: 'transit.backup.requires-plaintext-backup',
    description: 'backup ignores allow_plaintext_backup',
    replace: () => ({ checkBackupExportable: noCheck, checkBackupPlaintext: noCheck }),
  }),
];
