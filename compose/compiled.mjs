// The package's TypeScript compiled once to JavaScript, file by file, so that a start costs node's
// plain loading instead of a TypeScript loader on every module:
// - the command line (compose/cli.ts) and the embedded reference's thread (reference/start.ts)
//   import their compiled files instead of registering tsx (whose loader costs ~1.2 s of CPU per
//   start for the command line's modules);
// - the run's workers import the harness compiled (harness/cli/compiled-modules.ts points vitest's
//   runner at it) instead of having vitest transform each module in the main process and fetch it
//   over its RPC, one import after another.
// Nothing is bundled: each source module is exactly one compiled module, so a process holds one
// instance of each, whoever imports it.
//
// The compiled files live in the cache folder of harness/cache/disk-cache.ts
// (`node_modules/.cache/svc-conformance/`, `CONFORMANCE_CACHE_DIR`), in a folder named by a hash of
// what they are made from: every source file's name and contents, tsconfig.json, esbuild's version
// and this file. So an edited source is never run stale: the next start compiles again (~0.5 s).
// Several processes starting at once may each compile; each writes its own folder and renames it
// into place, and a folder once in place is never changed. Folders unused for an hour are removed.
//
// Each compiled module keeps its source's URL as `import.meta.url`: the harness finds its data
// (spec/, the catalogue, generated/) and hashes its own source relative to it.
//
// Nothing here is needed for a run to work: `CONFORMANCE_CACHE=off`, an unwritable folder, a
// missing esbuild or a failed compile gives `null`, and the caller loads the source through tsx.
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const PACKAGE_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
/** The folders compiled: everything a run loads but the test files (vitest's runner loads those). */
const SOURCE_DIRS = ['compose', 'contract', 'fixtures', 'harness', 'reference', 'suites'];
const STALE_AFTER_MS = 60 * 60_000;
const requireHere = createRequire(import.meta.url);
const META_URL = /\bimport\.meta\.url\b/g;

function cacheFolder(root) {
  return process.env.CONFORMANCE_CACHE_DIR || join(root, 'node_modules/.cache/svc-conformance');
}

/**
 * Where the compiled trees go: the cache folder, unless the package's dependencies cannot be
 * found from there (a CONFORMANCE_CACHE_DIR outside the package: a compiled module's imports of
 * its libraries would not resolve), then the package's own cache folder.
 */
function cacheRoot(root) {
  const chosen = join(cacheFolder(root), 'compiled');
  return dependenciesResolveFrom(root, chosen) ? chosen : join(root, 'node_modules/.cache/svc-conformance/compiled');
}

/** Whether a module in `dir` finds the package's dependencies (commander stands for them all). */
function dependenciesResolveFrom(root, dir) {
  let fromPackage;
  try {
    fromPackage = createRequire(join(root, 'package.json')).resolve('commander');
  } catch {
    return true; /* a package without them (the project's tests compile such): nothing to find */
  }
  try {
    return createRequire(join(dir, 'x.js')).resolve('commander') === fromPackage;
  } catch {
    return false;
  }
}

/** Node's compile cache of this package's runs (enableNodeCompileCache). */
function nodeCompileCacheDir(root) {
  return join(cacheFolder(root), 'node-compile');
}

function isSource(rel) {
  return rel.endsWith('.ts') && !rel.endsWith('.test.ts') && !rel.endsWith('.d.ts');
}

function sourcesOf(root, dir, out) {
  let entries;
  try {
    entries = readdirSync(join(root, dir), { withFileTypes: true });
  } catch {
    return; /* a folder the package does not have */
  }
  for (const entry of entries) {
    const rel = `${dir}/${entry.name}`;
    if (entry.isDirectory()) sourcesOf(root, rel, out);
    else if (isSource(rel)) out.push(rel);
  }
}

function keyOf(root, sources) {
  const h = createHash('sha256');
  h.update(readFileSync(fileURLToPath(import.meta.url))).update('\0');
  h.update(requireHere('esbuild/package.json').version).update('\0');
  for (const file of ['tsconfig.json', ...sources]) {
    h.update(file)
      .update('\0')
      .update(readFileSync(join(root, file)))
      .update('\0');
  }
  return h.digest('hex').slice(0, 24);
}

async function compileOne(transform, tsconfigRaw, root, rel, outDir) {
  const source = join(root, rel);
  const out = join(outDir, rel.replace(/\.ts$/, '.js'));
  const code = readFileSync(source, 'utf8').replace(META_URL, JSON.stringify(pathToFileURL(source).href));
  const result = await transform(code, {
    loader: 'ts',
    format: 'esm',
    // The oldest Node `engines` accepts: a tree compiled under a newer Node runs on every one.
    target: 'node20.19',
    sourcemap: 'external',
    sourcefile: relative(dirname(out), source),
    sourcesContent: false,
    tsconfigRaw,
  });
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, `${result.code}//# sourceMappingURL=${basename(out)}.map\n`);
  writeFileSync(`${out}.map`, result.map);
}

