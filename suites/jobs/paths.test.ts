/** The jobs API's paths (Versioning: "Paths start with /v1") and its media type (Endpoints). */
import { suite, conformance, type T } from '../../harness/index.js';
import { expectThat, jsonContentType } from '../../harness/checks/index.js';
import type { Exchange } from '../../harness/index.js';
import { hcl, jobDefinition } from '../../fixtures/jobs/index.js';
import { body, enc, ok, register, scalable, trackJob, type Obj } from './helpers.js';

suite('jobs');

conformance(
  { id: 'jobs.paths.v1-prefix', level: 'MUST', title: 'The jobs endpoints answer under /v1: GET /v1/jobs' },
  async (t) => {
    const ex = await t.sched.get('jobs', { query: { prefix: t.unique('none') } });
    const path = new URL(ex.request.url).pathname;
    expectThat(path.endsWith('/v1/jobs'), 'path', path, '/v1/jobs', 'the request went to a /v1 path');
    t.check(ex, ok);
  },
);

/** A 2xx answer of JSON (the document's media type of every endpoint but the action stream). */
function json(t: T, ex: Exchange): Exchange {
  return t.check(ex, ok, jsonContentType);
}

conformance(
  {
    id: 'jobs.content-type.json',
    level: 'MUST',
    title: 'Every jobs endpoint but the action stream answers application/json',
    movesClock: 'so a deployment finishes before scaling',
  },
  async (t) => {
    const id = t.unique('ctall');
    const job = jobDefinition('service', id);
    json(t, await register(t, job, { extra: { Submission: { Source: '# source', Format: 'hcl2' } } }));
    const version = (body(json(t, await t.sched.get(`job/${enc(id)}`))) as Obj).Version as number;
    // Scaled first, once the registration's deployment finished: the writes below make versions
    // whose deployments a scale would have to wait for too.
    await scalable(t, id);
    json(
      t,
      await t.sched.post(`job/${enc(id)}/scale`, { body: { Count: 1, Message: 'ct', Target: { Group: 'cache' } } }),
    );
    json(t, await t.sched.get('jobs', { query: { prefix: id } }));
    json(t, await t.sched.post('jobs/parse', { body: { JobHCL: hcl('example.hcl') } }));
    for (const sub of ['versions', 'allocations', 'evaluations', 'deployments', 'deployment', 'summary', 'scale'])
      json(t, await t.sched.get(`job/${enc(id)}/${sub}`));
    json(t, await t.sched.get(`job/${enc(id)}/services`));
    json(t, await t.sched.get(`job/${enc(id)}/actions`));
    json(t, await t.sched.get(`job/${enc(id)}/submission`, { query: { version } }));
    const changed = jobDefinition('service', id, { Priority: 55 });
    json(t, await t.sched.post(`job/${enc(id)}/plan`, { body: { Job: changed } }));
    json(t, await t.sched.post(`job/${enc(id)}`, { body: { Job: changed } }));
    json(t, await t.sched.post(`job/${enc(id)}/evaluate`, { body: { JobID: id } }));
    // The current version is marked stable (what marking an older one does besides the flag is
    // open: assumption jobs.stable.flag-only), and the revert goes to the first, older one.
    const current = (body(json(t, await t.sched.get(`job/${enc(id)}`))) as Obj).Version as number;
    json(t, await t.sched.post(`job/${enc(id)}/stable`, { body: { JobID: id, JobVersion: current, Stable: true } }));
    json(t, await t.sched.post(`job/${enc(id)}/versions/ct/tag`, { body: { Version: version } }));
    json(t, await t.sched.delete(`job/${enc(id)}/versions/ct/tag`));
    json(t, await t.sched.post(`job/${enc(id)}/revert`, { body: { JobID: id, JobVersion: version } }));
    json(t, await t.sched.delete(`job/${enc(id)}`));
    // Dispatch and periodic force: children are known by their ParentID.
    const param = t.unique('ctparam');
    const raw = t.unique('ctraw');
    const periodic = t.unique('ctper');
    await register(t, jobDefinition('parameterized', param));
    await register(t, jobDefinition('parameterized-payload-required', raw));
    await register(t, jobDefinition('periodic', periodic));
    try {
      json(t, await t.sched.post(`job/${enc(param)}/dispatch`, { body: { Meta: { tenant: 'ct' } } }));
      json(t, await t.sched.post(`job/${enc(raw)}/dispatch/payload`, { rawBody: 'ct', contentType: 'text/plain' }));
      json(t, await t.sched.post(`job/${enc(periodic)}/periodic/force`));
    } finally {
      for (const c of body<Obj[]>(await t.sched.get('jobs')) ?? [])
        if ([param, raw, periodic].includes(c.ParentID)) trackJob(t, c.ID);
    }
  },
);
