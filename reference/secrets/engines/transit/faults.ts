/**
 * Fault switches of the transit engine: each breaks one catalogued rule at the one place it is
 * implemented, so the mutation run proves the transit suite notices.
 */
import { faultsOf, type FaultSpec } from '../../../faults.js';

const f = faultsOf(['transit'], 'transit.');

export const faults: FaultSpec[] = [
  // robustness: bad input
  f(
    'create-wrong-type-500',
    'robustness.transitcreatekey.invalid-4xx',
    'key creation answers 500 (an unchecked conversion) to a field of the wrong JSON type instead of 400',
    { suites: ['robustness'] },
  ),
  // key reads and types
  f('read-drops-imported', 'transit.key.read-fields', 'the key read leaves out `imported`'),
  f(
    'keys-map-iso-time',
    'transit.key.keys-map',
    'symmetric versions map to an ISO time string instead of Unix seconds',
  ),
  f('read-leaks-material', 'transit.key.no-material-in-read', 'the key read includes the symmetric key material'),
  f(
    'supports-inverted',
    'transit.key.supports-by-type',
    'supports_encryption is the opposite of what the type supports',
  ),
  f('default-type-aes128', 'transit.key.default-type', 'a key created without type is aes128-gcm96'),
  f('hmac-default-size-16', 'transit.key.hmac-default-size', 'an hmac key without key_size gets 16 bytes'),
  f('hmac-key-shared', 'transit.key.hmac-every-type', 'rotation reuses the previous HMAC key instead of creating one'),
  f(
    'ed25519-derivation-random',
    'transit.key.ed25519-derived-deterministic',
    'derived ed25519 keys mix a random salt into each derivation',
  ),
  // output formats and batches
  f(
    'version-prefix-stuck',
    'transit.versioning.follows-rotation',
    'outputs always say v1 whatever version produced them',
  ),
  f(
    'aead-layout-swapped',
    'transit.encrypt.local-decrypt',
    'AEAD output is nonce|tag|ciphertext instead of nonce|ciphertext|tag',
  ),
  f(
    'decrypt-plaintext-raw',
    'transit.format.base64-fields',
    'decrypt returns the plaintext as raw text instead of base64',
  ),
  f('batch-order-reversed', 'transit.batch.order', 'the first two batch results are swapped'),
  f('batch-error-dropped', 'transit.batch.item-error', 'a failed batch item has no `error`'),
  f('batch-reference-dropped', 'transit.batch.reference-echo', 'batch results do not echo `reference`'),
  f('batch-partial-200', 'transit.batch.partial-failure-400', 'a partial batch failure answers 200'),
  f('batch-partial-code-ignored', 'transit.batch.partial-failure-code', 'partial_failure_response_code is ignored'),
  f(
    'batch-total-failure-ok',
    'transit.batch.total-failure-error',
    'a total batch failure answers partial_failure_response_code',
  ),
  f(
    'batch-single-fields-used',
    'transit.batch.single-fields-ignored',
    'encrypt uses the single plaintext when batch_input is also set',
  ),
  // states and transitions
  f('exportable-can-be-disabled', 'transit.key.exportable-irreversible', 'config can turn exportable off again'),
  f(
    'plaintext-backup-can-be-disabled',
    'transit.key.plaintext-backup-irreversible',
    'config can turn allow_plaintext_backup off again',
  ),
  f('deletion-allowed-config-ignored', 'transit.key.deletion-allowed-config', 'config ignores deletion_allowed'),
  f('delete-keeps-key', 'transit.key.delete', 'DELETE answers success but keeps the key'),
  f(
    'delete-ignores-deletion-allowed',
    'transit.key.delete-not-allowed',
    'DELETE removes keys whose deletion_allowed is false',
  ),
  f(
    'rotate-keeps-version',
    'transit.rotate.new-version',
    'after rotation encryption keeps using the oldest available version',
  ),
  f('rotate-shrinks-key', 'transit.rotate.keeps-size', 'rotating an aes256-gcm96 key creates a 16-byte version'),
  f(
    'rotate-imported-without-allow',
    'transit.rotate.imported-needs-allow-rotation',
    'imported keys rotate without allow_rotation',
  ),
  f(
    'import-version-after-rotate',
    'transit.import-version.after-rotate-refused',
    'import_version is accepted after a rotation in the service',
  ),
  f(
    'import-version-ignores-material',
    'transit.import-version.new-version',
    'import_version copies the latest version instead of using the new material',
  ),
  f('import-version-any-key', 'transit.import-version.imported-only', 'import_version is accepted on generated keys'),
  f('trim-keeps-versions', 'transit.trim.removes-old', 'trim records the minimum but deletes nothing'),
  f('trim-bounds-unchecked', 'transit.trim.bounds', 'trim skips its bounds checks'),
  f('upsert-never', 'transit.upsert.create', 'encrypt never creates a missing key'),
  f(
    'derived-upsert-not-derived',
    'transit.upsert.derived-with-context',
    'a key upserted with a context is not derived',
  ),
  f(
    'upsert-without-create',
    'transit.upsert.update-only-refused',
    'the existence check always says the key exists and encrypt upserts anyway, so update suffices',
  ),
  f('upsert-ignores-disable', 'transit.upsert.disabled-refused', 'encrypt upserts even with disable_upsert'),
  f('upsert-type-ignored', 'transit.upsert.type', 'encrypt upserts ignore `type`'),
  f(
    'restore-overwrites-without-force',
    'transit.restore.refused-without-force',
    'restore replaces an existing key without force',
  ),
  // parameters
  f('hash-default-sha512', 'transit.params.hash-default', 'hash defaults to sha2-512'),
  f('hash-url-ignored', 'transit.params.hash-in-url', 'the algorithm in the hash URL is ignored'),
  f('sign-hash-url-ignored', 'transit.params.hash-in-url', 'the hash algorithm in the sign URL is ignored'),
  f('pss-default-pkcs1', 'transit.params.signature-algorithm', 'RSA signatures default to PKCS#1 v1.5'),
  f(
    'marshaling-default-jws',
    'transit.params.marshaling-default',
    'ECDSA signatures default to the raw (JWS) encoding',
  ),
  f(
    'key-version-ignored',
    'transit.params.key-version-latest',
    'key_version is ignored: the latest version is always used',
  ),
  f(
    'min-encryption-unchecked',
    'transit.params.key-version-min-encryption',
    'key_version below min_encryption_version is accepted',
  ),
  f('context-optional', 'transit.params.context-required', 'derived keys accept requests without context'),
  f('nonce-length-unchecked', 'transit.params.nonce-12-bytes', 'a nonce of any length is accepted'),
  // key management
  f('wrapping-key-2048', 'transit.wrapping-key.rsa-4096', 'the wrapping key is RSA-2048'),
  f('list-missing-keys', 'transit.keys.list', 'LIST leaves out the most recently created key'),
  f(
    'convergent-without-derived',
    'transit.create.convergent-requires-derived',
    'convergent_encryption is accepted without derived',
  ),
  f('convergent-random-nonce', 'transit.create.convergent-deterministic', 'convergent keys use a random nonce'),
  f('key-size-unchecked', 'transit.create.key-size-range', 'hmac key_size outside 32..512 is accepted'),
  f('auto-rotate-min-unchecked', 'transit.create.auto-rotate-min', 'auto_rotate_period under one hour is accepted'),
  f('auto-rotate-never', 'transit.auto-rotate.rotates', 'keys are never rotated automatically'),
  f(
    'auto-rotate-zero-ignored',
    'transit.auto-rotate.zero-disables',
    'config auto_rotate_period 0 keeps the previous period',
  ),
  f(
    'config-min-versions-unchecked',
    'transit.config.min-versions',
    'min_encryption_version below min_decryption_version is accepted',
  ),
  f(
    'min-decryption-ignored',
    'transit.config.min-decryption',
    'versions below min_decryption_version still decrypt and verify',
  ),
  f(
    'import-ignores-material',
    'transit.import.byok',
    'symmetric imports use random material instead of the unwrapped key',
  ),
  f('import-hash-function-ignored', 'transit.import.hash-function', 'import always unwraps with RSA-OAEP SHA-256'),
  f('public-key-import-can-sign', 'transit.import.public-key', 'a public-key import generates its own key pair'),
  f(
    'import-accepts-garbage',
    'transit.import.bad-ciphertext',
    'an import ciphertext that does not unwrap creates a random key',
  ),
  f('export-signing-key-wrong', 'transit.export.key-types', 'signing-key export returns a public key'),
  f('export-ignores-exportable', 'transit.export.requires-exportable', 'keys that are not exportable are exported'),
  f('export-latest-all', 'transit.export.version', 'export `latest` returns every version'),
  f(
    'byok-export-wrong-material',
    'transit.byok-export.wraps',
    'byok-export wraps a hash of the material instead of the material',
  ),
  f('csr-wrong-key', 'transit.csr.create', 'the CSR is made with a fresh key, not the transit key'),
  f('csr-template-ignored', 'transit.csr.template', 'the CSR template is ignored'),
  f('set-certificate-not-stored', 'transit.set-certificate.store', 'a second set-certificate keeps the first chain'),
  f('restore-loses-versions', 'transit.backup.restore', 'the backup holds only the latest version'),
  f('backup-without-flag', 'transit.backup.requires-plaintext-backup', 'backup ignores allow_plaintext_backup'),
  f('cache-size-unchecked', 'transit.cache-config.size', 'cache-config accepts sizes 1 to 9'),
  f('cache-read-zero', 'transit.cache-config.read', 'GET cache-config always answers 0'),
  f('disable-upsert-not-persisted', 'transit.config-keys.disable-upsert', 'GET config/keys always answers false'),
  // data operations
  f('associated-data-ignored', 'transit.encrypt.associated-data', 'associated_data is not bound to the ciphertext'),
  f('tamper-accepted', 'transit.decrypt.tampered', 'decrypt skips the authentication tag check'),
  f('rewrap-keeps-version', 'transit.rewrap.latest', "rewrap re-encrypts under the ciphertext's own version"),
  f('datakey-wrapped-leaks-plaintext', 'transit.datakey.types', 'datakey/wrapped also returns the plaintext'),
  f('datakey-bits-unchecked', 'transit.datakey.bits', 'datakey accepts any multiple of 8 bits'),
  f('random-bytes-off-by-one', 'transit.random.bytes', 'random returns one byte less than asked'),
  f('random-format-ignored', 'transit.random.format', 'random ignores format hex'),
  f('random-source-all-rejected', 'transit.random.source', 'random refuses source all'),
  f('seal-source-rejected', 'transit.random.seal', 'random refuses source seal'),
  f('hash-format-ignored', 'transit.hash.sum', 'hash ignores format base64'),
  f('hmac-ignores-algorithm', 'transit.hmac.compute', 'HMAC always uses SHA-256'),
  f('sign-wrong-hash', 'transit.sign.verifiable', 'ECDSA and RSA sign with SHA-1 whatever was asked'),
  f('prehashed-ignored', 'transit.sign.prehashed', 'prehashed input is hashed again'),
  f('hash-none-unchecked', 'transit.sign.hash-none', 'hash_algorithm none is accepted without prehashed or with PSS'),
  f('derived-publickey-missing', 'transit.sign.derived-publickey', 'derived ed25519 batch results lack publickey'),
  f('verify-always-true', 'transit.verify.valid', 'verify answers valid true for any signature or HMAC'),
  f('verify-mixed-accepted', 'transit.verify.mixed-batch', 'verify batches may mix hmac and signature items'),
  f('cmac-url-length-ignored', 'transit.cmac.compute', 'url_mac_length is ignored'),
  f('cmac-length-unchecked', 'transit.cmac.length-bound', 'mac_length above 16 is accepted'),
];
