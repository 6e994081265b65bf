/**
 * The start-up marks of results.json `run.startup` (harness/report/startup.ts): a mark reached in
 * this process keeps its first time; a moment another process saw (a test's start in its worker)
 * keeps the earliest of those reported, whatever order the reports arrive in.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { markStartup, startupMarks } from '../../harness/report/startup.js';

const holder = globalThis as { __conformanceStartup?: unknown };

beforeEach(() => {
  delete holder.__conformanceStartup;
});

describe('markStartup', () => {
  it('keeps the first time a mark is reached in this process', async () => {
    markStartup('command');
    const first = startupMarks().command!;
    await new Promise((r) => setImmediate(r));
    markStartup('command');
    expect(startupMarks().command).toBe(first);
    expect(first).toBeLessThanOrEqual(Math.round(performance.now()));
  });

  it('keeps the earliest moment reported from elsewhere, in milliseconds since this process started', () => {
    const origin = performance.timeOrigin;
    markStartup('firstTest', origin + 900);
    markStartup('firstTest', origin + 700);
    markStartup('firstTest', origin + 800);
    expect(startupMarks().firstTest).toBe(700);
  });
});
