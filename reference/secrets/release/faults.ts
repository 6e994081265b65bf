/**
 * Fault switches of the release gate: each makes a fixed version behave like an affected one (a
 * regression of the fix) or breaks what the gate relies on. `referenceVersion` names a fixed
 * version for issues whose affected range contains the reference's default version.
 */
import { faultsOf } from '../../faults.js';

const f = faultsOf(['release']);

export const faults = [
  f(
    'release.metrics-crash-when-fixed',
    'release.known.expiration-metrics-crash',
    'Reading sys/metrics while leases change crashes (500) on a fixed version too.',
  ),
  f(
    'release.login-group-policy-error-when-fixed',
    'release.known.login-missing-group-policy',
    'A login whose entity is in a group of another namespace naming a missing policy answers 500 on a fixed version too.',
  ),
  f(
    'release.mounts-deadlock-when-fixed',
    'release.known.many-mounts-deadlock',
    'sys/remount with more than 256 mounts answers 503 (deadlock) on a fixed version too.',
    { referenceVersion: '1.13.14' },
  ),
  f(
    'release.sts-lease-duration-zero-when-fixed',
    'release.known.sts-lease-duration-zero',
    'STS credentials come back without a lease (lease_duration 0) on a fixed version too.',
  ),
  f(
    'release.health-version-wrong',
    'release.gate.reported-version',
    'sys/health reports 1.12.0 whatever version the reference runs.',
  ),
];
