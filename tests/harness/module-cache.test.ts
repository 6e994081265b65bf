import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { moduleCacheFolder, moduleCacheOptions } from '../../harness/cli/module-cache.js';

const saved = { dir: process.env.CONFORMANCE_CACHE_DIR, off: process.env.CONFORMANCE_CACHE };
let dir: string;
let root: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'module-cache-test-'));
  root = dir; // a package root of its own: tsconfig.json and package.json, no lockfile yet
  process.env.CONFORMANCE_CACHE_DIR = join(dir, 'cache');
  delete process.env.CONFORMANCE_CACHE;
  writeFileSync(join(dir, 'placeholder'), '');
  writeFileSync(join(root, 'tsconfig.json'), '{"compilerOptions":{"target":"ES2022"}}');
  writeFileSync(join(root, 'package.json'), '{"type":"module"}');
});

afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
  for (const [name, value] of [
    ['CONFORMANCE_CACHE_DIR', saved.dir],
    ['CONFORMANCE_CACHE', saved.off],
  ] as const) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

describe("vitest's module cache for conformance runs", () => {
  it('lives in a folder of its own per tsconfig, package and lockfile contents', () => {
    const first = moduleCacheFolder(root);
    expect(first.startsWith(join(dir, 'cache'))).toBe(true);
    expect(moduleCacheFolder(root), 'stable').toBe(first);
    writeFileSync(join(root, 'tsconfig.json'), '{"compilerOptions":{"target":"ES2020"}}');
    const second = moduleCacheFolder(root);
    expect(second, 'another tsconfig, another folder').not.toBe(first);
    writeFileSync(join(root, 'package-lock.json'), '{}');
    expect(moduleCacheFolder(root), 'a lockfile appears').not.toBe(second);
  });

  it('is on in a writable cache folder, off with CONFORMANCE_CACHE=off or an unwritable folder', () => {
    expect(moduleCacheOptions(root)).toEqual({ fsModuleCache: true, fsModuleCachePath: moduleCacheFolder(root) });
    process.env.CONFORMANCE_CACHE = 'off';
    expect(moduleCacheOptions(root)).toEqual({ fsModuleCache: false });
    delete process.env.CONFORMANCE_CACHE;
    process.env.CONFORMANCE_CACHE_DIR = join(dir, 'placeholder', 'cache'); // under a file: not writable
    expect(moduleCacheOptions(root)).toEqual({ fsModuleCache: false });
  });
});
