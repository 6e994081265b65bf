/**
 * Small modules with one job: no source file of harness/, suites/, tests/, tools/, bench/ or
 * reference/ is over 500 lines, and one over 400 says why on its first line (`// size: <reason>`),
 * so a file that grows past a screenful of screenfuls is a decision, not an accident
 * (docs/AUTHORING.md, section 8).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../harness/spec/paths.js';

const FOLDERS = ['harness', 'suites', 'tests', 'tools', 'bench', 'reference'];
const LIMIT = 500;
const NEEDS_REASON = 400;

function sources(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) sources(full, out);
    else if (/\.(ts|mts|mjs|cjs|js)$/.test(name)) out.push(full);
  }
  return out;
}

/** What is wrong with a file of `text` (undefined when nothing is). */
function sizeProblem(text: string): string | undefined {
  const lines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
  if (lines > LIMIT) return `${lines} lines, over ${LIMIT}: split it by job`;
  if (lines > NEEDS_REASON && !/^\/\/ size: \S.{10,}/.test(text))
    return `${lines} lines, over ${NEEDS_REASON}: split it, or say why on its first line (// size: ...)`;
  return undefined;
}

describe('source file sizes', () => {
  it(`no file is over ${LIMIT} lines, and one over ${NEEDS_REASON} says why`, () => {
    const files = FOLDERS.flatMap((f) => sources(join(PACKAGE_ROOT, f)));
    expect(files.length).toBeGreaterThan(200);
    const problems = files.flatMap((f) => {
      const why = sizeProblem(readFileSync(f, 'utf8'));
      return why ? [`${relative(PACKAGE_ROOT, f)}: ${why}`] : [];
    });
    expect(problems).toEqual([]);
  });

  it('tells a long file from a file that says why', () => {
    const body = (n: number) => `${'x\n'.repeat(n)}`;
    expect(sizeProblem(body(400))).toBeUndefined();
    expect(sizeProblem(body(401))).toMatch(/over 400/);
    expect(sizeProblem(`// size: one schema, one property per setting\n${body(450)}`)).toBeUndefined();
    expect(sizeProblem(`// size: one schema, one property per setting\n${body(500)}`)).toMatch(/over 500/);
  });
});
