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

/** The set-up file as its compiled file where there is one. */
export function compiledSetupFile(tree: CompiledTree | undefined, path: string): string {
  return (tree && compiledFile(tree, new Set(tree.sources), path)) ?? path;
}

/** Resolves the relative imports of compiled sources to their compiled files. */
export function compiledModulesPlugin(tree: CompiledTree): Plugin {
  const sources = new Set(tree.sources);
  return {
    name: 'svc-conformance:compiled-modules',
    enforce: 'pre',
    resolveId(source, importer) {
      if (!importer || !source.startsWith('.') || !importer.startsWith(PACKAGE_ROOT + sep)) return null;
      return compiledFile(tree, sources, resolve(dirname(importer), source.replace(/\.js$/, '.ts'))) ?? null;
    },
  };
}
