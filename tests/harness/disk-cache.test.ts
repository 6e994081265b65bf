import { cpSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  cached,
  cachedSync,
  cachedText,
  cacheKey,
  contentHash,
  packageVersion,
  sourceHash,
} from '../../harness/cache/disk-cache.js';
import { schemaRequirements } from '../../harness/spec/schema-requirements.js';
import { SHARED_DIR, SPEC_DIR } from '../../harness/spec/paths.js';
import { useFreshCacheDir } from '../helpers/cache-env.js';

const tempDir = useFreshCacheDir('disk-cache-test-');

function counting<T>(value: T): { build: () => T; calls: () => number } {
  let n = 0;
  return {
    build: () => {
      n++;
      return value;
    },
    calls: () => n,
  };
}

describe('disk cache', () => {
  it('builds once per key and serves the stored value after', async () => {
    const b = counting({ a: [1, 2] });
    expect(cachedSync('t', 'k1', b.build)).toEqual({ a: [1, 2] });
    expect(cachedSync('t', 'k1', b.build)).toEqual({ a: [1, 2] });
    expect(b.calls()).toBe(1);
    expect(await cached('t', 'k1', b.build), 'async and sync share the store').toEqual({ a: [1, 2] });
    expect(b.calls()).toBe(1);
    cachedSync('t', 'k2', b.build);
    expect(b.calls(), 'another key builds again').toBe(2);
  });

  it('a key changes with any file of the source folder, any part, the generator and library versions', () => {
    const src = join(tempDir(), 'src');
    cpSync(SHARED_DIR, src, { recursive: true });
    const before = contentHash(src, /\.ya?ml$/);
    const otherFiles = contentHash(src, /\.json$/);
    writeFileSync(join(src, 'components.yaml'), `${readFileSync(join(src, 'components.yaml'), 'utf8')}\n# edited\n`);
    expect(contentHash(src, /\.ya?ml$/)).not.toBe(before);
    expect(contentHash(src, /\.json$/), 'files outside the pattern do not count').toBe(otherFiles);
    expect(cacheKey('a', 'b')).not.toBe(cacheKey('a', 'c'));
    expect(cacheKey('ab', 'c'), 'parts are separated').not.toBe(cacheKey('a', 'bc'));
    expect(sourceHash(import.meta.url)).toMatch(/^[0-9a-f]{24}$/);
    expect(packageVersion('ajv')).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('CONFORMANCE_CACHE=off builds every time and writes nothing', () => {
    process.env.CONFORMANCE_CACHE = 'off';
    const b = counting('v');
    cachedSync('t', 'k', b.build);
    cachedSync('t', 'k', b.build);
    cachedText('t', 'k', 'js', b.build, (s) => s);
    expect(b.calls()).toBe(3);
    expect(() => readdirSync(join(tempDir(), 'cache'))).toThrow();
  });

  it('an unwritable cache falls back to building', () => {
    writeFileSync(join(tempDir(), 'file'), 'x');
    process.env.CONFORMANCE_CACHE_DIR = join(tempDir(), 'file', 'cache'); // a folder under a file: mkdir fails
    const b = counting({ v: 1 });
    expect(cachedSync('t', 'k', b.build)).toEqual({ v: 1 });
    expect(cachedSync('t', 'k', b.build)).toEqual({ v: 1 });
    expect(
      cachedText(
        't',
        'k',
        'js',
        () => 'text',
        (s) => s.length,
      ),
    ).toBe(4);
    expect(b.calls()).toBe(2);
  });

  it('a corrupt file is rebuilt and rewritten', () => {
    const b = counting({ v: 1 });
    cachedSync('t', 'k', b.build);
    const [file] = readdirSync(join(tempDir(), 'cache'));
    writeFileSync(join(tempDir(), 'cache', file!), '{"v": 1'); // truncated
    expect(cachedSync('t', 'k', b.build)).toEqual({ v: 1 });
    expect(b.calls()).toBe(2);
    expect(JSON.parse(readFileSync(join(tempDir(), 'cache', file!), 'utf8'))).toEqual({ v: 1 });
  });

  it('cached text whose use fails (corrupt code) is built again', () => {
    const use = (s: string) => {
      if (!s.startsWith('ok')) throw new Error('corrupt');
      return s;
    };
    expect(cachedText('code', 'k', 'js', () => 'ok 1', use)).toBe('ok 1');
    writeFileSync(join(tempDir(), 'cache', 'code-k.js'), 'garbage');
    expect(cachedText('code', 'k', 'js', () => 'ok 2', use)).toBe('ok 2');
    expect(readFileSync(join(tempDir(), 'cache', 'code-k.js'), 'utf8')).toBe('ok 2');
  });
});

describe('cached schema requirements', () => {
  it('equal the ones built from the documents, and follow an edited document', () => {
    process.env.CONFORMANCE_CACHE = 'off';
    const fresh = schemaRequirements();
    delete process.env.CONFORMANCE_CACHE;
    expect(schemaRequirements(), 'first, built and stored').toEqual(fresh);
    expect(schemaRequirements(), 'then, read back').toEqual(fresh);

    const src = join(tempDir(), 'spec');
    cpSync(SPEC_DIR, src, { recursive: true });
    expect(schemaRequirements(src)).toEqual(fresh);
    const jobs = readFileSync(join(src, 'jobs/openapi.yaml'), 'utf8').replace(
      /^paths:\n/m,
      'paths:\n  /v1/added-for-test:\n    get:\n      operationId: addedForTest\n      responses: { "200": { description: ok } }\n',
    );
    writeFileSync(join(src, 'jobs/openapi.yaml'), jobs);
    expect(schemaRequirements(src).map((r) => r.id)).toContain('schema.added-for-test');
  });
});
