/**
 * The package's TypeScript compiled once (compose/compiled.mjs) and the resolver that points a
 * run's workers at it (harness/cli/compiled-modules.ts): never stale, one compiled module per
 * source, the data found where the source is, and nothing compiled when the cache is off.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { compiledTree } from '../../compose/compiled.mjs';
import { compiledModulesPlugin, compiledSetupFile, loadCompiledWithMap } from '../../harness/cli/compiled-modules.js';
import { PACKAGE_ROOT } from '../../harness/spec/paths.js';
import { saveCacheEnv } from '../helpers/cache-env.js';

const restoreCacheEnv = saveCacheEnv();
let root: string;

function write(rel: string, text: string): void {
  mkdirSync(dirname(join(root, rel)), { recursive: true });
  writeFileSync(join(root, rel), text);
}

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'compiled-test-'));
  process.env.CONFORMANCE_CACHE_DIR = join(root, 'cache');
  delete process.env.CONFORMANCE_CACHE;
  write('tsconfig.json', '{ "compilerOptions": { "target": "ES2022", "module": "NodeNext" } }');
  write('harness/where.ts', 'export const where: string = import.meta.url;\nexport const n = 1 as number;\n');
  write('harness/uses.ts', "import { n } from './where.js';\nexport const twice = (): number => n * 2;\n");
  write('suites/a/a.test.ts', 'throw new Error("a test file is never compiled");\n');
});

afterEach(() => {
  rmSync(root, { recursive: true, force: true });
  restoreCacheEnv();
});

describe('compiledTree', () => {
  it('compiles every source but the test files, each to its own module, keeping its source URL', async () => {
    const tree = await compiledTree(root);
    expect(tree?.sources).toEqual(['harness/uses.ts', 'harness/where.ts']);
    const where = await import(pathToFileURL(join(tree!.dir, 'harness/where.js')).href);
    expect(where.where).toBe(pathToFileURL(join(root, 'harness/where.ts')).href);
    const uses = await import(pathToFileURL(join(tree!.dir, 'harness/uses.js')).href);
    expect(uses.twice()).toBe(2);
    expect(readFileSync(join(tree!.dir, 'harness/uses.js'), 'utf8')).toMatch(/sourceMappingURL=uses\.js\.map/);
    // Under node_modules/ node finds no package.json above the tree: without its own, every file
    // would be parsed as CommonJS first.
    expect(JSON.parse(readFileSync(join(tree!.dir, 'package.json'), 'utf8')), 'declares its files ES modules').toEqual({
      type: 'module',
    });
  });

  it('stays where the package’s dependencies resolve when CONFORMANCE_CACHE_DIR is outside the package', async () => {
    write('node_modules/commander/package.json', '{ "name": "commander", "main": "index.js" }');
    write('node_modules/commander/index.js', 'exports.v = 42;\n');
    write('harness/dep.ts', "import { v } from 'commander';\nexport const got: number = v;\n");
    const outside = mkdtempSync(join(tmpdir(), 'compiled-outside-'));
    process.env.CONFORMANCE_CACHE_DIR = outside;
    try {
      const tree = await compiledTree(root);
      expect(tree!.dir.startsWith(join(root, 'node_modules/.cache/svc-conformance/compiled'))).toBe(true);
      const dep = await import(pathToFileURL(join(tree!.dir, 'harness/dep.js')).href);
      expect(dep.got).toBe(42);
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });

  it('hands vitest a compiled file it loads itself with its map: sources absolute, their contents in it', async () => {
    // vite fills a map's missing contents only from inside the map's package (the tree is under
    // node_modules/.cache): otherwise every run warns of a map pointing outside its package.
    const tree = await compiledTree(root);
    const loaded = loadCompiledWithMap(join(tree!.dir, 'harness/uses.js'));
    expect(loaded?.code).toContain('twice');
    expect(loaded?.code, 'the map is handed over, not referenced').not.toMatch(/sourceMappingURL/);
    const map = JSON.parse(loaded!.map) as { sources: string[]; sourcesContent: string[] };
    expect(map.sources).toEqual([join(root, 'harness/uses.ts')]);
    expect(map.sourcesContent).toEqual([readFileSync(join(root, 'harness/uses.ts'), 'utf8')]);
    expect(
      loadCompiledWithMap(join(tree!.dir, 'harness/none.js')),
      'a file that is not there: vite reads it',
    ).toBeUndefined();
  });

  it('compiles again after a source changed, into another folder', async () => {
    const first = await compiledTree(root);
    expect((await compiledTree(root))?.dir).toBe(first?.dir);
    write('harness/where.ts', 'export const where = "edited";\nexport const n = 3;\n');
    const second = await compiledTree(root);
    expect(second?.dir).not.toBe(first?.dir);
    const where = await import(pathToFileURL(join(second!.dir, 'harness/where.js')).href);
    expect(where.where).toBe('edited');
  });

  it('compiles nothing with CONFORMANCE_CACHE=off, nor from a source that does not compile', async () => {
    process.env.CONFORMANCE_CACHE = 'off';
    expect(await compiledTree(root)).toBeNull();
    delete process.env.CONFORMANCE_CACHE;
    write('harness/broken.ts', 'export const = ;\n');
    expect(await compiledTree(root)).toBeNull();
  });
});

describe('compiledModulesPlugin', () => {
  const tree = { dir: '/compiled', sources: ['harness/a.ts', 'suites/lib/b.ts'] };
  const resolveId = compiledModulesPlugin(tree).resolveId as (source: string, importer?: string) => string | null;

  it('points relative imports of compiled sources at their compiled files', () => {
    expect(resolveId('../../harness/a.js', join(PACKAGE_ROOT, 'suites/core/x.test.ts'))).toBe('/compiled/harness/a.js');
    expect(resolveId('../lib/b.js', join(PACKAGE_ROOT, 'suites/core/x.test.ts'))).toBe('/compiled/suites/lib/b.js');
  });

  it('leaves everything else to vitest: test files, other files, packages, imports from elsewhere', () => {
    expect(resolveId('./y.test.js', join(PACKAGE_ROOT, 'suites/core/x.test.ts'))).toBeNull();
    expect(resolveId('../../harness/c.js', join(PACKAGE_ROOT, 'suites/core/x.test.ts'))).toBeNull();
    expect(resolveId('vitest', join(PACKAGE_ROOT, 'suites/core/x.test.ts'))).toBeNull();
    expect(resolveId('./a.js', '/elsewhere/harness/x.ts')).toBeNull();
    expect(resolveId('./a.js')).toBeNull();
    const load = compiledModulesPlugin(tree).load as (id: string) => unknown;
    expect(load(join(PACKAGE_ROOT, 'suites/core/x.test.ts')), 'a file outside the tree: vite loads it').toBeNull();
  });

  it('runs the set-up file compiled when it is compiled', () => {
    expect(compiledSetupFile(tree, join(PACKAGE_ROOT, 'harness/a.ts'))).toBe('/compiled/harness/a.js');
    expect(compiledSetupFile(undefined, join(PACKAGE_ROOT, 'harness/a.ts'))).toBe(join(PACKAGE_ROOT, 'harness/a.ts'));
  });

  it('runs the set-up file from source when the tree is reached through a link (vite would load it natively)', () => {
    const real = mkdtempSync(join(tmpdir(), 'compiled-real-'));
    const linked = `${real}-link`;
    symlinkSync(real, linked);
    try {
      const source = join(PACKAGE_ROOT, 'harness/a.ts');
      expect(compiledSetupFile({ ...tree, dir: linked }, source)).toBe(source);
      expect(compiledSetupFile({ ...tree, dir: real }, source)).toBe(join(real, 'harness/a.js'));
    } finally {
      rmSync(linked, { force: true });
      rmSync(real, { recursive: true, force: true });
    }
  });
});

describe('enableNodeCompileCache', () => {
  const compiledModule = pathToFileURL(join(PACKAGE_ROOT, 'compose/compiled.mjs')).href;
  // Node >= 22.1 has a compile cache; on Node 20 there is nothing to enable.
  const nodeHasIt =
    typeof (createRequire(import.meta.url)('node:module') as { enableCompileCache?: unknown }).enableCompileCache ===
    'function';

  /** [NODE_COMPILE_CACHE, the folder node caches in] after enabling it in a fresh process. */
  function enabledIn(env: Record<string, string | undefined>): [string | null, string | null] {
    const code = `import { enableNodeCompileCache } from ${JSON.stringify(compiledModule)};
      enableNodeCompileCache(${JSON.stringify(root)});
      const m = await import('node:module');
      console.log(JSON.stringify([process.env.NODE_COMPILE_CACHE ?? null, m.getCompileCacheDir?.() ?? null]));`;
    const childEnv: Record<string, string | undefined> = {
      ...process.env,
      CONFORMANCE_CACHE_DIR: join(root, 'cache'),
      ...env,
    };
    for (const [k, v] of Object.entries(childEnv)) if (v === undefined) delete childEnv[k];
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', code], {
      env: childEnv,
      encoding: 'utf8',
      timeout: 30_000,
    });
    return JSON.parse(out) as [string | null, string | null];
  }

  it('caches in the package cache folder, for this process and the processes it starts', () => {
    const folder = join(root, 'cache', 'node-compile');
    const [env, used] = enabledIn({ NODE_COMPILE_CACHE: undefined, CONFORMANCE_CACHE: undefined });
    if (nodeHasIt) {
      expect(env).toBe(folder);
      // node keeps a folder per node version inside it
      expect(used?.startsWith(`${folder}/`)).toBe(true);
    } else {
      expect([env, used]).toEqual([null, null]);
    }
  });

  it('keeps a NODE_COMPILE_CACHE of the user’s own, and is off with CONFORMANCE_CACHE=off', () => {
    const own = join(root, 'own');
    const [env, used] = enabledIn({ NODE_COMPILE_CACHE: own, CONFORMANCE_CACHE: undefined });
    expect(env).toBe(own);
    if (nodeHasIt) expect(used?.startsWith(`${own}/`)).toBe(true);
    expect(enabledIn({ NODE_COMPILE_CACHE: undefined, CONFORMANCE_CACHE: 'off' })).toEqual([null, null]);
  });

  it('is cleared when the sources compile into a new folder (its entries are by file path)', async () => {
    const folder = join(root, 'cache', 'node-compile');
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, 'entry'), 'x');
    await compiledTree(root);
    expect(existsSync(folder)).toBe(false);
    mkdirSync(folder, { recursive: true });
    await compiledTree(root);
    expect(existsSync(folder)).toBe(true);
  });
});
