/**
 * The incremental fault proof (`npm run mutation -- --changed`): the faults of every requirement a
 * change touched, plus a seeded, rotating sample of the others, with every legal variant.
 *
 * Touched: the files changed since a commit (by default the one the published proof was measured
 * at, generated/fault-proof.json), mapped to requirements and faults:
 * - a test file: the requirements its tests name (the traced clean run's results, never its text);
 * - a case table (`<name>.cases.yaml`): the requirements the conformance index lists it for;
 *   another file of a suite's folder (its helpers): every requirement that suite's tests name;
 * - an area's requirements or statements (spec/<area>/requirements.yaml, spec/<area>/statements*.yaml,
 *   or a file of generated/catalogue): the entries that differ from the commit's, read at the path
 *   the file had then when it was moved (for a statement: the requirements naming it, and the
 *   faults declaring it);
 * - a switch table of the reference: the faults it declares; another file of a reference area
 *   (its rules, its model): every fault of that area;
 * and a fault the published proof does not list yet. What maps to no requirement (the harness,
 * suites/lib, the documents) is left to the sample, which rotates with the seed (by default the
 * day), so that every fault runs now and then.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import type { FaultSpec } from '../../contract/switches.js';
import { PACKAGE_ROOT } from '../spec/paths.js';

/** What a change touched, and why each fault is in. */
export interface Touched {
  /** Requirement ids. */
  ids: Set<string>;
  /** Faults, each with the first reason it was taken for. */
  faults: Map<string, string>;
}

/** What the mapping reads besides the changed paths. */
export interface TouchContext {
  /** Project-relative test file → the requirement ids its tests name (the clean run). */
  testIds: Map<string, Set<string>>;
  /** Case table → the requirement ids the conformance index lists it for. */
  caseIds: Map<string, Set<string>>;
  /** The entry ids of a requirements or statements file that differ from the base commit's. */
  changedEntries: (file: string) => string[];
  faults: readonly FaultSpec[];
  /** Fault → the switch table file that declares it. */
  tableOf: Map<string, string>;
  /** Catalogue requirement → the statement ids it names. */
  statementsOf: Map<string, readonly string[]>;
  /** Faults the published proof lists. */
  published?: ReadonlySet<string>;
}

/** A switch table: `switches.ts`, `<part>-switches.ts`, or a file of a `switches/` folder. */
export const isSwitchTable = (path: string) =>
  path.startsWith('reference/') && (/(^|-)switches\.ts$/.test(basename(path)) || path.includes('/switches/'));

/** A file of the catalogue: an area's requirements, or a generated catalogue file. */
export const isRequirementsFile = (path: string) =>
  /^spec\/[^/]+\/requirements\.ya?ml$/.test(path) || /^generated\/catalogue\/[^/]+\.ya?ml$/.test(path);

/** A file of the statement inventory: an area's `statements.yaml` or `statements-<part>.yaml`. */
export const isStatementsPath = (path: string) => /^spec\/[^/]+\/statements(-[a-z0-9-]+)?\.ya?ml$/.test(path);

/** The reference area a file belongs to (the folder its switch tables sit in), or undefined. */
export function referenceArea(path: string): string | undefined {
  const engine = /^reference\/secrets\/engines\/[^/]+\//.exec(path)?.[0];
  if (engine) return engine;
  for (const dir of ['reference/scheduler/', 'reference/cloud-directory/']) if (path.startsWith(dir)) return dir;
  if (path.startsWith('reference/secrets/')) return 'reference/secrets/';
  return undefined;
}

const inArea = (table: string, area: string) =>
  table.startsWith(area) && !(area === 'reference/secrets/' && table.startsWith('reference/secrets/engines/'));