async function compile(root, sources, dir) {
  const { transform } = await import('esbuild');
  const folder = dirname(dir);
  mkdirSync(folder, { recursive: true });
  const scratch = join(folder, `.scratch-${process.pid}-${randomBytes(4).toString('hex')}`);
  const tsconfigRaw = readFileSync(join(root, 'tsconfig.json'), 'utf8');
  try {
    await Promise.all(sources.map((rel) => compileOne(transform, tsconfigRaw, root, rel, scratch)));
    // The tree lies under node_modules/, where node stops looking for the package's package.json:
    // without one of its own every compiled file is of no declared type, and node would parse each
    // twice (as CommonJS, then as the ES module it is) in every process that loads it.
    mkdirSync(scratch, { recursive: true });
    writeFileSync(join(scratch, 'package.json'), '{ "type": "module" }\n');
    try {
      renameSync(scratch, dir);
    } catch {
      /* another process put the same compile in place first */
    }
    // Node keeps its compiled code by file path: what it kept for older compiled folders is never
    // read again (they are removed within the hour). Cleared here, it is written afresh by the
    // runs that use the new folder (a NODE_COMPILE_CACHE of the user's own is not this folder).
    rmSync(nodeCompileCacheDir(root), { recursive: true, force: true });
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  for (const entry of readdirSync(folder)) {
    const path = join(folder, entry);
    if (path === dir) continue;
    try {
      if (Date.now() - statSync(path).mtimeMs > STALE_AFTER_MS) rmSync(path, { recursive: true, force: true });
    } catch {
      /* another process removed it */
    }
  }
}

/**
 * The compiled sources of the package at `root` (this one by default), compiled first when a source
 * changed: `{ dir, sources }` (dir laid out as the package: harness/x.ts -> dir/harness/x.js;
 * sources relative to the package root), or null when they cannot be.
 */
export async function compiledTree(root = PACKAGE_ROOT) {
  if (process.env.CONFORMANCE_CACHE === 'off') return null;
  try {
    const sources = [];
    for (const d of SOURCE_DIRS) sourcesOf(root, d, sources);
    sources.sort();
    const dir = join(cacheRoot(root), keyOf(root, sources));
    try {
      statSync(dir);
    } catch {
      await compile(root, sources, dir);
    }
    try {
      // Marked as used: only folders unused for an hour are removed (a long run may still load
      // modules from its folder after another process compiled a newer one).
      const now = new Date();
      utimesSync(dir, now, now);
    } catch {
      /* a folder this user cannot write: nothing removes it either */
    }
    return { dir, sources };
  } catch {
    return null;
  }
}

/**
 * Imports the compiled form of `entry` (relative to the package root), or returns null when there
 * is none (the caller then registers tsx and imports the source). The tree is left on globalThis
 * for the run's workers (harness/cli/compiled-modules.ts) and the threads the run starts, which
 * are handed it (`known`) instead of hashing every source again.
 */
export async function importCompiled(entry, known) {
  const tree = known ?? (await compiledTree());
  if (!tree) return null;
  globalThis.__conformanceCompiledTree = tree;
  process.setSourceMapsEnabled?.(true);
  return import(pathToFileURL(join(tree.dir, entry.replace(/\.ts$/, '.js'))).href);
}

/**
 * Imports `entry` (relative to the package root) compiled, or else its source through tsx's
 * loader, registered here: what a thread of the run loads (it starts without its parent's loaders).
 */
export async function importCompiledOrSource(entry, known) {
  const compiled = await importCompiled(entry, known);
  if (compiled) return compiled;
  const { register } = await import('tsx/esm/api');
  register();
  return import(new URL(`../${entry}`, import.meta.url).href);
}

/**
 * Node's own on-disk cache of compiled code (Node >= 22.1; Node 20 has none and this does
 * nothing): V8 then reads what it compiled on an earlier start instead of parsing and compiling
 * every module again, vitest's and the libraries' as well as this package's (~100 ms less for
 * the first test on two cores). Enabled in this process and, through NODE_COMPILE_CACHE, in the
 * run's workers and threads; node checks each entry against the file's contents, so it is never
 * stale. A NODE_COMPILE_CACHE of the user's own is used as it is and never cleared;
 * `CONFORMANCE_CACHE=off` and NODE_DISABLE_COMPILE_CACHE turn it off.
 */
export function enableNodeCompileCache(root = PACKAGE_ROOT) {
  const { enableCompileCache } = requireHere('node:module');
  if (!enableCompileCache || process.env.CONFORMANCE_CACHE === 'off' || process.env.NODE_DISABLE_COMPILE_CACHE) return;
  process.env.NODE_COMPILE_CACHE ||= nodeCompileCacheDir(root);
  try {
    enableCompileCache(process.env.NODE_COMPILE_CACHE);
  } catch {
    /* an unwritable folder: only the time is lost */
  }
}
