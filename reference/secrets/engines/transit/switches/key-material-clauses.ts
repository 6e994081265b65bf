/**
 * The transit engine's faults on single clauses of a key's material (transit document: Key
 * management: csr, set-certificate, export, byok-export, import, import version), written like
 * key-clauses.ts from the documents and the reference alone. Each replaces rules of ../rules.ts or
 * ../key-rules.ts (see reference/switches.ts); gathered, in order, by index.ts.
 */
import { badRequest } from '../../../errors.js';
import { switchesOf } from '../../../../switches.js';
import type { TransitRules } from '../rules.js';

const { fault } = switchesOf<TransitRules>(['transit']);

export const keyMaterialClauseSwitches = [
  // ---------------------------------------------------------------- csr, set-certificate, export, byok
  fault('transit.csr-latest-refused', {
    breaks: 'transit.csr.version',
    statements: ['doc.transit.keys-api.csr-version-latest'],
    description: 'csr refuses version `latest` (a number or no version works)',
    replace: (d) => ({
      certificateVersion: (requested, call) => {
        if (call === 'csr' && requested === 'latest') throw badRequest('version must be an integer');
        return d.certificateVersion(requested, call);
      },
    }),
  }),
  fault('transit.csr-unset-first-version', {
    breaks: 'transit.csr.version',
    statements: ['doc.transit.keys-api.csr-version-unset'],
    description: 'csr without version uses version 1 instead of the current version',
    replace: (d) => ({
      certificateVersion: (requested, call) =>
        call === 'csr' && requested === '' ? '1' : d.certificateVersion(requested, call),
    }),
  }),
  fault('transit.csr-answer-without-name', {
    breaks: 'transit.csr.create',
    statements: ['doc.transit.keys-api.csr-response-name'],
    description: 'the csr answer carries version and csr but no name',
    replace: (d) => ({
      answer: (a) => {
        const res = d.answer(a);
        const data = res.data as Record<string, unknown> | undefined;
        if (a.seg[0] !== 'keys' || a.seg[2] !== 'csr' || !data || typeof data !== 'object') return res;
        const { name: _, ...rest } = data;
        return { ...res, data: rest };
      },
    }),
  }),
  fault('transit.set-certificate-latest-refused', {
    breaks: 'transit.set-certificate.version',
    statements: ['doc.transit.keys-api.set-certificate-version'],
    description: 'set-certificate refuses version `latest` (a number or no version works)',
    replace: (d) => ({
      certificateVersion: (requested, call) => {
        if (call === 'set-certificate' && requested === 'latest') throw badRequest('version must be an integer');
        return d.certificateVersion(requested, call);
      },
    }),
  }),
  fault('transit.byok-all-is-latest', {
    breaks: 'transit.byok-export.wraps',
    statements: ['doc.transit.byok.version-omitted'],
    description: 'byok-export without version returns only the latest version (export returns them all)',
    replace: (d) => ({
      omittedVersions: (all, k, call) =>
        call === 'byok' ? all.filter((v) => v.version === k.latestVersion) : d.omittedVersions(all, k, call),
    }),
  }),
  fault('transit.export-hmac-key-ignores-exportable', {
    breaks: 'transit.export.requires-exportable',
    statements: ['doc.transit.export.requires-exportable'],
    description: 'hmac-key export does not check exportable (encryption-key and signing-key do)',
    replace: (d) => ({
      checkExportable: (k, keyType) => (keyType === 'hmac-key' ? undefined : d.checkExportable(k, keyType)),
    }),
  }),

  // ---------------------------------------------------------------- import
  fault('transit.import-asymmetric-sizes-refused', {
    breaks: 'transit.import.byok',
    statements: ['doc.transit.import.type-values'],
    description:
      'import refuses ecdsa-p384, ecdsa-p521, rsa-3072 and rsa-4096 material (the first curve and size work)',
    replace: (d) => ({
      importType: (body) => {
        const type = d.importType(body);
        if (['ecdsa-p384', 'ecdsa-p521', 'rsa-3072', 'rsa-4096'].includes(type))
          throw badRequest(`import of ${type} keys is not supported`);
        return type;
      },
    }),
  }),
  fault('transit.import-hash-sha1-sha512-refused', {
    breaks: 'transit.import.hash-function',
    statements: ['doc.transit.import.hash-function-values'],
    description: 'import refuses hash_function SHA1 and SHA512',
    replace: (d) => ({
      importHashFunction: (name, call) => {
        if (['SHA1', 'SHA512'].includes(name.toUpperCase())) throw badRequest(`unsupported hash_function ${name}`);
        return d.importHashFunction(name, call);
      },
    }),
  }),
  fault('transit.import-plaintext-backup-ignored', {
    breaks: 'transit.import.flags',
    statements: ['doc.transit.import.flags-plaintext-backup'],
    description: 'import ignores allow_plaintext_backup (exportable is kept)',
    replace: (d) => ({
      importFlags: (k) => {
        d.importFlags(k);
        k.allowPlaintextBackup = false;
      },
    }),
  }),
  fault('transit.import-exportable-by-default', {
    breaks: 'transit.import.flags',
    statements: ['doc.transit.import.flags-default'],
    description: 'an imported key is exportable unless the import says otherwise',
    replace: (d) => ({
      importFlags: (k) => {
        d.importFlags(k);
        k.exportable = true;
      },
    }),
  }),
  fault('transit.imported-flags-can-be-disabled', {
    breaks: 'transit.import.flags',
    statements: ['doc.transit.import.flags-once'],
    description:
      'config can turn exportable and allow_plaintext_backup off on an imported key (generated keys keep them)',
    replace: (d) => ({ disableFlag: (field, k) => k?.imported === true || d.disableFlag(field, k) }),
  }),
  fault('transit.import-version-public-key-refused', {
    breaks: 'transit.import-version.new-version',
    statements: ['doc.transit.import-version.public-key'],
    description: 'import_version refuses a public_key (only ciphertext works)',
    replace: (d) => ({
      importedVersionMaterial: (material, k) => {
        if (!material.privateKey && !material.key) throw badRequest('import_version needs a ciphertext');
        return d.importedVersionMaterial(material, k);
      },
    }),
  }),
];