export function touchedBy(changed: readonly string[], ctx: TouchContext): Touched {
  const ids = new Set<string>();
  const faults = new Map<string, string>();
  const take = (name: string, why: string) => {
    if (!faults.has(name)) faults.set(name, why);
  };
  const idsOfSuite = (suite: string) => {
    const out = new Set<string>();
    for (const [file, names] of ctx.testIds)
      if (file.startsWith(`suites/${suite}/`)) for (const id of names) out.add(id);
    return out;
  };
  const why = new Map<string, string>();
  const touch = (id: string, file: string) => {
    ids.add(id);
    if (!why.has(id)) why.set(id, file);
  };
  const statementsChanged = new Set<string>();
  for (const file of changed) {
    const suite = /^suites\/([^/]+)\//.exec(file)?.[1];
    if (suite && suite !== 'lib') {
      const named = file.endsWith('.test.ts')
        ? ctx.testIds.get(file)
        : file.endsWith('.cases.yaml')
          ? (ctx.caseIds.get(file) ?? idsOfSuite(suite))
          : idsOfSuite(suite);
      for (const id of named ?? []) touch(id, file);
    } else if (isRequirementsFile(file)) {
      for (const id of ctx.changedEntries(file)) touch(id, file);
    } else if (isStatementsPath(file)) {
      for (const id of ctx.changedEntries(file)) statementsChanged.add(id);
    } else if (isSwitchTable(file)) {
      for (const [name, table] of ctx.tableOf) if (table === file) take(name, `declared in ${file}`);
    } else {
      const area = referenceArea(file);
      if (area)
        for (const [name, table] of ctx.tableOf) if (inArea(table, area)) take(name, `its area's ${file} changed`);
    }
  }
  for (const [req, statements] of ctx.statementsOf)
    for (const s of statements) if (statementsChanged.has(s)) touch(req, `statement ${s}`);
  for (const f of ctx.faults) {
    if (ids.has(f.breaks)) take(f.name, `its requirement ${f.breaks} (${why.get(f.breaks)})`);
    for (const s of f.statements ?? []) if (statementsChanged.has(s)) take(f.name, `its statement ${s}`);
    if (ctx.published && !ctx.published.has(f.name)) take(f.name, 'not in the published proof yet');
  }
  return { ids, faults };
}

/** A small seeded generator (mulberry32): the same seed draws the same sample. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `n` names of `from` drawn with `seed`, in name order. */
export function sample(from: readonly string[], n: number, seed: number): string[] {
  const pool = [...from].sort();
  const next = seeded(seed);
  for (let i = pool.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [pool[i], pool[j]] = [pool[j]!, pool[i]!];
  }
  return pool.slice(0, Math.max(0, n)).sort();
}

/** The default seed: the day (UTC), so the sample rotates daily and a day's runs agree. */
export const daySeed = (now = new Date()) => Number(now.toISOString().slice(0, 10).replace(/-/g, ''));

