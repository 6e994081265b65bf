/** Legal variants of the transit area (see reference/variants.ts): behaviours the documents allow. */
import { variantsOf } from '../../../variants.js';

const v = variantsOf(['transit']);
const DOC = 'secrets-service-transit.md';

export const variants = [
  // batches
  v(
    'transit.batch-other-ops-partial-200',
    `${DOC} Endpoints > Shared parameters: partial_failure_response_code (and with it the 400 of a partial failure) is given to "encrypt and decrypt" only`,
    'rewrap, hmac, sign, verify and cmac batches with some failed items answer 200 with the item errors (as the real product does)',
  ),
  v(
    'transit.batch-400-envelope-only',
    `${DOC} Output formats: "Batch results: data.batch_results ... an item that fails has error"; Errors rule 1 puts the error in the item's position`,
    'the 400 of a batch with failed items is the ordinary envelope with data.batch_results and no top-level errors array (the real product)',
  ),
  v(
    'transit.batch-reference-omitted-when-empty',
    `${DOC} Shared parameters: reference is "echoed in the matching batch_results item" (default empty; nothing says an empty one is echoed)`,
    'a batch item sent without reference has no reference field in its result',
  ),
  // key reads
  v(
    'transit.keys-map-from-min-decryption',
    `${DOC} Named key: keys maps "Version number ... to creation time"; which versions it lists is not said`,
    'the key read lists only the versions from min_decryption_version up (the real product)',
  ),
  v(
    'transit.read-extra-fields',
    `${DOC} Named key: the table lists the fields shown; others are not excluded (core document: other fields may appear)`,
    'the key read adds fields the real product adds (kdf for derived keys, convergent_encryption_version, imported_key_allow_rotation)',
  ),
  v(
    'transit.read-undocumented-fields-absent',
    `${DOC} Named key: only the fields of the table are documented`,
    'the key read leaves out the fields the table does not list (latest_version, min_available_version, auto_rotate_period, convergent_encryption, key_size)',
  ),
  v(
    'transit.asymmetric-time-nanos',
    `${DOC} Named key: for asymmetric keys keys holds "public key information"; the form of its creation time is not shown`,
    'creation_time of asymmetric key versions is RFC 3339 with nanosecond precision',
  ),
  v(
    'transit.output-key-version-absent',
    `${DOC} Data operations: encrypt answers data.ciphertext, sign data.signature ...; key_version is not documented`,
    'encrypt, rewrap, datakey, hmac, sign and cmac results carry no key_version',
  ),
  // flags and configuration
  v(
    'transit.flags-disable-ignored',
    `${DOC} Create key / Update key configuration: exportable and allow_plaintext_backup "cannot be disabled once set"; whether the attempt is refused is not said`,
    'config with exportable or allow_plaintext_backup false on a key that has it answers success and keeps the flag (the real product)',
  ),
  v(
    'transit.writes-answer-204',
    `${DOC} Key management: create, config, rotate, trim, restore, config/keys and cache-config answer "success"; core document: success is 200 or 204`,
    'key create, config, rotate, trim, restore, config/keys and cache-config answer 204 without a body',
  ),
  v(
    'transit.backup-needs-plaintext-flag-only',
    `${DOC} Create key: allow_plaintext_backup is the flag named for backups; the document does not tie backup to exportable`,
    'backup requires allow_plaintext_backup only, not exportable as well',
  ),
  // algorithms
  v(
    'transit.hash-without-sha1',
    `${DOC} Shared parameters: "Full list of supported algorithms: not shown"`,
    'the hash endpoint refuses sha1 (sign and verify keep it)',
  ),
  v(
    'transit.hash-only-material-algorithms',
    `${DOC} Shared parameters: "Full list of supported algorithms: not shown"; the values that appear in the material exclude sha2-224 and sha2-384`,
    'sha2-224 and sha2-384 are refused everywhere',
  ),
  v(
    'transit.export-documented-only',
    `${DOC} Key management: export and byok-export answer "data: name, keys"`,
    'export and byok-export answers carry only name and keys (no type)',
  ),
  v(
    'transit.random-hex-uppercase',
    `${DOC} Data operations: random format is "hex or base64"; the case of hex digits is not said`,
    'random bytes in hex use uppercase digits',
  ),
  v(
    'transit.keys-list-unsorted',
    `${DOC} Key management: LIST /transit/keys answers "data.keys array of names"; no order is given`,
    'LIST /transit/keys answers the names newest first instead of sorted',
  ),
  // errors
  v(
    'transit.verify-too-old-valid-false',
    `${DOC} Update key configuration: min_decryption_version is "for signatures the oldest verifiable"; how an older one is answered is not said`,
    'verify of a signature or HMAC below min_decryption_version answers valid false instead of an error',
  ),
  v(
    'transit.missing-key-404',
    `${DOC} Errors: no status is named for an operation on a missing key; core document: 404 is "invalid path"`,
    'operations on a key that does not exist answer 404 instead of 400',
  ),
  v(
    'transit.error-texts-multierror',
    'secrets-service-core.md Errors: the body is {errors: [<message>, ...]}; the texts are not specified',
    'error messages are worded as the real product words them: "1 error occurred:\\n\\t* <message>\\n\\n"',
  ),
];
