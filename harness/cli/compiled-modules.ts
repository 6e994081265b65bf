/**
 * The run's workers load the harness compiled (compose/compiled.mjs) rather than through vitest's
 * module runner.
 *
 * Through the runner every module a worker imports is transformed in the main process and fetched
 * over its RPC, one import after another: for the ~150 modules a suite file imports that was most
 * of the time to the first test, with every process mostly idle. Here only the test files go
 * through the runner: a resolver points their imports of compiled sources (and the set-up file's)
 * at the compiled files, which vitest loads natively as external modules, and those import each
 * other natively. Each source is one compiled module, so a worker still holds one instance of each.
 *
 * The command line compiles the tree when it starts and leaves it on globalThis; without it
 * (`npm test`, `CONFORMANCE_CACHE=off`, a failed compile) the runner loads the sources as before.
 */
import { readFileSync, realpathSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import type { Plugin } from 'vite';
import { PACKAGE_ROOT } from '../spec/paths.js';

export interface CompiledTree {
  /** Laid out as the package: harness/x.ts is DIR/harness/x.js. */
  dir: string;
  /** The compiled sources, relative to the package root, '/'-separated. */
  sources: readonly string[];
}

/** The tree the command line compiled, if it did. */
export function compiledTree(): CompiledTree | undefined {
  return (globalThis as { __conformanceCompiledTree?: CompiledTree }).__conformanceCompiledTree;
}

/** The compiled file of a compiled source (absolute path), or undefined. */
function compiledFile(tree: CompiledTree, sources: ReadonlySet<string>, path: string): string | undefined {
  const rel = relative(PACKAGE_ROOT, path).split(sep).join('/');
  return sources.has(rel) ? join(tree.dir, rel.replace(/\.ts$/, '.js')) : undefined;
}

function reachedWithoutLinks(dir: string): boolean {
  try {
    return realpathSync(dir) === resolve(dir);
  } catch {
    // Not there (yet): nothing to say it is reached through a link.
    return true;
  }
}

/** The set-up file as its compiled file where there is one. */
export function compiledSetupFile(tree: CompiledTree | undefined, path: string): string {
  // vitest runs a set-up file again before each test file only when its runner loads it (the
  // plugin below); vite names a file by its real path, so a tree reached through a link (a
  // symlinked node_modules) would escape the plugin and be loaded natively, once per worker, and
  // every later file of the worker would skip it.
  if (!tree || !reachedWithoutLinks(tree.dir)) return path;
  return compiledFile(tree, new Set(tree.sources), path) ?? path;
}

/**
 * A compiled file that vitest's runner loads itself (the set-up file), with its source map: the
 * map's sources as absolute paths and their contents. vite fills a map's missing contents only
 * from inside the map's package, and the tree lies in node_modules/.cache: it would warn, on
 * every run, that the map "points to a source file outside its package". Undefined when the
 * file or its map cannot be read (then vite reads the file itself).
 */
export function loadCompiledWithMap(file: string): { code: string; map: string } | undefined {
  try {
    const code = readFileSync(file, 'utf8');
    const map = JSON.parse(readFileSync(`${file}.map`, 'utf8')) as { sources: string[]; sourcesContent?: string[] };
    const sources = map.sources.map((s) => resolve(dirname(file), s));
    const sourcesContent = sources.map((s) => readFileSync(s, 'utf8'));
    return {
      code: code.replace(/\/\/# sourceMappingURL=\S*\s*$/, ''),
      map: JSON.stringify({ ...map, sources, sourcesContent }),
    };
  } catch {
    return undefined;
  }
}

/** Resolves the relative imports of compiled sources to their compiled files, and loads them with their maps. */
export function compiledModulesPlugin(tree: CompiledTree): Plugin {
  const sources = new Set(tree.sources);
  return {
    name: 'svc-conformance:compiled-modules',
    enforce: 'pre',
    resolveId(source, importer) {
      if (!importer || !source.startsWith('.') || !importer.startsWith(PACKAGE_ROOT + sep)) return null;
      return compiledFile(tree, sources, resolve(dirname(importer), source.replace(/\.js$/, '.ts'))) ?? null;
    },
    load(id) {
      if (!id.startsWith(tree.dir + sep) || !id.endsWith('.js')) return null;
      return loadCompiledWithMap(id) ?? null;
    },
  };
}
