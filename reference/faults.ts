/**
 * Fault switches: each one breaks exactly one catalogued rule of the reference on purpose, so the
 * mutation run can prove that the suite notices. Enabled with REF_FAULTS=name,name or --faults.
 */
export interface FaultSpec {
  /** Stable name used in REF_FAULTS. */
  name: string;
  /** Requirement ID (from spec/catalogue) that this fault violates. */
  breaks: string;
  /** Suites (by name, as in `--suite`) that must catch it. */
  suites: string[];
  description: string;
  /** Version the embedded reference must run at for the fault to matter (version-gated rules). */
  referenceVersion?: string;
}

/**
 * A declarer of an area's faults: `const f = faultsOf(['ldap']); f(name, breaks, description)`.
 * `suites` may be overridden per fault; `namePrefix` is prepended to every name.
 */
export function faultsOf(suites: string[], namePrefix = '') {
  return (
    name: string,
    breaks: string,
    description: string,
    more: { suites?: string[]; referenceVersion?: string } = {},
  ): FaultSpec => ({
    name: `${namePrefix}${name}`,
    breaks,
    suites: more.suites ?? suites,
    description,
    ...(more.referenceVersion ? { referenceVersion: more.referenceVersion } : {}),
  });
}

export class Faults {
  private readonly active: ReadonlySet<string>;
  constructor(names: Iterable<string> = []) {
    this.active = new Set(names);
  }
  has(name: string): boolean {
    return this.active.has(name);
  }
  list(): string[] {
    return [...this.active];
  }
  static parse(value: string | undefined): Faults {
    return new Faults(
      (value ?? '')
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    );
  }
}
