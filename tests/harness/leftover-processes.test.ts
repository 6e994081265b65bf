/**
 * No process outlives a run (issue 16). Each run below gets a unique mark in its environment and
 * is started plainly, as a user or CI would start it (no process group the test could clean up
 * behind it); afterwards no process carrying the mark may remain, and none may listen on a port.
 * Covered: a vitest run of a test file that spawns the reference (external-reference.test.ts;
 * its afterAll must end the whole process, not a wrapper), `npm run conformance`, and a run
 * interrupted with SIGTERM. The two-fault `npm run mutation` is checked in mutation.test.ts.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MARK_VAR, describeSurvivors, killMarked, newMark, settle } from '../helpers/leftovers.js';

const root = resolve(import.meta.dirname, '../..');
const tmp = mkdtempSync(join(tmpdir(), 'leftovers-'));
const marks: string[] = [];
afterAll(() => {
  for (const m of marks) killMarked(m);
});

/** The environment of a fresh run: this run's vitest and target settings removed, the mark added. */
function envWith(mark: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, [MARK_VAR]: mark };
  for (const k of [
    'SVC_ADDR',
    'SVC_TOKEN',
    'SCHED_ADDR',
    'REF_FAULTS',
    'CONFORMANCE_CONFIG',
    'VITEST',
    'VITEST_POOL_ID',
    'VITEST_WORKER_ID',
    'VITEST_MODE',
  ])
    delete env[k];
  return env;
}

interface Plain {
  code: number | null;
  output: string;
}

/** Starts a command as a user would (same process group as nothing of ours), bounded in time. */
function runPlain(
  command: string,
  args: string[],
  mark: string,
  opts: { timeoutMs: number; onOutput?: (text: string, pid: number) => void },
): Promise<Plain> {
  marks.push(mark);
  return new Promise((done) => {
    const child = spawn(command, args, { cwd: root, env: envWith(mark), stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const collect = (d: Buffer) => {
      output += d;
      opts.onOutput?.(output, child.pid!);
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    const timer = setTimeout(() => killMarked(mark), opts.timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      done({ code, output });
    });
  });
}

async function expectNothingLeft(mark: string, what: string): Promise<void> {
  const left = await settle(mark);
  expect(left, `processes left behind by ${what}:\n${describeSurvivors(left)}`).toEqual([]);
}

describe('no process outlives a run', () => {
  it('a test file that spawns the reference ends it in its afterAll (npm test-style run)', async () => {
    const mark = newMark();
    const vitest = join(root, 'node_modules/vitest/vitest.mjs');
    const r = await runPlain(
      process.execPath,
      [
        vitest,
        'run',
        '--project',
        'unit',
        '--reporter',
        'dot',
        'tests/harness/external-reference.test.ts',
        '-t',
        'answers on the address',
      ],
      mark,
      { timeoutMs: 90_000 },
    );
    expect(r.code, r.output.slice(-1500)).toBe(0);
    expect(r.output, 'the spawning test ran').toMatch(/1 passed/);
    await expectNothingLeft(mark, 'a vitest run of external-reference.test.ts');
  }, 100_000);

  it('npm run conformance leaves nothing running', async () => {
    const mark = newMark();
    const r = await runPlain(
      'npm',
      [
        'run',
        '--silent',
        'conformance',
        '--',
        '--suite',
        'core',
        '--files',
        'suites/core/listener.test.ts',
        '--quiet',
        '--report-dir',
        join(tmp, 'conformance'),
      ],
      mark,
      { timeoutMs: 180_000 },
    );
    expect(r.code, r.output.slice(-1500)).toBe(0);
    await expectNothingLeft(mark, 'npm run conformance');
  }, 200_000);

  it('a conformance run ended with SIGTERM midway leaves nothing running', async () => {
    const mark = newMark();
    let signalled = false;
    let delivered = false;
    const cli = join(root, 'bin/svc-conformance.mjs');
    const r = await runPlain(
      process.execPath,
      // Several suites, so the run is still going when the signal comes.
      [cli, 'run', '--suite', 'core,kv,transit,jobs', '--report-dir', join(tmp, 'sigterm')],
      mark,
      {
        timeoutMs: 120_000,
        onOutput: (text, pid) => {
          // The embedded reference is up and tests are starting: the moment a user gives up.
          if (!signalled && /embedded reference secrets service at/.test(text)) {
            signalled = true;
            setTimeout(() => {
              try {
                process.kill(pid, 'SIGTERM');
                delivered = true;
              } catch {
                // ESRCH: the run ended before the signal; `delivered` stays false and the test says so.
              }
            }, 500);
          }
        },
      },
    );
    expect(signalled, `the run reached the embedded reference:\n${r.output.slice(-1500)}`).toBe(true);
    expect(delivered, 'the run was still going when SIGTERM was sent').toBe(true);
    await expectNothingLeft(mark, 'a conformance run ended with SIGTERM');
  }, 130_000);
});
