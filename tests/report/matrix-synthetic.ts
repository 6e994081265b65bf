/**
 * Runs made in memory for the matrix tests: a results.json per implementation with only what
 * the matrix reads (requirement rows, tests, run metadata), and a large deterministic set of them
 * for the scale test (1,100 requirements x 5 implementations).
 */
import type { InputRequirement, InputTest, MatrixInput } from '../../harness/report/matrix/model.js';

export interface RowSpec {
  id: string;
  status: string;
  level?: string;
  area?: string;
  section?: string;
  kind?: string;
  text?: string;
  verdict?: string;
  statements?: InputRequirement['statements'];
  note?: string;
  /** The tests of the row; by default one test whose status is the row's. */
  tests?: Partial<InputTest>[];
}

export function test(id: string, status: string, extra: Partial<InputTest> = {}): InputTest {
  const title = extra.title ?? `${id} test`;
  const file = extra.file ?? `suites/${id.split('.')[0]}/${id.split('.')[0]}.test.ts`;
  return { key: `${file} > ${title}`, title, file, ids: [id], level: 'MUST', status, ...extra } as InputTest;
}

/** A run whose requirement rows are `rows` (in that order), each with its tests. */
export function run(
  rows: RowSpec[],
  meta: { version?: string; suites?: string[]; faults?: string[] } = {},
): MatrixInput {
  const tests: InputTest[] = [];
  const requirements: InputRequirement[] = rows.map((r) => {
    const own = (r.tests ?? [{}]).map((t) =>
      test(r.id, t.status ?? (r.status === 'untested' || r.status === 'not-observable' ? 'passed' : r.status), t),
    );
    const listed = r.status === 'untested' || r.status === 'not-observable' ? [] : own;
    tests.push(...listed);
    return {
      id: r.id,
      level: r.level ?? 'MUST',
      area: r.area ?? r.id.split('.')[0]!,
      section: r.section ?? 'Section',
      text: r.text ?? `Requirement ${r.id}.`,
      kind: r.kind ?? 'rule',
      status: r.status as InputRequirement['status'],
      tests: listed.map((t) => t.key),
      ...(r.verdict ? { verdict: r.verdict } : {}),
      ...(r.statements ? { statements: r.statements } : {}),
      ...(r.note ? { note: r.note } : {}),
    };
  });
  return {
    run: {
      id: 'r-synthetic',
      startedAt: '2026-01-01T00:00:00.000Z',
      suites: meta.suites ?? [],
      faults: meta.faults ?? [],
      target: { svc: 'http://127.0.0.1:1', sched: '', version: meta.version ?? '1.0.0', embedded: false },
    },
    complete: true,
    incomplete: [],
    tests,
    requirements,
  };
}

/** A deterministic pseudo-random sequence (no Math.random: the same matrix every time). */
function sequence(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const AREAS = ['core', 'kv', 'auth', 'transit', 'ldap', 'cloud', 'jobs', 'release', 'robustness'];
const LEVELS = ['MUST', 'MUST', 'MUST', 'MUST', 'SHOULD', 'MAY'];

/**
 * `rows` requirements x `columns` implementations: mostly passed, with violations, assumption
 * differences, skips, not-applicable tests and requirements absent from some runs; failures carry
 * a message and an exchange, as real ones do.
 */
export function largeRuns(rows = 1100, columns = 5): { name: string; results: MatrixInput }[] {
  const next = sequence(42);
  const specs = Array.from({ length: rows }, (_, i) => {
    const area = AREAS[i % AREAS.length]!;
    return {
      id: `${area}.req-${String(i).padStart(4, '0')}`,
      area,
      section: `Section ${Math.floor(i / 25)}`,
      level: LEVELS[i % LEVELS.length]!,
      kind: i % 7 === 0 ? 'assumption' : 'rule',
      text: `Requirement number ${i} of the ${area} area, worded as a sentence of the documents would be.`,
    };
  });
  return Array.from({ length: columns }, (_, c) => {
    const rowsOfRun: RowSpec[] = [];
    for (const spec of specs) {
      const roll = next();
      if (c > 0 && roll < 0.03) continue; // absent from this run
      const status =
        roll < 0.85 || c === 0
          ? 'passed'
          : roll < 0.9
            ? 'failed'
            : roll < 0.94
              ? 'skipped'
              : roll < 0.97
                ? 'not-applicable'
                : 'untested';
      rowsOfRun.push({
        ...spec,
        status,
        tests: [
          {
            status: status === 'untested' ? 'passed' : status,
            ...(status === 'failed'
              ? {
                  message: `expected 404, got 200 for ${spec.id}`,
                  transcript: [
                    {
                      kind: 'exchange',
                      method: 'GET',
                      url: `http://127.0.0.1:8200/v1/${spec.id}`,
                      status: 200,
                      requestHeaders: { 'X-Svc-Token': '[REDACTED]' },
                      responseBody: { data: { value: spec.id } },
                    },
                  ],
                }
              : {}),
            ...(status === 'skipped' ? { skip: { reason: 'capability missing' } } : {}),
          },
        ],
      });
    }
    return { name: `impl-${c + 1}`, results: run(rowsOfRun, { version: `${c + 1}.0.0` }) };
  });
}
