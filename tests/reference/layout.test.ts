/**
 * The reference stays a house a newcomer can walk into: its own tests live here, in
 * tests/reference/ (vitest does not look for tests under reference/, so one left there would never
 * run), and no source file grows past 400 lines without saying why on its first line.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
/** Past this many lines a file says why it stays one file; past HARD_LIMIT it is split. */
const SOFT_LIMIT = 400;
const HARD_LIMIT = 500;

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(join(dir, e.name)) : [join(dir, e.name)],
  );
}
const reference = files(join(ROOT, 'reference')).map((p) => relative(ROOT, p));

it('the reference holds no test file: its tests live in tests/reference/', () => {
  expect(reference.filter((p) => p.endsWith('.test.ts'))).toEqual([]);
});

it(`no reference source file is over ${HARD_LIMIT} lines, nor over ${SOFT_LIMIT} without a reason on its first line`, () => {
  const problems = reference
    .filter((p) => p.endsWith('.ts'))
    .flatMap((p) => {
      const lines = readFileSync(join(ROOT, p), 'utf8').split('\n');
      const n = lines.length;
      if (n > HARD_LIMIT) return [`${p}: ${n} lines`];
      if (n > SOFT_LIMIT && !/^\/\/ \d+ lines: /.test(lines[0] ?? ''))
        return [`${p}: ${n} lines, and its first line does not say why ("// ${n} lines: <reason>")`];
      return [];
    });
  expect(problems).toEqual([]);
});
