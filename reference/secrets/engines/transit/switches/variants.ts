/**
 * The transit engine's legal variants: behaviours the transit document allows and a real
 * implementation shows, each replacing rules of ../rules.ts (see reference/switches.ts); the
 * answer shapes they give are in ../variant-shapes.ts. index.ts applies them after the faults, so
 * a variant wraps the rule a fault left.
 */
import { switchesOf } from '../../../../switches.js';
import { badRequest, notFound, SvcError } from '../../../errors.js';
import { typeInfo } from '../keys.js';
import type { TransitRules } from '../rules.js';
import {
  extraReadFields,
  isPlainWrite,
  keysFromMinDecryption,
  listUnsorted,
  multiError,
  nanosecondTimes,
  onlyDocumentedExport,
  withoutKeyVersion,
  withoutUndocumentedReadFields,
} from '../variant-shapes.js';

const { variant } = switchesOf<TransitRules>(['transit']);
const DOC = 'secrets-service-transit.md';

const noCheck = (): void => undefined;

/** A rule whose refusals (4xx) answer 500 with the same messages. */
function as500<A extends unknown[], R>(rule: (...args: A) => R): (...args: A) => R {
  return (...args) => {
    try {
      return rule(...args);
    } catch (err) {
      if (err instanceof SvcError && err.status < 500) throw new SvcError(500, err.messages);
      throw err;
    }
  };
}

