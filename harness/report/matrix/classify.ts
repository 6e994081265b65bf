/**
 * One cell of the matrix: the verdict class of a requirement in one run, and the tests behind it
 * with what explains their outcome (failure message and failing exchange, reason of a skip).
 */
import { redactor } from '../../redaction/redact.js';
import type { CellClass, CellTest, Exchange, InputRequirement, InputTest, MatrixCell } from './model.js';

type Verdict = 'violation' | 'assumption';

const asVerdict = (v: unknown): Verdict | undefined => (v === 'violation' || v === 'assumption' ? v : undefined);

/**
 * The verdict class of a failed requirement: the row's own `verdict` when the results carry one,
 * else its failed tests' verdicts (a violation outweighs an assumption difference), else derived
 * from the requirement's kind: a failed assumption is a difference, any other failure a violation.
 */
export function failedVerdict(row: InputRequirement, failedTests: InputTest[]): Verdict {
  const own = asVerdict(row.verdict);
  if (own) return own;
  const fromTests = failedTests.map((t) => asVerdict(t.verdict)).filter((v) => v !== undefined);
  if (fromTests.includes('violation')) return 'violation';
  if (fromTests.includes('assumption')) return 'assumption';
  return row.kind === 'assumption' ? 'assumption' : 'violation';
}

const NOT_RUN_REASON: Record<string, string> = {
  absent: 'absent from this run: its suite was not selected, or its catalogue has no such requirement',
  untested: 'no test of this run checks it',
  'not-observable': 'not observable through the API',
  'not-reached': "its tests stopped at another requirement's failure before checking it",
};

/** The class of a requirement status other than `failed`. */
function classOf(status: string): CellClass {
  switch (status) {
    case 'passed':
    case 'fixed':
      return 'passed';
    case 'known-failure':
    case 'known-issue':
      return 'known-failure';
    case 'not-applicable':
      return 'not-applicable';
    case 'skipped':
      return 'skipped';
    default:
      return 'not-run';
  }
}

/** The last exchange of a transcript: the request the test failed on (redacted once more). */
function lastExchange(t: InputTest): Exchange | undefined {
  const entries = t.transcript ?? [];
  for (let i = entries.length - 1; i >= 0; i--) {
    const e = entries[i]!;
    if (e.kind !== 'exchange') continue;
    return redactor.value({
      method: e.method,
      url: e.url,
      status: e.status,
      requestHeaders: e.requestHeaders,
      requestBody: e.requestBody,
      responseHeaders: e.responseHeaders,
      responseBody: e.responseBody,
    });
  }
  return undefined;
}

/** What explains a test's outcome, in words. */
function explanation(t: InputTest): string | undefined {
  const parts: (string | undefined)[] = [];
  switch (t.status) {
    case 'skipped':
      parts.push(t.skip?.reason, t.skip?.setting && `(setting ${t.skip.setting})`);
      break;
    case 'not-applicable':
      parts.push(
        t.notApplicable?.reason,
        t.notApplicable?.answer && `target answered: ${t.notApplicable.answer}`,
        t.notApplicable?.setting && `(setting ${t.notApplicable.setting})`,
      );
      break;
    case 'known-issue':
      parts.push(t.knownIssue);
      break;
    case 'known-failure':
    case 'fixed':
      parts.push(
        t.expectation &&
          `expected failure: ${t.expectation.reason}${t.expectation.ticket ? ` (${t.expectation.ticket})` : ''}`,
        t.message,
      );
      break;
    default:
      parts.push(t.message);
  }
  const text = parts.filter(Boolean).join('\n');
  return text ? redactor.text(text) : undefined;
}

const WITH_EXCHANGE = new Set(['failed', 'known-failure', 'not-applicable', 'known-issue']);

function cellTest(t: InputTest, failedClass: Verdict | undefined): CellTest {
  const out: CellTest = { key: t.key, title: t.title, file: t.file, status: t.status };
  if (t.status === 'passed') return out;
  if (t.status === 'failed') out.verdict = asVerdict(t.verdict) ?? failedClass;
  const message = explanation(t);
  if (message) out.message = message;
  const curl = t.curl ?? t.reproduction?.curl;
  if (typeof curl === 'string' && curl) out.curl = redactor.text(curl);
  if (WITH_EXCHANGE.has(t.status)) {
    const exchange = lastExchange(t);
    if (exchange) out.exchange = exchange;
  }
  return out;
}

/**
 * The cell of requirement `row` in a run whose tests are `tests` (by key); `row` undefined: the run
 * has no such requirement, which is `not-run`, never `passed`.
 */
export function classifyCell(row: InputRequirement | undefined, tests: Map<string, InputTest>): MatrixCell {
  if (!row) return { class: 'not-run', status: 'absent', reason: NOT_RUN_REASON.absent, tests: [] };
  const own = row.tests.map((key) => tests.get(key)).filter((t) => t !== undefined);
  const failed = own.filter((t) => t.status === 'failed');
  const verdict = row.status === 'failed' ? failedVerdict(row, failed) : undefined;
  const cls = verdict ?? classOf(row.status);
  const cell: MatrixCell = { class: cls, status: row.status, tests: own.map((t) => cellTest(t, verdict)) };
  if (cls === 'not-run')
    // A not-observable row's note is the catalogue's reason it cannot be observed.
    cell.reason = [NOT_RUN_REASON[row.status] ?? `status ${row.status}`, row.status === 'not-observable' && row.note]
      .filter(Boolean)
      .join(': ');
  return cell;
}
