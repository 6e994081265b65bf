/**
 * The cloud suite against the upstream cloud engine plugin v0.20.3 (the engine the documents' cloud
 * credentials engine was renamed from) loaded into OpenBao 2.7.2, its cloud the reference's
 * simulated one, reached through the real cloud's host names in a private mount namespace
 * (tools/real-targets/cloud-plugin.ts). Two runs: OpenBao started without the engine's environment
 * variables, then with them (AZURE_*: the tests of their precedence run only then, the tests that
 * need them unset only before). Both are held to one expectations file
 * (fixtures/targets/cloud-plugin/); what only one mode can reach is excused in the other by the
 * setting its tests skipped for (cloud.envOverrides).
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { TestResult } from '../../harness/report/model.js';
import { binaries } from '../../tools/real-targets/launch.js';
import {
  cloudPluginPresent,
  startCloudPlugin,
  type RunningCloudPlugin,
} from '../../tools/real-targets/cloud-plugin.js';
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

const CONFIG = 'fixtures/targets/cloud-plugin/config.yaml';
const EXPECTATIONS = 'fixtures/targets/cloud-plugin/expectations.yaml';
const part = realTarget(`OpenBao and the cloud engine plugin (${binaries.cloudPlugin}), run as root with unshare`, [
  binaries.openbao,
  binaries.cloudPlugin,
  ...(cloudPluginPresent() ? [] : ['/nonexistent: root and unshare']),
]);

/** A requirement the mode cannot reach: every test of it skipped for the engine's environment. */
const otherMode = (tests: TestResult[]) =>
  tests.length > 0 && tests.every((t) => t.status === 'skipped' && t.skip?.setting === 'cloud.envOverrides');

/**
 * The operations only the tests that need the variables unset send (DELETE /cloud/config and
 * rotate-root, on a mount of their own client): their schema requirements have no test of their own
 * to be skipped, so the run started with the variables names them here.
 */
const ONLY_WITHOUT_ENV = ['schema.cloud-delete-config', 'schema.cloud-rotate-root'];

/**
 * What a run left in the cloud that the suite made or could remove. The engine leaves one thing of
 * its own: a credential request that fails half-way (the role's assignment refused) keeps the new
 * application, its principal and secret for its write-ahead log to remove ten minutes later (by
 * then the mount is gone); the suite never learns their ids. One such dynamic application
 * (`vault-<uuid>`, with its principal and their secrets) is allowed per credential request the
 * run saw fail with a 5xx.
 */
function madeByTheRun(leftovers: string[], run: SuiteRun): string[] {
  const failed = run.results.tests
    .flatMap((t) => t.transcript ?? [])
    .filter((e) => e.kind === 'exchange' && /\/creds\//.test(String(e.url)) && Number(e.status) >= 500).length;
  const dynamic = [
    ...new Set(leftovers.map((l) => /^application \S+ (vault-[0-9a-f-]{36}) /.exec(l)?.[1]).filter(Boolean)),
  ].slice(0, failed) as string[];
  return leftovers.filter((l) => !dynamic.some((name) => l.includes(` ${name}`)));
}

const modes = [
  { name: 'cloud-plugin', engineEnv: false },
  { name: 'cloud-plugin-env', engineEnv: true },
];

describe.skipIf(part.skip)(
  `the cloud suite against the upstream cloud engine plugin v0.20.3 in OpenBao 2.7.2${part.note}`,
  () => {
    const runs: { name: string; run: SuiteRun }[] = [];
    let running: RunningCloudPlugin | undefined;
    afterAll(async () => running?.stop(), 60_000);

    // One after the other: the rotate-root tests wait for the engine's periodic swap in real time.
    it.each(modes)(
      '$name: matches its expectations file exactly',
      async (mode) => {
        part.assertPresent();
        running = await startCloudPlugin({ engineEnv: mode.engineEnv });
        try {
          const run = await runSuites({
            name: mode.name,
            suites: ['cloud'],
            config: CONFIG,
            expectations: EXPECTATIONS,
            env: running.env,
            timeoutMs: 540_000,
          });
          console.log(`${mode.name}: ${JSON.stringify(figures(run.results))}`);
          const diffs = differences(
            run,
            EXPECTATIONS,
            (e, tests) => otherMode(tests) || (mode.engineEnv && ONLY_WITHOUT_ENV.includes(e.id)),
          );
          expect(diffs, explain(run, diffs)).toEqual([]);
          expect(run.results.run.target.version, 'the version the run probed').toBe('2.7.2');
          expect(run.exitCode, `exit code; output:\n${run.output.slice(-3000)}`).toBe(0);
          // A run against a real tenant must remove what it made: here the cloud can be counted.
          expect(madeByTheRun(running.leftovers(), run), 'what the run left in the cloud').toEqual([]);
          await expectReportShows(run);
          runs.push({ name: mode.name, run });
        } finally {
          await running.stop();
          running = undefined;
        }
      },
      600_000,
    );

    it('both modes make a matrix that opens in Chromium', async () => {
      expect(
        runs.map((r) => r.name),
        'both runs finished',
      ).toEqual(modes.map((m) => m.name));
      await expectMatrixShows(runs);
    }, 180_000);
  },
);