export const variantSwitches = [
  variant('transit.batch-other-ops-partial-200', {
    allows: `${DOC} Endpoints > Shared parameters: partial_failure_response_code (and with it the 400 of a partial failure and the error status of a total one) is given to "encrypt and decrypt" only; Errors rule 2 names no operation`,
    description:
      'rewrap, hmac, sign, verify and cmac batches with failed items answer 200 with the item errors, even when every item failed (as the real product does)',
    assumptions: ['transit.batch.other-ops-status'],
    statements: ['doc.transit.errors.partial-400', 'doc.transit.errors.total-failure'],
    replace: (d) => ({
      batchStatus: (o) => (!o.tiedToPartialCode && o.partialCode === undefined ? 200 : d.batchStatus(o)),
    }),
  }),
  variant('transit.batch-400-envelope-only', {
    allows: `${DOC} Output formats: "Batch results: data.batch_results ... an item that fails has error"; Errors rule 1 puts the error in the item's position`,
    description:
      'the 400 of a batch with failed items is the ordinary envelope with data.batch_results and no top-level errors array (the real product)',
    replace: (d) => ({
      batchFailureBody: (data, errors) => {
        const { errors: _, ...envelope } = d.batchFailureBody(data, errors);
        return envelope;
      },
    }),
  }),
  variant('transit.batch-reference-omitted-when-empty', {
    allows: `${DOC} Shared parameters: reference is "echoed in the matching batch_results item" (default empty; nothing says an empty one is echoed)`,
    description: 'a batch item sent without reference has no reference field in its result',
    replace: (d) => ({
      batchEcho: (reference, op) => (reference === '' ? {} : d.batchEcho(reference, op)),
    }),
  }),
  variant('transit.keys-map-from-min-decryption', {
    allows: `${DOC} Named key: keys maps "Version number ... to creation time"; which versions it lists is not said`,
    description: 'the key read lists only the versions from min_decryption_version up (the real product)',
    replace: (d) => ({ keyRead: (k) => keysFromMinDecryption(d.keyRead(k), k) }),
  }),
  variant('transit.read-extra-fields', {
    allows: `${DOC} Named key: the table lists the fields shown; others are not excluded (core document: other fields may appear)`,
    description:
      'the key read adds fields the real product adds (kdf for derived keys, convergent_encryption_version, imported_key_allow_rotation)',
    replace: (d) => ({ keyRead: (k) => extraReadFields(d.keyRead(k), k) }),
  }),
  variant('transit.read-undocumented-fields-absent', {
    allows: `${DOC} Named key: only the fields of the table are documented`,
    description:
      'the key read leaves out the fields the table does not list (latest_version, min_available_version, auto_rotate_period, convergent_encryption, key_size)',
    replace: (d) => ({ keyRead: (k) => withoutUndocumentedReadFields(d.keyRead(k)) }),
  }),
  variant('transit.asymmetric-time-nanos', {
    allows: `${DOC} Named key: for asymmetric keys keys holds "public key information"; the form of its creation time is not shown`,
    description: 'creation_time of asymmetric key versions is RFC 3339 with nanosecond precision',
    replace: (d) => ({ keyRead: (k) => nanosecondTimes(d.keyRead(k)) }),
  }),
  variant('transit.output-key-version-absent', {
    allows: `${DOC} Data operations: encrypt answers data.ciphertext, sign data.signature ...; key_version is not documented`,
    description: 'encrypt, rewrap, datakey, hmac, sign and cmac results carry no key_version',
    replace: (d) => ({ answer: (a) => withoutKeyVersion(d.answer(a)) }),
  }),
  variant('transit.flags-disable-ignored', {
    allows: `${DOC} Create key / Update key configuration: exportable and allow_plaintext_backup "cannot be disabled once set"; whether the attempt is refused is not said`,
    description:
      'config with exportable or allow_plaintext_backup false on a key that has it answers success and keeps the flag (the real product)',
    replace: (d) => ({
      disableFlag: (field) => {
        try {
          return d.disableFlag(field);
        } catch {
          return false;
        }
      },
    }),
  }),
  variant('transit.writes-answer-204', {
    allows: `${DOC} Key management: create, config, rotate, trim, restore and cache-config answer "success" (config/keys answers data.disable_upsert); core document: success is 200 or 204`,
    description: 'key create, config, rotate, trim, restore and cache-config answer 204 without a body',
    replace: (d) => ({ answer: (a) => (isPlainWrite(a.method, a.seg) ? {} : d.answer(a)) }),
  }),
  variant('transit.backup-needs-plaintext-flag-only', {
    allows: `${DOC} Create key: allow_plaintext_backup is the flag named for backups; the document does not tie backup to exportable`,
    description: 'backup requires allow_plaintext_backup only, not exportable as well',
    replace: () => ({ checkBackupExportable: noCheck }),
  }),
  variant('transit.hash-without-sha1', {
    allows: `${DOC} Shared parameters: "Full list of supported algorithms: not shown"`,
    description: 'the hash endpoint refuses sha1 (sign and verify keep it)',
    replace: (d) => ({
      refusedHash: (head, named) => (head === 'hash' && named.includes('sha1') ? 'sha1' : d.refusedHash(head, named)),
    }),
  }),
  variant('transit.hash-only-material-algorithms', {
    allows: `${DOC} Shared parameters: "Full list of supported algorithms: not shown"; the values that appear in the material exclude sha2-224 and sha2-384`,
    description: 'sha2-224 and sha2-384 are refused everywhere',
    replace: (d) => ({
      refusedHash: (head, named) =>
        d.refusedHash(head, named) ??
        (['hash', 'hmac', 'sign', 'verify'].includes(head ?? '')
          ? named.find((x) => x === 'sha2-224' || x === 'sha2-384')
          : undefined),
    }),
  }),
  variant('transit.export-documented-only', {
    allows: `${DOC} Key management: export and byok-export answer "data: name, keys"`,
    description: 'export and byok-export answers carry only name and keys (no type)',
    replace: (d) => ({ answer: (a) => onlyDocumentedExport(a.seg, d.answer(a)) }),
  }),
  variant('transit.hash-hex-uppercase', {
    allows: `${DOC} Data operations: hash format is "hex default, or base64"; the case of hex digits is not said`,
    description: 'hash sums in hex use uppercase digits',
    statements: ['doc.transit.hash.format-default'],
    replace: (d) => ({ hashHex: (text) => d.hashHex(text).toUpperCase() }),
  }),
  variant('transit.nonce-not-allowed', {
    allows: `${DOC} Shared parameters: nonce is "required for convergent encryption on keys generated with an old release (0.6.1); not needed for keys created in 0.6.2 or later"; whether a nonce where none is needed is accepted is not said`,
    description:
      'a nonce given to encrypt, decrypt, rewrap or datakey on a key that does not need one is refused ("provided nonce not allowed for this key", as the real product)',
    statements: ['doc.transit.params.nonce-not-needed', 'doc.transit.limits.nonce'],
    replace: () => ({ nonceAllowed: () => false }),
  }),
  variant('transit.random-hex-uppercase', {
    allows: `${DOC} Data operations: random format is "hex or base64"; the case of hex digits is not said`,
    description: 'random bytes in hex use uppercase digits',
    replace: (d) => ({ randomHex: (text) => d.randomHex(text).toUpperCase() }),
  }),
  variant('transit.keys-list-unsorted', {
    allows: `${DOC} Key management: LIST /transit/keys answers "data.keys array of names"; no order is given`,
    description: 'LIST /transit/keys answers the names newest first instead of sorted',
    replace: (d) => ({ answer: (a) => listUnsorted(a.seg, d.answer(a)) }),
  }),
  variant('transit.verify-too-old-valid-false', {
    allows: `${DOC} Update key configuration: min_decryption_version is "for signatures the oldest verifiable"; how an older one is answered is not said`,
    description: 'verify of a signature or HMAC below min_decryption_version answers valid false instead of an error',
    replace: () => ({ tooOldVerification: 'invalid' }),
  }),
  variant('transit.rotate-encryption-keys-only', {
    allows: `${DOC} States and transitions: rotate has the condition "key supports encryption and decryption"; nothing is said of other keys`,
    description: 'rotation of a key that does not encrypt and decrypt (hmac, ed25519, ECDSA) is refused',
    replace: (d) => ({
      checkRotation: (k) => {
        const info = typeInfo(k);
        if (!info.encryption || !info.decryption)
          throw badRequest(`rotation is only supported for keys that encrypt and decrypt, not ${k.type}`);
        d.checkRotation(k);
      },
    }),
  }),
  variant('transit.missing-key-read-400', {
    allows: `${DOC} Key management: GET /transit/keys/:name names no status for a missing key; secrets-service-core.md Errors: 404 is "invalid path", 400 "invalid request"`,
    description: 'GET /transit/keys/:name of a key that does not exist answers 400 "key not found"',
    replace: () => ({ missingKeyRead: (name) => badRequest(`key ${JSON.stringify(name)} not found`) }),
  }),
  variant('transit.public-export-needs-exportable', {
    allows: `${DOC} Export key: "The key must be exportable" names no key_type as an exception`,
    description: 'export public-key and certificate-chain of a key that is not exportable are refused too',
    replace: () => ({ exportNeedsExportable: () => true }),
  }),
  variant('transit.missing-key-404', {
    allows: `${DOC} Errors: no status is named for an operation on a missing key; core document: 404 is "invalid path"`,
    description: 'operations on a key that does not exist answer 404 instead of 400',
    replace: () => ({ missingKey: (name) => notFound(`key ${JSON.stringify(name)} not found`) }),
  }),
  variant('transit.state-refusals-500', {
    allows: `${DOC} States and transitions and Errors: restore onto an existing key "is refused", deleting a key with deletion_allowed false "fails", trim out of bounds "fails", mixed verify batch items "are an error"; an imported key "needs allow_rotation true", import_version is supported by imported keys only, "The key must be exportable", key_version "must be >= the key's min_encryption_version", the byok-export destination is an RSA key: no status is given; secrets-service-core.md Errors gives 400 only to "missing or invalid data"`,
    description:
      'refusals that the state or type of a key decides (rotate, delete, trim, import_version, export, backup, restore, byok-export destination, key_version below min_encryption_version, mixed verify batch) answer 500 with the message, as the real product answers several',
    replace: (d) => ({
      checkRotation: as500(d.checkRotation),
      checkDeletion: as500(d.checkDeletion),
      checkTrim: as500(d.checkTrim),
      checkImportVersionImported: as500(d.checkImportVersionImported),
      checkImportVersionNotRotated: as500(d.checkImportVersionNotRotated),
      checkExportable: as500(d.checkExportable),
      checkBackupExportable: as500(d.checkBackupExportable),
      checkBackupPlaintext: as500(d.checkBackupPlaintext),
      checkRestoreTarget: as500(d.checkRestoreTarget),
      checkVerifyBatchModes: as500(d.checkVerifyBatchModes),
      checkMinEncryption: as500(d.checkMinEncryption),
      byokDestination: as500(d.byokDestination),
    }),
  }),
  variant('transit.restore-name-path-only', {
    allows: `${DOC} Key management: the restore row's path is /transit/restore(/:name) and its request lists \`name\` (optional restored name): the name may be the path segment only`,
    description: 'POST /transit/restore takes the name from the path only; a body name is ignored (the real product)',
    assumptions: ['transit.restore.body-name'],
    statements: ['doc.transit.keys-api.restore-name'],
    replace: (d) => ({ restoreName: (pathName, _body, backupName) => d.restoreName(pathName, {}, backupName) }),
  }),
  variant('transit.error-texts-multierror', {
    allows: 'secrets-service-core.md Errors: the body is {errors: [<message>, ...]}; the texts are not specified',
    description: 'error messages are worded as the real product words them: "1 error occurred:\\n\\t* <message>\\n\\n"',
    replace: (d) => ({
      failure: (err) => {
        const e = d.failure(err);
        return e instanceof SvcError ? multiError(e) : e;
      },
    }),
  }),
];
