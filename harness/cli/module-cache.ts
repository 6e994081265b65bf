/**
 * vitest's on-disk cache of transformed modules (`experimental.fsModuleCache`) for conformance
 * runs. The main process transforms every TypeScript module the workers and the global setup load
 * (the suites, the harness, the reference), ~2 s of CPU per run on the same unchanged files.
 *
 * vitest keys each module by its path, its content, the vite config and its cache format; it does
 * not see the tsconfig the transform reads, and clears the folder when the lockfile changes (which
 * an installed package may not have). So the cache gets a folder of its own per tsconfig,
 * package.json and lockfile contents and vitest, vite and rolldown versions: a change to any of
 * them starts an empty folder instead of reading one made under other settings. Runs of checkouts
 * with other settings that share the cache folder then never clear each other's folder mid-run.
 *
 * Off with the project's other caches (`CONFORMANCE_CACHE=off`), and when the folder cannot be
 * written (vitest would fail the run writing into it).
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cacheDir, cacheEnabled, cacheKey, packageVersion } from '../disk-cache.js';
import { PACKAGE_ROOT } from '../process.js';

export interface ModuleCacheOptions {
  fsModuleCache: boolean;
  fsModuleCachePath?: string;
}

function fileHash(path: string): string {
  try {
    return createHash('sha256').update(readFileSync(path)).digest('hex');
  } catch {
    return '(none)';
  }
}

function versionOf(name: string): string {
  try {
    return packageVersion(name);
  } catch {
    return '(not found)';
  }
}

/** The folder for the transformed modules of this package's current settings. */
export function moduleCacheFolder(root = PACKAGE_ROOT): string {
  const key = cacheKey(
    ...['tsconfig.json', 'package.json', 'package-lock.json'].map((f) => `${f}:${fileHash(join(root, f))}`),
    ...['vitest', 'vite', 'rolldown'].map((p) => `${p}@${versionOf(p)}`),
  );
  return join(cacheDir(), `vitest-modules-${key}`);
}

function writable(folder: string): boolean {
  try {
    mkdirSync(folder, { recursive: true });
    const probe = join(folder, `.probe-${process.pid}`);
    writeFileSync(probe, '');
    rmSync(probe);
    return true;
  } catch {
    return false;
  }
}

/** vitest's `experimental` options for a conformance run. */
export function moduleCacheOptions(root = PACKAGE_ROOT): ModuleCacheOptions {
  if (!cacheEnabled()) return { fsModuleCache: false };
  const folder = moduleCacheFolder(root);
  return writable(folder) ? { fsModuleCache: true, fsModuleCachePath: folder } : { fsModuleCache: false };
}
