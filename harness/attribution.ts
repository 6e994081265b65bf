/**
 * One requirement per assertion. A test may name several requirement ids (`id`, `also`); when one
 * of its assertions fails, the failure is charged to the requirement that assertion proves, and
 * the test's other ids are reported `not-reached`, never failed. An assertion names its
 * requirement with `t.as(id).check(...)` or inside `t.proving(id, ...)`; one that names none
 * proves the test's primary id, and so does a failure thrown outside any check (a transport
 * error, a TypeError). Naming an id the test does not declare is an error of the test.
 *
 * Shared helpers that apply a catalogue assumption on the test's behalf (a 4xx for a refusal the
 * documents give no status for) use `t.assuming(id, ...)`: a difference is recorded and the test
 * goes on, so the rule it is about is still checked; the test then fails with that assumption
 * difference only if nothing else failed. docs/AUTHORING.md shows the API.
 */
import { CheckFailure } from './checks/failure.js';
import type { Exchange } from './http/exchange.js';
import { redactor } from './redaction/redact.js';

/** What is known about a failure: the requirement it is charged to, the exchange it was about. */
interface Charge {
  requirement?: string;
  exchange?: Exchange;
}

const charges = new WeakMap<object, Charge>();

/** Records on `err` what it is about; the first (innermost) charge of each kind holds. */
export function charge(err: unknown, what: Charge): void {
  if (err === null || typeof err !== 'object') return;
  const have = charges.get(err) ?? {};
  if (what.requirement !== undefined && have.requirement === undefined) have.requirement = what.requirement;
  if (what.exchange !== undefined && have.exchange === undefined) have.exchange = what.exchange;
  charges.set(err, have);
}

export function chargeOf(err: unknown): Charge {
  return err !== null && typeof err === 'object' ? (charges.get(err) ?? {}) : {};
}

/** What the report needs of a test's outcome (task meta `attribution`, read by report/build.ts). */
export interface Attributed {
  /** Failed tests: the requirement the failure is charged to. */
  failedRequirement?: string;
  /** Failed tests: ids the test declares that were not reached. */
  notReached: string[];
  /** Assumption differences recorded through `t.assuming` (the test went on after each). */
  differences: { id: string; message: string }[];
}

export interface AssumptionDifference {
  id: string;
  message: string;
  exchange?: Exchange;
}

/** Thrown at the end of a test whose only failures were assumption differences (`t.assuming`). */
export class AssumptionDifferenceFailure extends Error {
  constructor(readonly differences: AssumptionDifference[]) {
    super(
      differences
        .map((d) => `assumption difference (${d.id}): ${d.message}`)
        .join('\n')
        .trim(),
    );
    this.name = 'AssumptionDifferenceFailure';
  }
}

/** Runs `fn` (sync or async) and charges what it throws to `onError`. */
function guarded<R>(fn: () => R, onError: (err: unknown) => void): R {
  let result: R;
  try {
    result = fn();
  } catch (err) {
    onError(err);
    throw err;
  }
  if (result instanceof Promise)
    return result.catch((err: unknown) => {
      onError(err);
      throw err;
    }) as R;
  return result;
}

export interface AttributionOptions {
  /** The ids the test declares, primary first. */
  ids: readonly string[];
  /** Whether a catalogue id is an assumption (`kind: assumption`). */
  isAssumption(id: string): boolean;
  /** Whether the target config switches the assumption off (`assumptions.<id>: false`). */
  switchedOff(id: string): boolean;
}

/** The charging of one test's assertions. */
export class Attribution {
  readonly differences: AssumptionDifference[] = [];
  /** Ids the test reports: its declared ids, then assumptions its helpers checked. */
  readonly ids: string[];

  constructor(private readonly opts: AttributionOptions) {
    this.ids = [...opts.ids];
  }

  get primary(): string {
    return this.opts.ids[0]!;
  }

  /** An id the test may charge assertions to; anything else is an error of the test. */
  private declared(id: string, via: string): void {
    if (!this.opts.ids.includes(id))
      throw new Error(
        `${via}('${id}'): this test does not declare ${id} (it declares ${this.opts.ids.join(', ')}); add it to \`also\` or name a declared id`,
      );
  }

  /** Failures inside `fn` (checks, expectThat, anything thrown) are charged to `id`. */
  proving<R>(id: string, fn: () => R): R {
    this.declared(id, 't.proving');
    return guarded(fn, (err) => charge(err, { requirement: id }));
  }

  /** Charges failures of `fn` to `id` (the form behind `t.as(id).check(...)`). */
  as(id: string): <R>(fn: () => R) => R {
    this.declared(id, 't.as');
    return (fn) => guarded(fn, (err) => charge(err, { requirement: id }));
  }

  /**
   * A check of catalogue assumption `id` made on the test's behalf (by a shared helper): skipped
   * when the config switches the assumption off; a CheckFailure inside is recorded as an
   * assumption difference and the test goes on. Anything else thrown inside still ends the test.
   */
  assuming<R>(id: string, fn: () => R, lastExchange?: () => Exchange | undefined): R | undefined {
    if (!this.opts.isAssumption(id))
      throw new Error(`t.assuming('${id}'): ${id} is not an assumption of the catalogue (kind: assumption)`);
    if (this.opts.switchedOff(id)) return undefined;
    if (!this.ids.includes(id)) this.ids.push(id);
    const record = (err: unknown): R | undefined => {
      if (!(err instanceof CheckFailure)) throw err;
      this.differences.push({
        id,
        message: redactor.text(err.message),
        exchange: chargeOf(err).exchange ?? lastExchange?.(),
      });
      return undefined;
    };
    let result: R;
    try {
      result = fn();
    } catch (err) {
      return record(err);
    }
    if (result instanceof Promise) return result.catch(record) as R;
    return result;
  }

  /**
   * The outcome of the test: `failure` is what its body threw (undefined when it ran to its end).
   * Returns the error to report (an assumption difference when only those were recorded) and what
   * the report needs, or nothing for a passed test.
   */
  settle(failure: unknown): { error?: unknown; attributed: Attributed; exchange?: Exchange } {
    if (failure === undefined) {
      if (!this.differences.length) return { attributed: { notReached: [], differences: [] } };
      const first = this.differences[0]!;
      // The test ran to its end: only the assumption differed; its other ids were checked and held.
      return {
        error: new AssumptionDifferenceFailure(this.differences),
        attributed: { failedRequirement: first.id, notReached: [], differences: this.summaries() },
        exchange: first.exchange,
      };
    }
    const charged = chargeOf(failure);
    const failed = charged.requirement ?? this.primary;
    return {
      error: failure,
      attributed: {
        failedRequirement: failed,
        // An assumption a helper checked and found different was reached (it is reported as a difference).
        notReached: this.ids.filter((id) => id !== failed && !this.differences.some((d) => d.id === id)),
        differences: this.summaries(),
      },
      exchange: charged.exchange,
    };
  }

  private summaries(): { id: string; message: string }[] {
    return this.differences.map((d) => ({ id: d.id, message: d.message }));
  }
}
