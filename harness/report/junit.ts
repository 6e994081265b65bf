/** JUnit XML from the results: one testsuite per file, requirement ids as properties. */
import type { Results } from './model.js';

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
  out.push(
    `<testsuites name="conformance" tests="${s.total}" failures="${s.failed}" skipped="${s.skipped + (s.notApplicable ?? 0)}" time="${(results.run.durationMs / 1000).toFixed(3)}">`,
  );
  for (const [file, tests] of byFile) {
    const failures = tests.filter((t) => t.status === 'failed').length;
    const skipped = tests.filter((t) => t.status === 'skipped' || t.status === 'not-applicable').length;
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
      out.push('      </properties>');
      if (t.status === 'failed')
        out.push(
          `      <failure message="${xmlEscape((t.message ?? '').split('\n')[0]!)}">${xmlEscape(t.message ?? '')}</failure>`,
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
