/**
 * `svc-conformance matrix`: usage errors exit 2 and name the argument (bad NAME=path, missing or
 * invalid file, a name given twice); a good call writes matrix.html and matrix.json; a shard
 * alone is flagged. One call goes through the real command line (bin/, commander).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { matrixFiles } from '../../harness/cli/matrix.js';
import { runCli } from '../../harness/cli/process.js';
import type { Matrix } from '../../harness/report/matrix/model.js';
import { runEnv } from '../helpers/run-env.js';
import { run } from './matrix-synthetic.js';

const dir = mkdtempSync(join(tmpdir(), 'matrix-cli-'));
const good = join(dir, 'a.json');
writeFileSync(good, JSON.stringify(run([{ id: 'kv.a', status: 'passed' }], { version: '1.13.10' })));
const notJson = join(dir, 'broken.json');
writeFileSync(notJson, '{"run": ');
const notResults = join(dir, 'other.json');
writeFileSync(notResults, JSON.stringify({ run: {}, tests: [] }));
const shard = join(dir, 'shard.json');
const shardRun = run([{ id: 'kv.a', status: 'passed' }]);
shardRun.run.shard = '1/2';
writeFileSync(shard, JSON.stringify(shardRun));

afterAll(() => rmSync(dir, { recursive: true, force: true }));

let errors: string[] = [];
beforeEach(() => {
  errors = [];
  vi.spyOn(console, 'error').mockImplementation((...a: unknown[]) => void errors.push(a.join(' ')));
  vi.spyOn(console, 'log').mockImplementation(() => undefined);
});
afterEach(() => vi.restoreAllMocks());

describe('matrix: usage errors exit 2 and name the argument', () => {
  const out = join(dir, 'out-refused');
  it.each([
    ['no NAME=', [good], `"${good}": expected NAME=results.json`],
    ['an empty name', [`=${good}`], `"=${good}": expected NAME=results.json`],
    ['an empty path', ['A='], '"A=": expected NAME=results.json'],
    ['a missing file', [`A=${good}`, `B=${join(dir, 'nope.json')}`], `B=${join(dir, 'nope.json')}: file not found`],
    ['invalid JSON', [`A=${notJson}`], `A=${notJson}: not a results.json (invalid JSON`],
    ['not a results.json', [`A=${notResults}`], `A=${notResults}: not a results.json (no requirements array)`],
    ['a name given twice', [`A=${good}`, `A=${notJson}`], `"A=${notJson}": the name "A" is given twice`],
  ])('%s', (_what, args, message) => {
    expect(matrixFiles(args, out)).toBe(2);
    expect(errors.join('\n')).toContain(`matrix: ${message}`);
    expect(existsSync(join(out, 'matrix.html')), 'nothing written').toBe(false);
  });
});

describe('matrix: a good call', () => {
  it('writes matrix.html and matrix.json with one column per name, its version from the results', () => {
    const out = join(dir, 'out');
    expect(matrixFiles([`first=${good}`, `second=${good}`], out)).toBe(0);
    const m = JSON.parse(readFileSync(join(out, 'matrix.json'), 'utf8')) as Matrix;
    expect(m.columns.map((c) => [c.name, c.version])).toEqual([
      ['first', '1.13.10'],
      ['second', '1.13.10'],
    ]);
    expect(readFileSync(join(out, 'matrix.html'), 'utf8')).toContain('<table id="rows">');
    expect(errors).toEqual([]);
  });

  it('flags a shard given alone: its other shards read as not run', () => {
    expect(matrixFiles([`A=${shard}`], join(dir, 'out-shard'))).toBe(0);
    expect(errors.join('\n')).toContain('A is shard 1/2 of a run');
  });
});

describe('matrix through the command line', () => {
  it('is a command of svc-conformance: a usage error exits 2 with the message', async () => {
    const r = await runCli(['matrix', `A=${join(dir, 'nope.json')}`, '--report-dir', join(dir, 'cli')], {
      env: runEnv(),
      timeoutMs: 60_000,
    });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(`matrix: A=${join(dir, 'nope.json')}: file not found`);
    const ok = await runCli(['matrix', `A=${good}`, '--report-dir', join(dir, 'cli')], {
      env: runEnv(),
      timeoutMs: 60_000,
    });
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout).toContain('A (1.13.10): MUST 1/1');
    expect(existsSync(join(dir, 'cli', 'matrix.html'))).toBe(true);
  }, 90_000);
});
