/**
 * The reference's failed allocations (reference/scheduler/reschedule.ts): which tasks fail, how
 * long restarts hold an allocation before it fails, and when its ReschedulePolicy lets an
 * evaluation replace it.
 */
import { describe, expect, it } from 'vitest';
import { failingTasks, rescheduleAllowed, restartsMs, trackerAfter } from '../../../reference/scheduler/reschedule.js';

const SECOND_NS = 1_000_000_000;
const group = (policy: Record<string, unknown> | null, restart = { Attempts: 0, Delay: 0 }) => ({
  Tasks: [
    { Name: 'ok', Config: { command: '/bin/true' } },
    { Name: 'bad', Config: { command: '/bin/false' } },
  ],
  RestartPolicy: restart,
  ReschedulePolicy: policy,
});

describe('failed allocations of the simulated cluster', () => {
  it('fails the tasks whose command is false, after the restart policy has run out', () => {
    expect(failingTasks(group(null))).toEqual(['bad']);
    expect(failingTasks({ Tasks: [{ Name: 'x', Config: { command: '/bin/sleep' } }] })).toEqual([]);
    expect(restartsMs(group(null, { Attempts: 2, Delay: 15 * SECOND_NS }))).toBe(30_000);
    expect(restartsMs(group(null))).toBe(0);
  });

  it('lets a failed allocation be replaced only after its delay and within its attempts', () => {
    const policy = { Attempts: 1, Interval: 3600 * SECOND_NS, Delay: 5 * SECOND_NS, Unlimited: false };
    const failed = { ID: 'a1', NodeID: 'n1', failedAtMs: 10_000, RescheduleTracker: null };
    expect(rescheduleAllowed(failed, group(policy), 14_999)).toBe(false);
    expect(rescheduleAllowed(failed, group(policy), 15_000)).toBe(true);
    const second = { ID: 'a2', NodeID: 'n1', failedAtMs: 20_000, RescheduleTracker: trackerAfter(failed, 15_000, 0) };
    expect(rescheduleAllowed(second, group(policy), 30_000)).toBe(false);
    expect(rescheduleAllowed(second, group({ ...policy, Unlimited: true }), 30_000)).toBe(true);
    expect(rescheduleAllowed(failed, group({ ...policy, Attempts: 0 }), 60_000)).toBe(false);
    expect(rescheduleAllowed(failed, group(null), 60_000)).toBe(false);
  });

  it('carries the reschedule events over to the replacement', () => {
    const first = trackerAfter({ ID: 'a1', NodeID: 'n1' }, 1_000, 5 * SECOND_NS);
    const second = trackerAfter({ ID: 'a2', NodeID: 'n2', RescheduleTracker: first }, 2_000, 0);
    expect(second.Events.map((e: { PrevAllocID: string }) => e.PrevAllocID)).toEqual(['a1', 'a2']);
    expect(first.Events[0]).toMatchObject({ PrevNodeID: 'n1', RescheduleTime: 1_000_000_000, Delay: 5 * SECOND_NS });
  });
});
