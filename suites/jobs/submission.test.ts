/** GET /v1/job/:job_id/submission: the source supplied at registration, its version, the 6 kept. */
import { suite, conformance } from '../../harness/index.js';
import { bodyAt, expectThat, expectEqual } from '../../harness/checks/index.js';
import { jobDefinition } from '../../fixtures/jobs/index.js';
import { currentVersion, enc, readJob, refused, register, update, type Obj, ok } from './helpers.js';

suite('jobs');

conformance(
  {
    id: 'jobs.submission.read',
    also: ['jobs.register.submission-reference-only'],
    level: 'MUST',
    title:
      'GET /v1/job/:job_id/submission?version= returns the source sent with the job, which does not drive scheduling',
  },
  async (t) => {
    const id = t.unique('sub');
    const source = `job "${id}" {\n  group "work" {\n    count = 7\n  }\n}\n`;
    await register(t, jobDefinition('batch', id), {
      extra: { Submission: { Source: source, Format: 'hcl2', VariableFlags: { X: 'x', Y: 'y' }, Variables: '' } },
    });
    const version = await currentVersion(t, id);
    const sub = await t.sched.get(`job/${enc(id)}/submission`, { query: { version } });
    t.check(
      sub,
      ok,
      bodyAt('/Source', source),
      bodyAt('/Format', 'hcl2'),
      bodyAt('/Version', version),
      bodyAt('/JobID', id),
      bodyAt('/VariableFlags', { X: 'x', Y: 'y' }),
    );
    await t.proving('jobs.register.submission-reference-only', async () =>
      expectEqual(
        (await readJob(t, id)).TaskGroups[0].Count,
        1,
        'the job runs its JSON definition, not the submitted source (count 7)',
      ),
    );
  },
);

conformance(
  {
    id: 'jobs.submission.version-required',
    level: 'MUST',
    title: 'GET /v1/job/:job_id/submission without version is refused',
  },
  async (t) => {
    const id = t.unique('subv');
    await register(t, jobDefinition('batch', id), { extra: { Submission: { Source: '# source', Format: 'hcl2' } } });
    t.check(
      await t.sched.get(`job/${enc(id)}/submission`, { query: { version: await currentVersion(t, id) } }),
      ok,
      bodyAt('/Source', '# source'),
    );
    refused(t, await t.sched.get(`job/${enc(id)}/submission`, { validate: false }), 'GET submission without version');
  },
);

/** No submission: a refusal (4xx, or any non-2xx where rejections-4xx is off), or 200 with nothing in it. */
function noSubmission(ex: { response: { status: number; body: unknown } }): boolean {
  if (ex.response.status >= 400 && ex.response.status < 600) return true;
  const b = ex.response.body as Obj | null | string;
  return (
    ex.response.status >= 200 &&
    ex.response.status < 300 &&
    (b === null || b === '' || (typeof b === 'object' && !b.Source))
  );
}

conformance(
  {
    id: 'jobs.submission.absent-when-not-supplied',
    level: 'MUST',
    title: 'GET /v1/job/:job_id/submission of a version registered without Submission has no data',
  },
  async (t) => {
    const id = t.unique('nosub');
    const job = jobDefinition('batch', id);
    await register(t, job, { extra: { Submission: { Source: '# first version', Format: 'hcl2' } } });
    const first = await currentVersion(t, id);
    t.check(await update(t, { ...job, Priority: 45 }), ok);
    const second = await currentVersion(t, id);
    expectThat(second !== first, 'version', second, `not ${first}`, 'the update made a new version');
    const ex = await t.sched.get(`job/${enc(id)}/submission`, { query: { version: second } });
    expectThat(
      noSubmission(ex),
      'submission',
      { status: ex.response.status, body: ex.response.body },
      '4xx or an empty answer',
      'no submission data for the second version, registered without one (not the source of the first)',
    );
  },
);

conformance(
  {
    id: 'jobs.submission.keep-last-6',
    level: 'MUST',
    title: 'GET /v1/job/:job_id/submission keeps only the 6 most recent sources',
  },
  async (t) => {
    const id = t.unique('six');
    const job = jobDefinition('batch', id);
    // The Version each registration made, as read back (the document gives no numbering).
    const versions: number[] = [];
    for (let n = 0; n < 8; n++) {
      const ex = await t.sched.post('jobs', {
        body: { Job: { ...job, Meta: { v: String(n) } }, Submission: { Source: `# source ${n}`, Format: 'hcl2' } },
      });
      if (n === 0)
        t.track(`job ${id}`, () => t.sched.delete(`job/${enc(id)}`, { query: { purge: true }, validate: false }));
      t.check(ex, ok);
      versions.push(await currentVersion(t, id));
    }
    expectEqual(new Set(versions).size, 8, 'eight changed registrations made eight versions');
    for (const n of [0, 1]) {
      const ex = await t.sched.get(`job/${enc(id)}/submission`, { query: { version: versions[n] } });
      expectThat(
        noSubmission(ex),
        'submission',
        ex.response.body,
        'no submission',
        `the source of registration ${n + 1} is older than the 6 kept sources`,
      );
    }
    for (const n of [2, 7]) {
      t.check(
        await t.sched.get(`job/${enc(id)}/submission`, { query: { version: versions[n] } }),
        ok,
        bodyAt('/Source', `# source ${n}`),
      );
    }
  },
);
