/**
 * Every job the fixture generator emits must be one a real scheduler accepts: each is sent to the
 * reference's POST /v1/validate/job, which applies the registration rules of the real scheduler
 * (restart policy modes, attempts, interval and delay included).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ControllableClock } from '../../../reference/clock.js';
import { Faults } from '../../../reference/faults.js';
import { jobGenerator } from '../../../fixtures/jobs/generator.js';
import { startScheduler } from '../../../reference/scheduler/server.js';

let sched: Awaited<ReturnType<typeof startScheduler>>;
const clock = new ControllableClock();

beforeAll(async () => {
  sched = await startScheduler({ clock, faults: new Faults([]), aclEnabled: false });
});
afterAll(async () => {
  await sched.close();
  clock.close();
});

async function validate(job: unknown): Promise<{ ValidationErrors: string[] }> {
  const res = await fetch(`${sched.addr}/v1/validate/job`, {
    method: 'POST',
    body: JSON.stringify({ Job: job }),
    signal: AbortSignal.timeout(5000),
  });
  expect(res.status).toBe(200);
  return (await res.json()) as { ValidationErrors: string[] };
}

describe('generated jobs', () => {
  it('validate on the reference for many seeds', async () => {
    let n = 0;
    for (const seed of [1, 2, 3, 7, 42, 1234]) {
      const gen = jobGenerator(seed);
      for (let i = 0; i < 15; i++) {
        const job = gen({ id: `gen-${seed}-${i}` });
        const out = await validate(job);
        expect(
          out.ValidationErrors,
          `seed ${seed} job ${i}: ${JSON.stringify(job.TaskGroups?.map((g) => g.RestartPolicy))}`,
        ).toEqual([]);
        n++;
      }
    }
    expect(n).toBe(90);
  });

  it('the validator refuses the restart policies the generator used to emit', async () => {
    const gen = jobGenerator(1);
    const base = gen({ id: 'bad', type: 'batch', groups: 1 });
    const group = base.TaskGroups![0]!;
    const withPolicy = (p: Record<string, unknown>) => ({ ...base, TaskGroups: [{ ...group, RestartPolicy: p }] });
    const delayNoAttempts = await validate(withPolicy({ Attempts: 0, Interval: 60e9, Delay: 1e9, Mode: 'delay' }));
    expect(delayNoAttempts.ValidationErrors.join(' ')).toMatch(/ambiguous/);
    const tooMany = await validate(withPolicy({ Attempts: 5, Interval: 60e9, Delay: 30e9, Mode: 'fail' }));
    expect(tooMany.ValidationErrors.join(' ')).toMatch(/cannot restart 5 times/);
    const shortInterval = await validate(withPolicy({ Attempts: 1, Interval: 1e9, Delay: 1e8, Mode: 'fail' }));
    expect(shortInterval.ValidationErrors.join(' ')).toMatch(/less than 5s/);
  });
});
