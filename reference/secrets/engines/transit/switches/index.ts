/**
 * Every switch of the transit engine, declared once where it takes effect (see
 * reference/switches.ts), in one table split along the transit document's sections: the key
 * lifecycle, import, export/backup/certificates, data operations, then the legal variants. Table
 * order is the order of application: faults first, so a variant wraps the rule a fault left.
 * The engine applies it to the rules of ../rules.ts (shared.ts); no part of the table imports a
 * rule, so the catalogue loads without the engine.
 */
import { dataSwitches } from './data.js';
import { dataInputSwitches } from './data-inputs.js';
import { exportSwitches } from './export.js';
import { importSwitches } from './import.js';
import { lifecycleSwitches } from './lifecycle.js';
import { variantSwitches } from './variants.js';

export const transitSwitches = [
  ...lifecycleSwitches,
  ...importSwitches,
  ...exportSwitches,
  ...dataSwitches,
  ...dataInputSwitches,
  ...variantSwitches,
];
