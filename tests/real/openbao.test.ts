/**
 * The secrets-service suites against OpenBao, an open-source fork of the upstream product the
 * documents were renamed from: 2.7.2 for core, kv, transit, auth and release; 2.6.2, the last release
 * with the directory engine built in, for ldap. Each run must match the product's expectations file
 * exactly (fixtures/targets/openbao/ and openbao-2.6.2/): every red is a listed difference from a
 * quoted sentence, and every listed difference is still red.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { binaries, startOpenBao, type RunningTarget } from '../../tools/real-targets/launch.js';
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

const CONFIG = 'fixtures/targets/openbao/config.yaml';
const cases = [
  {
    name: 'openbao-2.7.2',
    binary: binaries.openbao,
    suites: ['core', 'kv', 'transit', 'auth', 'release'],
    expectations: 'fixtures/targets/openbao/expectations.yaml',
  },
  {
    name: 'openbao-2.6.2',
    binary: binaries.openbaoLdap,
    suites: ['ldap'],
    expectations: 'fixtures/targets/openbao-2.6.2/expectations.yaml',
  },
];

const runs: { name: string; run: SuiteRun }[] = [];

for (const c of cases) {
  const part = realTarget(`OpenBao (${c.binary})`, [c.binary]);
  describe.skipIf(part.skip)(`the ${c.suites.join(', ')} suites against ${c.name}${part.note}`, () => {
    let target: RunningTarget | undefined;
    beforeAll(async () => {
      part.assertPresent();
      target = await startOpenBao({ binary: c.binary });
    }, 60_000);
    afterAll(async () => target?.stop(), 30_000);

    it('match its expectations file exactly', async () => {
      const run = await runSuites({
        name: c.name,
        suites: c.suites,
        config: CONFIG,
        expectations: c.expectations,
        env: { SVC_ADDR: target!.addr, SVC_TOKEN: target!.token },
        timeoutMs: 540_000,
      });
      console.log(`${c.name}: ${JSON.stringify(figures(run.results))}`);
      const diffs = differences(run, c.expectations);
      expect(diffs, explain(run, diffs)).toEqual([]);
      expect(run.results.run.target.version, 'the version the run probed').toBe(c.name.split('-')[1]);
      expect(run.exitCode, `exit code; output:\n${run.output.slice(-3000)}`).toBe(0);
      await expectReportShows(run);
      runs.push({ name: c.name, run });
    }, 600_000);
  });
}

describe.skipIf(cases.some((c) => realTarget(c.name, [c.binary]).skip))('the OpenBao runs side by side', () => {
  it('make a matrix that opens in Chromium', async () => {
    expect(
      runs.map((r) => r.name),
      'both runs finished',
    ).toEqual(cases.map((c) => c.name));
    await expectMatrixShows(runs);
  }, 180_000);
});