function git(args: string[]): string {
  return execFileSync('git', args, { cwd: PACKAGE_ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/**
 * The files moved since `ref`, new path → the path at `ref` (git's rename detection), so that a
 * moved requirements or statements file is compared with its own past, not counted as all new.
 */
export function movedSince(ref: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of git(['diff', '--name-status', '-M', ref, '--']).split('\n')) {
    const [status, from, to] = line.split('\t');
    if (status?.startsWith('R') && from && to) out.set(to, from);
  }
  return out;
}

/** Files changed since `ref`: committed, staged, in the working tree, and new (project-relative). */
export function changedSince(ref: string): string[] {
  try {
    git(['rev-parse', '--verify', '--quiet', `${ref}^{commit}`]);
  } catch {
    throw new Error(
      `commit ${ref} is not in this checkout's history (a shallow clone? fetch it, or give --since <ref>)`,
    );
  }
  const lines = [
    ...git(['diff', '--name-only', ref, '--']).split('\n'),
    ...git(['ls-files', '--others', '--exclude-standard']).split('\n'),
  ];
  return [...new Set(lines.map((l) => l.trim()).filter(Boolean))].sort();
}

/** The entries (objects with an `id`) of a YAML document, by id, as JSON text. */
function entries(text: string | undefined): Map<string, string> {
  const out = new Map<string, string>();
  if (text === undefined) return out;
  const walk = (v: unknown) => {
    if (Array.isArray(v)) for (const x of v) walk(x);
    else if (v && typeof v === 'object') {
      const id = (v as { id?: unknown }).id;
      if (typeof id === 'string') out.set(id, JSON.stringify(v));
      else for (const x of Object.values(v)) walk(x);
    }
  };
  try {
    walk(parseYaml(text));
  } catch {
    /* an unparsable file: every entry of the other side counts as changed */
  }
  return out;
}

/**
 * The ids of the entries of `file` that differ between `ref` and the working tree (added, changed,
 * removed); `before` is the file's path at `ref` when it was moved since.
 */
export function changedEntries(ref: string, file: string, before: string = file): string[] {
  let then: string | undefined;
  try {
    then = git(['show', `${ref}:${before}`]);
  } catch {
    then = undefined;
  }
  const path = join(PACKAGE_ROOT, file);
  const a = entries(then);
  const b = entries(existsSync(path) ? readFileSync(path, 'utf8') : undefined);
  return [...new Set([...a.keys(), ...b.keys()])].filter((id) => a.get(id) !== b.get(id)).sort();
}

/** Each fault's switch table (the file under reference/ that names it; switch-sites.test.ts keeps it one). */
export function switchTables(faults: readonly FaultSpec[]): Map<string, string> {
  const tables: string[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(join(PACKAGE_ROOT, dir), { withFileTypes: true })) {
      const p = `${dir}/${e.name}`;
      if (e.isDirectory()) walk(p);
      else if (isSwitchTable(p) && p.endsWith('.ts')) tables.push(p);
    }
  };
  walk('reference');
  const text = new Map(tables.map((t) => [t, readFileSync(join(PACKAGE_ROOT, t), 'utf8')]));
  const out = new Map<string, string>();
  for (const f of faults)
    for (const [t, body] of text)
      if (body.includes(`'${f.name}'`)) {
        out.set(f.name, t);
        break;
      }
  return out;
}

/** Case table → the requirement ids generated/conformance-index.yaml lists it for. */
export function caseTables(): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  const file = join(PACKAGE_ROOT, 'generated/conformance-index.yaml');
  if (!existsSync(file)) return out;
  const index = parseYaml(readFileSync(file, 'utf8')) as Record<string, { cases?: string[] } | undefined>;
  for (const [id, entry] of Object.entries(index ?? {}))
    for (const table of entry?.cases ?? []) out.set(table, new Set([...(out.get(table) ?? []), id]));
  return out;
}

/** What `--changed` runs: the touched faults and the sample, and why. */
export interface ChangedChoice {
  since: string;
  changed: string[];
  /** Touched faults, with the reason each was taken for. */
  touched: Map<string, string>;
  sampled: string[];
  faults: FaultSpec[];
}

/**
 * The faults of `candidates` a change since `since` touched, plus `sample` others drawn with
 * `seed`. `clean` is the traced clean run's tests (which requirements each test file names).
 */
export function chooseChanged(
  opts: { since: string; sample: number; seed: number },
  candidates: readonly FaultSpec[],
  clean: readonly { file: string; ids: string[]; kind?: string }[],
  catalogue: Iterable<{ id: string; statements?: readonly string[] }>,
  published?: ReadonlySet<string>,
): ChangedChoice {
  const changed = changedSince(opts.since);
  const moved = movedSince(opts.since);
  const testIds = new Map<string, Set<string>>();
  for (const t of clean) {
    if (t.kind === 'schema') continue;
    const ids = testIds.get(t.file) ?? new Set<string>();
    for (const id of t.ids) ids.add(id);
    testIds.set(t.file, ids);
  }
  const touched = touchedBy(changed, {
    testIds,
    caseIds: caseTables(),
    changedEntries: (file) => changedEntries(opts.since, file, moved.get(file)),
    faults: candidates,
    tableOf: switchTables(candidates),
    statementsOf: new Map([...catalogue].map((r) => [r.id, r.statements ?? []])),
    published,
  }).faults;
  const rest = candidates.filter((f) => !touched.has(f.name)).map((f) => f.name);
  const sampled = sample(rest, opts.sample, opts.seed);
  const chosen = new Set([...touched.keys(), ...sampled]);
  return { since: opts.since, changed, touched, sampled, faults: candidates.filter((f) => chosen.has(f.name)) };
}
