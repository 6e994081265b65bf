/**
 * What a warm run's start-up leaves unloaded (docs/SPEED.md "Start-up of the command"): YAML files
 * every process reads come from the cache by their contents, and a cached validator needs none of
 * ajv's compiler. Checked in a fresh node process each, where nothing else has loaded them.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cachedYamlFile, parseYaml } from '../../harness/cache/yaml.js';
import { PACKAGE_ROOT } from '../../harness/spec/paths.js';
import { useFreshCacheDir } from '../helpers/cache-env.js';

const tempDir = useFreshCacheDir('lazy-libraries-test-');

/** Runs `code` (ES module, TypeScript through tsx) in a fresh node; prints what it logs. */
function fresh(code: string): string {
  return execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], {
    cwd: PACKAGE_ROOT,
    env: { ...process.env, CONFORMANCE_CACHE_DIR: join(tempDir(), 'cache') },
    encoding: 'utf8',
    timeout: 30_000,
  }).trim();
}

/** Module ids a fresh process has required, as a script fragment that prints the matching ones. */
const loaded = (pattern: string) =>
  `console.log(JSON.stringify(Object.keys((await import('node:module')).default._cache).filter((k) => new RegExp(${JSON.stringify(pattern)}).test(k)).length));`;

describe('YAML read through the cache', () => {
  it('parses a file, and a file with other contents gives its own document', () => {
    const file = join(tempDir(), 'x.yaml');
    writeFileSync(file, 'a: 1\nlist: [x, y]\n');
    expect(cachedYamlFile('test', file)).toEqual({ a: 1, list: ['x', 'y'] });
    expect(cachedYamlFile('test', file)).toEqual({ a: 1, list: ['x', 'y'] });
    writeFileSync(file, 'a: 2\n');
    expect(cachedYamlFile('test', file)).toEqual({ a: 2 });
  });

  it('throws yaml’s error for a file that does not parse, every time', () => {
    const file = join(tempDir(), 'bad.yaml');
    writeFileSync(file, 'a: [1, 2\n');
    expect(() => cachedYamlFile('test', file)).toThrow(/flow sequence|Missing/i);
    expect(() => cachedYamlFile('test', file)).toThrow(/flow sequence|Missing/i);
  });

  it('parses as yaml does', () => {
    expect(parseYaml('x: "1"\ny: 1\n')).toEqual({ x: '1', y: 1 });
  });

  it('a second process reads an unchanged file without loading the yaml library', () => {
    const file = join(tempDir(), 'y.yaml');
    writeFileSync(file, 'b: true\n');
    const read = `const { cachedYamlFile } = await import('./harness/cache/yaml.ts'); console.log(JSON.stringify(cachedYamlFile('test', ${JSON.stringify(file)})));`;
    expect(fresh(`${read} ${loaded('node_modules/yaml/.*\\.js$')}`).split('\n')).toEqual([
      '{"b":true}',
      expect.not.stringMatching(/^0$/),
    ]);
    expect(fresh(`${read} ${loaded('node_modules/yaml/.*\\.js$')}`).split('\n')).toEqual(['{"b":true}', '0']);
  });
});

describe('a cached validator', () => {
  it('validates without loading ajv’s compiler once its code is cached', () => {
    const use = `const { cachedValidator } = await import('./harness/cache/schema-cache.ts');
      const v = cachedValidator('lazy-test', { dialect: '2020-12', options: { allErrors: true }, formats: true }, { type: 'object', properties: { at: { type: 'string', format: 'date-time' } }, required: ['at'] });
      console.log(JSON.stringify([v({ at: '2026-11-25T10:00:00Z' }), v({ at: 'soon' }), v({})]));`;
    const compiler = 'node_modules/ajv/dist/(core|compile/index)\\.js';
    const [first, firstLoaded] = fresh(`${use} ${loaded(compiler)}`).split('\n');
    const [second, secondLoaded] = fresh(`${use} ${loaded(compiler)}`).split('\n');
    expect(first).toBe('[true,false,false]');
    expect(firstLoaded).not.toBe('0');
    expect(second).toBe('[true,false,false]');
    expect(secondLoaded).toBe('0');
  });
});
