/**
 * The one place every switch of the release area (faults.ts, variants.ts) takes effect: each
 * replaces one rule of release/rules.ts. A `*-when-fixed` fault makes a fixed version carry its
 * known issue too.
 */
import type { Faults } from '../../faults.js';
import type { FaultName, VariantName } from '../../switch-names.js';
import { withSwitches } from '../../switches.js';
import type { Variants } from '../../variants.js';
import { type ReleaseRules, releaseRules } from './rules.js';
import type { CarriedIssue } from './versions.js';

type Table<N extends string> = { [K in N]?: (documented: ReleaseRules) => Partial<ReleaseRules> };

/** The rules with `issue` carried at every version. */
const carriedAlways =
  (issue: CarriedIssue) =>
  (d: ReleaseRules): Partial<ReleaseRules> => ({
    affected: (asked, version) => asked === issue || d.affected(asked, version),
  });

const faultRules: Table<FaultName> = {
  'release.metrics-crash-when-fixed': carriedAlways('release.known.expiration-metrics-crash'),
  'release.login-group-policy-error-when-fixed': carriedAlways('release.known.login-missing-group-policy'),
  'release.mounts-deadlock-when-fixed': carriedAlways('release.known.many-mounts-deadlock'),
  'release.sts-lease-duration-zero-when-fixed': carriedAlways('release.known.sts-lease-duration-zero'),
  'release.health-version-wrong': () => ({ reportedVersion: () => '1.12.0' }),
};

const variantRules: Table<VariantName> = {
  'release.version-build-metadata': (d) => ({ reportedVersion: (version) => `${d.reportedVersion(version)}+ent` }),
  'release.health-extra-fields': (d) => ({
    healthBody: (body, now) => ({
      ...d.healthBody(body, now),
      performance_standby: false,
      replication_performance_mode: 'disabled',
      replication_dr_mode: 'disabled',
      server_time_utc: Math.floor(now / 1000),
      enterprise: false,
      cluster_name: 'reference-cluster',
      cluster_id: '00000000-0000-4000-8000-000000000000',
      echo_duration_ms: 0,
      clock_skew_ms: 0,
    }),
  }),
};

/** The release rules with the active switches applied. */
export function releaseRulesFor(faults: Faults, variants: Variants): ReleaseRules {
  return withSwitches(withSwitches(releaseRules, faults, faultRules), variants, variantRules);
}
