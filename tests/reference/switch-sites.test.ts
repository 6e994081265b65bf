/**
 * Switches stay at the edge of the model (reference/switches.ts): the reference's model files read
 * as the documents' rules. A switch name may appear only in its declaration (an area's faults or
 * variants file) and in the one place it is applied (the area's switches table); model files neither
 * name a switch nor ask which one is on.
 *
 * The checks run per area, so a failure names the area whose model asks for a switch.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { allFaults } from '../../reference/fault-registry.js';
import { allVariants } from '../../reference/variant-registry.js';

const ROOT = join(import.meta.dirname, '..', '..');

/** An area: the switch-name prefixes it declares and the folders holding its model. */
interface Area {
  prefixes: string[];
  /** Files of the area: under one of these folders (a trailing `/`) or exactly this file. */
  paths: string[];
  /** Paths under `paths` that belong to another area. */
  except?: string[];
}
const AREAS: Record<string, Area> = {
  core: {
    prefixes: ['core.', 'auth.', 'release.'],
    paths: ['reference/secrets/', 'reference/start.ts', 'reference/main.ts', 'reference/clock.ts', 'reference/tls.ts'],
    except: [
      'reference/secrets/engines/kv/',
      'reference/secrets/engines/cloud/',
      'reference/secrets/engines/transit/',
      'reference/secrets/engines/ldap/',
    ],
  },
  kv: { prefixes: ['kv.'], paths: ['reference/secrets/engines/kv/'] },
  cloud: { prefixes: ['cloud.'], paths: ['reference/secrets/engines/cloud/', 'reference/cloud-directory/'] },
  transit: { prefixes: ['transit.'], paths: ['reference/secrets/engines/transit/'] },
  ldap: { prefixes: ['ldap.'], paths: ['reference/secrets/engines/ldap/'] },
  jobs: { prefixes: ['jobs.'], paths: ['reference/scheduler/'] },
};

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
const allSwitches = [...allFaults, ...allVariants].map((s) => s.name);

function inArea(path: string, a: Area): boolean {
  const under = (p: string) => (p.endsWith('/') ? path.startsWith(p) : path === p);
  return a.paths.some(under) && !(a.except ?? []).some(under);
}

function mentions(text: string, name: string): number {
  let n = 0;
  for (const q of ["'", '"', '`']) n += text.split(`${q}${name}${q}`).length - 1;
  return n;
}

function namedOnlyAtTheEdge(area: Area): string[] {
  const switches = allSwitches.filter((n) => area.prefixes.some((p) => n.startsWith(p)));
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
  return problems;
}

function modelAsking(area: Area): string[] {
  const asking = /\b(faults|variants)\??\.has\(|\bas (FaultName|VariantName)\b/;
  return files
    .filter((f) => !MACHINERY.has(f.path) && !DECLARATION.test(basename(f.path)) && !TABLE.test(basename(f.path)))
    .filter((f) => inArea(f.path, area))
    .flatMap((f) =>
      f.text
        .split('\n')
        .map((line, i) => ({ line, i }))
        .filter(({ line }) => asking.test(line))
        .map(({ line, i }) => `${f.path}:${i + 1}: ${line.trim()}`),
    );
}

const show = (xs: string[]) => xs.slice(0, 40).join('\n');

for (const [name, area] of Object.entries(AREAS)) {
  describe(`switches at the edge of the model: ${name}`, () => {
    it('a switch is named only by its declaration and the one place it is applied', () => {
      const problems = namedOnlyAtTheEdge(area);
      expect(problems, show(problems)).toEqual([]);
    });
    it('model files do not ask which switch is on', () => {
      const offenders = modelAsking(area);
      expect(offenders, show(offenders)).toEqual([]);
    });
  });
}

it('every switch belongs to an area', () => {
  const prefixes = Object.values(AREAS).flatMap((a) => a.prefixes);
  const orphans = allSwitches.filter((n) => !prefixes.some((p) => n.startsWith(p)));
  expect(orphans).toEqual([]);
});
