/** GET /v1/job/:job_id/submission: the source supplied at registration, its version, the 6 kept. */
import { suite, conformance } from '../../harness/index.js';
import { statusIs, bodyAt, expectThat, expectEqual } from '../../harness/checks/index.js';
import { jobDefinition } from '../../fixtures/jobs/index.js';
import { enc, readJob, refused, register, update, type Obj } from './helpers.js';

suite('jobs');

conformance(
  {
    id: 'jobs.submission.read',
    also: ['jobs.register.submission-reference-only'],
    level: 'MUST',
    title:
      'GET /v1/job/:job_id/submission?version=0 returns the source sent with the job, which does not drive scheduling',
  },
  async (t) => {
    const id = t.unique('sub');
    const source = `job "${id}" {\n  group "work" {\n    count = 7\n  }\n}\n`;
    await register(t, jobDefinition('batch', id), {
      extra: { Submission: { Source: source, Format: 'hcl2', VariableFlags: { X: 'x' }, Variables: '' } },
    });
    const sub = await t.sched.get(`job/${enc(id)}/submission`, { query: { version: 0 } });
    t.check(
      sub,
      statusIs(200),
      bodyAt('/Source', source),
      bodyAt('/Format', 'hcl2'),
      bodyAt('/Version', 0),
      bodyAt('/JobID', id),
      bodyAt('/VariableFlags', { X: 'x' }),
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
      await t.sched.get(`job/${enc(id)}/submission`, { query: { version: 0 } }),
      statusIs(200),
      bodyAt('/Source', '# source'),
    );
    refused(t, await t.sched.get(`job/${enc(id)}/submission`, { validate: false }), 'GET submission without version');
  },
);

/** No submission: a refusal (4xx, or any non-2xx where rejections-4xx is off), or 200 with nothing in it. */
function noSubmission(ex: { response: { status: number; body: unknown } }): boolean {
  if (ex.response.status >= 400 && ex.response.status < 600) return true;
  const b = ex.response.body as Obj | null | string;
  return ex.response.status === 200 && (b === null || b === '' || (typeof b === 'object' && !b.Source));
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
    await register(t, job, { extra: { Submission: { Source: '# version 0', Format: 'hcl2' } } });
    t.check(await update(t, { ...job, Priority: 45 }), statusIs(200));
    expectEqual((await readJob(t, id)).Version, 1, 'the update made version 1');
    const ex = await t.sched.get(`job/${enc(id)}/submission`, { query: { version: 1 } });
    expectThat(
      noSubmission(ex),
      'submission',
      'no submission data for version 1, registered without one (not the source of version 0)',
      '4xx or an empty answer',
      { status: ex.response.status, body: ex.response.body },
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
    for (let v = 0; v < 8; v++) {
      const ex = await t.sched.post('jobs', {
        body: { Job: { ...job, Meta: { v: String(v) } }, Submission: { Source: `# version ${v}`, Format: 'hcl2' } },
      });
      if (v === 0)
        t.track(`job ${id}`, () => t.sched.delete(`job/${enc(id)}`, { query: { purge: true }, validate: false }));
      t.check(ex, statusIs(200));
    }
    expectEqual((await readJob(t, id)).Version, 7, 'eight registrations made versions 0..7');
    for (const v of [0, 1]) {
      const ex = await t.sched.get(`job/${enc(id)}/submission`, { query: { version: v } });
      expectThat(
        noSubmission(ex),
        'submission',
        `version ${v} is older than the 6 kept sources`,
        'no submission',
        ex.response.body,
      );
    }
    for (const v of [2, 7]) {
      t.check(
        await t.sched.get(`job/${enc(id)}/submission`, { query: { version: v } }),
        statusIs(200),
        bodyAt('/Source', `# version ${v}`),
      );
    }
  },
);
