/**
 * Every switch of the transit engine, declared once where it takes effect (see
 * reference/switches.ts), in one table split along the transit document's sections: the key
 * lifecycle, the key read and the key types, configuration and versions, import,
 * export/backup/certificates, data operations, the shared parameters, the faults on single clauses
 * (key management, data operations), then the legal variants. Table
 * order is the order of application: faults first, so a variant wraps the rule a fault left.
 * The engine applies it to the rules of ../rules.ts (shared.ts); no part of the table imports a
 * rule, so the catalogue loads without the engine.
 */
import { dataSwitches } from './data.js';
import { dataClauseSwitches } from './data-clauses.js';
import { dataInputSwitches } from './data-inputs.js';
import { exportSwitches } from './export.js';
import { configurationSwitches } from './configuration.js';
import { importSwitches } from './import.js';
import { keyClauseSwitches } from './key-clauses.js';
import { keyMaterialClauseSwitches } from './key-material-clauses.js';
import { keyReadSwitches } from './key-reads.js';
import { lifecycleSwitches } from './lifecycle.js';
import { paramSwitches } from './params.js';
import { variantSwitches } from './variants.js';
import type { Switch } from '../../../../switches.js';
import type { TransitRules } from '../rules.js';

const tables = [
  lifecycleSwitches,
  keyReadSwitches,
  configurationSwitches,
  importSwitches,
  exportSwitches,
  dataSwitches,
  paramSwitches,
  dataInputSwitches,
  keyClauseSwitches,
  keyMaterialClauseSwitches,
  dataClauseSwitches,
  variantSwitches,
] as const;
type Declared = (typeof tables)[number][number];
/** The names of the transit faults and variants (each table's own union: one switch type per kind, not one per name). */
type Named<K extends 'fault' | 'variant'> = Extract<Declared, { kind: K }>['name'];
/** A transit switch, typed by the union of the names of its kind. */
export type TransitSwitch =
  | Switch<'fault', Named<'fault'>, TransitRules, never>
  | Switch<'variant', Named<'variant'>, TransitRules, never>;

export const transitSwitches: TransitSwitch[] = tables.flat();
