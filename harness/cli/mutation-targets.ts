/**
 * Which test files a fault's targeted run (`--radius files`) starts with: read from the clean
 * run's results.json (each result carries its requirement ids and its test file), never from
 * source text, so a test whose id comes from a case table (suites/<area>/<name>.cases.yaml) is
 * found like any other.
 */
import type { Results } from '../report/model.js';

/** The test files of `suites` whose results name requirement `id`, sorted. */
export function filesTesting(clean: Pick<Results, 'tests'>, suites: string[], id: string): string[] {
  const files = new Set<string>();
  for (const t of clean.tests) {
    if (t.kind === 'schema' || !t.ids.includes(id)) continue;
    if (suites.some((s) => t.file.startsWith(`suites/${s}/`))) files.add(t.file);
  }
  return [...files].sort();
}
