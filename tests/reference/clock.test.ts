/**
 * The controllable clock refuses a move past the latest time it can represent, leaving the time
 * unchanged; the secrets service and the scheduler keep clocks of their own.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { ClockRangeError, ControllableClock, MAX_TIME_MS } from '../../reference/clock.js';
import { startReference, type RunningReference } from '../../reference/start.js';

describe('controllable clock range', () => {
  it('refuses a move past the end of year 9999 and keeps its time', async () => {
    const clock = new ControllableClock();
    try {
      const before = clock.now();
      const realBefore = Date.now();
      await expect(clock.advance(1e16)).rejects.toBeInstanceOf(ClockRangeError);
      await expect(clock.advance(Number.POSITIVE_INFINITY)).rejects.toBeInstanceOf(ClockRangeError);
      await expect(clock.advance(-1)).rejects.toBeInstanceOf(ClockRangeError);
      // Against the real time that passed (however loaded the machine), not a fixed bound.
      expect(clock.now() - before, 'time unchanged (only real time passed)').toBeLessThanOrEqual(
        Date.now() - realBefore + 5,
      );
      await clock.advance(60_000);
      expect(clock.now() - before).toBeGreaterThanOrEqual(60_000);
      expect(new Date(MAX_TIME_MS).toISOString()).toBe('9999-12-31T23:59:59.999Z');
    } finally {
      clock.close();
    }
  });

  describe('sys/reference/clock', () => {
    let ref: RunningReference | undefined;
    afterAll(async () => {
      await ref?.stop();
    });

    it('answers 400 with an errors array to {"advance":1e13} and the service keeps working', async () => {
      ref = await startReference({ rootToken: 'clock-test-root-token', quiet: true, env: {} });
      const call = async (method: string, path: string, body?: unknown) => {
        const res = await fetch(`${ref!.svcAddr}/v1/${path}`, {
          method,
          headers: { 'X-Svc-Token': 'clock-test-root-token', 'Content-Type': 'application/json' },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        const text = await res.text();
        return { status: res.status, body: text ? JSON.parse(text) : undefined };
      };
      const before = (await call('GET', 'sys/reference/clock')).body.data.now_ms as number;
      const refused = await call('POST', 'sys/reference/clock', { advance: 1e13 });
      expect(refused.status).toBe(400);
      expect(Array.isArray(refused.body.errors) && refused.body.errors.length > 0, 'errors array').toBe(true);
      expect(refused.body.errors[0]).toMatch(/latest time|at most/);
      const after = (await call('GET', 'sys/reference/clock')).body.data.now_ms as number;
      expect(after - before, 'the clock did not move').toBeLessThan(5_000);
      // What used to answer 500 after the overflow: a kv write.
      const write = await call('POST', 'secret/data/clock-check', { data: { a: '1' } });
      expect(write.status).toBe(200);
      const ok = await call('POST', 'sys/reference/clock', { advance: 3600 });
      expect(ok.status).toBe(200);
      expect(ok.body.data.now_ms - after).toBeGreaterThanOrEqual(3_600_000);
    }, 60_000);
  });
});

describe('two clock domains', () => {
  let ref: RunningReference | undefined;
  afterAll(async () => {
    await ref?.stop();
  });

  it('moving the scheduler clock leaves the secrets clock, and moving the secrets clock leaves the scheduler clock', async () => {
    const token = 'clock-domains-root-token';
    ref = await startReference({ rootToken: token, quiet: true, env: {} });
    const call = async (base: string, method: string, path: string, body?: unknown) => {
      const res = await fetch(`${base}/v1/${path}`, {
        method,
        headers: { 'X-Svc-Token': token, 'X-Sched-Token': token, 'Content-Type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      expect(res.status, `${method} ${path}`).toBe(200);
      return (await res.json()) as Record<string, unknown>;
    };
    const svcNow = async (advance?: number) => {
      const body = await call(
        ref!.svcAddr,
        advance === undefined ? 'GET' : 'POST',
        'sys/reference/clock',
        advance === undefined ? undefined : { advance },
      );
      return (body.data as { now_ms: number }).now_ms;
    };
    // The scheduler's control answers the clock after the move: a move of 0 reads it.
    const schedNow = async (advance = 0) =>
      (await call(ref!.schedAddr!, 'POST', 'reference/clock', { advance })).now as number;
    const HOUR = 3_600_000;
    // Real time passes between the readings: a second is far more than these calls take and far
    // less than the hours moved.
    const SLACK = 1000;

    const svc0 = await svcNow();
    const sched1 = await schedNow(10 * 3600);
    expect(sched1 - Date.now(), 'the scheduler clock moved 10 hours').toBeGreaterThanOrEqual(10 * HOUR - SLACK);
    expect((await svcNow()) - svc0, 'the secrets clock did not move with it').toBeLessThan(SLACK);
    expect(ref.clock.offset(), 'the secrets clock object did not move').toBe(0);

    const svc1 = await svcNow(3 * 3600);
    expect(svc1 - svc0).toBeGreaterThanOrEqual(3 * HOUR);
    const sched2 = await schedNow();
    expect(sched2 - sched1, 'the scheduler clock did not move with the secrets clock').toBeLessThan(SLACK);
    expect(ref.schedClock.offset()).toBe(10 * HOUR);
    expect(ref.clock.offset()).toBe(3 * HOUR);
  }, 60_000);
});
