/** POST /v1/job/:job_id/revert: by version (default 0), by tag, check-and-set, the optional tokens. */
import { suite, conformance } from '../../harness/index.js';
import { statusIs, bodyAt, expectEqual } from '../../harness/checks/index.js';
import { jobDefinition } from '../../fixtures/jobs/index.js';
import { enc, readJob, refusedUnchanged, register, update } from './helpers.js';
import { modeOf, revert, tag, versioned, versionNumbers } from './versioned.js';

suite('jobs');

conformance(
  {
    id: 'jobs.revert.by-version',
    level: 'MUST',
    title: 'POST /v1/job/:job_id/revert with JobVersion registers that definition as a new version',
  },
  async (t) => {
    const { id } = await versioned(t, 'revv', 'secondary');
    const ex = await revert(t, id, { JobVersion: 0 });
    t.check(ex, statusIs(200), bodyAt('/JobModifyIndex', Number.isInteger, 'is an integer'));
    // Whether the revert makes a new version or restores the old one is not shown: the definition is.
    const now = await readJob(t, id);
    expectEqual(modeOf(now), 'primary', 'the definition of version 0 is back');
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
    t.check(await revert(t, id, {}), statusIs(200));
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
    const { id } = await versioned(t, 'revt', 'secondary', 'tertiary');
    t.check(await tag(t, id, 'golden', { Version: 1 }), statusIs(200));
    t.check(await revert(t, id, { TaggedVersion: 'golden' }), statusIs(200));
    expectEqual(modeOf(await readJob(t, id)), 'secondary', 'the definition of the tagged version 1 is back');
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
    const { id } = await versioned(t, 'revc', 'secondary');
    await refusedUnchanged(t, id, 'a revert with a stale EnforcePriorVersion', () =>
      revert(t, id, { JobVersion: 0, EnforcePriorVersion: 0 }),
    );
    const unchanged = await readJob(t, id);
    expectEqual(
      [unchanged.Version, modeOf(unchanged)],
      [1, 'secondary'],
      'the refused revert left the job at version 1',
    );
    t.check(await revert(t, id, { JobVersion: 0, EnforcePriorVersion: 1 }), statusIs(200));
    expectEqual(modeOf(await readJob(t, id)), 'primary', 'the revert with the current version applied');
  },
);

conformance(
  { id: 'jobs.revert.jobid-required', level: 'MUST', title: 'POST /v1/job/:job_id/revert without JobID is refused' },
  async (t) => {
    const { id } = await versioned(t, 'revj', 'secondary');
    await refusedUnchanged(t, id, 'a revert without JobID', () =>
      t.sched.post(`job/${enc(id)}/revert`, { body: { JobVersion: 0 }, validate: false }),
    );
    expectEqual((await readJob(t, id)).Version, 1, 'the refused revert changed nothing');
  },
);

conformance(
  {
    id: 'jobs.revert.one-of-version-or-tag',
    level: 'MUST',
    title: 'POST /v1/job/:job_id/revert naming both JobVersion and TaggedVersion is refused and changes nothing',
  },
  async (t) => {
    const { id } = await versioned(t, 'revb', 'secondary');
    t.check(await tag(t, id, 'golden', { Version: 0 }), statusIs(200));
    await refusedUnchanged(t, id, 'a revert naming JobVersion and TaggedVersion', () =>
      revert(t, id, { JobVersion: 0, TaggedVersion: 'golden' }),
    );
    expectEqual((await readJob(t, id)).Version, 1, 'the refused revert changed nothing');
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
    t.check(await update(t, { ...job, Priority: 45 }), statusIs(200));
    const [first, second] = await versionNumbers(t, id);
    t.check(await revert(t, id, { JobVersion: first, DiscoveryToken: t.unique('discovery') }), statusIs(200));
    expectEqual((await readJob(t, id)).Priority, 40, 'the revert with a DiscoveryToken applied');
    t.check(await revert(t, id, { JobVersion: second, SecretsToken: t.unique('secrets') }), statusIs(200));
    expectEqual((await readJob(t, id)).Priority, 45, 'the revert with a SecretsToken applied');
  },
);
