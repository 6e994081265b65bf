/**
 * Legal variants: the mirror of fault switches. Each one switches on a behaviour that the
 * documents allow (they are silent, vague or give a choice) and that a real implementation shows,
 * so the suites can prove they do not fail a correct implementation. Enabled with
 * REF_VARIANTS=name,name or --variants. With none on, the reference is the documents' plainest
 * reading.
 */
import { Faults } from './faults.js';

export interface VariantSpec {
  /** Stable name used in REF_VARIANTS: `<area>.<what-differs>`. */
  name: string;
  /** The document passage that allows the behaviour (file and section, or the sentence). */
  allows: string;
  /** Suites (by name, as in `--suite`) that must stay green with the variant on. */
  suites: string[];
  description: string;
  /**
   * Catalogue assumptions (`kind: assumption`) this behaviour contradicts: a run on the embedded
   * reference with the variant on switches them off (`assumptions.<id>: false`), as a vendor of
   * such a product would in its config.
   */
  assumptions?: string[];
}

/** A declarer of an area's variants: `const v = variantsOf(['kv']); v(name, allows, description)`. */
export function variantsOf(suites: string[], namePrefix = '') {
  return (
    name: string,
    allows: string,
    description: string,
    more: { suites?: string[]; assumptions?: string[] } = {},
  ): VariantSpec => ({
    name: `${namePrefix}${name}`,
    allows,
    suites: more.suites ?? suites,
    description,
    ...(more.assumptions?.length ? { assumptions: more.assumptions } : {}),
  });
}

/** The set of variants switched on for one reference; same shape as the fault set. */
export class Variants extends Faults {
  static override parse(value: string | undefined): Variants {
    return new Variants(
      (value ?? '')
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    );
  }
}
