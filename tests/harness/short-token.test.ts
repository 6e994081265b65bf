/**
 * The documented example (docs/TARGETS.md), `SVC_TOKEN=root` against the reference started alone: a short token
 * must not eat parts of requirement ids, titles or catalogue text (`auth.write-only.root-password`),
 * the run warns once about the short secret without printing it, and nothing is reported as a
 * leftover that does not still exist.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Results } from '../../harness/report/model.js';
import { nodeTsArgs, runCli, spawnGroup, stopGroup } from '../../harness/cli/process.js';

const dir = mkdtempSync(join(tmpdir(), 'short-token-'));
let child: ChildProcess;
let results: Results;
let stderr = '';
let files: Record<string, string> = {};

beforeAll(async () => {
  // node directly, in its own process group: stopping the group ends the reference itself (the
  // npx wrapper used before left the reference running after the test).
  child = spawnGroup(
    process.execPath,
    nodeTsArgs('reference/main.ts', ['--port', '0', '--sched-port', '0', '--cloud-port', '0', '--root-token', 'root']),
  );
  const svcAddr = await new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`reference did not start: ${out}`)), 60_000);
    child.stdout!.on('data', (d) => {
      out += d;
      const m = /secrets service: (\S+)/.exec(out);
      if (m && out.includes('ready')) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
  });
  const run = await runCli(['run', '--quiet', '--suite', 'auth', '--report-dir', dir], {
    env: {
      ...process.env,
      SVC_ADDR: svcAddr,
      SVC_TOKEN: 'root',
      SCHED_ADDR: '',
      SVC_VERSION: '',
    },
    timeoutMs: 400_000,
  });
  stderr = run.stderr;
  results = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as Results;
  files = Object.fromEntries(
    ['results.json', 'junit.xml', 'index.html'].map((f) => [f, readFileSync(join(dir, f), 'utf8')]),
  );
}, 480_000);
afterAll(async () => {
  if (child) await stopGroup(child);
});

describe('SVC_TOKEN=root against the reference started alone', () => {
  it('no requirement id, title or catalogue text contains [REDACTED]', () => {
    expect(results.tests.length, 'tests ran').toBeGreaterThan(5);
    const masked = [
      ...results.tests.flatMap((t) => [t.key, t.title, ...t.ids]),
      ...results.requirements.flatMap((r) => [r.id, r.text, r.section]),
    ].filter((s) => s.includes('[REDACTED]'));
    expect(masked).toEqual([]);
    expect(
      results.requirements.some((r) => r.id === 'auth.write-only.root-password'),
      'the id survives intact',
    ).toBe(true);
    for (const [name, text] of Object.entries(files))
      expect(text.includes('auth.write-only.[REDACTED]'), name).toBe(false);
  });

  it('the token itself is still masked in transcripts', () => {
    const headers = results.tests
      .flatMap((t) => t.transcript ?? [])
      .flatMap((e) => Object.entries(e.requestHeaders ?? {}));
    const tokenHeaders = headers.filter(([k]) => k.toLowerCase() === 'x-svc-token');
    expect(tokenHeaders.length).toBeGreaterThan(0);
    expect(tokenHeaders.every(([, v]) => v === '[REDACTED]')).toBe(true);
  });

  it('warns once about the short token without printing it', () => {
    const warnings = stderr.split('\n').filter((l) => l.includes('shorter than 8 characters'));
    expect(warnings.length).toBe(1);
    expect(warnings[0]).toContain('svc.token (SVC_TOKEN)');
    expect(warnings[0]).not.toMatch(/\broot\b/);
  });

  it('reports no leftovers on a target where everything was removed, and an unknown version as such', () => {
    expect(results.leftovers).toEqual([]);
    expect(results.run.target.version).toBe('');
    expect(results.run.target.versionSource).toMatch(/unknown/);
  });
});
