/**
 * Versions with diffs and stability, and the lifecycle of a job through them (tags: tags.test.ts,
 * revert: revert.test.ts).
 */
import { suite, conformance } from '../../harness/index.js';
import { bodyAt, expectThat, expectEqual } from '../../harness/checks/index.js';
import { body, enc, readJob, registered, scalable, update, type Obj, ok, currentVersion, absent } from './helpers.js';
import {
  envDiff,
  hasEnvDiff,
  modeOf,
  revert,
  tag,
  versioned,
  versionNumbers,
  versionsOf,
  withMode,
} from './versioned.js';

suite('jobs');

/** The definition a user wrote: groups, their tasks and settings, without state the scheduler keeps. */
const specOf = (job: Obj): unknown => ({
  Type: job.Type,
  Priority: job.Priority,
  Meta: job.Meta,
  TaskGroups: job.TaskGroups,
  Update: job.Update,
});

/** Keys an object must carry (present, whatever their value: the document gives none). */
const carries = (o: Obj | undefined, keys: string[]): string[] => keys.filter((k) => !o || !(k in o));

conformance(
  {
    id: 'jobs.versions.list',
    also: ['jobs.versions.no-diffs-by-default'],
    level: 'MUST',
    title: 'GET /v1/job/:job_id/versions returns every version with its definition, without diffs by default',
  },
  async (t) => {
    const { id } = await versioned(t, 'vers', 'secondary');
    // Diffs asked for once: the lists after it, without diffs=true, still have none.
    t.as('jobs.versions.no-diffs-by-default').check(
      await t.sched.get(`job/${enc(id)}/versions`, { query: { diffs: true } }),
      ok,
    );
    const ex = await t.sched.get(`job/${enc(id)}/versions`);
    t.check(
      ex,
      ok,
      bodyAt('/Index', Number.isInteger, 'is an integer'),
      bodyAt('/KnownLeader', (v: unknown) => typeof v === 'boolean', 'is a boolean'),
      bodyAt('/LastContact', (v: unknown) => typeof v === 'number' && v >= 0, 'is a non-negative number'),
    );
    // No order is given: the versions are told apart by their definitions, the newest the highest.
    const versions = [...(body(ex).Versions as Obj[])].sort((a, b) => Number(a.Version) - Number(b.Version));
    expectEqual(versions.length, 2, 'two versions listed');
    expectEqual(versions.map(modeOf), ['primary', 'secondary'], 'each version keeps its definition');
    const diffs = body(ex).Diffs as unknown;
    t.proving('jobs.versions.no-diffs-by-default', () =>
      expectThat(
        diffs === null || diffs === undefined || (Array.isArray(diffs) && diffs.length === 0),
        'diffs',
        diffs,
        'null or []',
        'no diffs without diffs=true',
      ),
    );
    const off = await t.sched.get(`job/${enc(id)}/versions`, { query: { diffs: false } });
    t.as('jobs.versions.no-diffs-by-default').check(off, ok);
    const offDiffs = body(off).Diffs as unknown;
    t.proving('jobs.versions.no-diffs-by-default', () =>
      expectThat(
        offDiffs === null || offDiffs === undefined || (Array.isArray(offDiffs) && offDiffs.length === 0),
        'diffs',
        offDiffs,
        'null or []',
        'no diffs with diffs=false',
      ),
    );
  },
);

conformance(
  {
    id: 'jobs.versions.diffs',
    level: 'MUST',
    title: 'GET /v1/job/:job_id/versions?diffs=true returns an Edited diff with the changed field',
  },
  async (t) => {
    const { id } = await versioned(t, 'diffs', 'secondary');
    const ex = await t.sched.get(`job/${enc(id)}/versions`, { query: { diffs: true } });
    t.check(ex, ok);
    const diffs = (body(ex).Diffs ?? []) as Obj[];
    const field = envDiff(diffs, 'primary', 'secondary');
    expectThat(
      !!field,
      'diff',
      diffs,
      'field diff MODE primary -> secondary',
      'the diff of the second version names Env MODE primary -> secondary',
    );
    const jobDiff = diffs.find((d) => envDiff([d], 'primary', 'secondary'))!;
    expectEqual(jobDiff.ID, id, 'the job diff names the job');
    expectEqual(carries(jobDiff, ['ID', 'Type', 'Fields', 'Objects', 'TaskGroups']), [], 'fields of the job diff');
    const group = (jobDiff.TaskGroups ?? []).find((g: Obj) => g.Name === 'cache') as Obj | undefined;
    expectThat(!!group, 'diff', jobDiff.TaskGroups, 'a task group diff named cache', 'the task group cache has a diff');
    expectEqual(carries(group, ['Name', 'Type', 'Updates', 'Tasks']), [], 'fields of the task group diff');
    expectEqual(carries(field, ['Name', 'Old', 'New', 'Type', 'Annotations']), [], 'fields of the field diff');
    expectThat(
      [jobDiff.Type, group!.Type, field!.Type].every((v) => typeof v === 'string' && v.length > 0),
      'diff',
      [jobDiff.Type, group!.Type, field!.Type],
      'non-empty strings',
      'the job, task group and field diffs have a Type',
    );
    t.assuming('jobs.diff.type-names', () => expectEqual(jobDiff.Type, 'Edited', 'Type of the diff of a changed job'));
  },
);

