/**
 * A small on-disk cache for what every worker would otherwise rebuild from the same files (the
 * dereferenced OpenAPI documents, the parsed catalogue): keyed by a hash of the source files'
 * names and contents, so an edited spec or catalogue is never served stale. Any problem with the
 * cache (unwritable, corrupt) falls back to building, silently: the cache only saves time.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const CACHE_DIR =
  process.env.CONFORMANCE_CACHE_DIR ??
  resolve(dirname(fileURLToPath(import.meta.url)), '../node_modules/.cache/svc-conformance');

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

export async function cached<T>(name: string, key: string, build: () => Promise<T> | T): Promise<T> {
  if (process.env.CONFORMANCE_CACHE === 'off') return build();
  const file = join(CACHE_DIR, `${name}-${key}.json`);
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as T;
  } catch {
    /* not cached yet */
  }
  const value = await build();
  try {
    mkdirSync(CACHE_DIR, { recursive: true });
    // Written aside then renamed: concurrent workers never read a half-written file.
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify(value));
    renameSync(tmp, file);
  } catch {
    /* a read-only tree or circular value: build next time too */
  }
  return value;
}

export function cachedSync<T>(name: string, key: string, build: () => T): T {
  if (process.env.CONFORMANCE_CACHE === 'off') return build();
  const file = join(CACHE_DIR, `${name}-${key}.json`);
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as T;
  } catch {
    /* not cached yet */
  }
  const value = build();
  try {
    mkdirSync(CACHE_DIR, { recursive: true });
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify(value));
    renameSync(tmp, file);
  } catch {
    /* build next time too */
  }
  return value;
}
