/**
 * Fault switches of the transit engine: each breaks one catalogued rule at the one place it is
 * implemented, so the mutation run proves the transit suite notices.
 */
import { faultsOf } from '../../../faults.js';

const f = faultsOf(['transit']);

export const faults = [
  // robustness: bad input
  f(
    'transit.create-wrong-type-500',
    'robustness.transitcreatekey.invalid-4xx',
    'key creation answers 500 (an unchecked conversion) to a field of the wrong JSON type instead of 400',
    { suites: ['robustness'] },
  ),
  // key reads and types
  f('transit.read-drops-imported', 'transit.key.read-fields', 'the key read leaves out `imported`'),
  f(
    'transit.keys-map-iso-time',
    'transit.key.keys-map',
    'symmetric versions map to an ISO time string instead of Unix seconds',
  ),
  f(
    'transit.read-leaks-material',
    'transit.key.no-material-in-read',
    'the key read includes the symmetric key material',
  ),
  f(
    'transit.supports-inverted',
    'transit.key.supports-by-type',
    'supports_encryption is the opposite of what the type supports',
  ),
  f('transit.default-type-aes128', 'transit.key.default-type', 'a key created without type is aes128-gcm96'),
  f('transit.hmac-default-size-16', 'transit.key.hmac-default-size', 'an hmac key without key_size gets 16 bytes'),
  f(
    'transit.hmac-key-shared',
    'transit.key.hmac-every-type',
    'rotation reuses the previous HMAC key instead of creating one',
  ),
  f(
    'transit.ed25519-derivation-random',
    'transit.key.ed25519-derived-deterministic',
    'derived ed25519 keys mix a random salt into each derivation',
  ),
  // output formats and batches
  f(
    'transit.version-prefix-stuck',
    'transit.versioning.follows-rotation',
    'outputs always say v1 whatever version produced them',
  ),
  f(
    'transit.aead-layout-swapped',
    'transit.encrypt.local-decrypt',
    'AEAD output is nonce|tag|ciphertext instead of nonce|ciphertext|tag',
  ),
  f(
    'transit.decrypt-plaintext-raw',
    'transit.format.base64-fields',
    'decrypt returns the plaintext as raw text instead of base64',
  ),
  f('transit.batch-order-reversed', 'transit.batch.order', 'the first two batch results are swapped'),
  f('transit.batch-error-dropped', 'transit.batch.item-error', 'a failed batch item has no `error`'),
  f('transit.batch-reference-dropped', 'transit.batch.reference-echo', 'batch results do not echo `reference`'),
  f('transit.batch-partial-200', 'transit.batch.partial-failure-400', 'a partial batch failure answers 200'),
  f(
    'transit.batch-partial-code-ignored',
    'transit.batch.partial-failure-code',
    'partial_failure_response_code is ignored',
  ),
  f(
    'transit.batch-total-failure-ok',
    'transit.batch.total-failure-error',
    'a total batch failure answers partial_failure_response_code',
  ),
  f(
    'transit.batch-single-fields-used',
    'transit.batch.single-fields-ignored',
    'encrypt uses the single plaintext when batch_input is also set',
  ),
  // states and transitions
  f(
    'transit.exportable-can-be-disabled',
    'transit.key.exportable-irreversible',
    'config can turn exportable off again',
  ),
  f(
    'transit.plaintext-backup-can-be-disabled',
    'transit.key.plaintext-backup-irreversible',
    'config can turn allow_plaintext_backup off again',
  ),
  f(
    'transit.deletion-allowed-config-ignored',
    'transit.key.deletion-allowed-config',
    'config ignores deletion_allowed',
  ),
  f('transit.delete-keeps-key', 'transit.key.delete', 'DELETE answers success but keeps the key'),
  f(
    'transit.delete-ignores-deletion-allowed',
    'transit.key.delete-not-allowed',
    'DELETE removes keys whose deletion_allowed is false',
  ),
  f(
    'transit.rotate-keeps-version',
    'transit.rotate.new-version',
    'after rotation encryption keeps using the oldest available version',
  ),
  f(
    'transit.rotate-shrinks-key',
    'transit.rotate.keeps-size',
    'rotating an aes256-gcm96 key creates a 16-byte version',
  ),
  f(
    'transit.rotate-imported-without-allow',
    'transit.rotate.imported-needs-allow-rotation',
    'imported keys rotate without allow_rotation',
  ),
  f(
    'transit.import-version-after-rotate',
    'transit.import-version.after-rotate-refused',
    'import_version is accepted after a rotation in the service',
  ),
  f(
    'transit.import-version-ignores-material',
    'transit.import-version.new-version',
    'import_version copies the latest version instead of using the new material',
  ),
  f(
    'transit.import-version-any-key',
    'transit.import-version.imported-only',
    'import_version is accepted on generated keys',
  ),
  f('transit.trim-keeps-versions', 'transit.trim.removes-old', 'trim records the minimum but deletes nothing'),
  f('transit.trim-bounds-unchecked', 'transit.trim.bounds', 'trim skips its bounds checks'),
  f('transit.upsert-never', 'transit.upsert.create', 'encrypt never creates a missing key'),
  f(
    'transit.derived-upsert-not-derived',
    'transit.upsert.derived-with-context',
    'a key upserted with a context is not derived',
  ),
  f(
    'transit.upsert-without-create',
    'transit.upsert.update-only-refused',
    'the existence check always says the key exists and encrypt upserts anyway, so update suffices',
  ),
  f('transit.upsert-ignores-disable', 'transit.upsert.disabled-refused', 'encrypt upserts even with disable_upsert'),
  f('transit.upsert-type-ignored', 'transit.upsert.type', 'encrypt upserts ignore `type`'),
  f(
    'transit.restore-overwrites-without-force',
    'transit.restore.refused-without-force',
    'restore replaces an existing key without force',
  ),
  // parameters
  f('transit.hash-default-sha512', 'transit.params.hash-default', 'hash defaults to sha2-512'),
  f('transit.hash-url-ignored', 'transit.params.hash-in-url', 'the algorithm in the hash URL is ignored'),
  f('transit.sign-hash-url-ignored', 'transit.params.hash-in-url', 'the hash algorithm in the sign URL is ignored'),
  f('transit.pss-default-pkcs1', 'transit.params.signature-algorithm', 'RSA signatures default to PKCS#1 v1.5'),
  f(
    'transit.marshaling-default-jws',
    'transit.params.marshaling-default',
    'ECDSA signatures default to the raw (JWS) encoding',
  ),
  f(
    'transit.key-version-ignored',
    'transit.params.key-version-latest',
    'key_version is ignored: the latest version is always used',
  ),
  f(
    'transit.min-encryption-unchecked',
    'transit.params.key-version-min-encryption',
    'key_version below min_encryption_version is accepted',
  ),
  f('transit.context-optional', 'transit.params.context-required', 'derived keys accept requests without context'),
  f('transit.nonce-length-unchecked', 'transit.params.nonce-12-bytes', 'a nonce of any length is accepted'),
  // key management
  f('transit.wrapping-key-2048', 'transit.wrapping-key.rsa-4096', 'the wrapping key is RSA-2048'),
  f('transit.list-missing-keys', 'transit.keys.list', 'LIST leaves out the most recently created key'),
  f(
    'transit.convergent-without-derived',
    'transit.create.convergent-requires-derived',
    'convergent_encryption is accepted without derived',
  ),
  f('transit.convergent-random-nonce', 'transit.create.convergent-deterministic', 'convergent keys use a random nonce'),
  f('transit.key-size-unchecked', 'transit.create.key-size-range', 'hmac key_size outside 32..512 is accepted'),
  f(
    'transit.auto-rotate-min-unchecked',
    'transit.create.auto-rotate-min',
    'auto_rotate_period under one hour is accepted',
  ),
  f('transit.auto-rotate-never', 'transit.auto-rotate.rotates', 'keys are never rotated automatically'),
  f(
    'transit.auto-rotate-zero-ignored',
    'transit.auto-rotate.zero-disables',
    'config auto_rotate_period 0 keeps the previous period',
  ),
  f(
    'transit.config-min-versions-unchecked',
    'transit.config.min-versions',
    'min_encryption_version below min_decryption_version is accepted',
  ),
  f(
    'transit.min-decryption-ignored',
    'transit.config.min-decryption',
    'versions below min_decryption_version still decrypt and verify',
  ),
  f(
    'transit.import-ignores-material',
    'transit.import.byok',
    'symmetric imports use random material instead of the unwrapped key',
  ),
  f(
    'transit.import-hash-function-ignored',
    'transit.import.hash-function',
    'import always unwraps with RSA-OAEP SHA-256',
  ),
  f(
    'transit.public-key-import-can-sign',
    'transit.import.public-key',
    'a public-key import generates its own key pair',
  ),
  f(
    'transit.import-accepts-garbage',
    'transit.import.bad-ciphertext',
    'an import ciphertext that does not unwrap creates a random key',
  ),
  f('transit.export-signing-key-wrong', 'transit.export.key-types', 'signing-key export returns a public key'),
  f(
    'transit.export-ignores-exportable',
    'transit.export.requires-exportable',
    'keys that are not exportable are exported',
  ),
  f('transit.export-latest-all', 'transit.export.version', 'export `latest` returns every version'),
  f(
    'transit.byok-export-wrong-material',
    'transit.byok-export.wraps',
    'byok-export wraps a hash of the material instead of the material',
  ),
  f('transit.csr-wrong-key', 'transit.csr.create', 'the CSR is made with a fresh key, not the transit key'),
  f('transit.csr-template-ignored', 'transit.csr.template', 'the CSR template is ignored'),
  f(
    'transit.set-certificate-not-stored',
    'transit.set-certificate.store',
    'a second set-certificate keeps the first chain',
  ),
  f('transit.restore-loses-versions', 'transit.backup.restore', 'the backup holds only the latest version'),
  f('transit.backup-without-flag', 'transit.backup.requires-plaintext-backup', 'backup ignores allow_plaintext_backup'),
  f('transit.cache-size-unchecked', 'transit.cache-config.size', 'cache-config accepts sizes 1 to 9'),
  f('transit.cache-read-zero', 'transit.cache-config.read', 'GET cache-config always answers 0'),
  f(
    'transit.disable-upsert-not-persisted',
    'transit.config-keys.disable-upsert',
    'GET config/keys always answers false',
  ),
  // data operations
  f(
    'transit.associated-data-ignored',
    'transit.encrypt.associated-data',
    'associated_data is not bound to the ciphertext',
  ),
  f('transit.tamper-accepted', 'transit.decrypt.tampered', 'decrypt skips the authentication tag check'),
  f('transit.rewrap-keeps-version', 'transit.rewrap.latest', "rewrap re-encrypts under the ciphertext's own version"),
  f('transit.datakey-wrapped-leaks-plaintext', 'transit.datakey.types', 'datakey/wrapped also returns the plaintext'),
  f('transit.datakey-bits-unchecked', 'transit.datakey.bits', 'datakey accepts any multiple of 8 bits'),
  f('transit.random-bytes-off-by-one', 'transit.random.bytes', 'random returns one byte less than asked'),
  f('transit.random-format-ignored', 'transit.random.format', 'random ignores format hex'),
  f('transit.random-source-all-rejected', 'transit.random.source', 'random refuses source all'),
  f('transit.seal-source-rejected', 'transit.random.seal', 'random refuses source seal'),
  f('transit.hash-format-ignored', 'transit.hash.sum', 'hash ignores format base64'),
  f('transit.hmac-ignores-algorithm', 'transit.hmac.compute', 'HMAC always uses SHA-256'),
  f('transit.sign-wrong-hash', 'transit.sign.verifiable', 'ECDSA and RSA sign with SHA-1 whatever was asked'),
  f('transit.prehashed-ignored', 'transit.sign.prehashed', 'prehashed input is hashed again'),
  f(
    'transit.hash-none-unchecked',
    'transit.sign.hash-none',
    'hash_algorithm none is accepted without prehashed or with PSS',
  ),
  f(
    'transit.derived-publickey-missing',
    'transit.sign.derived-publickey',
    'derived ed25519 batch results lack publickey',
  ),
  f('transit.verify-always-true', 'transit.verify.valid', 'verify answers valid true for any signature or HMAC'),
  f('transit.verify-mixed-accepted', 'transit.verify.mixed-batch', 'verify batches may mix hmac and signature items'),
  f('transit.cmac-url-length-ignored', 'transit.cmac.compute', 'url_mac_length is ignored'),
  f('transit.cmac-length-unchecked', 'transit.cmac.length-bound', 'mac_length above 16 is accepted'),
];
