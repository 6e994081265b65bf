/**
 * Schema requirements as results: every operation and status the run observed becomes one result
 * of the operation's `schema.*` requirement (level MUST), passed when every answer matched the
 * spec and failed with each distinct finding (JSON pointer, expected, actual) otherwise. A schema
 * violation is reported here once, instead of failing every behavioural test that touched the
 * operation; the mutation runner counts these results like any other test.
 */
import type { Requirement } from '../spec/catalogue.js';
import { mergeObservations, type SpecObservation } from '../spec/findings.js';
import { show } from '../checks/failure.js';
import type { TestResult } from './model.js';
import { reproduce } from './curl.js';

const MAX_SEEN = 5;

function titleOf(obs: SpecObservation): string {
  const parts = obs.operation.split(' ');
  const op = parts.length >= 3 && /\.ya?ml$/.test(parts[0]!) ? parts.slice(1).join(' ') : obs.operation;
  return `${op} answers ${obs.status} as the spec describes`;
}

function messageOf(obs: SpecObservation, seenIn: string[], more: number): string {
  const lines = obs.findings.map(
    (f) =>
      `${f.pointer || '(answer)'}: ${f.message}\n  expected: ${show(f.expected)}\n  actual:   ${f.actual === undefined ? '(absent)' : show(f.actual)}`,
  );
  return `${obs.operation} response ${obs.status} does not match the spec [${obs.id}]\n${lines.join('\n')}\nseen in: ${seenIn.join('; ')}${more ? ` (+${more} more)` : ''}`;
}

/** Removes the raw observations from the tests (they live on in the schema results) and returns those. */
export function schemaResults(
  tests: TestResult[],
  fileSpec: { file: string; observations: SpecObservation[] }[],
  catalogue: Map<string, Requirement>,
): TestResult[] {
  const merged = new Map<string, SpecObservation>();
  const seen = new Map<string, string[]>();
  const note = (obs: SpecObservation, where: string) => {
    mergeObservations(merged, obs);
    const key = `${obs.id} ${obs.status}`;
    const list = seen.get(key) ?? [];
    if (!list.includes(where)) list.push(where);
    seen.set(key, list);
  };
  for (const t of tests) {
    for (const obs of t.spec ?? []) note(obs, t.key);
    delete t.spec;
  }
  for (const f of fileSpec) {
    const rel = f.file.replace(/^.*?\/(suites|tests)\//, '$1/');
    for (const obs of f.observations) note(obs, `${rel} (setup)`);
  }
  return [...merged.entries()]
    .sort(([a], [b]) => a.localeCompare(b, 'en', { numeric: true }))
    .map(([key, obs]) => {
      const entry = catalogue.get(obs.id);
      const where = seen.get(key) ?? [];
      const failed = obs.findings.length > 0;
      return {
        key: `schema > ${obs.id} ${obs.status}`,
        title: titleOf(obs),
        file: entry?.document ? `spec/${entry.document}` : 'spec',
        area: entry?.area ?? 'core',
        ids: [obs.id],
        level: 'MUST',
        status: failed ? 'failed' : 'passed',
        durationMs: 0,
        message: failed ? messageOf(obs, where.slice(0, MAX_SEEN), Math.max(0, where.length - MAX_SEEN)) : undefined,
        kind: 'schema',
        findings: failed ? obs.findings : undefined,
        seenIn: where.slice(0, MAX_SEEN),
        ...(failed && obs.example ? { reproduction: reproduce(obs.example) } : {}),
      } satisfies TestResult;
    });
}
