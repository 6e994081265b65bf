/**
 * The known issues the reference carries, with the affected ranges transcribed from the release
 * notes (secrets-service-core.md, "Versioning"). The reference reads them itself rather than from
 * the catalogue so that a wrong catalogue range shows up as a disagreement (tests/release/).
 */
import semver from 'semver';

export const CARRIED = {
  /** STS credentials always return lease_duration 0. */
  'release.known.sts-lease-duration-zero': ['1.13.0'],
  /** Concurrent map write crashes the node while gathering expiration metrics. */
  'release.known.expiration-metrics-crash': ['1.13.9', '1.14.5', '1.15.1'],
  /** Internal error at login when a group policy from another namespace does not exist. */
  'release.known.login-missing-group-policy': ['>=1.13.8 <=1.13.9', '>=1.14.4 <=1.14.5', '>=1.15.0 <=1.15.1'],
  /** Deadlock with more than 256 non-local mounts after unmount, remount, namespace delete. */
  'release.known.many-mounts-deadlock': ['>=1.13.9 <=1.13.13', '>=1.14.5 <=1.14.9', '>=1.15.0 <=1.15.5'],
} as const;

export type CarriedIssue = keyof typeof CARRIED;

/** Whether the reference, started at `version`, carries the known issue `id`. */
export function carries(id: CarriedIssue, version: unknown): boolean {
  const v = semver.coerce(typeof version === 'string' ? version : '')?.version;
  if (!v) return false;
  return CARRIED[id].some((range) => semver.satisfies(v, range));
}

/** Default size of the rollback worker pool (Limits: 256 from 1.13.9, 1.14.5, 1.15.0). */
export const DEFAULT_ROLLBACK_WORKERS = 256;

/** The pool size, raised by the documented workaround `SVC_ROLLBACK_WORKERS`. */
export function rollbackWorkers(env: Record<string, string | undefined>): number {
  const n = Number(env.SVC_ROLLBACK_WORKERS);
  return Number.isInteger(n) && n > 0 ? n : DEFAULT_ROLLBACK_WORKERS;
}
