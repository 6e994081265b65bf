/**
 * Legal variants: the mirror of fault switches. Each one switches on a behaviour that the
 * documents allow (they are silent, vague or give a choice) and that a real implementation shows,
 * so the suites can prove they do not fail a correct implementation. Enabled with
 * REF_VARIANTS=name,name or --variants. With none on, the reference is the documents' plainest
 * reading. Declared in the areas' switch tables (see switches.ts), gathered in switch-registry.ts.
 */
import type { VariantName } from './switch-registry.js';
import { Switches } from './switches.js';

/** The variants switched on for one reference. */
export class Variants extends Switches<VariantName> {
  static parse(value: string | undefined): Variants {
    return new Variants(Switches.names(value));
  }
}
