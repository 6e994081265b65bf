/** Version tags: create (name, description, latest version by default), unique per job, kept, delete. */
import { suite, conformance } from '../../harness/index.js';
import { bodyAt, expectThat, expectEqual } from '../../harness/checks/index.js';
import { refusedUnchanged, update, ok } from './helpers.js';
import { hasEnvDiff, modeOf, tag, taggedMode, versioned, versionsOf, withMode } from './versioned.js';
import { body, enc } from './helpers.js';

suite('jobs');

conformance(
  {
    id: 'jobs.tag.create',
    level: 'MUST',
    title: 'POST /v1/job/:job_id/versions/:tag_name/tag returns Name, Description and TaggedTime',
  },
  async (t) => {
    const { id, v } = await versioned(t, 'tagc', 'secondary');
    const before = Date.now() * 1e6;
    // A name with capitals and a dash, kept as the path gives it.
    const ex = await tag(t, id, 'Golden-1', { Version: v[0], Description: 'the one to roll back to' });
    t.check(
      ex,
      ok,
      bodyAt('/Name', 'Golden-1'),
      bodyAt('/Description', 'the one to roll back to'),
      bodyAt(
        '/TaggedTime',
        (v: unknown) => Number.isInteger(v) && (v as number) > before - 86_400e9,
        'is integer nanoseconds since the epoch',
      ),
    );
  },
);

conformance(
  {
    id: 'jobs.tag.unique-per-job',
    level: 'MUST',
    title: 'POST /v1/job/:job_id/versions/:tag_name/tag with a name the job already uses is refused',
  },
  async (t) => {
    const { id, v } = await versioned(t, 'tagu', 'secondary', 'tertiary');
    t.check(await tag(t, id, 'golden', { Version: v[0] }), ok);
    await refusedUnchanged(t, id, 'a tag name the job already uses', () => tag(t, id, 'golden', { Version: v[1] }));
    // The tag stays where it was: it still names the first version (MODE primary).
    expectEqual(
      await taggedMode(t, id, 'golden', 'tertiary'),
      'primary',
      'the tag golden still names the first version',
    );
    const other = await versioned(t, 'tagu');
    t.check(await tag(t, other.id, 'golden', { Version: other.v[0] }), ok);
  },
);

conformance(
  {
    id: 'jobs.tag.latest-when-omitted',
    level: 'MUST',
    title: 'POST /v1/job/:job_id/versions/:tag_name/tag without Version tags the latest version',
  },
  async (t) => {
    const { id, job, v } = await versioned(t, 'tagl', 'secondary');
    // A tag naming a Version first: the one without Version still goes to the latest.
    t.check(await tag(t, id, 'first', { Version: v[0] }), ok);
    t.check(await tag(t, id, 'current'), ok);
    // Two newer versions: the newest one's predecessor is not the tagged one.
    t.check(await update(t, withMode(job, 'tertiary')), ok);
    t.check(await update(t, withMode(job, 'quaternary')), ok);
    expectEqual(
      await taggedMode(t, id, 'current', 'quaternary'),
      'secondary',
      'the tag names the version that was the latest when tagged (MODE secondary)',
    );
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
    const listed = (await versionsOf(t, id)).map(modeOf);
    expectThat(
      listed.includes('primary'),
      'versions',
      listed,
      'includes primary',
      'the tagged first version (MODE primary) is kept after 11 newer versions',
    );
    // The control: the untagged version of the same age (m1) is gone, so it is the tag that kept
    // the first one. No retention count is given: that versions are collected is an assumption.
    t.assuming('jobs.versions.untagged-collected', () =>
      expectThat(
        !listed.includes('m1'),
        'versions',
        listed,
        'no m1',
        'the untagged second version (MODE m1) is no longer listed after 10 newer versions',
      ),
    );
    // "... and can be compared by tag name": the tag still names the kept version.
    expectEqual(await taggedMode(t, id, 'keep', 'm11'), 'primary', 'the tag still names the kept first version');
  },
);

conformance(
  {
    id: 'jobs.tag.delete',
    level: 'MUST',
    title:
      'DELETE /v1/job/:job_id/versions/:tag_name/tag removes the tag and answers the write response and query meta',
  },
  async (t) => {
    const { id, v } = await versioned(t, 'tagd', 'secondary', 'tertiary');
    t.check(await tag(t, id, 'kept', { Version: v[0] }), ok);
    t.check(await tag(t, id, 'gone', { Version: v[1] }), ok);
    const del = await t.sched.delete(`job/${enc(id)}/versions/gone/tag`);
    t.check(del, ok);
    // The tag is gone: its name (unique per job) can name another version again.
    t.check(await tag(t, id, 'gone', { Version: v[2] }), ok);
    // Only the tag the path names is removed: the job's other tag still names its version.
    expectEqual(
      await taggedMode(t, id, 'kept', 'tertiary'),
      'primary',
      'the tag kept (not the one deleted) still names the first version',
    );
    // The answer: a write response (JobModifyIndex: the job's index), VolumeEvalID and
    // VolumeEvalIndex (absent when no volume evaluation was made, like EvalID), and query meta.
    const orAbsent = (f: (x: unknown) => boolean) => (x: unknown) => x === undefined || f(x);
    t.check(
      del,
      bodyAt('/JobModifyIndex', Number.isInteger, 'is an integer'),
      bodyAt(
        '/VolumeEvalID',
        orAbsent((x) => typeof x === 'string'),
        'is a string (or absent)',
      ),
      bodyAt('/VolumeEvalIndex', orAbsent(Number.isInteger), 'is an integer (or absent)'),
      bodyAt('/Index', Number.isInteger, 'is an integer'),
      bodyAt('/KnownLeader', (x: unknown) => typeof x === 'boolean', 'is a boolean'),
      bodyAt('/LastContact', (x: unknown) => typeof x === 'number', 'is a number'),
      bodyAt(
        '/NextToken',
        orAbsent((x) => typeof x === 'string'),
        'is a string (or absent)',
      ),
    );
  },
);

conformance(
  {
    id: 'jobs.versions.diff-tag',
    level: 'MUST',
    title: 'GET /v1/job/:job_id/versions?diffs=true&diff_tag= compares the versions with the tagged version',
  },
  async (t) => {
    const { id, v } = await versioned(t, 'difft', 'secondary', 'tertiary');
    t.check(await tag(t, id, 'base', { Version: v[0] }), ok);
    const ex = await t.sched.get(`job/${enc(id)}/versions`, { query: { diffs: true, diff_tag: 'base' } });
    t.check(ex, ok);
    expectThat(
      hasEnvDiff(body(ex).Diffs, 'primary', 'tertiary'),
      'diff',
      body(ex).Diffs,
      'field diff MODE primary -> tertiary',
      'the latest version is compared with the tagged one (MODE primary -> tertiary)',
    );
  },
);
