/**
 * Every behavioural switch of the directory engine, declared once where it takes effect (see
 * reference/switches.ts), in one table split along the document's sections: configuration, static
 * roles, dynamic roles, the template language, library sets, then the legal variants. Each replaces
 * rules of ../rules.ts; the switches that only change the shape of an answer are in
 * ../answer-switches.ts. Faults come first, so a variant wraps the rule a fault left.
 */
import type { Faults } from '../../../../faults.js';
import { rulesWith } from '../../../../switches.js';
import type { Variants } from '../../../../variants.js';
import { documentedRules, type LdapRules } from '../rules.js';
import { configSwitches } from './config.js';
import { dynamicSwitches } from './dynamic.js';
import { librarySwitches } from './library.js';
import { staticSwitches } from './static.js';
import { templateSwitches } from './templates.js';
import { variantSwitches } from './variants.js';

export const ldapSwitches = [
  ...configSwitches,
  ...staticSwitches,
  ...dynamicSwitches,
  ...templateSwitches,
  ...librarySwitches,
  ...variantSwitches,
];

/** The engine's rules with the replacements of the switches that are on. */
export function ldapRulesFor(faults: Faults, variants: Variants): LdapRules {
  return rulesWith(documentedRules, { faults, variants }, ldapSwitches);
}
