/**
 * Every behavioural switch of the directory engine, declared once where it takes effect (see
 * reference/switches.ts), in one table split along the document's sections: configuration, password
 * generation, static roles, dynamic roles, the template language, library sets, then the legal variants. Each replaces
 * rules of ../rules.ts; the switches that only change the shape of an answer are in
 * ../answer-switches.ts. Faults come first, so a variant wraps the rule a fault left.
 */
import type { Faults } from '../../../../faults.js';
import { rulesWith, type Switch } from '../../../../switches.js';
import type { Variants } from '../../../../variants.js';
import { documentedRules, type LdapRules } from '../rules.js';
import { configSwitches } from './config.js';
import { dynamicSwitches } from './dynamic.js';
import { librarySwitches } from './library.js';
import { libraryStateSwitches } from './library-state.js';
import { passwordSwitches } from './passwords.js';
import { staticSwitches } from './static.js';
import { templateFunctionSwitches } from './template-functions.js';
import { templateSwitches } from './templates.js';
import { variantSwitches } from './variants.js';

const table = [
  ...configSwitches,
  ...passwordSwitches,
  ...staticSwitches,
  ...dynamicSwitches,
  ...templateSwitches,
  ...templateFunctionSwitches,
  ...librarySwitches,
  ...libraryStateSwitches,
  ...variantSwitches,
];

type Declared = (typeof table)[number];
type Named<K extends 'fault' | 'variant'> = Switch<K, Extract<Declared, { kind: K }>['name'], LdapRules, never>;
/**
 * The table, typed as one fault and one variant switch over the union of their names: the same
 * names for `FaultName`/`VariantName`, without a union of one type per switch (which the registry,
 * gathering every area's table, could not represent).
 */
export const ldapSwitches: readonly (Named<'fault'> | Named<'variant'>)[] = table;

/** The engine's rules with the replacements of the switches that are on. */
export function ldapRulesFor(faults: Faults, variants: Variants): LdapRules {
  return rulesWith(documentedRules, { faults, variants }, ldapSwitches);
}
