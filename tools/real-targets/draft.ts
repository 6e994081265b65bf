/**
 * Drafts expectations entries from a run's results.json: one entry per requirement a failure is
 * charged to, with its class, the failing tests' titles and the first line of each message as the
 * evidence to start from. The quote and the reading are a person's work: every drafted entry says
 * TODO where they go, and the expectations test fails until they are written.
 *   node --import tsx tools/real-targets/draft.ts REPORT/results.json > draft.yaml
 */
import { readFileSync } from 'node:fs';
import { stringify } from 'yaml';
import type { Results } from '../../harness/report/model.js';
import { chargedTo } from '../../harness/report/verdict.js';

const file = process.argv[2];
if (!file) {
  console.error('usage: draft.ts results.json');
  process.exit(2);
}
const results = JSON.parse(readFileSync(file, 'utf8')) as Results;
const byId = new Map<string, { class: string; tests: string[]; evidence: string[] }>();
for (const t of results.tests) {
  if (t.status !== 'failed' && t.status !== 'known-failure') continue;
  const id = chargedTo(t) ?? '';
  const e = byId.get(id) ?? { class: t.verdict ?? 'violation', tests: [], evidence: [] };
  e.tests.push(t.title);
  e.evidence.push((t.message ?? '').split('\n')[0]!.slice(0, 300));
  byId.set(id, e);
}
const entries = [...byId]
  .sort(([a], [b]) => a.localeCompare(b))
  .map(([id, e]) => ({
    id,
    class: e.class,
    tests: e.tests,
    quote: 'TODO: the sentence of the documents, verbatim',
    evidence: `TODO: read it against the product's source. The run: ${[...new Set(e.evidence)].join(' / ')}`,
    reason: 'TODO',
  }));
process.stdout.write(stringify({ 'known-failures': entries }, { lineWidth: 110 }));
