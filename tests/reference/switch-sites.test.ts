/**
 * Switches stay at the edge of the model (reference/switches.ts): the reference's model files read
 * as the documents' rules. Each switch name appears exactly once in reference/: in the switch table
 * of its area, where it is declared and takes effect; model files neither name a switch nor ask
 * which one is on; and the registry gathers every table (a table it missed would declare switches
 * no run could turn on).
 *
 * The checks run per area, so a failure names the area at fault.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { allFaults, allVariants } from '../../reference/switch-registry.js';

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

/** Switch tables: `switches.ts`, `<part>-switches.ts`, or the files of a `switches/` folder. */
const isTable = (path: string) => /(^|-)switches\.ts$/.test(basename(path)) || path.includes('/switches/');
/** The machinery itself, which names no switch. */
const MACHINERY = new Set([
  'reference/switches.ts',
  'reference/switch-registry.ts',
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

/** Each switch of the area is named once in reference/: by its declaration, in a table of its area. */
function namedOnceWhereApplied(area: Area): string[] {
  const switches = allSwitches.filter((n) => area.prefixes.some((p) => n.startsWith(p)));
  const problems: string[] = [];
  for (const name of switches) {
    const sites = files.map((f) => ({ path: f.path, count: mentions(f.text, name) })).filter((s) => s.count > 0);
    const total = sites.reduce((a, s) => a + s.count, 0);
    if (total !== 1)
      problems.push(`${name}: named ${total} times (${sites.map((s) => `${s.path}×${s.count}`).join(', ')})`);
    for (const s of sites) {
      if (MACHINERY.has(s.path) || !isTable(s.path)) problems.push(`${name}: named in ${s.path}, not a switch table`);
      else if (!inArea(s.path, area)) problems.push(`${name}: declared in ${s.path}, outside its area`);
    }
  }
  return problems;
}

function modelAsking(area: Area): string[] {
  const asking = /\b(faults|variants)\??\.has\(|\bas (FaultName|VariantName)\b/;
  return files
    .filter((f) => !MACHINERY.has(f.path) && !isTable(f.path))
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
    it('a switch is named once, in a switch table of its area (where it is declared and takes effect)', () => {
      const problems = namedOnceWhereApplied(area);
      expect(problems, show(problems)).toEqual([]);
    });
    it('model files do not ask which switch is on', () => {
      const offenders = modelAsking(area);
      expect(offenders, show(offenders)).toEqual([]);
    });
  });
}

it('the registry gathers every switch the tables declare, and nothing else', () => {
  const declared = files.flatMap((f) =>
    [...f.text.matchAll(/\b(fault|variant)\(\s*'([^']+)'/g)].map((m) => `${m[1]} ${m[2]} (${f.path})`),
  );
  const catalogued = new Set([
    ...allFaults.map((f) => `fault ${f.name}`),
    ...allVariants.map((v) => `variant ${v.name}`),
  ]);
  const uncatalogued = declared.filter((d) => !catalogued.has(d.slice(0, d.indexOf(' ('))));
  expect(uncatalogued, show(uncatalogued)).toEqual([]);
  expect(declared).toHaveLength(catalogued.size);
});

it('every switch belongs to an area', () => {
  const prefixes = Object.values(AREAS).flatMap((a) => a.prefixes);
  const orphans = allSwitches.filter((n) => !prefixes.some((p) => n.startsWith(p)));
  expect(orphans).toEqual([]);
});
