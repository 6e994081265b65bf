/**
 * The one-way layers (README "Layout", .dependency-cruiser.cjs): the tree passes `npm run deps`,
 * and a copy of it with imports that go the wrong way fails, naming the broken rule of each.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../harness/cli/process.js';

const DEPCRUISE = join(PACKAGE_ROOT, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs');
const CONFIG = '.dependency-cruiser.cjs';

/** The arguments of `npm run deps` (package.json), so the test checks what CI checks. */
function depsArgs(): string[] {
  const pkg = JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { scripts: { deps: string } };
  const [command, ...args] = pkg.scripts.deps.split(/\s+/);
  expect(command).toBe('depcruise');
  return args;
}

function depcruise(cwd: string, args: string[]): { status: number | null; output: string } {
  const r = spawnSync(process.execPath, [DEPCRUISE, ...args], { cwd, encoding: 'utf8', timeout: 120_000 });
  return { status: r.status, output: `${r.stdout}${r.stderr}` };
}

const temps: string[] = [];
afterAll(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

describe('layers', () => {
  it('the tree keeps every rule of .dependency-cruiser.cjs', { timeout: 120_000 }, () => {
    const r = depcruise(PACKAGE_ROOT, depsArgs());
    expect(r.output).toContain('no dependency violations found');
    expect(r.status).toBe(0);
  });

  it('imports added the wrong way fail, each naming its rule', { timeout: 120_000 }, () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-conformance-layers-'));
    temps.push(dir);
    const code = ['compose', 'contract', 'harness', 'reference', 'suites', 'fixtures'];
    for (const d of [...code, CONFIG, 'tsconfig.json', 'package.json'])
      cpSync(join(PACKAGE_ROOT, d), join(dir, d), { recursive: true });
    symlinkSync(join(PACKAGE_ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
    const add = (file: string, line: string) =>
      writeFileSync(join(dir, file), `${line}\n${readFileSync(join(dir, file), 'utf8')}`);
    // The harness starting the reference itself (as before the composition root).
    add('harness/setup/target.ts', "import { startReference } from '../../reference/start.js';");
    // The reference borrowing a harness type, a suite borrowing another's helpers or the
    // harness's internals, a suite reading the reference's knob.
    add('reference/start.ts', "import type { TargetConfig } from '../harness/config/types.js';");
    add('suites/kv/v1.test.ts', "import { jobsOf } from '../jobs/helpers.js';");
    add('suites/kv/list.test.ts', "import { targetConfig } from '../../harness/config/target-config.js';");
    add('suites/jobs/scale.test.ts', "import { HOLD_DEPLOYMENT_META } from '../../reference/scheduler/sim.js';");
    // A harness module going through the suites' entry instead of the module it needs.
    add('harness/provision/identity.ts', "import type { T as Test } from '../index.js';");

    const r = depcruise(dir, ['--config', CONFIG, ...code]);
    expect(r.status).not.toBe(0);
    expect(r.output).toMatch(/error harness-not-reference: harness\/setup\/target\.ts → reference\/start\.ts/);
    expect(r.output).toMatch(/error reference-not-harness: reference\/start\.ts → harness\/config\/types\.ts/);
    expect(r.output).toMatch(/error suites-not-each-other: suites\/kv\/v1\.test\.ts → suites\/jobs\/helpers\.ts/);
    expect(r.output).toMatch(
      /error suites-through-harness-entry: suites\/kv\/list\.test\.ts → harness\/config\/target-config\.ts/,
    );
    expect(r.output).toMatch(
      /error suites-not-reference: suites\/jobs\/scale\.test\.ts → reference\/scheduler\/sim\.ts/,
    );
    expect(r.output).toMatch(
      /error harness-entry-is-for-suites: harness\/provision\/identity\.ts → harness\/index\.ts/,
    );
    expect(r.output).toMatch(/x 6 dependency violations \(6 errors, 0 warnings\)/);
  });
});
