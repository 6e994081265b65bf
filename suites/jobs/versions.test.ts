// size: versions, tags and revert of a job definition: 15 tests, 3 lines over.
/** Versions with diffs, version tags, revert (by version, by tag, check-and-set), stability. */
import { suite, conformance, type T } from '../../harness/index.js';
import { bodyAt, expectThat, expectEqual } from '../../harness/checks/index.js';
import type { JobDefinition } from '../../fixtures/jobs/index.js';
import {
  body,
  currentVersion,
  enc,
  readJob,
  refusedUnchanged,
  registered,
  scalable,
  update,
  type Obj,
  ok,
  absent,
} from './helpers.js';

suite('jobs');

/** A copy of the job with the task's MODE environment variable set (one field diff per change). */
function withMode(job: JobDefinition, mode: string): JobDefinition {
  const next = structuredClone(job);
  next.TaskGroups![0]!.Tasks![0]!.Env = { MODE: mode };
  return next;
}

/**
 * Registers the service fixture (MODE=primary) and applies each further mode as a new version.
 * `v` holds the Version read back after each write (`v[0]` the registration's): the document says
 * a Version is an integer, not where versions start or how they count.
 */
async function versioned(
  t: T,
  base: string,
  ...modes: string[]
): Promise<{ id: string; job: JobDefinition; v: number[] }> {
  const { id, job } = await registered(t, 'service', base);
  const v = [await currentVersion(t, id)];
  for (const m of modes) {
    t.check(await update(t, withMode(job, m)), ok);
    v.push(await currentVersion(t, id));
  }
  return { id, job, v };
}

const modeOf = (job: Obj): unknown => job.TaskGroups?.[0]?.Tasks?.[0]?.Env?.MODE;

/** The definition a user wrote: groups, their tasks and settings, without state the scheduler keeps. */
const specOf = (job: Obj): unknown => ({
  Type: job.Type,
  Priority: job.Priority,
  Meta: job.Meta,
  TaskGroups: job.TaskGroups,
  Update: job.Update,
});

/** Every field diff anywhere in a job diff (job, group, task and object levels). */
function fieldDiffs(diff: Obj | null | undefined): Obj[] {
  if (!diff) return [];
  const out: Obj[] = [...(diff.Fields ?? [])];
  for (const o of diff.Objects ?? []) out.push(...fieldDiffs(o));
  for (const g of diff.TaskGroups ?? []) out.push(...fieldDiffs(g));
  for (const tk of diff.Tasks ?? []) out.push(...fieldDiffs(tk));
  return out;
}

const hasEnvDiff = (diffs: Obj[] | null, oldV: string, newV: string): boolean =>
  (diffs ?? []).some((d) =>
    fieldDiffs(d).some((f) => String(f.Name).includes('MODE') && f.Old === oldV && f.New === newV),
  );

async function tag(t: T, id: string, name: string, reqBody?: Obj) {
  return t.sched.post(`job/${enc(id)}/versions/${enc(name)}/tag`, { body: reqBody ?? {} });
}

async function revert(t: T, id: string, reqBody: Obj) {
  return t.sched.post(`job/${enc(id)}/revert`, { body: { JobID: id, ...reqBody } });
}

