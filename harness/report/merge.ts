/**
 * Combines the results.json of the shards of one run (`run --shard i/n`) into one results.json,
 * junit.xml and index.html: the tests of every shard, the summary and the requirement matrix
 * computed again over all of them, so the merged report reads as a single run's.
 */
import type { Requirement } from '../spec/catalogue.js';
import { mergeCompleteness } from './completeness.js';
import { summarize } from './build.js';
import type { Results, TestResult } from './model.js';
import { assumptionMode } from './verdict.js';

export class MergeError extends Error {}

/**
 * Schema results (one per operation and status) are made in every shard that touched the
 * operation: the merged run has one, failed when any shard's failed, with every finding once.
 */
function foldSchemaResults(tests: TestResult[]): TestResult[] {
  const schema = new Map<string, TestResult>();
  const out: TestResult[] = [];
  for (const t of tests) {
    if (t.kind !== 'schema') {
      out.push(t);
      continue;
    }
    const have = schema.get(t.key);
    if (!have) {
      const copy = { ...t, findings: t.findings ? [...t.findings] : undefined, seenIn: [...(t.seenIn ?? [])] };
      schema.set(t.key, copy);
      out.push(copy);
      continue;
    }
    for (const f of t.findings ?? []) {
      if (!have.findings?.some((g) => g.pointer === f.pointer && g.message === f.message))
        (have.findings ??= []).push(f);
    }
    have.seenIn = [...new Set([...(have.seenIn ?? []), ...(t.seenIn ?? [])])].slice(0, 5);
    if (t.status === 'failed' || (have.status !== 'failed' && t.status !== 'passed')) {
      have.status = t.status;
      have.message = t.message ?? have.message;
    }
  }
  return out;
}

export function mergeResults(
  parts: { file: string; results: Results }[],
  catalogue: Map<string, Requirement>,
): Results {
  if (!parts.length) throw new MergeError('merge needs at least one results.json');
  // Every shard of the same split exactly once: a missing shard would pass as a smaller green run.
  const shards = parts.map((p) => p.results.run.shard);
  if (shards.some(Boolean)) {
    const counts = new Set(shards.map((s) => s?.split('/')[1]));
    const n = Number([...counts][0]);
    if (shards.some((s) => !s) || counts.size !== 1)
      throw new MergeError(
        `the files are not shards of one split: ${parts.map((p, i) => `${p.file} (${shards[i] ?? 'not a shard'})`).join(', ')}`,
      );
    const seen = shards.map((s) => Number(s!.split('/')[0]));
    const missing = Array.from({ length: n }, (_, i) => i + 1).filter((i) => !seen.includes(i));
    const twice = seen.filter((s, i) => seen.indexOf(s) !== i);
    if (missing.length || twice.length) {
      throw new MergeError(
        `shards of ${n}: ${missing.length ? `missing ${missing.map((i) => `${i}/${n}`).join(', ')}` : ''}${missing.length && twice.length ? '; ' : ''}${twice.length ? `given twice ${twice.map((i) => `${i}/${n}`).join(', ')}` : ''}`,
      );
    }
  }
  const tests = foldSchemaResults(parts.flatMap((p) => p.results.tests));
  const keys = new Set<string>();
  for (const t of tests) {
    if (keys.has(t.key))
      throw new MergeError(`test "${t.key}" is in more than one file: shards of one split never overlap`);
    keys.add(t.key);
  }
  tests.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const runs = parts.map((p) => p.results.run);
  const mode = assumptionMode(runs.some((r) => r.assumptions === 'strict') ? 'strict' : 'report');
  const { summary, requirements, statements } = summarize(tests, catalogue, { mode });
  const startedAt = runs.map((r) => r.startedAt).sort()[0]!;
  const finishedAt = runs
    .map((r) => r.finishedAt)
    .sort()
    .at(-1)!;
  return {
    tool: parts[0]!.results.tool,
    ...mergeCompleteness(
      parts.map((p) => p.results),
      tests,
      runs[0]!.suites,
    ),
    run: {
      id: runs.map((r) => r.id).join('+'),
      startedAt,
      finishedAt,
      durationMs: Date.parse(finishedAt) - Date.parse(startedAt),
      target: runs[0]!.target,
      suites: [...new Set(runs.flatMap((r) => r.suites))],
      faults: runs[0]!.faults,
      mergedFrom: parts.map((p, i) => `${p.file}${shards[i] ? ` (shard ${shards[i]})` : ''}`),
      assumptions: mode,
    },
    summary,
    tests,
    requirements,
    statements,
    leftovers: parts.flatMap((p) => p.results.leftovers),
    errors: parts.flatMap((p) =>
      p.results.errors.map((e) => (parts.length > 1 ? `${p.results.run.shard ?? p.file}: ${e}` : e)),
    ),
  };
}
