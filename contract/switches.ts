/**
 * The shape of the reference's switches, shared by the reference (which declares and applies them)
 * and the harness (which lists them, runs them and reports on them). Data only: the harness never
 * imports the reference; the composition root hands it the reference's catalogue of switches.
 */

/** A fault switch: breaks exactly one catalogued rule on purpose, so a mutation run can prove the suite notices. */
export interface FaultSpec<N extends string = string> {
  /** Stable name used in REF_FAULTS: `<area>.<what-breaks>`. */
  name: N;
  /** Requirement id (spec/<area>/requirements.yaml) that this fault violates. */
  breaks: string;
  /** Suites (by name, as in `--suite`) that must catch it. */
  suites: string[];
  description: string;
  /** Version the embedded reference must run at for the fault to matter (version-gated rules). */
  referenceVersion?: string;
  /**
   * Ids of the document statements (spec/<area>/statements*.yaml, `doc.<core|transit|jobs>.<dotted-slug>`) the
   * fault contradicts, as the statements inventory names them.
   */
  statements?: readonly string[];
}

/**
 * A legal variant: a behaviour the documents allow (they are silent, vague or give a choice) and a
 * real implementation shows; the suites must stay green with it on.
 */
export interface VariantSpec<N extends string = string> {
  /** Stable name used in REF_VARIANTS: `<area>.<what-differs>`. */
  name: N;
  /** The document passage that allows the behaviour (file and section, or the sentence). */
  allows: string;
  /** Suites (by name, as in `--suite`) that must stay green with the variant on. */
  suites: string[];
  description: string;
  /**
   * Catalogue assumptions (`kind: assumption`) this behaviour contradicts. They are not switched
   * off: a run with the variant on reports assumption differences for them (which do not fail it
   * unless run.assumptions is strict), and `npm run mutation` fails the variant on a difference it
   * does not declare here.
   */
  assumptions?: string[];
  /** Ids of the document statements (spec/<area>/statements*.yaml) whose latitude allows the behaviour. */
  statements?: readonly string[];
}

/** Every switch an embedded target offers. */
export interface SwitchCatalogue {
  faults: readonly FaultSpec[];
  variants: readonly VariantSpec[];
}
