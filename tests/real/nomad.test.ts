/**
 * The jobs suite against Nomad 2.0.0, the scheduler the jobs document was renamed from, as a dev
 * agent on loopback: once without ACLs and once with them (the ACL tests run only then). Both runs
 * are held to one expectations file (fixtures/targets/nomad/expectations.yaml); what only one mode
 * can reach is excused in the other by the setting its tests skipped for.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { TestResult } from '../../harness/report/model.js';
import { binaries, startNomad, type RunningTarget } from '../../tools/real-targets/launch.js';
import {
  differences,
  expectMatrixShows,
  expectReportShows,
  explain,
  figures,
  realTarget,
  runSuites,
  type SuiteRun,
} from './run.js';

const CONFIG = 'fixtures/targets/nomad/config.yaml';
const EXPECTATIONS = 'fixtures/targets/nomad/expectations.yaml';
const part = realTarget(`Nomad (${binaries.nomad})`, [binaries.nomad]);

/** A test the mode cannot reach: skipped for a capability of the other mode. */
const skippedFor = (settings: string[]) => (tests: TestResult[]) =>
  tests.length > 0 && tests.every((t) => t.status === 'skipped' && settings.includes(t.skip?.setting ?? ''));

const modes = [
  { acl: false, name: 'nomad', unreachable: skippedFor(['capabilities.schedAcl']) },
  { acl: true, name: 'nomad-acl', unreachable: skippedFor([]) },
];

describe.skipIf(part.skip)(`the jobs suite against Nomad 2.0.0${part.note}`, () => {
  const started: RunningTarget[] = [];
  const runs: { name: string; run: SuiteRun }[] = [];
  afterAll(async () => Promise.all(started.map((t) => t.stop())), 60_000);

  // The two modes run side by side: most of a run is the scheduler's own waits (deployments).
  it.concurrent.each(modes)(
    '$name: matches its expectations file exactly',
    async (mode) => {
      part.assertPresent();
      const target = await startNomad({ acl: mode.acl });
      started.push(target);
      const run = await runSuites({
        name: mode.name,
        suites: ['jobs'],
        config: CONFIG,
        expectations: EXPECTATIONS,
        env: { SCHED_ADDR: target.addr, SCHED_TOKEN: target.token },
        timeoutMs: 840_000,
      });
      console.log(`${mode.name}: ${JSON.stringify(figures(run.results))}`);
      const diffs = differences(run, EXPECTATIONS, (_e, tests) => mode.unreachable(tests));
      expect(diffs, explain(run, diffs)).toEqual([]);
      expect(run.exitCode, `exit code; output:\n${run.output.slice(-3000)}`).toBe(0);
      await expectReportShows(run);
      runs.push({ name: mode.name, run });
    },
    900_000,
  );

  it('both modes make a matrix that opens in Chromium', async () => {
    expect(runs.map((r) => r.name).sort(), 'both runs finished').toEqual(modes.map((m) => m.name).sort());
    await expectMatrixShows(runs);
  }, 180_000);
});
