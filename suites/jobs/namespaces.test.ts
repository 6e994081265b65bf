/**
 * The namespace query parameter of each endpoint of "Parameters and responses" that names it: a job
 * registered in a namespace of its own (schedNamespace) is updated, read, reverted, dispatched and
 * stopped there through `?namespace=`; an endpoint that ignores the parameter looks in `default`,
 * where the job is not.
 */
import { suite, conformance, schedNamespace, schedTokenWith, type T } from '../../harness/index.js';
import { bodyAt, expectThat, expectEqual } from '../../harness/checks/index.js';
import { jobDefinition, hcl, type JobDefinition } from '../../fixtures/jobs/index.js';
import { body, enc, readJob, trackJob, waitFor, type Obj, ok } from './helpers.js';

suite('jobs');

/** A run-unique job of `definition` registered in a namespace of its own (set-up). */
async function inNamespace(
  t: T,
  definition: string,
  base: string,
  extra: Obj = {},
): Promise<{ id: string; ns: string; job: JobDefinition }> {
  const ns = await schedNamespace(t);
  const id = t.unique(base);
  const job = jobDefinition(definition, id, { Namespace: ns });
  trackJob(t, id, ns);
  const ex = await t.sched.post('jobs', { body: { Job: job, ...extra }, query: { namespace: ns } });
  t.precondition(ex, ok);
  return { id, ns, job };
}

const modeOf = (job: Obj): unknown => job.TaskGroups?.[0]?.Tasks?.[0]?.Env?.MODE;

function withMode(job: JobDefinition, mode: string): JobDefinition {
  const next = structuredClone(job);
  next.TaskGroups![0]!.Tasks![0]!.Env = { MODE: mode };
  return next;
}

conformance(
  {
    id: 'jobs.update.namespace',
    level: 'MUST',
    title: 'POST /v1/job/:job_id?namespace= updates the job of that namespace',
  },
  async (t) => {
    const { id, ns, job } = await inNamespace(t, 'service', 'nsupd');
    // The body's job names no namespace: the query parameter alone says where it goes.
    const { Namespace: _, ...unplaced } = withMode(job, 'secondary');
    trackJob(t, id);
    const ex = await t.sched.post(`job/${enc(id)}`, { body: { Job: unplaced }, query: { namespace: ns } });
    t.check(ex, ok);
    expectEqual(modeOf(await readJob(t, id, ns)), 'secondary', 'the job of the namespace was updated');
  },
);

conformance(
  {
    id: 'jobs.submission.namespace',
    level: 'MUST',
    title: 'GET /v1/job/:job_id/submission?namespace= reads the submission of the job of that namespace',
  },
  async (t) => {
    const source = `# submitted in a namespace ${t.unique('src')}`;
    const { id, ns } = await inNamespace(t, 'batch', 'nssub', { Submission: { Source: source, Format: 'hcl2' } });
    const version = (await readJob(t, id, ns)).Version as number;
    t.check(
      await t.sched.get(`job/${enc(id)}/submission`, { query: { version, namespace: ns } }),
      ok,
      bodyAt('/Source', source),
    );
  },
);

conformance(
  {
    id: 'jobs.versions.namespace',
    level: 'MUST',
    title: 'GET /v1/job/:job_id/versions?namespace= lists the versions of the job of that namespace',
  },
  async (t) => {
    const { id, ns } = await inNamespace(t, 'batch', 'nsver');
    const ex = await t.sched.get(`job/${enc(id)}/versions`, { query: { namespace: ns } });
    t.check(ex, ok);
    const versions = (body(ex).Versions ?? []) as Obj[];
    expectThat(
      versions.length > 0 && versions.every((v) => v.ID === id && v.Namespace === ns),
      'versions',
      versions.map((v) => [v.ID, v.Namespace, v.Version]),
      `versions of ${id} in ${ns}`,
      'the versions listed are those of the job of the namespace',
    );
  },
);

conformance(
  {
    id: 'jobs.allocations.namespace',
    level: 'MUST',
    title: 'GET /v1/job/:job_id/allocations and /deployments?namespace= list those of the job of that namespace',
  },
  async (t) => {
    const { id, ns } = await inNamespace(t, 'service-with-update', 'nsalloc');
    const listOf = (what: string) => async () => {
      const ex = await t.sched.get(`job/${enc(id)}/${what}`, { query: { namespace: ns } });
      t.check(ex, ok);
      return body<Obj[]>(ex) ?? [];
    };
    // Placement and the deployment are the scheduler's work after the registration answered: polled.
    const allocs = await waitFor(
      'the job of the namespace has allocations',
      listOf('allocations'),
      (a) => a.length > 0,
    );
    expectThat(
      allocs.every((a) => a.JobID === id),
      'allocations',
      allocs.map((a) => a.JobID),
      id,
      'the allocations listed belong to the job',
    );
    const deps = await waitFor('the job of the namespace has a deployment', listOf('deployments'), (d) => d.length > 0);
    expectThat(
      deps.every((d) => d.JobID === id),
      'deployments',
      deps.map((d) => d.JobID),
      id,
      'the deployments listed belong to the job',
    );
  },
);