conformance(
  {
    id: 'jobs.versions.diff-version',
    also: ['jobs.versions.diffs'],
    level: 'MUST',
    title: 'GET /v1/job/:job_id/versions?diffs=true&diff_version= compares with the version named',
  },
  async (t) => {
    const { id, v } = await versioned(t, 'diffv', 'secondary', 'tertiary');
    const ex = await t.sched.get(`job/${enc(id)}/versions`, { query: { diffs: true, diff_version: v[0] } });
    t.check(ex, ok);
    expectThat(
      hasEnvDiff(body(ex).Diffs, 'primary', 'tertiary'),
      'diff',
      body(ex).Diffs,
      'field diff MODE primary -> tertiary',
      'the third version is compared with the first (primary -> tertiary)',
    );
    // Without diff_version each version is compared with its predecessor (the diffs rule itself).
    const plain = await t.sched.get(`job/${enc(id)}/versions`, { query: { diffs: true } });
    t.proving('jobs.versions.diffs', () =>
      expectThat(
        !hasEnvDiff(body(plain).Diffs, 'primary', 'tertiary') && hasEnvDiff(body(plain).Diffs, 'secondary', 'tertiary'),
        'diff',
        body(plain).Diffs,
        'a secondary -> tertiary diff and no primary -> tertiary one',
        'without diff_version the third version is compared with the second (secondary -> tertiary)',
      ),
    );
  },
);

/** The Stable flag of each version of the job, by Version. */
const flags = async (t: Parameters<Parameters<typeof conformance>[1]>[0], id: string) =>
  Object.fromEntries((await versionsOf(t, id)).map((v) => [v.Version, v.Stable]));

conformance(
  {
    id: 'jobs.stable.set',
    also: ['jobs.stable.flag-only'],
    level: 'MUST',
    title: 'POST /v1/job/:job_id/stable marks a version stable and unstable',
  },
  async (t) => {
    const { id } = await versioned(t, 'stab', 'secondary');
    const before = await readJob(t, id);
    const [first, latest] = await versionNumbers(t, id);
    const stable = await t.sched.post(`job/${enc(id)}/stable`, {
      body: { JobID: id, JobVersion: first, Stable: true },
    });
    t.check(stable, ok);
    expectEqual((await flags(t, id))[first!], true, 'the first version is stable');
    expectEqual((await flags(t, id))[latest!], false, 'the latest version was not touched');
    // Marking an older version stable is a flag, not a revert: the job keeps its version and spec.
    const after = await readJob(t, id);
    t.assuming('jobs.stable.flag-only', () =>
      expectEqual(
        [after.Version, modeOf(after), specOf(after)],
        [before.Version, modeOf(before), specOf(before)],
        'the job itself (version, definition) is unchanged',
      ),
    );
    const count = (await versionsOf(t, id)).length;
    t.assuming('jobs.stable.flag-only', () => expectEqual(count, 2, 'no version was added'));
    t.check(await t.sched.post(`job/${enc(id)}/stable`, { body: { JobID: id, JobVersion: first, Stable: false } }), ok);
    expectEqual((await flags(t, id))[first!], false, 'the first version is unstable again');
    // The job read is its current version: marking that version stable shows on GET /v1/job/:job_id.
    t.check(await t.sched.post(`job/${enc(id)}/stable`, { body: { JobID: id, JobVersion: latest, Stable: true } }), ok);
    const current = await readJob(t, id);
    expectEqual(
      [current.Version, current.Stable],
      [latest, true],
      'GET /v1/job/:job_id after marking its current version stable',
    );
  },
);

