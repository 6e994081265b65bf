import { describe, expect, it } from 'vitest';
import { annotate, desiredUpdates, jobDiff } from '../../../reference/scheduler/diff.js';

const base = () => ({
  ID: 'web',
  Type: 'service',
  Priority: 50,
  Datacenters: ['dc1'],
  Meta: null as Record<string, string> | null,
  Version: 0,
  TaskGroups: [
    {
      Name: 'cache',
      Count: 1,
      Tasks: [
        {
          Name: 'redis',
          Driver: 'docker',
          Env: { a: '1' } as Record<string, string>,
          KillTimeout: 5000000000,
          Config: { image: 'redis:7' },
        },
      ],
    },
  ],
});

describe('jobDiff', () => {
  it('an identical job is None with nothing listed', () => {
    const d = jobDiff(base(), base());
    expect(d).toEqual({ Type: 'None', ID: 'web', Fields: null, Objects: null, TaskGroups: null });
  });

  it('a new job is Added', () => {
    const d = jobDiff(null, base());
    expect(d.Type).toBe('Added');
    expect(d.TaskGroups![0]!.Type).toBe('Added');
    expect(d.TaskGroups![0]!.Tasks![0]!.Fields).toContainEqual({
      Type: 'Added',
      Name: 'KillTimeout',
      Old: '',
      New: '5000000000',
      Annotations: null,
    });
  });

  it('an env change shows as an Edited task with a flattened field', () => {
    const next = base();
    next.TaskGroups[0]!.Tasks[0]!.Env = { a: '1', foo: 'bar' };
    const d = jobDiff(base(), next);
    expect(d.Type).toBe('Edited');
    const task = d.TaskGroups![0]!.Tasks![0]!;
    expect(task.Type).toBe('Edited');
    expect(task.Fields).toEqual([{ Type: 'Added', Name: 'Env[foo]', Old: '', New: 'bar', Annotations: null }]);
  });

  it('job fields, meta and list objects', () => {
    const next = base();
    next.Priority = 70;
    next.Meta = { team: 'core' };
    next.Datacenters = ['dc1', 'dc2'];
    const d = jobDiff(base(), next);
    expect(d.Fields).toEqual([
      { Type: 'Added', Name: 'Meta[team]', Old: '', New: 'core', Annotations: null },
      { Type: 'Edited', Name: 'Priority', Old: '50', New: '70', Annotations: null },
    ]);
    expect(d.Objects).toEqual([
      {
        Type: 'Edited',
        Name: 'Datacenters',
        Fields: [{ Type: 'Added', Name: 'Datacenters', Old: '', New: 'dc2', Annotations: null }],
        Objects: null,
      },
    ]);
  });

  it('ignores Version and index fields', () => {
    const next = { ...base(), Version: 3, JobModifyIndex: 99 };
    expect(jobDiff(base(), next).Type).toBe('None');
  });
});

describe('desiredUpdates and annotate', () => {
  it('a count increase places the difference and ignores the rest', () => {
    const next = base();
    next.TaskGroups[0]!.Count = 3;
    const u = desiredUpdates(base(), next, { cache: 1 });
    expect(u.cache).toMatchObject({ Place: 2, Ignore: 1, DestructiveUpdate: 0 });
    const d = jobDiff(base(), next);
    annotate(d, u);
    expect(d.TaskGroups![0]!.Updates).toEqual({ create: 2, ignore: 1 });
    expect(d.TaskGroups![0]!.Fields![0]!.Annotations).toEqual(['forces create']);
  });

  it('a task change is a destructive update', () => {
    const next = base();
    next.TaskGroups[0]!.Tasks[0]!.Config = { image: 'redis:8' };
    expect(desiredUpdates(base(), next, { cache: 1 }).cache).toMatchObject({ DestructiveUpdate: 1, Place: 0 });
  });

  it('a new job places every allocation', () => {
    expect(desiredUpdates(null, base(), {}).cache).toMatchObject({ Place: 1 });
  });
});
