/**
 * One function decides which target each API of a run is (harness/config/target-plan.ts), from the
 * fully loaded config: an address from the config file counts as one from the environment.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../harness/config/load.js';
import { embeddedLikely, startsEmbedded, targetPlan } from '../../harness/config/target-plan.js';

const tmp = mkdtempSync(join(tmpdir(), 'plan-'));

describe('the target plan', () => {
  it('embedded for every API without an address; the scheduler only when a suite uses it', () => {
    expect(targetPlan(loadConfig({ env: {} }))).toEqual({ svc: 'embedded', sched: 'embedded' });
    expect(targetPlan(loadConfig({ env: {}, cli: { suite: ['transit'] } }))).toEqual({
      svc: 'embedded',
      sched: 'unused',
    });
  });

  it('an address from the config file decides as one from the environment', () => {
    const file = join(tmp, 'svc.yaml');
    writeFileSync(file, 'svc:\n  addr: http://127.0.0.1:8200\n  token: t\n');
    const fromFile = targetPlan(loadConfig({ file, env: {}, cli: { suite: ['kv'] } }));
    const fromEnv = targetPlan(
      loadConfig({ env: { SVC_ADDR: 'http://127.0.0.1:8200', SVC_TOKEN: 't' }, cli: { suite: ['kv'] } }),
    );
    expect(fromFile).toEqual({ svc: 'external', sched: 'unused' });
    expect(fromEnv).toEqual(fromFile);
    expect(startsEmbedded(fromFile)).toBe(false);
  });

  it('only one API external: the embedded reference serves the other', () => {
    const plan = targetPlan(
      loadConfig({ env: { SCHED_ADDR: 'http://127.0.0.1:4646', SCHED_TOKEN: 't' }, cli: { suite: ['jobs'] } }),
    );
    expect(plan).toEqual({ svc: 'embedded', sched: 'external' });
    expect(startsEmbedded(plan)).toBe(true);
  });

  it("the command line's early guess reads the secrets service's variable only (a guess, never the decision)", () => {
    expect(embeddedLikely({})).toBe(true);
    expect(embeddedLikely({ SVC_ADDR: 'http://127.0.0.1:8200' })).toBe(false);
  });
});