conformance(
  {
    id: 'jobs.stable.set',
    level: 'MUST',
    title: 'POST /v1/job/:job_id/stable answers the JobModifyIndex of the change',
  },
  async (t) => {
    // "Response: `JobModifyIndex`": a test of its own, so the flag's effects are judged apart.
    const { id } = await versioned(t, 'stabr', 'secondary');
    const latest = await currentVersion(t, id);
    const stable = await t.sched.post(`job/${enc(id)}/stable`, {
      body: { JobID: id, JobVersion: latest, Stable: true },
    });
    t.check(stable, ok, bodyAt('/JobModifyIndex', Number.isInteger, 'is an integer'));
  },
);

conformance(
  {
    id: 'jobs.stable.set',
    level: 'MUST',
    title: 'POST /v1/job/:job_id/stable without JobVersion marks version 0, and without Stable marks it unstable',
  },
  async (t) => {
    const { id } = await versioned(t, 'stabd', 'secondary');
    const [first, latest] = await versionNumbers(t, id);
    if (first !== 0) t.notApplicable(`the job has no version 0 (versions ${first}, ${latest})`);
    t.check(await t.sched.post(`job/${enc(id)}/stable`, { body: { JobID: id, Stable: true } }), ok);
    expectEqual(
      [(await flags(t, id))[0], (await flags(t, id))[latest!]],
      [true, false],
      'JobVersion defaults to 0: version 0 is stable, the latest untouched',
    );
    t.check(await t.sched.post(`job/${enc(id)}/stable`, { body: { JobID: id, JobVersion: 0 } }), ok);
    expectEqual((await flags(t, id))[0], false, 'Stable defaults to false: version 0 is unstable again');
  },
);

conformance(
  {
    id: 'jobs.revert.by-tag',
    also: [
      'jobs.update.bumps-version',
      'jobs.versions.diffs',
      'jobs.tag.create',
      'jobs.stable.set',
      'jobs.scale.sets-count',
      'jobs.stop.marks-stopped',
      'jobs.stop.purge',
    ],
    level: 'MUST',
    title: 'lifecycle: register, update with diff, tag, revert by tag, stable, scale, stop, purge',
    movesClock: 'until the deployment lets the job scale',
  },
  async (t) => {
    const { id, job } = await registered(t, 'service', 'life');
    const first = await currentVersion(t, id);
    t.as('jobs.update.bumps-version').check(await update(t, withMode(job, 'secondary')), ok);
    const second = await currentVersion(t, id);
    t.proving('jobs.update.bumps-version', () =>
      expectThat(second > first, 'version', second, `> ${first}`, 'the change made a higher version'),
    );
    // A third version: the tag goes to the second, so a revert that ignored TaggedVersion (and
    // took JobVersion's default, 0) or stayed on the current version would not pass.
    t.as('jobs.update.bumps-version').check(await update(t, withMode(job, 'tertiary')), ok);
    const diffs = await t.sched.get(`job/${enc(id)}/versions`, { query: { diffs: true } });
    t.proving('jobs.versions.diffs', () =>
      expectThat(
        hasEnvDiff(body(diffs).Diffs, 'primary', 'secondary'),
        'diff',
        body(diffs).Diffs,
        'primary -> secondary',
        'the second version differs by MODE',
      ),
    );
    t.as('jobs.tag.create').check(
      await tag(t, id, 'second', { Version: second, Description: 'the second' }),
      ok,
      bodyAt('/Name', 'second'),
    );
    t.check(await revert(t, id, { TaggedVersion: 'second' }), ok);
    const reverted = await readJob(t, id);
    expectEqual(modeOf(reverted), 'secondary', 'reverted to the tagged definition');
    t.as('jobs.stable.set').check(
      await t.sched.post(`job/${enc(id)}/stable`, {
        body: { JobID: id, JobVersion: reverted.Version, Stable: true },
      }),
      ok,
    );
    await scalable(t, id);
    t.as('jobs.scale.sets-count').check(
      await t.sched.post(`job/${enc(id)}/scale`, {
        body: { Count: 2, Message: 'lifecycle', Target: { Group: 'cache' } },
      }),
      ok,
    );
    await t.proving('jobs.scale.sets-count', async () =>
      expectEqual((await readJob(t, id)).TaskGroups[0].Count, 2, 'scaled to 2'),
    );
    t.as('jobs.stop.marks-stopped').check(await t.sched.delete(`job/${enc(id)}`), ok);
    const stopped = await readJob(t, id);
    t.proving('jobs.stop.marks-stopped', () => expectEqual(stopped.Stop, true, 'stopped but still readable'));
    t.as('jobs.stop.purge').check(await t.sched.delete(`job/${enc(id)}`, { query: { purge: true } }), ok);
    await t.proving('jobs.stop.purge', () => absent(t, id, 'the purged job'));
  },
);
