/** Version gating of known issues: is the target's version inside an entry's affected ranges? */
import semver from 'semver';
import type { Requirement } from './catalogue.js';

export function isAffected(entry: Requirement | undefined, version: string): boolean {
  if (!entry?.affected?.length) return false;
  const v = semver.coerce(version)?.version;
  if (!v) return false;
  return entry.affected.some((range) => semver.satisfies(v, range, { includePrerelease: true }));
}

/** Whether a version string names a version the gates can use. */
export function knownVersion(version: string | undefined): boolean {
  return !!version && !!semver.coerce(version);
}
