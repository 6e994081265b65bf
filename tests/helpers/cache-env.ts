/**
 * The cache settings (CONFORMANCE_CACHE_DIR, CONFORMANCE_CACHE) as a test found them, so a test
 * that points the caches at a folder of its own puts them back afterwards.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';

const NAMES = ['CONFORMANCE_CACHE_DIR', 'CONFORMANCE_CACHE'] as const;

export function saveCacheEnv(): () => void {
  const saved = NAMES.map((name) => [name, process.env[name]] as const);
  return () => {
    for (const [name, value] of saved) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  };
}

/**
 * Each test of the calling file with a temporary folder of its own (returned by the getter) whose
 * `cache/` is the cache folder, cache on; both removed and the settings put back after the test.
 */
export function useFreshCacheDir(prefix: string): () => string {
  const restore = saveCacheEnv();
  let dir = '';
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), prefix));
    process.env.CONFORMANCE_CACHE_DIR = join(dir, 'cache');
    delete process.env.CONFORMANCE_CACHE;
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
    restore();
  });
  return () => dir;
}
