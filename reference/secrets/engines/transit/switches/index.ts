/**
 * Every switch of the transit engine, declared once where it takes effect (see
 * reference/switches.ts), in one table split along the transit document's sections: the key
 * lifecycle, the key read and the key types, configuration and versions, import,
 * export/backup/certificates, data operations, the shared parameters, then the legal variants. Table
 * order is the order of application: faults first, so a variant wraps the rule a fault left.
 * The engine applies it to the rules of ../rules.ts (shared.ts); no part of the table imports a
 * rule, so the catalogue loads without the engine.
 */
import { dataSwitches } from './data.js';
import { dataInputSwitches } from './data-inputs.js';
import { exportSwitches } from './export.js';
import { configurationSwitches } from './configuration.js';
import { importSwitches } from './import.js';
import { keyReadSwitches } from './key-reads.js';
import { lifecycleSwitches } from './lifecycle.js';
import { paramSwitches } from './params.js';
import { variantSwitches } from './variants.js';

export const transitSwitches = [
  ...lifecycleSwitches,
  ...keyReadSwitches,
  ...configurationSwitches,
  ...importSwitches,
  ...exportSwitches,
  ...dataSwitches,
  ...paramSwitches,
  ...dataInputSwitches,
  ...variantSwitches,
];
