/**
 * Small synthetic runs for the report tests: raw outcomes as the vitest reporter collects them,
 * a three-entry catalogue, and buildResults on top, so the tests exercise the real pipeline.
 */
import type { Requirement } from '../../harness/spec/catalogue.js';
import type { TranscriptEntry } from '../../harness/http/transcript.js';
import { buildResults, type RawOutcome } from '../../harness/report/build.js';
import { reproduce } from '../../harness/report/curl.js';
import type { Expectation } from '../../harness/report/expectations.js';
import type { Results } from '../../harness/report/model.js';
import type { AssumptionMode } from '../../harness/report/verdict.js';

/** A statement of the inventory (spec/<area>/statements*.yaml) the synthetic requirement demo.read.ok names. */
export const STATEMENT = {
  id: 'doc.core.envelope.json',
  section: 'Resources and their fields > Response envelope',
  quote: 'Successful responses are JSON.',
};

export const catalogue = new Map<string, Requirement>([
  [
    'demo.read.ok',
    {
      id: 'demo.read.ok',
      level: 'MUST',
      section: 'Endpoints',
      text: 'GET /demo/:name returns the stored value.',
      statements: [STATEMENT.id],
      area: 'demo',
      document: 'demo.md',
    },
  ],
  [
    'demo.help.permission',
    {
      id: 'demo.help.permission',
      level: 'MUST',
      section: 'Conventions',
      text: 'Help needs the permission of the path.',
      kind: 'assumption',
      assumption: { why: 'The documents say "if permitted" only.', setting: 'assumptions.demo.help.permission' },
      area: 'demo',
      document: 'demo.md',
    },
  ],
  [
    'demo.list.empty-404',
    {
      id: 'demo.list.empty-404',
      level: 'MUST',
      section: 'Errors',
      text: 'An empty LIST answers 404.',
      area: 'demo',
      document: 'demo.md',
    },
  ],
  [
    'demo.known.crash',
    {
      id: 'demo.known.crash',
      level: 'MUST',
      section: 'Versioning > Known issues',
      text: 'Reading metrics under load must not crash the node.',
      kind: 'known-issue',
      affected: ['1.13.9', '1.14.5'],
      fixedIn: ['1.13.10', '1.14.6'],
      testability: { class: 'capability', capability: 'metrics', reason: 'needs sys/metrics' },
      area: 'demo',
      document: 'demo.md',
    },
  ],
  [
    'demo.logs',
    {
      id: 'demo.logs',
      level: 'MUST',
      section: 'Versioning > Known issues',
      text: 'Sub-loggers follow log_level.',
      kind: 'known-issue',
      affected: ['*'],
      testability: { class: 'not-observable', reason: 'a process signal and server logs' },
      area: 'demo',
      document: 'demo.md',
    },
  ],
]);

export function outcome(
  title: string,
  ids: string[],
  state: RawOutcome['state'],
  extra: Partial<RawOutcome> & { meta?: Record<string, unknown> } = {},
): RawOutcome {
  return {
    title,
    file: '/work/main/suites/demo/demo.test.ts',
    state,
    durationMs: 12,
    errors: state === 'failed' ? ['CheckFailure: GET /demo/x answered 500'] : [],
    moduleErrors: [],
    ...extra,
    meta: { conformance: { ids, level: 'MUST', area: 'demo' }, ...(extra.meta ?? {}) },
  };
}

/** The exchange the default failing test looked at. */
export const failingExchange: TranscriptEntry = {
  kind: 'exchange',
  api: 'svc',
  auth: { header: 'X-Svc-Token', configured: true },
  method: 'GET',
  url: 'http://127.0.0.1:8200/v1/demo/x',
  status: 500,
  durationMs: 3.2,
  requestHeaders: { 'X-Svc-Token': '[REDACTED]' },
  responseHeaders: { 'content-type': 'application/json' },
  responseBody: { errors: ['internal error <boom>'] },
};

/** A failing test with a transcript, a passing one and a known issue. */
export function defaultOutcomes(): RawOutcome[] {
  return [
    outcome('GET /demo/:name returns the stored value', ['demo.read.ok'], 'failed', {
      meta: {
        transcript: [{ kind: 'note', note: 'wrote demo value' }, failingExchange],
        attribution: { failedRequirement: 'demo.read.ok', notReached: [], differences: [] },
        reproduction: reproduce(failingExchange),
      },
    }),
    outcome('LIST /demo with no entries returns 404', ['demo.list.empty-404'], 'passed'),
    outcome('GET /sys/metrics under load keeps answering', ['demo.known.crash'], 'passed', {
      meta: { knownIssue: 'demo.known.crash on 1.13.9: 3 of 9 reads failed' },
    }),
  ];
}

export function results(
  opts: {
    outcomes?: RawOutcome[];
    expectations?: Expectation[];
    now?: Date;
    version?: string;
    mode?: AssumptionMode;
  } = {},
): Results {
  const started = new Date('2026-11-20T10:00:00Z');
  return buildResults({
    outcomes: opts.outcomes ?? defaultOutcomes(),
    catalogue,
    expectations: new Map((opts.expectations ?? []).map((e) => [e.id, e])),
    config: undefined,
    startedAt: started,
    finishedAt: new Date(started.getTime() + 4_000),
    leftovers: [],
    errors: [],
    now: opts.now ?? new Date('2026-11-20T10:00:00Z'),
    mode: opts.mode,
  });
}
