/**
 * Run-unique mount paths mapped to the spec's default mounts (`transit-ab12cd` -> `transit`), so an
 * exchange at a run's own mount is matched against the documents' path. Filled as suites mount.
 */
export const mountAliases = new Map<string, string>();
