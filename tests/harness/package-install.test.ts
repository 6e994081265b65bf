/**
 * The package installs and runs outside this checkout (issue 12): `npm pack`, install the tarball
 * into an empty directory, and run its `svc-conformance run --suite core` through npx against the
 * embedded reference: exit 0, reports written, nothing left running. Slow (an npm install, from
 * the npm cache where it can), so every step has its own time limit.
 */
import { existsSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runGroup } from '../../harness/cli/process.js';
import type { Results } from '../../harness/report/model.js';
import { MARK_VAR, describeSurvivors, killMarked, newMark, settle } from '../helpers/leftovers.js';

const root = resolve(import.meta.dirname, '../..');
const mark = newMark();
afterAll(() => killMarked(mark));

/** A clean environment: nothing of this npm test run (npm_*, vitest, target settings) leaks into the new user's. */
function userEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { [MARK_VAR]: mark };
  for (const [k, v] of Object.entries(process.env)) {
    if (/^(npm_|VITEST|SVC_|SCHED_|LDAP_|REF_|CONFORMANCE_)/i.test(k)) continue;
    env[k] = v;
  }
  return env;
}

describe('the packed package', () => {
  it('installs into an empty directory and its svc-conformance runs the core suite against the embedded reference', async () => {
    const env = userEnv();
    const packDir = mkdtempSync(join(tmpdir(), 'pack-'));
    const pack = await runGroup('npm', ['pack', '--silent', '--pack-destination', packDir], {
      cwd: root,
      env,
      timeoutMs: 120_000,
    });
    expect(pack.code, `npm pack: ${pack.stderr.slice(-800)}`).toBe(0);
    const tarball = readdirSync(packDir).find((f) => f.endsWith('.tgz'));
    expect(tarball, 'a tarball').toBeDefined();

    const user = mkdtempSync(join(tmpdir(), 'fresh-user-'));
    writeFileSync(join(user, 'package.json'), JSON.stringify({ name: 'fresh-user', private: true }));
    const install = await runGroup(
      'npm',
      ['install', '--no-audit', '--no-fund', '--prefer-offline', join(packDir, tarball!)],
      { cwd: user, env, timeoutMs: 420_000 },
    );
    expect(install.code, `npm install: ${install.stderr.slice(-1500)}`).toBe(0);
    expect(
      existsSync(join(user, 'node_modules/svc-conformance/tests')),
      "the project's own tests are not shipped",
    ).toBe(false);
    expect(
      existsSync(join(user, 'node_modules/svc-conformance/generated/catalogue/robustness.yaml')),
      'the generated catalogue a run loads is shipped',
    ).toBe(true);

    const run = await runGroup(
      'npx',
      ['--no', 'svc-conformance', 'run', '--suite', 'core', '--quiet', '--report-dir', 'out'],
      { cwd: user, env, timeoutMs: 240_000 },
    );
    expect(run.code, `svc-conformance run: ${(run.stdout + run.stderr).slice(-1500)}`).toBe(0);
    for (const f of ['results.json', 'junit.xml', 'index.html'])
      expect(existsSync(join(user, 'out', f)), `out/${f} written in the user's directory`).toBe(true);
    const results = JSON.parse(readFileSync(join(user, 'out/results.json'), 'utf8')) as Results;
    expect(results.summary.passed, 'core tests passed').toBeGreaterThan(10);
    expect(results.summary.failed).toBe(0);
    expect(results.complete).toBe(true);
    const left = await settle(mark);
    expect(left, `processes left behind:\n${describeSurvivors(left)}`).toEqual([]);
  }, 800_000);
});
