/**
 * A small on-disk cache for what every worker would otherwise rebuild from the same files (the
 * dereferenced OpenAPI documents, the parsed catalogue, the schema requirements, the compiled
 * response validators). A value is keyed by a hash of everything it is made from: the source
 * files' names and contents, and where the way it is made can change, the generating module's own
 * source and the versions of the libraries it uses (`cacheKey`, `sourceHash`, `packageVersion`),
 * so an edited spec, catalogue, generator or library is never served stale.
 *
 * Any problem with the cache (unwritable, corrupt) falls back to building, silently: the cache
 * only saves time. `CONFORMANCE_CACHE=off` bypasses it, `CONFORMANCE_CACHE_DIR` moves it (both
 * read at each use, so a test can point it elsewhere).
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { threadId } from 'node:worker_threads';
import { PACKAGE_ROOT } from '../spec/paths.js';

const DEFAULT_DIR = join(PACKAGE_ROOT, 'node_modules/.cache/svc-conformance');

function cacheDir(): string {
  return process.env.CONFORMANCE_CACHE_DIR || DEFAULT_DIR;
}

export function cacheEnabled(): boolean {
  return process.env.CONFORMANCE_CACHE !== 'off';
}

/** One key from several parts (hashes, versions, options): a change in any part changes the key. */
export function cacheKey(...parts: string[]): string {
  const h = createHash('sha256');
  for (const p of parts) h.update(p).update('\0');
  return h.digest('hex').slice(0, 24);
}

/** Hash of every file of `dir` matching `pattern` (names and contents). */
export function contentHash(dir: string, pattern: RegExp): string {
  const h = createHash('sha256');
  for (const f of readdirSync(dir)
    .filter((n) => pattern.test(n))
    .sort()) {
    h.update(f)
      .update('\0')
      .update(readFileSync(join(dir, f)))
      .update('\0');
  }
  return h.digest('hex').slice(0, 24);
}

/** Hash of the files `files` (paths relative to `root`): their names and contents, in the order given. */
export function filesHash(root: string, files: readonly string[]): string {
  const h = createHash('sha256');
  for (const f of files)
    h.update(f)
      .update('\0')
      .update(readFileSync(join(root, f)))
      .update('\0');
  return h.digest('hex').slice(0, 24);
}

/**
 * Hash of a module's own source (pass its `import.meta.url`): the version of the code that builds
 * a cached value, so a change to the generator is never answered with what the old one built.
 */
export function sourceHash(moduleUrl: string): string {
  return createHash('sha256')
    .update(readFileSync(fileURLToPath(moduleUrl)))
    .digest('hex')
    .slice(0, 24);
}

const requireHere = createRequire(import.meta.url);

/** The installed version of a library whose output is cached (ajv, yaml, the OpenAPI parser). */
export function packageVersion(name: string): string {
  return (requireHere(`${name}/package.json`) as { version: string }).version;
}

function fileOf(name: string, key: string, ext: string): string {
  return join(cacheDir(), `${name}-${key}.${ext}`);
}

function readCached(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined; /* not cached yet */
  }
}

function writeCached(file: string, text: string, mode?: number): void {
  try {
    mkdirSync(dirname(file), { recursive: true });
    // Written aside then renamed: concurrent workers never read a half-written file. The thread
    // too: the command line, the reference's and the directory's threads share one process.
    const tmp = `${file}.${process.pid}.${threadId}.tmp`;
    // A mode applies only to a file being created: never reuse one a crashed run left behind.
    if (mode !== undefined) rmSync(tmp, { force: true });
    writeFileSync(tmp, text, mode === undefined ? undefined : { mode });
    renameSync(tmp, file);
  } catch {
    /* a read-only tree: build next time too */
  }
}

function parsed<T>(text: string | undefined): { value: T } | undefined {
  if (text === undefined) return undefined;
  try {
    return { value: JSON.parse(text) as T };
  } catch {
    return undefined; /* corrupt: rebuilt and rewritten */
  }
}

function stringified(value: unknown): string | undefined {
  try {
    return JSON.stringify(value);
  } catch {
    return undefined; /* a circular value: not cacheable */
  }
}

export interface CachedOptions<T> {
  /** Kept in a file only its owner can read (key material). */
  private?: boolean;
  /** Whether a stored value may still be served (one that expires); if not, it is built again. */
  usable?: (value: T) => boolean;
}

export async function cached<T>(
  name: string,
  key: string,
  build: () => Promise<T> | T,
  opts: CachedOptions<T> = {},
): Promise<T> {
  if (!cacheEnabled()) return build();
  const file = fileOf(name, key, 'json');
  const hit = parsed<T>(readCached(file));
  if (hit && (opts.usable?.(hit.value) ?? true)) return hit.value;
  const value = await build();
  const text = stringified(value);
  if (text !== undefined) writeCached(file, text, opts.private ? 0o600 : undefined);
  return value;
}

export function cachedSync<T>(name: string, key: string, build: () => T): T {
  if (!cacheEnabled()) return build();
  const file = fileOf(name, key, 'json');
  const hit = parsed<T>(readCached(file));
  if (hit) return hit.value;
  const value = build();
  const text = stringified(value);
  if (text !== undefined) writeCached(file, text);
  return value;
}

/**
 * Text (generated code) cached as it is. `use` turns the text into the value; when it throws on a
 * cached text (a corrupt or truncated file), the text is built again and the file rewritten.
 */
export function cachedText<T>(
  name: string,
  key: string,
  ext: string,
  build: () => string,
  use: (text: string) => T,
): T {
  if (cacheEnabled()) {
    const text = readCached(fileOf(name, key, ext));
    if (text !== undefined) {
      try {
        return use(text);
      } catch {
        /* corrupt: built again below */
      }
    }
  }
  const text = build();
  const value = use(text);
  if (cacheEnabled()) writeCached(fileOf(name, key, ext), text);
  return value;
}
