import { describe, expect, it } from 'vitest';
import { SchedError } from '../../../reference/scheduler/errors.js';
import { canonicalize, specOf, type Job } from '../../../reference/scheduler/job.js';
import { checkJobDurations, validateJob } from '../../../reference/scheduler/job-checks.js';

const minimal = (): Job => ({ ID: 'web', TaskGroups: [{ Name: 'g', Tasks: [{ Name: 't', Driver: 'docker' }] }] });

describe('canonicalize', () => {
  it('fills the job defaults of the real scheduler', () => {
    const j = canonicalize(minimal());
    expect(j).toMatchObject({
      Region: 'global',
      Namespace: 'default',
      Name: 'web',
      Type: 'service',
      Priority: 50,
      Stop: false,
      Version: 0,
      Datacenters: ['*'],
    });
    const g = j.TaskGroups[0];
    expect(g.Count).toBe(1);
    expect(g.RestartPolicy).toMatchObject({ Attempts: 2, Mode: 'fail', Delay: 15_000_000_000 });
    expect(g.EphemeralDisk).toEqual({ Sticky: false, SizeMB: 300, Migrate: false });
    expect(g.Tasks[0]).toMatchObject({ KillTimeout: 5_000_000_000, Resources: { CPU: 100, MemoryMB: 300 } });
  });

  it('batch groups get batch restart and reschedule policies', () => {
    const j = canonicalize({ ...minimal(), Type: 'batch' });
    expect(j.TaskGroups[0].RestartPolicy.Attempts).toBe(3);
    expect(j.TaskGroups[0].ReschedulePolicy).toMatchObject({ Attempts: 1, DelayFunction: 'constant' });
    expect(j.TaskGroups[0].Migrate).toBeNull();
  });

  it('a job update block reaches the groups with defaults', () => {
    const j = canonicalize({ ...minimal(), Update: { MaxParallel: 2 } });
    expect(j.Update).toEqual({ Stagger: 30_000_000_000, MaxParallel: 2 });
    expect(j.TaskGroups[0].Update).toMatchObject({
      MaxParallel: 2,
      MinHealthyTime: 10_000_000_000,
      HealthCheck: 'checks',
    });
  });

  it('keeps what was given', () => {
    const j = canonicalize({ ...minimal(), Priority: 70, Datacenters: ['dc1'] });
    expect(j.Priority).toBe(70);
    expect(j.Datacenters).toEqual(['dc1']);
  });
});

describe('validateJob', () => {
  const bad = (j: Job) => () => validateJob(canonicalize(j));

  it('accepts a minimal job', () => {
    expect(bad(minimal())).not.toThrow();
  });

  it('rejects an unknown type, a priority out of range and missing groups, tasks or drivers', () => {
    expect(bad({ ...minimal(), Type: 'cron' })).toThrow(SchedError);
    expect(bad({ ...minimal(), Priority: 101 })).toThrow(/priority/);
    expect(bad({ ID: 'x' })).toThrow(/task groups/);
    expect(bad({ ID: 'x', TaskGroups: [{ Name: 'g' }] })).toThrow(/Missing tasks/);
    expect(bad({ ID: 'x', TaskGroups: [{ Name: 'g', Tasks: [{ Name: 't' }] }] })).toThrow(/driver/);
    expect(bad({ ...minimal(), ID: 'has space' })).toThrow(/space/);
  });

  it('periodic and parameterized jobs must be batch, with a valid cron spec', () => {
    expect(bad({ ...minimal(), Periodic: { Spec: '*/5 * * * *' } })).toThrow(/Periodic/);
    expect(bad({ ...minimal(), Type: 'batch', Periodic: { Spec: 'not a cron' } })).toThrow(/cron/);
    expect(bad({ ...minimal(), Type: 'batch', Periodic: { Spec: '*/5 * * * *' } })).not.toThrow();
    expect(bad({ ...minimal(), ParameterizedJob: {} })).toThrow(/Parameterized/);
    expect(
      bad({ ...minimal(), Type: 'batch', ParameterizedJob: { MetaRequired: ['a'], MetaOptional: ['a'] } }),
    ).toThrow(/disjoint/);
  });
});

describe('durations and versions', () => {
  it('durations must be integer nanoseconds', () => {
    expect(() => checkJobDurations({ TaskGroups: [{ Tasks: [{ KillTimeout: '5s' }] }] })).toThrow(/nanoseconds/);
    expect(() => checkJobDurations({ TaskGroups: [{ RestartPolicy: { Delay: 1.5 } }] })).toThrow(/nanoseconds/);
    expect(() => checkJobDurations({ TaskGroups: [{ Tasks: [{ KillTimeout: 5_000_000_000 }] }] })).not.toThrow();
  });

  it('the spec ignores version bookkeeping but not definition changes', () => {
    const a = canonicalize(minimal());
    const b = { ...canonicalize(minimal()), Version: 4, JobModifyIndex: 99, Stable: true };
    expect(specOf(a)).toBe(specOf(b));
    expect(specOf(a)).not.toBe(specOf({ ...a, Priority: 10 }));
  });
});
