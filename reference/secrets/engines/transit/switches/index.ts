/**
 * Every switch of the transit engine, declared once where it takes effect (see
 * reference/switches.ts), in one table split along the transit document's sections: the key
 * lifecycle, import, export/backup/certificates, data operations, then the legal variants. Table
 * order is the order of application: faults first, so a variant wraps the rule a fault left.
 */
import type { Faults } from '../../../../faults.js';
import { rulesWith } from '../../../../switches.js';
import type { Variants } from '../../../../variants.js';
import { documentedRules, type TransitRules } from '../rules.js';
import { dataSwitches } from './data.js';
import { exportSwitches } from './export.js';
import { importSwitches } from './import.js';
import { lifecycleSwitches } from './lifecycle.js';
import { variantSwitches } from './variants.js';

export const transitSwitches = [
  ...lifecycleSwitches,
  ...importSwitches,
  ...exportSwitches,
  ...dataSwitches,
  ...variantSwitches,
];

/** The engine's rules with the switches on for this reference applied. */
export function transitRulesFor(faults: Faults, variants: Variants): TransitRules {
  return rulesWith(documentedRules, { faults, variants }, transitSwitches);
}
