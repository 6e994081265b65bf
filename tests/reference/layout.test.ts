/**
 * The reference's own tests live here, in tests/reference/ (mirroring reference/'s paths): vitest
 * does not look for tests under reference/, so one left there would never run. (File sizes of
 * reference/ are held by tests/project/file-size.test.ts, as every folder's.)
 */
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(join(dir, e.name)) : [join(dir, e.name)],
  );
}

it('the reference holds no test file: its tests live in tests/reference/', () => {
  const tests = files(join(ROOT, 'reference'))
    .map((p) => relative(ROOT, p))
    .filter((p) => p.endsWith('.test.ts'));
  expect(tests).toEqual([]);
});
