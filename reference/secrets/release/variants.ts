/** Legal variants of the release area (see reference/variants.ts): behaviours the documents allow. */
import { variantsOf } from '../../variants.js';

const v = variantsOf(['release']);

export const variants = [
  v(
    'release.health-extra-fields',
    "secrets-service-core.md, Errors (health status codes 429/472/473 named) and Versioning: the health answer's shape is not shown",
    "GET sys/health carries the upstream product's further fields (cluster_name, cluster_id, server_time_utc, replication modes, enterprise, echo_duration_ms ...).",
  ),
  v(
    'release.version-build-metadata',
    'secrets-service-core.md, Versioning 3-4: versions are named as x.y.z; how a build labels itself is not given',
    'GET sys/health reports the version with build metadata ("1.13.10+ent"), as enterprise builds do.',
  ),
];
