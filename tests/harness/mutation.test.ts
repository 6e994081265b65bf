/**
 * The fault-detection machinery itself: a clean run passes, a fault switch turns a test red, a
 * legal variant keeps every test green, and the mutation command reports kills, false failures
 * and blast radius, and leaves no process behind. Also the conformance run with every variant on
 * (0 violations; assumption differences only from declared assumptions). (The full run over every
 * fault and variant is `npm run mutation`.)
 */
import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../harness/cli/process.js';
import { MARK_VAR, describeSurvivors, killMarked, newMark, settle } from '../helpers/leftovers.js';
import { allVariants } from '../../reference/switch-registry.js';
import type { Results } from '../../harness/report/model.js';
import { TEST_ROBUSTNESS_SEED } from '../../harness/setup/run-config.js';
import { runEnv } from '../helpers/run-env.js';
import { assumptionsDiffered, blastRadius } from '../../harness/cli/mutation.js';

const env = runEnv();

async function cli(args: string[], timeoutMs: number, mark = newMark()): Promise<{ status: number; stdout: string }> {
  const r = await runCli(args, { env: { ...env, [MARK_VAR]: mark }, timeoutMs });
  return { status: r.code ?? 99, stdout: r.stdout };
}

const mutation = (args: string[], reportDir: string, mark?: string) =>
  cli(['mutation', '--report-dir', reportDir, ...args], 400_000, mark);

interface MutationReport {
  faults: {
    killed: number;
    total: number;
    outcomes: { fault: string; verdict: string; byTarget: boolean; beyond: string[] }[];
  };
  variants: { passed: number; total: number; falseFailures: number; outcomes: { variant: string; verdict: string }[] };
  blastRadius: { measured: number; faults: { fault: string; breaks: string; beyond: string[] }[] };
}

describe('npm run mutation', () => {
  it('reports each selected fault killed with its blast radius, and a legal variant passed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mutation-'));
    const mark = newMark();
    const r = await mutation(
      ['--fault', 'core.empty-list-200,kv.cas-ignored', '--variant', 'core.content-type-charset', '--radius', 'files'],
      dir,
      mark,
    );
    expect(r.status, r.stdout.slice(-800)).toBe(0);
    // Its runs (clean, then one per fault and variant, each in its own process group) are all ended: issue 16.
    const left = await settle(mark);
    killMarked(mark);
    expect(left, `processes left behind by the mutation run:\n${describeSurvivors(left)}`).toEqual([]);
    const report = JSON.parse(readFileSync(join(dir, 'mutation.json'), 'utf8')) as MutationReport;
    expect(report.faults.total).toBe(2);
    for (const o of report.faults.outcomes) {
      expect(o.verdict, `${o.fault} killed`).toBe('killed');
      expect(o.byTarget, `${o.fault} killed by a test of the requirement it breaks`).toBe(true);
      expect(Array.isArray(o.beyond)).toBe(true);
    }
    expect(report.blastRadius.faults.map((f) => f.fault).sort()).toEqual(['core.empty-list-200', 'kv.cas-ignored']);
    expect(report.variants).toMatchObject({ passed: 1, total: 1, falseFailures: 0 });
    expect(r.stdout).toMatch(/faults killed: 2\/2/);
    expect(r.stdout).toMatch(/variants passed: 1\/1/);
    expect(r.stdout).toMatch(/blast radius:/);
  }, 420_000);

  it('an unknown fault or variant name is a usage error', async () => {
    expect((await mutation(['--fault', 'no.such-fault'], mkdtempSync(join(tmpdir(), 'mutation-')))).status).toBe(2);
    expect((await mutation(['--variant', 'no.such-variant'], mkdtempSync(join(tmpdir(), 'mutation-')))).status).toBe(2);
  }, 60_000);
});

describe('blast radius per charged requirement', () => {
  it("counts the requirement a failure is charged to and the differences recorded on the way, never a test's unreached ids", () => {
    const base = { file: 'f', area: 'a', level: 'MUST' as const, durationMs: 1 };
    const results = {
      tests: [
        {
          ...base,
          key: 'a',
          title: 'a',
          ids: ['x.own', 'x.other'],
          status: 'failed',
          failedRequirement: 'x.own',
          notReached: ['x.other'],
        },
        {
          ...base,
          key: 'b',
          title: 'b',
          ids: ['y.rule'],
          status: 'failed',
          failedRequirement: 'y.assumed',
          verdict: 'assumption',
          assumptionDifferences: [{ id: 'y.assumed', message: 'm' }],
        },
        { ...base, key: 'c', title: 'c', ids: ['z.old'], status: 'failed' },
        { ...base, key: 'd', title: 'd', ids: ['w.passed'], status: 'passed' },
      ],
    } as unknown as Results;
    expect(blastRadius(results, 'x.own')).toEqual(['y.assumed', 'z.old']);
    expect(assumptionsDiffered(results, ['y.rule'])).toEqual({ differences: ['y.assumed'], undeclared: [] });
    expect(assumptionsDiffered(results, [])).toEqual({ differences: ['y.assumed'], undeclared: ['y.assumed'] });
  });
});

describe('every legal variant on together', () => {
  it('a conformance run of their suites on the reference has no violation, only declared assumption differences', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'variants-'));
    const suites = [...new Set(allVariants.flatMap((v) => v.suites))];
    const r = await cli(
      [
        'run',
        '--quiet',
        '--suite',
        suites.join(','),
        '--variants',
        allVariants.map((v) => v.name).join(','),
        '--seed',
        String(TEST_ROBUSTNESS_SEED),
        '--report-dir',
        dir,
      ],
      900_000,
    );
    const results = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as Results;
    const violations = results.tests
      .filter((t) => t.status === 'failed' && t.verdict !== 'assumption')
      .map((t) => `${t.failedRequirement ?? t.ids.join('+')}: ${t.title}`);
    expect(violations, 'false failures (violations) with every variant on').toEqual([]);
    // The assumptions the variants contradict are not switched off: their tests run and differ,
    // and only from assumptions some variant declares (assumptionsDiffered covers group ids).
    const declared = allVariants.flatMap((v) => v.assumptions ?? []);
    const { differences, undeclared } = assumptionsDiffered(results, declared);
    expect(undeclared, 'assumption differences no variant declares').toEqual([]);
    expect(differences, 'the declared assumptions do differ').toEqual(
      expect.arrayContaining(['core.help.requires-permission', 'jobs.errors.rejections-4xx']),
    );
    expect(results.summary.passed).toBeGreaterThan(0);
    expect(r.status, r.stdout.slice(-800)).toBe(0);
  }, 920_000);
});
