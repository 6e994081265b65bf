/**
 * What the spec check saw for one exchange, kept apart from the test that sent it: the schema
 * requirement of the operation (`schema.<operationId>`), the status, and the findings (JSON
 * pointer, what the spec expects, what came back). Tests record observations; the report turns
 * them into one result per operation and status (harness/report/schema-results.ts).
 */
import type { TranscriptEntry } from '../http/transcript.js';
export interface SpecFinding {
  /** JSON pointer into the response body ('' = the whole answer, e.g. an undocumented status). */
  pointer: string;
  message: string;
  expected: unknown;
  actual: unknown;
}

export interface SpecObservation {
  /** Schema requirement id (`schema.read-transit-key`). */
  id: string;
  /** `file METHOD template`, or a generic answer's name. */
  operation: string;
  status: number;
  findings: SpecFinding[];
  /** The first exchange whose answer showed a finding: the schema result's reproduction. */
  example?: TranscriptEntry;
}

/** Merges observations of the same requirement and status, keeping each distinct finding once. */
export function mergeObservations(into: Map<string, SpecObservation>, obs: SpecObservation): void {
  const key = `${obs.id} ${obs.status}`;
  const have = into.get(key);
  if (!have) {
    into.set(key, { ...obs, findings: [...obs.findings] });
    return;
  }
  for (const f of obs.findings) {
    if (!have.findings.some((g) => g.pointer === f.pointer && g.message === f.message)) have.findings.push(f);
  }
  if (!have.example && obs.example) have.example = obs.example;
}
