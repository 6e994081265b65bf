/**
 * Incomplete runs say so (issue 12): a selected suite that did not run, or ran with tests skipped
 * for a missing prerequisite, makes results.json `complete: false` with each suite and why, and
 * the HTML headline and terminal line read "incomplete: ...". Skips for a target's own properties
 * (a capability it lacks, an assumption switched off) leave the run complete.
 */
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { defaults } from '../../harness/config/load.js';
import type { TargetConfig } from '../../harness/config/types.js';
import { buildResults, type RawOutcome } from '../../harness/report/build.js';
import { incompleteLine } from '../../harness/report/completeness.js';
import { toHtml } from '../../harness/report/html.js';
import ConformanceReporter from '../../harness/report/reporter.js';
import { catalogue } from './synthetic.js';

const NO_DIRECTORY = 'no directory: slapd was not found and no container engine runs';

function config(suites: string[], unavailable?: TargetConfig['unavailable']): TargetConfig {
  const cfg = defaults();
  cfg.run.suites = suites;
  if (unavailable) cfg.unavailable = unavailable;
  return cfg;
}

function outcome(suite: string, title: string, state: RawOutcome['state'], skip?: Record<string, unknown>): RawOutcome {
  return {
    title,
    file: `/x/suites/${suite}/a.test.ts`,
    state,
    durationMs: 1,
    errors: [],
    moduleErrors: [],
    meta: { conformance: { ids: ['demo.read.ok'], level: 'MUST', area: 'demo' }, ...(skip ? { skip } : {}) },
  };
}

function build(outcomes: RawOutcome[], cfg: TargetConfig) {
  return buildResults({
    outcomes,
    catalogue,
    expectations: new Map(),
    config: cfg,
    startedAt: new Date(0),
    finishedAt: new Date(1000),
    leftovers: [],
    errors: [],
  });
}

describe('completeness of a run', () => {
  it('a suite whose prerequisite was missing is not run, with the reason', () => {
    const r = build(
      [
        outcome('core', 'one', 'passed'),
        outcome('ldap', 'two', 'skipped', { reason: NO_DIRECTORY, setting: 'ldap.url', prerequisite: true }),
      ],
      config(['core', 'ldap'], { ldap: { reason: NO_DIRECTORY, setting: 'ldap.url' } }),
    );
    expect(r.complete).toBe(false);
    expect(r.incomplete).toEqual([{ suite: 'ldap', kind: 'not-run', reason: NO_DIRECTORY, setting: 'ldap.url' }]);
    expect(incompleteLine(r)).toBe(`incomplete: ldap not run (${NO_DIRECTORY})`);
    const html = toHtml(r);
    expect(html, 'headline').toContain(
      `<p id="incomplete" class="incomplete">incomplete: ldap not run (${NO_DIRECTORY})</p>`,
    );
    expect(html, 'no pass verdict').not.toContain('CONFORMS');
    expect(html).toContain('INCOMPLETE');
  });

  it('a share of tests skipped for a missing prerequisite is partial, with the share', () => {
    const r = build(
      [
        outcome('cloud', 'one', 'passed'),
        outcome('cloud', 'two', 'skipped', {
          reason: 'the cloud settings lack tenantId',
          setting: 'cloud.tenantId',
          prerequisite: true,
        }),
        outcome('cloud', 'three', 'passed'),
      ],
      config(['cloud']),
    );
    expect(r.complete).toBe(false);
    expect(r.incomplete[0]).toMatchObject({
      suite: 'cloud',
      kind: 'partial',
      skipped: 1,
      total: 3,
      setting: 'cloud.tenantId',
    });
    expect(incompleteLine(r)).toBe(
      'incomplete: cloud: 1 of 3 tests skipped for a missing prerequisite (the cloud settings lack tenantId)',
    );
  });

  it('a selected suite without any test is not run', () => {
    const r = build([outcome('core', 'one', 'passed')], config(['core', 'kv']));
    expect(r.incomplete.map((i) => [i.suite, i.kind])).toEqual([['kv', 'not-run']]);
  });

  it("skips for the target's own properties leave the run complete", () => {
    const r = build(
      [
        outcome('core', 'one', 'passed'),
        outcome('core', 'two', 'skipped', {
          reason: 'target lacks capability "namespaces"',
          setting: 'capabilities.namespaces',
        }),
      ],
      config(['core']),
    );
    expect(r.complete).toBe(true);
    expect(r.incomplete).toEqual([]);
    expect(incompleteLine(r)).toBeUndefined();
    expect(toHtml(r)).toContain('CONFORMS');
  });

  it('with --files only the suites of those files count', () => {
    const cfg = config(['core', 'kv']);
    cfg.run.files = ['suites/core/a.test.ts'];
    expect(build([outcome('core', 'one', 'passed')], cfg).complete).toBe(true);
  });
});

describe('the report of npm test', () => {
  it('covers only the conformance project and never writes reports/ when no conformance file ran', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'reporter-')), 'out');
    const reporter = new ConformanceReporter({ reportDir: dir, project: 'conformance' });
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    const unitModule = { project: { name: 'unit' } } as never;
    await reporter.onTestRunEnd([unitModule], []);
    log.mockRestore();
    expect(existsSync(dir), 'nothing written for a unit-only run').toBe(false);
  });

  it('vitest.config.ts sends the conformance report to a temporary directory, not reports/', async () => {
    const { default: cfg } = await import('../../vitest.config.js');
    const reporters = (cfg as { test?: { reporters?: unknown[] } }).test?.reporters ?? [];
    const ours = reporters.find((r): r is ConformanceReporter => r instanceof ConformanceReporter);
    expect(ours, 'the conformance reporter is configured').toBeDefined();
    const opts = (ours as unknown as { opts: { reportDir?: string; project?: string } }).opts;
    expect(opts.project, 'only the conformance project is reported').toBe('conformance');
    expect(opts.reportDir, 'report directory').toBeDefined();
    expect(
      opts.reportDir!.startsWith(tmpdir()) || !!process.env.CONFORMANCE_TEST_REPORT_DIR,
      `${opts.reportDir} is a temporary directory`,
    ).toBe(true);
  });
});
