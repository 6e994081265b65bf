/**
 * Fault switches: each one breaks exactly one catalogued rule of the reference on purpose, so the
 * mutation run can prove that the suite notices. Enabled with REF_FAULTS=name,name or --faults.
 * Declared per area with `faultsOf` (reference/switches.ts), gathered in fault-registry.ts.
 */
import type { FaultName } from './switch-names.js';
import { Switches } from './switches.js';

export type { FaultSpec } from '../contract/switches.js';
export { faultsOf } from './switches.js';

/** The faults switched on for one reference. */
export class Faults extends Switches<FaultName> {
  static parse(value: string | undefined): Faults {
    return new Faults(Switches.names(value));
  }
}
