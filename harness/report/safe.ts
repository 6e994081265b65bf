/**
 * The last redaction pass before a report is written. It covers only the fields that carry what a
 * target said or a test observed (messages, transcripts, leftovers, run errors, findings); ids,
 * titles, requirement text and the run's own metadata are the catalogue's and the suite's words
 * and are never rewritten, so a short secret cannot change them between runs.
 */
import { redactor } from '../redaction/redact.js';
import type { Results, TestResult } from './model.js';

function safeTest(t: TestResult): TestResult {
  return {
    ...t,
    message: t.message === undefined ? undefined : redactor.text(t.message),
    knownIssue: t.knownIssue === undefined ? undefined : redactor.text(t.knownIssue),
    skip: t.skip ? { ...t.skip, reason: redactor.text(t.skip.reason) } : undefined,
    transcript: t.transcript ? redactor.value(t.transcript) : undefined,
    leftovers: t.leftovers ? redactor.value(t.leftovers) : undefined,
    findings: t.findings ? redactor.value(t.findings) : undefined,
    ...(t.reproduction
      ? {
          reproduction: {
            ...t.reproduction,
            curl: redactor.text(t.reproduction.curl),
            exchange: redactor.value(t.reproduction.exchange),
          },
        }
      : {}),
    ...(t.assumptionDifferences
      ? { assumptionDifferences: t.assumptionDifferences.map((d) => ({ ...d, message: redactor.text(d.message) })) }
      : {}),
  };
}

export function safeResults(results: Results): Results {
  return {
    ...results,
    tests: results.tests.map(safeTest),
    leftovers: redactor.value(results.leftovers),
    errors: results.errors.map((e) => redactor.text(e)),
    ...(results.preflight
      ? { preflight: { ...results.preflight, message: redactor.text(results.preflight.message) } }
      : {}),
  };
}
