/**
 * Every switch of the cloud credentials engine, declared once where it takes effect (see
 * reference/switches.ts), in one table split by subject: the legal variants first (so a fault
 * replaces the rule as a variant left it), then the faults of the configuration and rotate-root,
 * then those of roles, their defaults, and credentials. Each replaces rules of ../rules.ts.
 */
import type { Faults } from '../../../../faults.js';
import { rulesWith } from '../../../../switches.js';
import type { Variants } from '../../../../variants.js';
import { type CloudRules, documented } from '../rules.js';
import { configFaults } from './config.js';
import { credentialFaults } from './credentials.js';
import { defaultFaults } from './defaults.js';
import { durationFaults } from './durations.js';
import { roleFaults } from './roles.js';
import { cloudVariants } from './variants.js';

export const cloudSwitches = [
  ...cloudVariants,
  ...configFaults,
  ...roleFaults,
  ...durationFaults,
  ...defaultFaults,
  ...credentialFaults,
];

/** The cloud engine's rules with the switched-on faults and variants applied. */
export function cloudRulesWith(faults: Faults, variants: Variants): CloudRules {
  return rulesWith(documented, { faults, variants }, cloudSwitches);
}
