/** JUnit XML from the results: one testsuite per file, requirement ids as properties. */
import type { Results, TestResult } from './model.js';

export function xmlEscape(s: string): string {
  return s
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

export function toJUnit(results: Results): string {
  const byFile = new Map<string, Results['tests']>();
  for (const t of results.tests) byFile.set(t.file, [...(byFile.get(t.file) ?? []), t]);
  const out: string[] = ['<?xml version="1.0" encoding="UTF-8"?>'];
  const s = results.summary;
  const strict = results.run.assumptions === 'strict';
  // An assumption difference outside strict mode is no failure: dashboards must not go red on it.
  const asFailure = (t: TestResult) => t.status === 'failed' && (t.verdict !== 'assumption' || strict);
  const asSkip = (t: TestResult) =>
    t.status === 'skipped' || t.status === 'not-applicable' || (t.status === 'failed' && !asFailure(t));
  const failures = results.tests.filter(asFailure).length;
  const pre = results.preflight;
  // The run's own errors (a target that could not be prepared, a file that did not load): a run
  // with no failed test is not green when it has them. The pre-flight's error is its message.
  const runErrors = pre ? [] : results.errors;
  const errors = (pre ? 1 : 0) + runErrors.length;
  out.push(
    `<testsuites name="conformance" tests="${s.total + errors}" failures="${failures}" ${errors ? `errors="${errors}" ` : ''}skipped="${results.tests.filter(asSkip).length}" time="${(results.run.durationMs / 1000).toFixed(3)}">`,
  );
  if (runErrors.length) {
    out.push(
      `  <testsuite name="run" tests="${runErrors.length}" failures="0" errors="${runErrors.length}" skipped="0" time="0.000">`,
    );
    runErrors.forEach((e, i) => {
      out.push(`    <testcase classname="run" name="run error ${i + 1}" time="0.000">`);
      out.push(`      <error message="${xmlEscape(e.split('\n')[0] ?? '')}">${xmlEscape(e)}</error>`);
      out.push('    </testcase>');
    });
    out.push('  </testsuite>');
  }
  if (pre) {
    // The run stopped before any suite: one error a CI dashboard shows, naming the setting.
    out.push('  <testsuite name="pre-flight" tests="1" failures="0" errors="1" skipped="0" time="0.000">');
    out.push('    <testcase classname="pre-flight" name="the target answers" time="0.000">');
    out.push(`      <properties><property name="setting" value="${xmlEscape(pre.setting)}"/></properties>`);
    out.push(`      <error message="${xmlEscape(pre.message)}">${xmlEscape(pre.message)}</error>`);
    out.push('    </testcase>');
    out.push('  </testsuite>');
  }
  for (const [file, tests] of byFile) {
    const failures = tests.filter(asFailure).length;
    const skipped = tests.filter(asSkip).length;
    const time = tests.reduce((a, t) => a + t.durationMs, 0) / 1000;
    out.push(
      `  <testsuite name="${xmlEscape(file)}" tests="${tests.length}" failures="${failures}" skipped="${skipped}" time="${time.toFixed(3)}">`,
    );
    for (const t of tests) {
      out.push(
        `    <testcase classname="${xmlEscape(`${t.area}.${t.level}`)}" name="${xmlEscape(t.title)}" time="${(t.durationMs / 1000).toFixed(3)}">`,
      );
      out.push('      <properties>');
      for (const id of t.ids) out.push(`        <property name="requirement" value="${xmlEscape(id)}"/>`);
      out.push(`        <property name="level" value="${t.level}"/>`);
      out.push(`        <property name="status" value="${t.status}"/>`);
      if (t.kind) out.push(`        <property name="kind" value="${xmlEscape(t.kind)}"/>`);
      if (t.knownIssue) out.push(`        <property name="known-issue" value="${xmlEscape(t.knownIssue)}"/>`);
      if (t.verdict) out.push(`        <property name="verdict" value="${t.verdict}"/>`);
      if (t.failedRequirement)
        out.push(`        <property name="failed-requirement" value="${xmlEscape(t.failedRequirement)}"/>`);
      for (const id of t.notReached ?? []) out.push(`        <property name="not-reached" value="${xmlEscape(id)}"/>`);
      if (t.reproduction) out.push(`        <property name="curl" value="${xmlEscape(t.reproduction.curl)}"/>`);
      out.push('      </properties>');
      if (asFailure(t))
        out.push(
          `      <failure${t.verdict === 'assumption' ? ' type="assumption"' : ''} message="${xmlEscape((t.message ?? '').split('\n')[0]!)}">${xmlEscape(t.message ?? '')}</failure>`,
        );
      else if (t.status === 'failed')
        out.push(
          `      <skipped message="${xmlEscape(`assumption difference: ${t.failedRequirement ?? ''}${settingOf(results, t.failedRequirement)}: ${firstLine(t.message)}`)}"/>`,
        );
      if (t.status === 'skipped')
        out.push(
          `      <skipped message="${xmlEscape(t.skip ? `${t.skip.reason}${t.skip.setting ? ` (setting ${t.skip.setting})` : ''}` : 'skipped')}"/>`,
        );
      if (t.status === 'not-applicable')
        out.push(
          `      <skipped message="${xmlEscape(`not applicable: ${t.notApplicable?.reason ?? ''}${t.notApplicable?.answer ? ` (target answered: ${t.notApplicable.answer})` : ''}`)}"/>`,
        );
      if (t.status === 'known-failure')
        out.push(`      <skipped message="${xmlEscape(`known failure: ${t.expectation?.reason ?? ''}`)}"/>`);
      out.push('    </testcase>');
    }
    out.push('  </testsuite>');
  }
  out.push('</testsuites>');
  return `${out.join('\n')}\n`;
}

/** ` (setting assumptions.<id>)`: how a reader switches the assumption off for this target. */
function settingOf(results: Results, id: string | undefined): string {
  const setting = results.requirements.find((r) => r.id === id)?.assumption?.setting;
  return setting ? ` (setting ${setting})` : '';
}

/** The first line of a failure message, without the class prefix an assumption difference carries. */
function firstLine(message: string | undefined): string {
  return (message ?? '').split('\n')[0]!.replace(/^assumption difference \([^)]*\): /, '');
}
