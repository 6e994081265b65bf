/**
 * Switches stay at the edge of the model (reference/switches.ts): the reference's model files read
 * as the documents' rules. A switch name may appear only in its declaration (an area's faults or
 * variants file) and in the one place it is applied (the area's switches table); model files neither
 * name a switch nor ask which one is on.
 *
 * While an area is being reshaped, SWITCH_SITES_AREA=<name prefix> (e.g. `kv.`) narrows the first
 * check and SWITCH_SITES_DIR=<folder> (e.g. `reference/secrets/engines/kv`) the second.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { allFaults } from '../../reference/fault-registry.js';
import { allVariants } from '../../reference/variant-registry.js';

const ROOT = join(import.meta.dirname, '..', '..');
const area = process.env.SWITCH_SITES_AREA ?? '';
const dir = process.env.SWITCH_SITES_DIR ?? 'reference';

/** Declaration files (`faults.ts`, `core-faults.ts`, ...) and switch tables (`switches.ts`, `core-switches.ts`). */
const DECLARATION = /(^|-)(faults|variants)\.ts$/;
const TABLE = /(^|-)switches\.ts$/;
/** The machinery itself, which names no switch. */
const MACHINERY = new Set([
  'reference/switches.ts',
  'reference/switch-names.ts',
  'reference/faults.ts',
  'reference/variants.ts',
]);

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...sourceFiles(p));
    else if (e.name.endsWith('.ts') && !e.name.endsWith('.test.ts')) out.push(p);
  }
  return out;
}

const files = sourceFiles(join(ROOT, 'reference')).map((p) => ({
  path: relative(ROOT, p),
  text: readFileSync(p, 'utf8'),
}));
const switches = [...allFaults, ...allVariants].map((s) => s.name).filter((n) => n.startsWith(area));

function mentions(text: string, name: string): number {
  let n = 0;
  for (const q of ["'", '"', '`']) n += text.split(`${q}${name}${q}`).length - 1;
  return n;
}

describe('switches at the edge of the model', () => {
  it('a switch is named only by its declaration and the one place it is applied', () => {
    const problems: string[] = [];
    for (const name of switches) {
      const sites = files
        .filter((f) => !MACHINERY.has(f.path))
        .map((f) => ({ path: f.path, count: mentions(f.text, name) }))
        .filter((s) => s.count > 0);
      const declared = sites.filter((s) => DECLARATION.test(basename(s.path)));
      const applied = sites.filter((s) => TABLE.test(basename(s.path)));
      const inModel = sites.filter((s) => !DECLARATION.test(basename(s.path)) && !TABLE.test(basename(s.path)));
      if (declared.reduce((a, s) => a + s.count, 0) !== 1)
        problems.push(`${name}: declared ${declared.map((s) => `${s.path}×${s.count}`).join(', ') || 'nowhere'}`);
      const appliedCount = applied.reduce((a, s) => a + s.count, 0);
      if (appliedCount !== 1)
        problems.push(
          `${name}: applied ${appliedCount} times (${applied.map((s) => s.path).join(', ') || 'in no switches table'}); it must be applied at exactly one place`,
        );
      for (const s of inModel) problems.push(`${name}: named in model file ${s.path} (×${s.count})`);
    }
    expect(problems, problems.slice(0, 40).join('\n')).toEqual([]);
  });

  it('model files do not ask which switch is on', () => {
    const asking = /\b(faults|variants)\??\.has\(|\bas (FaultName|VariantName)\b/;
    const offenders = files
      .filter((f) => !MACHINERY.has(f.path) && !DECLARATION.test(basename(f.path)) && !TABLE.test(basename(f.path)))
      .filter((f) => f.path.startsWith(dir))
      .flatMap((f) =>
        f.text
          .split('\n')
          .map((line, i) => ({ line, i }))
          .filter(({ line }) => asking.test(line))
          .map(({ line, i }) => `${f.path}:${i + 1}: ${line.trim()}`),
      );
    expect(offenders, offenders.slice(0, 40).join('\n')).toEqual([]);
  });
});
