/**
 * Every switch of the release area, declared once where it takes effect (see
 * reference/switches.ts): each replaces one rule of release/rules.ts. A fault makes a fixed version
 * behave like an affected one (a regression of the fix: a `*-when-fixed` fault makes a fixed
 * version carry its known issue too) or breaks what the gate relies on; `referenceVersion` names a
 * fixed version for issues whose affected range contains the reference's default version. Faults
 * come first, so a variant wraps the rule a fault left. rules.ts applies the table (releaseRulesFor).
 */
import { switchesOf } from '../../switches.js';
import type { ReleaseRules } from './rules.js';
import type { CarriedIssue } from './versions.js';

const { fault, variant } = switchesOf<ReleaseRules>(['release']);

/** The rules with `issue` carried at every version. */
const carriedAlways =
  (issue: CarriedIssue) =>
  (d: ReleaseRules): Partial<ReleaseRules> => ({
    affected: (asked, version) => asked === issue || d.affected(asked, version),
  });

export const releaseSwitches = [
  // --- faults ---
  fault('release.metrics-crash-when-fixed', {
    breaks: 'release.known.expiration-metrics-crash',
    statements: ['doc.core.known.expiration-metrics-crash'],
    description: 'Reading sys/metrics while leases change crashes (500) on a fixed version too.',
    replace: carriedAlways('release.known.expiration-metrics-crash'),
  }),
  fault('release.login-group-policy-error-when-fixed', {
    breaks: 'release.known.login-missing-group-policy',
    statements: ['doc.core.known.login-missing-group-policy'],
    description:
      'A login whose entity is in a group of another namespace naming a missing policy answers 500 on a fixed version too.',
    replace: carriedAlways('release.known.login-missing-group-policy'),
  }),
  fault('release.mounts-deadlock-when-fixed', {
    breaks: 'release.known.many-mounts-deadlock',
    statements: ['doc.core.known.many-mounts-deadlock'],
    description: 'sys/remount with more than 256 mounts answers 503 (deadlock) on a fixed version too.',
    referenceVersion: '1.13.14',
    replace: carriedAlways('release.known.many-mounts-deadlock'),
  }),
  fault('release.sts-lease-duration-zero-when-fixed', {
    breaks: 'release.known.sts-lease-duration-zero',
    statements: ['doc.core.known.sts-lease-duration-zero'],
    description: 'STS credentials come back without a lease (lease_duration 0) on a fixed version too.',
    replace: carriedAlways('release.known.sts-lease-duration-zero'),
  }),
  fault('release.health-version-wrong', {
    breaks: 'release.gate.reported-version',
    statements: [
      'doc.core.known.sts-lease-duration-zero',
      'doc.core.known.expiration-metrics-crash',
      'doc.core.known.login-missing-group-policy',
      'doc.core.known.many-mounts-deadlock',
    ],
    description: 'sys/health reports 1.12.0 whatever version the reference runs.',
    replace: () => ({ reportedVersion: () => '1.12.0' }),
  }),
  fault('release.app-id-status-supported', {
    breaks: 'release.change.removed-builtin-plugins',
    statements: ['doc.core.plugins.removed-status', 'doc.core.change.removed-app-id-status'],
    description: 'The plugin catalog reports the removed app-id auth method as supported.',
    replace: (d) => ({
      pluginStatus: (type, name) => (type === 'auth' && name === 'app-id' ? 'supported' : d.pluginStatus(type, name)),
    }),
  }),
  fault('release.database-engines-pending-removal', {
    breaks: 'release.change.removed-database-engines',
    statements: ['doc.core.change.removed-plugins-status'],
    description:
      "The plugin catalog reports the standalone database engines as 'pending removal' (their 1.12 status), not removed.",
    replace: (d) => ({
      pluginStatus: (type, name) => {
        const status = d.pluginStatus(type, name);
        return type === 'secret' && status === 'removed' ? 'pending removal' : status;
      },
    }),
  }),
  fault('release.removed-plugin-enabled', {
    breaks: 'release.change.removed-plugin-not-enabled',
    statements: ['doc.core.change.removed-plugins-status'],
    description: 'Enabling the removed app-id auth method succeeds (a mount of a removed plugin is created).',
    replace: () => ({ removedPluginsRefused: () => false }),
  }),
  fault('release.removed-secrets-engines-enabled', {
    breaks: 'release.change.removed-plugin-not-enabled',
    statements: ['doc.core.change.removed-plugins-status'],
    description:
      'Enabling a removed standalone database engine as a secrets engine succeeds (only the removed auth method is refused).',
    replace: (d) => ({ removedPluginsRefused: (kind) => kind === 'auth' && d.removedPluginsRefused(kind) }),
  }),
  fault('release.database-engines-partly-removed', {
    breaks: 'release.change.removed-database-engines',
    statements: ['doc.core.change.removed-plugins-status'],
    description:
      'The plugin catalog reports cassandra as removed but the other standalone database engines (hana, mongodb, mssql, mysql, postgresql) as supported.',
    replace: (d) => ({
      pluginStatus: (type, name) => {
        const status = d.pluginStatus(type, name);
        return type === 'secret' && status === 'removed' && name !== 'cassandra' ? 'supported' : status;
      },
    }),
  }),
  // --- legal variants ---
  variant('release.health-extra-fields', {
    allows:
      "secrets-service-core.md, Errors (health status codes 429/472/473 named) and Versioning: the health answer's shape is not shown",
    description:
      "GET sys/health carries the upstream product's further fields (cluster_name, cluster_id, server_time_utc, replication modes, enterprise, echo_duration_ms ...).",
    replace: (d) => ({
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
  }),
  variant('release.version-build-metadata', {
    allows:
      'secrets-service-core.md, Versioning 3-4: versions are named as x.y.z; how a build labels itself is not given',
    description: 'GET sys/health reports the version with build metadata ("1.13.10+ent"), as enterprise builds do.',
    replace: (d) => ({ reportedVersion: (version) => `${d.reportedVersion(version)}+ent` }),
  }),
];
