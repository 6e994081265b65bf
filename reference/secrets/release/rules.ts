/**
 * The release area's rules: which known issues the reference carries at the version it runs
 * (versions.ts, from the release notes) and what sys/health reports. The model (sys.ts,
 * expiration-metrics.ts, identity.ts, plugins.ts, remount.ts, sts-engine.ts) calls `rules.x(...)`; fault
 * switches and legal variants replace single rules in release/switches.ts.
 */
import type { Faults } from '../../faults.js';
import { rulesWith } from '../../switches.js';
import type { Variants } from '../../variants.js';
import { BUILTIN_PLUGINS } from './builtin-plugins.js';
import { releaseSwitches } from './switches.js';
import { type CarriedIssue, carries } from './versions.js';

export interface ReleaseRules {
  /** Whether the reference, started at `version`, carries the known issue `issue`. */
  affected(issue: CarriedIssue, version: unknown): boolean;
  /** The version sys/health reports for the version the reference runs. */
  reportedVersion(version: string): string;
  /** The sys/health answer, given its plain fields and the time (ms). */
  healthBody(body: Record<string, unknown>, now: number): Record<string, unknown>;
  /** The catalog status of a built-in plugin (`removed`, `supported`, ...); undefined when it is not built in. */
  pluginStatus(type: 'secret' | 'auth', name: string): string | undefined;
  /** Whether enabling a plugin whose status is removed, as a secrets engine or an auth method, is refused. */
  removedPluginsRefused(kind: 'secret' | 'auth'): boolean;
}

export const releaseRules: ReleaseRules = {
  affected: (issue, version) => carries(issue, version),
  reportedVersion: (version) => version,
  healthBody: (body) => body,
  pluginStatus: (type, name) => BUILTIN_PLUGINS[type][name],
  removedPluginsRefused: () => true,
};

/** The release rules with the switches on applied (the table: switches.ts). */
export function releaseRulesFor(faults: Faults, variants: Variants): ReleaseRules {
  return rulesWith(releaseRules, { faults, variants }, releaseSwitches);
}
