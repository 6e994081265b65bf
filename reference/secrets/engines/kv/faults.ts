/** Fault switches of the key-value engine: each breaks one catalogued kv rule (spec/catalogue/kv.yaml). */
import { faultsOf } from '../../../faults.js';

const kv = faultsOf(['kv']);

export const faults = [
  kv('kv.version-option-ignored', 'kv.mount.type-kv', 'options.version "2" is ignored: every kv mount is version 1.'),
  // version 1
  kv('kv.v1-read-wrapped', 'kv.v1.write-read', 'A version 1 read wraps the fields in data.data like version 2.'),
  kv('kv.v1-values-stringified', 'kv.v1.body-fields', 'Version 1 stores every field value as a string.'),
  kv(
    'kv.v1-write-merges',
    'kv.v1.overwrite',
    'A version 1 write merges into the stored fields instead of replacing them.',
  ),
  kv('kv.v1-nested-key-flattened', 'kv.v1.nested-keys', 'Version 1 stores a/b/c under its last segment only.'),
  kv('kv.v1-accepts-empty-write', 'kv.v1.empty-body-400', 'A version 1 write with no fields is accepted.'),
  kv(
    'kv.v1-read-missing-200',
    'kv.v1.read-missing-404',
    'Reading a version 1 key that holds nothing answers 200 with empty data.',
  ),
  kv('kv.v1-delete-ignored', 'kv.v1.delete', 'DELETE on a version 1 key answers 204 but keeps the secret.'),
  kv('kv.v1-read-leased', 'kv.v1.no-lease', 'A version 1 read creates a lease.'),
  // listing
  kv(
    'kv.list-leaf-lists-itself',
    'kv.list.directories-only',
    'A LIST on a leaf key returns the leaf name instead of nothing.',
  ),
  kv(
    'kv.list-deep-keys',
    'kv.list.keys-under-path',
    'A LIST returns every key below the directory, not just the direct children.',
  ),
  kv('kv.list-no-folder-suffix', 'kv.list.folder-suffix', 'Sub-directories are listed without their trailing slash.'),
  // version 2
  kv('kv.v2-data-path-missing', 'kv.v2.data-path', 'The data/ sub-path of a version 2 mount answers 404.'),
  kv(
    'kv.v2-data-unwrapped',
    'kv.v2.data-wrapped',
    'A version 2 write stores the whole body instead of its data object.',
  ),
  kv('kv.v2-config-path-missing', 'kv.v2.subpaths-exist', 'The config sub-path of a version 2 mount answers 404.'),
  kv(
    'kv.v2-unwrapped-path-served',
    'kv.v2.unwrapped-path-404',
    'secret/<key> without data/ on a version 2 mount behaves like data/<key>.',
  ),
  kv(
    'kv.v2-data-optional',
    'kv.v2.write-without-data-400',
    'A version 2 write without a data object is accepted as an empty version.',
  ),
  kv(
    'kv.v2-write-metadata-missing',
    'kv.v2.write-returns-version',
    'A version 2 write answers 204 without the version metadata.',
  ),
  kv(
    'kv.version-not-incremented',
    'kv.v2.versions-increment',
    'A second version 2 write overwrites version 1 instead of creating version 2.',
  ),
  kv('kv.v2-read-oldest', 'kv.v2.read-latest', 'A version 2 read without ?version returns the oldest kept version.'),
  kv('kv.v2-version-param-ignored', 'kv.v2.read-version', '?version=N is ignored and the latest version is returned.'),
  kv(
    'kv.v2-read-missing-200',
    'kv.v2.read-missing-404',
    'Reading a version 2 key that does not exist answers 200 with empty data.',
  ),
  kv(
    'kv.v2-deleted-still-readable',
    'kv.v2.deleted-read-404',
    'A soft-deleted version still reads with 200 and its data.',
  ),
  kv('kv.cas-ignored', 'kv.v2.cas-mismatch-400', 'options.cas is ignored, so a stale check-and-set write succeeds.'),
  kv(
    'kv.v2-cas-zero-overwrites',
    'kv.v2.cas-zero-create-only',
    'options.cas 0 lets a write overwrite an existing key.',
  ),
  kv(
    'kv.v2-cas-required-ignored',
    'kv.v2.cas-required',
    'cas_required is stored but writes without cas still succeed.',
  ),
  kv('kv.v2-config-not-saved', 'kv.v2.config', 'cas_required written to secret/config is not kept.'),
  kv(
    'kv.v2-config-types-unchecked',
    'kv.v2.config-invalid-400',
    'secret/config accepts wrongly typed max_versions and cas_required.',
  ),
  kv('kv.v2-max-versions-ignored', 'kv.v2.max-versions', 'max_versions never prunes old versions.'),
  kv('kv.v2-delete-latest-ignored', 'kv.v2.delete-latest', 'DELETE secret/data/<key> answers 204 but deletes nothing.'),
  kv(
    'kv.v2-delete-versions-ignored',
    'kv.v2.delete-versions',
    'POST secret/delete/<key> answers 204 but deletes nothing.',
  ),
  kv('kv.undelete-ignored', 'kv.v2.undelete', 'POST secret/undelete/<key> answers 204 but restores nothing.'),
  kv('kv.v2-destroy-soft', 'kv.v2.destroy', 'destroy only soft-deletes, so undelete brings the data back.'),
  kv('kv.v2-versions-unchecked', 'kv.v2.versions-required-400', 'delete/undelete/destroy without versions answer 204.'),
  kv('kv.v2-metadata-versions-missing', 'kv.v2.metadata-read', 'The metadata read has an empty versions map.'),
  kv(
    'kv.v2-metadata-half-applied',
    'robustness.kv2writemetadata.unchanged',
    'A metadata write refused for one bad field has already stored the valid fields before it.',
    { suites: ['robustness'] },
  ),
  kv(
    'kv.v2-metadata-write-creates-version',
    'kv.v2.metadata-write',
    'A metadata write creates a new version of the secret.',
  ),
  kv(
    'kv.v2-metadata-delete-soft',
    'kv.v2.metadata-delete',
    'DELETE secret/metadata/<key> only soft-deletes the versions; the key stays.',
  ),
  kv('kv.v2-metadata-list-empty', 'kv.v2.metadata-list', 'LIST on secret/metadata/ finds nothing.'),
  kv(
    'kv.v2-delete-version-after-ignored',
    'kv.v2.delete-version-after',
    'delete_version_after never schedules a deletion.',
  ),
  kv('kv.v2-subkeys-values-leak', 'kv.v2.subkeys', 'subkeys/ returns the secret values instead of nulls.'),
  kv(
    'kv.v2-custom-metadata-missing',
    'kv.v2.custom-metadata-on-read',
    'A version 2 read reports custom_metadata null even when set.',
  ),
];
