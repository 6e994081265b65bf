/** POST /v1/job/:job_id/revert: by version (default 0), by tag, check-and-set, the optional tokens. */
import { suite, conformance } from '../../harness/index.js';
import { bodyAt, expectEqual } from '../../harness/checks/index.js';
import { jobDefinition } from '../../fixtures/jobs/index.js';
import { enc, currentVersion, readJob, refusedUnchanged, register, update, ok } from './helpers.js';
import { modeOf, revert, tag, versioned, versionNumbers } from './versioned.js';
import { writeAnswer } from './answers.js';

suite('jobs');

conformance(
  {
    id: 'jobs.revert.by-version',
    level: 'MUST',
    title: 'POST /v1/job/:job_id/revert with JobVersion registers that definition as a new version',
  },
  async (t) => {
    const { id, v } = await versioned(t, 'revv', 'secondary');
    const ex = await revert(t, id, { JobVersion: v[0] });
    // A write response; the reverted service job is evaluated again.
    t.check(ex, ok, ...writeAnswer({ evaluation: true }));
    // Whether the revert makes a new version or restores the old one is not shown: the definition is.
    const now = await readJob(t, id);
    expectEqual(modeOf(now), 'primary', 'the definition of the first version is back');
    t.check(ex, bodyAt('/JobModifyIndex', now.JobModifyIndex, "is the reverted job's JobModifyIndex"));
  },
);

conformance(
  {
    id: 'jobs.revert.by-version',
    level: 'MUST',
    title: 'POST /v1/job/:job_id/revert with neither JobVersion nor TaggedVersion reverts to version 0',
  },
  async (t) => {
    const { id } = await versioned(t, 'revd', 'secondary', 'tertiary');
    const versions = await versionNumbers(t, id);
    if (versions[0] !== 0) t.notApplicable(`the job has no version 0 (versions ${versions.join(', ')})`);
    t.check(await revert(t, id, {}), ok);
    expectEqual(modeOf(await readJob(t, id)), 'primary', 'JobVersion defaults to 0: the first definition is back');
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
    // The check-and-set holds on a revert by tag too.
    t.check(await tag(t, id, 'first', { Version: v[0] }), ok);
    await refusedUnchanged(t, id, 'a revert by TaggedVersion with a stale EnforcePriorVersion', () =>
      revert(t, id, { TaggedVersion: 'first', EnforcePriorVersion: v[0] }),
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
  {
    id: 'jobs.revert.tokens-optional',
    level: 'MUST',
    title: 'POST /v1/job/:job_id/revert with DiscoveryToken or SecretsToken reverts a job that uses neither service',
  },
  async (t) => {
    const id = t.unique('revtok');
    const job = jobDefinition('batch', id);
    await register(t, job);
    t.check(await update(t, { ...job, Priority: 45 }), ok);
    const [first, second] = await versionNumbers(t, id);
    t.check(await revert(t, id, { JobVersion: first, DiscoveryToken: t.unique('discovery') }), ok);
    expectEqual((await readJob(t, id)).Priority, 40, 'the revert with a DiscoveryToken applied');
    t.check(await revert(t, id, { JobVersion: second, SecretsToken: t.unique('secrets') }), ok);
    expectEqual((await readJob(t, id)).Priority, 45, 'the revert with a SecretsToken applied');
  },
);
