/**
 * Verdicts through the real pipeline (CLI, vitest, reporter) on the reference with a shape fault:
 * the schema finding is one result of the operation's schema requirement, behavioural tests that
 * do not assert the field pass, a refused precondition is not applicable with the target's answer,
 * and a test whose file setup failed keeps its requirement ids and level.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Results } from '../../harness/report/model.js';

const dir = mkdtempSync(join(tmpdir(), 'verdicts-'));
let results: Results;
let junit = '';
let html = '';
let code = -1;

beforeAll(async () => {
  code = await new Promise<number>((resolve) => {
    execFile(
      'npx',
      [
        'tsx',
        'compose/cli.ts',
        'run',
        '--quiet',
        '--suite',
        'kv',
        '--faults',
        'core.renewable-string',
        '--report-dir',
        dir,
        '--files',
        'tests/harness/fixtures/verdicts.suite.ts,tests/harness/fixtures/setup-fails.suite.ts,tests/harness/fixtures/setup-refused.suite.ts',
      ],
      {
        env: {
          ...process.env,
          SVC_ADDR: '',
          SVC_TOKEN: '',
          SCHED_ADDR: '',
          REF_FAULTS: '',
        },
        timeout: 240_000,
      },
      (err) => resolve(err ? (typeof err.code === 'number' ? err.code : 99) : 0),
    );
  });
  results = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as Results;
  junit = readFileSync(join(dir, 'junit.xml'), 'utf8');
  html = readFileSync(join(dir, 'index.html'), 'utf8');
}, 250_000);

const byTitle = (title: string) => results.tests.find((t) => t.title.includes(title));

describe('verdicts', () => {
  it('a schema finding is reported once per operation and status, under schema.<operationId>, as a failed MUST', () => {
    const schema = results.tests.filter((t) => t.kind === 'schema' && t.status === 'failed');
    const read = schema.find((t) => t.ids[0] === 'schema.kv1-read-or-list');
    expect(read, `schema results: ${schema.map((t) => t.key).join(', ')}`).toBeDefined();
    expect(read!.level).toBe('MUST');
    expect(
      read!.findings?.some((f) => f.pointer === '/renewable' && f.actual === 'false'),
      JSON.stringify(read!.findings),
    ).toBe(true);
    expect(read!.message).toContain('/renewable');
    expect(read!.seenIn?.length, 'names the tests that saw it').toBeGreaterThan(0);
    const keys = results.tests.map((t) => t.key);
    expect(new Set(keys).size, 'one result per key').toBe(keys.length);
    const row = results.requirements.find((r) => r.id === read!.ids[0]);
    expect(row, 'the catalogue knows the generated id').toMatchObject({
      kind: 'schema',
      level: 'MUST',
      status: 'failed',
    });
    expect(read!.reproduction?.curl, 'the schema result repeats an answer that broke the spec').toMatch(
      /^curl -sS -H 'X-Svc-Token: '"\$SVC_TOKEN" .*'http:\/\/127\.0\.0\.1:\d+\/v1\//,
    );
    expect(read!.verdict).toBe('violation');
    expect(junit).toContain(`value="${read!.ids[0]}"`);
    expect(html).toContain(read!.ids[0]);
  });

  it('a behavioural test that does not assert the broken field passes; one that asserts the shape fails', () => {
    expect(byTitle('is not failed by a schema finding')?.status).toBe('passed');
    const shape = byTitle('whose purpose is the shape');
    expect(shape?.status).toBe('failed');
    expect(shape?.message).toMatch(/\/renewable/);
    expect(shape?.failedRequirement).toBe('kv.v1.body-fields');
    expect(shape?.reproduction?.exchange.method, 'the read the failing check looked at').toBe('GET');
  });

  it("a refused precondition is not applicable, with the target's answer, counted apart", () => {
    const na = byTitle('refused precondition');
    expect(na?.status).toBe('not-applicable');
    expect(na?.ids).toEqual(['kv.v1.overwrite']);
    expect(na?.notApplicable?.answer).toMatch(/answered 400/);
    expect(results.summary.notApplicable).toBeGreaterThanOrEqual(1);
    expect(html).toContain('Not applicable');
  });

  it('a test whose file setup failed keeps its requirement ids and level', () => {
    const t = byTitle('whose file setup failed');
    expect(t, results.tests.map((x) => x.title).join(' | ')).toBeDefined();
    expect(t!.ids).toEqual(['kv.v1.nested-keys']);
    expect(t!.level).toBe('MUST');
    expect(t!.status).toBe('failed');
    expect(results.requirements.find((r) => r.id === 'kv.v1.nested-keys')?.status).toBe('failed');
    expect(t!.reproduction?.curl, "the set-up's last exchange").toMatch(/\/v1\/sys\/mounts'$/);
  });

  it("a refused mount of the file's set-up makes its tests not applicable with the target's answer", () => {
    const t = byTitle('whose file mount was refused');
    expect(t?.status).toBe('not-applicable');
    expect(t?.notApplicable?.answer).toMatch(/POST \/sys\/mounts\/.* answered 400/);
    expect(results.errors.join('\n'), 'no run error: a refusal is not a failure').not.toMatch(/no-such-engine-type/);
  });

  it('the run fails on the MUST failures and says where the version came from', () => {
    expect(code).toBe(1);
    expect(results.run.target.versionSource).toMatch(/embedded reference/);
  });
});
