/**
 * Fault switches: each one breaks exactly one catalogued rule of the reference on purpose, so the
 * mutation run can prove that the suite notices. Enabled with REF_FAULTS=name,name or --faults.
 * Declared in the areas' switch tables (see switches.ts), gathered in switch-registry.ts.
 */
import type { FaultName } from './switch-registry.js';
import { Switches } from './switches.js';

/** The faults switched on for one reference. */
export class Faults extends Switches<FaultName> {
  static parse(value: string | undefined): Faults {
    return new Faults(Switches.names(value));
  }
}
