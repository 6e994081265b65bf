/** Legal variants of the kv area (see reference/variants.ts): behaviours the documents allow. */
import { variantsOf } from '../../../variants.js';

const v = variantsOf(['kv']);
const KV = 'secrets-service-core.md, Key-value engine (mount secret)';

export const variants = [
  v(
    'kv.timestamps-nanoseconds',
    `${KV}: the version 2 sub-paths are named, their fields' formats are not (RFC 3339 at any precision)`,
    'created_time, deletion_time and updated_time carry up to nine fractional digits (RFC3339Nano), as the upstream product writes them.',
  ),
  v(
    'kv.negative-max-versions-accepted',
    `${KV}: config and metadata sub-paths named, their fields and limits not given`,
    'A negative max_versions in config or metadata is accepted and means "not set" (the engine default), as the upstream product does not refuse it.',
  ),
  v(
    'kv.durations-go-format',
    `${KV}: the format of delete_version_after on reads is not given`,
    'delete_version_after reads back in the upstream product\'s duration format ("1h0m0s", "0s") instead of whole seconds ("3600s").',
  ),
  v(
    'kv.deleted-read-bare-404',
    `${KV} and Errors: a read of a deleted version is an error; "Body for status >= 400: {errors: [...]}" (no metadata promised)`,
    'Reading a deleted or destroyed version answers 404 {errors: []} without the version metadata.',
  ),
  v(
    'kv.versions-lenient',
    `${KV}: the delete/undelete/destroy bodies are not shown`,
    'delete, undelete and destroy also take versions as numeric strings ["1"] or one comma-separated string "1,2", as the upstream product\'s weak decoding does.',
  ),
];