conformance(
  {
    id: 'jobs.versions.list',
    also: ['jobs.versions.no-diffs-by-default'],
    level: 'MUST',
    title: 'GET /v1/job/:job_id/versions returns every version, without diffs by default',
  },
  async (t) => {
    const { id, v } = await versioned(t, 'vers', 'secondary');
    const ex = await t.sched.get(`job/${enc(id)}/versions`);
    t.check(
      ex,
      ok,
      bodyAt('/Index', Number.isInteger, 'is an integer'),
      bodyAt('/KnownLeader', (v: unknown) => typeof v === 'boolean', 'is a boolean'),
    );
    // The document gives no order of the versions: compared as a set.
    const versions = body(ex).Versions as Obj[];
    const byVersion = Object.fromEntries(versions.map((x) => [x.Version, modeOf(x)]));
    expectEqual(versions.map((x) => x.Version).sort(), [...v].sort(), 'every version is listed once');
    expectEqual([byVersion[v[0]!], byVersion[v[1]!]], ['primary', 'secondary'], 'each version keeps its definition');
    const diffs = body(ex).Diffs as unknown;
    expectThat(
      diffs === null || diffs === undefined || (Array.isArray(diffs) && diffs.length === 0),
      'diffs',
      'no diffs without diffs=true',
      'null or []',
      diffs,
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
    t.check(ex, ok, bodyAt('/Diffs/0/Type', 'Edited'), bodyAt('/Diffs/0/ID', id));
    expectThat(
      hasEnvDiff(body(ex).Diffs, 'primary', 'secondary'),
      'diff',
      'the diff of version 1 names Env MODE primary -> secondary',
      'field diff MODE primary -> secondary',
      body(ex).Diffs,
    );
  },
);

conformance(
  {
    id: 'jobs.versions.diff-version',
    level: 'MUST',
    title: 'GET /v1/job/:job_id/versions?diffs=true&diff_version=0 compares with version 0',
  },
  async (t) => {
    const { id } = await versioned(t, 'diffv', 'secondary', 'tertiary');
    const ex = await t.sched.get(`job/${enc(id)}/versions`, { query: { diffs: true, diff_version: 0 } });
    t.check(ex, ok);
    expectThat(
      hasEnvDiff(body(ex).Diffs, 'primary', 'tertiary'),
      'diff',
      'version 2 is compared with version 0 (primary -> tertiary)',
      'field diff MODE primary -> tertiary',
      body(ex).Diffs,
    );
    const plain = await t.sched.get(`job/${enc(id)}/versions`, { query: { diffs: true } });
    expectThat(
      !hasEnvDiff(body(plain).Diffs, 'primary', 'tertiary'),
      'diff',
      'without diff_version versions are compared with their predecessor',
      'no primary -> tertiary diff',
      body(plain).Diffs,
    );
  },
);

conformance(
  {
    id: 'jobs.tag.create',
    level: 'MUST',
    title: 'POST /v1/job/:job_id/versions/:tag_name/tag returns Name, Description and TaggedTime',
  },
  async (t) => {
    const { id, v } = await versioned(t, 'tagc', 'secondary');
    const before = Date.now() * 1e6;
    const ex = await tag(t, id, 'golden', { Version: v[0], Description: 'the one to roll back to' });
    t.check(
      ex,
      ok,
      bodyAt('/Name', 'golden'),
      bodyAt('/Description', 'the one to roll back to'),
      bodyAt(
        '/TaggedTime',
        (v: unknown) => Number.isInteger(v) && (v as number) > before - 86_400e9,
        'is integer nanoseconds since the epoch',
      ),
    );
    // The tag is kept on its version: reverting to it by name brings the first version back.
    t.check(await revert(t, id, { TaggedVersion: 'golden' }), ok);
    expectEqual(modeOf(await readJob(t, id)), 'primary', 'the tagged first version (primary) is back');
  },
);

conformance(
  {
    id: 'jobs.tag.unique-per-job',
    level: 'MUST',
    title: 'POST /v1/job/:job_id/versions/:tag_name/tag with a name the job already uses is refused',
  },
  async (t) => {
    const { id, v } = await versioned(t, 'tagu', 'secondary');
    t.check(await tag(t, id, 'golden', { Version: v[0] }), ok);
    await refusedUnchanged(t, id, 'a tag name the job already uses', () => tag(t, id, 'golden', { Version: v[1] }));
    // Where the tag is, read through what the document gives it for: a revert by TaggedVersion.
    t.check(await revert(t, id, { TaggedVersion: 'golden' }), ok);
    expectEqual(
      modeOf(await readJob(t, id)),
      'primary',
      'the tag stayed on the first version (primary), not the second',
    );
    const other = await versioned(t, 'tagu');
    t.check(await tag(t, other.id, 'golden', { Version: other.v[0] }), ok);
  },
);

conformance(
  {
    id: 'jobs.tag.latest-when-omitted',
    also: ['jobs.revert.by-tag'],
    level: 'MUST',
    title: 'POST /v1/job/:job_id/versions/:tag_name/tag without Version tags the latest version',
  },
  async (t) => {
    const { id, job } = await versioned(t, 'tagl', 'secondary');
    t.check(await tag(t, id, 'current'), ok);
    t.check(await update(t, withMode(job, 'tertiary')), ok);
    t.check(await revert(t, id, { TaggedVersion: 'current' }), ok);
    const now = await readJob(t, id);
    expectEqual(modeOf(now), 'secondary', 'reverting to the tag restored the second version (the latest when tagged)');
  },
);

conformance(
  {
    id: 'jobs.tag.not-garbage-collected',
    level: 'MUST',
    title: 'GET /v1/job/:job_id/versions still lists a tagged version after many newer versions',
  },
  async (t) => {
    const modes = Array.from({ length: 11 }, (_, i) => `m${i + 1}`);
    const { id, job, v } = await versioned(t, 'tagkeep');
    t.check(await tag(t, id, 'keep', { Version: v[0] }), ok);
    for (const m of modes) t.check(await update(t, withMode(job, m)), ok);
    const versions = (body(await t.sched.get(`job/${enc(id)}/versions`)).Versions as Obj[]).map(
      (v) => v.Version as number,
    );
    expectThat(
      versions.includes(v[0]!),
      'versions',
      'the tagged first version is kept after 11 newer versions',
      `includes ${v[0]}`,
      versions,
    );
    t.check(await revert(t, id, { TaggedVersion: 'keep' }), ok);
    expectEqual(modeOf(await readJob(t, id)), 'primary', 'the tagged version can still be reverted to');
  },
);

conformance(
  { id: 'jobs.tag.delete', level: 'MUST', title: 'DELETE /v1/job/:job_id/versions/:tag_name/tag removes the tag' },
  async (t) => {
    const { id, v } = await versioned(t, 'tagd', 'secondary');
    t.check(await tag(t, id, 'gone', { Version: v[0] }), ok);
    const del = await t.sched.delete(`job/${enc(id)}/versions/gone/tag`);
    t.check(del, ok, bodyAt('/JobModifyIndex', Number.isInteger, 'is an integer'));
    await refusedUnchanged(t, id, 'a revert to a deleted tag', () => revert(t, id, { TaggedVersion: 'gone' }));
    t.check(await tag(t, id, 'gone', { Version: v[1] }), ok);
  },
);

conformance(
  {
    id: 'jobs.revert.by-version',
    level: 'MUST',
    title: 'POST /v1/job/:job_id/revert with JobVersion registers that definition as a new version',
  },
  async (t) => {
    const { id, v } = await versioned(t, 'revv', 'secondary');
    const ex = await revert(t, id, { JobVersion: v[0] });
    t.check(ex, ok, bodyAt('/JobModifyIndex', Number.isInteger, 'is an integer'));
    expectEqual(modeOf(await readJob(t, id)), 'primary', 'the definition of the first version is back');
  },
);

conformance(
  {
    id: 'jobs.revert.by-tag',
    level: 'MUST',
    title: 'POST /v1/job/:job_id/revert with TaggedVersion reverts to the tagged version',
  },
  async (t) => {
    const { id, v } = await versioned(t, 'revt', 'secondary', 'tertiary');
    t.check(await tag(t, id, 'golden', { Version: v[1] }), ok);
    t.check(await revert(t, id, { TaggedVersion: 'golden' }), ok);
    expectEqual(modeOf(await readJob(t, id)), 'secondary', 'the definition of the tagged second version is back');
    await refusedUnchanged(t, id, 'a revert to an unknown tag', () => revert(t, id, { TaggedVersion: 'no-such-tag' }));
  },
);

conformance(
  {
    id: 'jobs.revert.enforce-prior-version',
    level: 'MUST',
    title: 'POST /v1/job/:job_id/revert with a stale EnforcePriorVersion is refused and changes nothing',
  },
  async (t) => {
    const { id, v } = await versioned(t, 'revc', 'secondary');
    await refusedUnchanged(t, id, 'a revert with a stale EnforcePriorVersion', () =>
      revert(t, id, { JobVersion: v[0], EnforcePriorVersion: v[0] }),
    );
    const unchanged = await readJob(t, id);
    expectEqual(
      [unchanged.Version, modeOf(unchanged)],
      [v[1], 'secondary'],
      'the refused revert left the job at its second version',
    );
    t.check(await revert(t, id, { JobVersion: v[0], EnforcePriorVersion: v[1] }), ok);
    expectEqual(modeOf(await readJob(t, id)), 'primary', 'the revert with the current version applied');
  },
);

conformance(
  { id: 'jobs.revert.jobid-required', level: 'MUST', title: 'POST /v1/job/:job_id/revert without JobID is refused' },
  async (t) => {
    const { id, v } = await versioned(t, 'revj', 'secondary');
    await refusedUnchanged(t, id, 'a revert without JobID', () =>
      t.sched.post(`job/${enc(id)}/revert`, { body: { JobVersion: v[0] }, validate: false }),
    );
    expectEqual(await currentVersion(t, id), v[1], 'the refused revert changed nothing');
  },
);

conformance(
  {
    id: 'jobs.revert.one-of-version-or-tag',
    level: 'MUST',
    title: 'POST /v1/job/:job_id/revert naming both JobVersion and TaggedVersion is refused and changes nothing',
  },
  async (t) => {
    const { id, v } = await versioned(t, 'revb', 'secondary');
    t.check(await tag(t, id, 'golden', { Version: v[0] }), ok);
    await refusedUnchanged(t, id, 'a revert naming JobVersion and TaggedVersion', () =>
      revert(t, id, { JobVersion: v[0], TaggedVersion: 'golden' }),
    );
    expectEqual(await currentVersion(t, id), v[1], 'the refused revert changed nothing');
  },
);

conformance(
  { id: 'jobs.stable.set', level: 'MUST', title: 'POST /v1/job/:job_id/stable marks a version stable and unstable' },
  async (t) => {
    const { id, v } = await versioned(t, 'stab', 'secondary');
    const before = await readJob(t, id);
    const stable = await t.sched.post(`job/${enc(id)}/stable`, { body: { JobID: id, JobVersion: v[0], Stable: true } });
    t.check(stable, ok, bodyAt('/JobModifyIndex', Number.isInteger, 'is an integer'));
    const flags = async () =>
      Object.fromEntries(
        (body(await t.sched.get(`job/${enc(id)}/versions`)).Versions as Obj[]).map((v) => [v.Version, v.Stable]),
      );
    expectEqual((await flags())[v[0]!], true, 'the first version is stable');
    expectEqual((await flags())[v[1]!], false, 'the second version was not touched');
    // Marking an older version stable is a flag, not a revert: the job keeps its version and spec.
    const after = await readJob(t, id);
    expectEqual(
      [after.Version, modeOf(after), specOf(after)],
      [before.Version, modeOf(before), specOf(before)],
      'the job itself (version, definition) is unchanged',
    );
    expectEqual(Object.keys(await flags()).length, 2, 'no version was added');
    t.check(await t.sched.post(`job/${enc(id)}/stable`, { body: { JobID: id, JobVersion: v[0], Stable: false } }), ok);
    expectEqual((await flags())[v[0]!], false, 'the first version is unstable again');
    const last = await readJob(t, id);
    expectEqual(
      [last.Version, specOf(last)],
      [before.Version, specOf(before)],
      'the job is still unchanged after unmarking',
    );
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
  },
  async (t) => {
    const { id, job } = await registered(t, 'service', 'life');
    const first = await currentVersion(t, id);
    t.as('jobs.update.bumps-version').check(await update(t, withMode(job, 'secondary')), ok);
    const second = await currentVersion(t, id);
    t.proving('jobs.update.bumps-version', () =>
      expectThat(second > first, 'version', 'the change made a higher version', `> ${first}`, second),
    );
    const diffs = await t.sched.get(`job/${enc(id)}/versions`, { query: { diffs: true } });
    t.proving('jobs.versions.diffs', () =>
      expectThat(
        hasEnvDiff(body(diffs).Diffs, 'primary', 'secondary'),
        'diff',
        'the second version differs by MODE',
        'primary -> secondary',
        body(diffs).Diffs,
      ),
    );
    t.as('jobs.tag.create').check(
      await tag(t, id, 'first', { Version: first, Description: 'initial' }),
      ok,
      bodyAt('/Name', 'first'),
    );
    t.check(await revert(t, id, { TaggedVersion: 'first' }), ok);
    const reverted = await readJob(t, id);
    expectEqual(modeOf(reverted), 'primary', 'reverted to the tagged definition');
    t.as('jobs.stable.set').check(
      await t.sched.post(`job/${enc(id)}/stable`, {
        body: { JobID: id, JobVersion: await currentVersion(t, id), Stable: true },
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
    await t.proving('jobs.stop.marks-stopped', async () =>
      expectEqual((await readJob(t, id)).Stop, true, 'stopped but still readable'),
    );
    t.as('jobs.stop.purge').check(await t.sched.delete(`job/${enc(id)}`, { query: { purge: true } }), ok);
    await t.proving('jobs.stop.purge', () => absent(t, id, 'the purged job'));
  },
);