conformance(
  {
    id: 'jobs.evaluations.namespace',
    level: 'MUST',
    title: 'GET /v1/job/:job_id/evaluations, /deployment and /summary?namespace= answer for the job of that namespace',
  },
  async (t) => {
    const { id, ns } = await inNamespace(t, 'service-with-update', 'nseval');
    const evals = await t.sched.get(`job/${enc(id)}/evaluations`, { query: { namespace: ns } });
    t.check(evals, ok);
    const list = body<Obj[]>(evals) ?? [];
    expectThat(
      list.length > 0 && list.every((e) => e.JobID === id),
      'evaluations',
      list.map((e) => e.JobID),
      `evaluations of ${id}`,
      'the evaluations of the job of the namespace are listed',
    );
    const latest = await waitFor(
      'the job of the namespace has a deployment',
      async () => {
        const ex = await t.sched.get(`job/${enc(id)}/deployment`, { query: { namespace: ns } });
        t.check(ex, ok);
        return body<Obj | null>(ex);
      },
      (d) => !!d,
    );
    expectEqual(latest?.JobID, id, 'the deployment read is the job of the namespace');
    t.check(
      await t.sched.get(`job/${enc(id)}/summary`, { query: { namespace: ns } }),
      ok,
      bodyAt('/JobID', id),
      bodyAt('/Namespace', ns),
    );
  },
);

conformance(
  {
    id: 'jobs.dispatch.namespace',
    level: 'MUST',
    title: 'POST /v1/job/:job_id/dispatch?namespace= dispatches the parameterized job of that namespace',
  },
  async (t) => {
    const { id, ns } = await inNamespace(t, 'parameterized', 'nsdsp');
    const ex = await t.sched.post(`job/${enc(id)}/dispatch`, {
      body: { Meta: { tenant: 'a' } },
      query: { namespace: ns },
    });
    const child = (ex.response.body as Obj | undefined)?.DispatchedJobID;
    if (typeof child === 'string' && child) trackJob(t, child, ns);
    t.check(ex, ok);
    t.check(await t.sched.get(`job/${enc(String(child))}`, { query: { namespace: ns } }), ok);
  },
);

conformance(
  {
    id: 'jobs.revert.namespace',
    level: 'MUST',
    title: 'POST /v1/job/:job_id/revert?namespace= reverts the job of that namespace',
  },
  async (t) => {
    const { id, ns, job } = await inNamespace(t, 'service', 'nsrev');
    const first = (await readJob(t, id, ns)).Version as number;
    t.precondition(
      await t.sched.post(`job/${enc(id)}`, { body: { Job: withMode(job, 'secondary') }, query: { namespace: ns } }),
      ok,
    );
    const ex = await t.sched.post(`job/${enc(id)}/revert`, {
      body: { JobID: id, JobVersion: first },
      query: { namespace: ns },
    });
    t.check(ex, ok);
    expectEqual(modeOf(await readJob(t, id, ns)), 'primary', 'the job of the namespace has its first definition back');
  },
);

conformance(
  {
    id: 'jobs.stop.namespace',
    level: 'MUST',
    title: 'DELETE /v1/job/:job_id?namespace= stops the job of that namespace',
  },
  async (t) => {
    const { id, ns } = await inNamespace(t, 'batch', 'nsstop');
    t.check(await t.sched.delete(`job/${enc(id)}`, { query: { namespace: ns } }), ok);
    expectEqual((await readJob(t, id, ns)).Stop, true, 'the job of the namespace is stopped');
  },
);

conformance(
  {
    id: 'jobs.parse.namespace',
    level: 'MUST',
    requires: ['schedAcl'],
    title:
      'POST /v1/jobs/parse?namespace= is made in that namespace: a token that may parse only there may parse with it',
  },
  async (t) => {
    const ns = await schedNamespace(t);
    const token = await schedTokenWith(t, ['parse-job'], ns);
    const parse = (namespace?: string) =>
      t.sched.post('jobs/parse', { token, body: { JobHCL: hcl('example.hcl') }, query: { namespace } });
    t.check(await parse(ns), ok, bodyAt('/ID', 'example'));
    const elsewhere = await parse();
    expectThat(
      elsewhere.response.status >= 400,
      'acl',
      elsewhere.response.status,
      'a refusal',
      'without namespace the parse is made in default, where the token may not parse',
    );
  },
);
