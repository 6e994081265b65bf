/** Parameterized jobs: dispatch, raw payload, limits and meta (data-driven), idempotency. */
import { suite, conformance } from '../../harness/index.js';
import { bodyAt, expectThat, expectEqual } from '../../harness/checks/index.js';
import { jobDefinition } from '../../fixtures/jobs/index.js';
import { loadCases, runCases } from '../lib/cases.js';
import {
  body,
  enc,
  payloadOf,
  readJob,
  registered,
  runCase,
  trackJob,
  type Obj,
  refusedUnchanged,
  ok,
} from './helpers.js';

const s = suite('jobs');

const cases = loadCases(new URL('./dispatch.cases.yaml', import.meta.url));
const caseIds: Record<string, string> = {};

// The dispatch cases share their parameterized jobs, registered once for the file.
s.setup(async (ctx) => {
  const prefix = ctx.unique('dsp');
  for (const [name, spec] of Object.entries(cases.jobs ?? {})) {
    const id = `${prefix}-${name.toLowerCase()}`;
    ctx.track(`job ${id} and its children`, async () => {
      const children = await ctx.sched.get('jobs', { query: { prefix: `${id}/` }, validate: false });
      for (const c of Array.isArray(children.response.body) ? (children.response.body as Obj[]) : []) {
        await ctx.sched.delete(`job/${enc(c.ID)}`, { query: { purge: true }, validate: false });
      }
      return ctx.sched.delete(`job/${enc(id)}`, { query: { purge: true }, validate: false });
    });
    const ex = await ctx.sched.post('jobs', { body: { Job: jobDefinition(spec.definition, id, spec.overrides) } });
    if (ex.response.status < 200 || ex.response.status > 299)
      throw new Error(`could not register dispatch fixture job ${id}: status ${ex.response.status}`);
    caseIds[name] = id;
  }
});

runCases(cases, { 'jobs-shared': { run: (t, c) => runCase(t, c, caseIds).then(() => undefined) } });

/** Dispatches and schedules the child's purge. */
async function dispatch(
  t: Parameters<Parameters<typeof conformance>[1]>[0],
  id: string,
  reqBody: Obj,
  query: Record<string, string> = {},
) {
  const ex = await t.sched.post(`job/${enc(id)}/dispatch`, { body: reqBody, query });
  const child = (ex.response.body as Obj | undefined)?.DispatchedJobID;
  if (typeof child === 'string' && child) trackJob(t, child);
  return ex;
}

conformance(
  {
    id: 'jobs.dispatch.creates-child',
    also: ['jobs.dispatch.meta'],
    level: 'MUST',
    title: 'POST /v1/job/:job_id/dispatch creates a dispatched child job with the payload and meta',
  },
  async (t) => {
    const { id } = await registered(t, 'parameterized', 'dchild');
    const payload = payloadOf(100);
    const ex = await dispatch(t, id, { Payload: payload, Meta: { tenant: 'acme', note: 'first' } });
    t.check(
      ex,
      ok,
      bodyAt(
        '/DispatchedJobID',
        (v: unknown) => typeof v === 'string' && v.startsWith(`${id}/`),
        'starts with the parent ID and a slash',
      ),
      bodyAt('/EvalID', (v: unknown) => typeof v === 'string' && v.length > 0, 'names the evaluation'),
    );
    const child = await readJob(t, body(ex).DispatchedJobID);
    expectEqual(child.ParentID, id, 'ParentID of the dispatched job');
    expectEqual(child.Dispatched, true, 'Dispatched flag of the child');
    expectEqual(child.Payload, payload, 'the child carries the payload');
    expectThat(
      child.Meta?.tenant === 'acme' && child.Meta?.note === 'first',
      'meta',
      'the dispatch meta is stored on the child',
      { tenant: 'acme', note: 'first' },
      child.Meta,
    );
  },
);

conformance(
  {
    id: 'jobs.dispatch.idempotency-token',
    level: 'MUST',
    title: 'POST /v1/job/:job_id/dispatch twice with one idempotency_token creates one child',
  },
  async (t) => {
    const { id } = await registered(t, 'parameterized', 'didem');
    const token = t.unique('tok');
    const first = await dispatch(t, id, { Meta: { tenant: 'a' } }, { idempotency_token: token });
    t.check(first, ok);
    const second = await dispatch(t, id, { Meta: { tenant: 'a' } }, { idempotency_token: token });
    const s2 = second.response.status;
    expectThat(
      (s2 >= 200 && s2 < 300) || (s2 >= 400 && s2 < 500),
      'status',
      'the repeated dispatch succeeds idempotently or is refused',
      '2xx or 4xx',
      s2,
    );
    if (s2 >= 200 && s2 < 300)
      expectEqual(
        body(second).DispatchedJobID,
        body(first).DispatchedJobID,
        'the repeated dispatch names the same child',
      );
    const children = await t.sched.get('jobs', { query: { prefix: `${id}/` } });
    t.check(children, ok);
    expectEqual(body<Obj[]>(children).length, 1, 'children of the parent after two dispatches with one token');
    t.check(await dispatch(t, id, { Meta: { tenant: 'a' } }, { idempotency_token: t.unique('tok') }), ok);
    expectEqual(
      body<Obj[]>(await t.sched.get('jobs', { query: { prefix: `${id}/` } })).length,
      2,
      'another token dispatches another child',
    );
  },
);

conformance(
  {
    id: 'jobs.dispatch.id-prefix-template',
    level: 'MUST',
    title: 'POST /v1/job/:job_id/dispatch with IdPrefixTemplate puts it in the dispatched job ID',
  },
  async (t) => {
    const { id } = await registered(t, 'parameterized', 'dtmpl');
    const ex = await dispatch(t, id, { Meta: { tenant: 'a' }, IdPrefixTemplate: 'nightly' });
    t.check(
      ex,
      ok,
      bodyAt(
        '/DispatchedJobID',
        (v: unknown) => typeof v === 'string' && v.startsWith(`${id}/`) && v.includes('nightly'),
        'starts with the parent and contains the template',
      ),
    );
    const plain = await dispatch(t, id, { Meta: { tenant: 'a' } });
    t.check(
      plain,
      ok,
      bodyAt(
        '/DispatchedJobID',
        (v: unknown) => typeof v === 'string' && !v.includes('nightly'),
        'has no template without IdPrefixTemplate',
      ),
    );
  },
);

conformance(
  {
    id: 'jobs.dispatch.raw-payload',
    level: 'MUST',
    title: 'POST /v1/job/:job_id/dispatch/payload makes the raw body the payload of the child',
  },
  async (t) => {
    const { id } = await registered(t, 'parameterized-payload-required', 'draw');
    const text = 'line one\nline two: raw, not JSON {';
    const ex = await t.sched.post(`job/${enc(id)}/dispatch/payload`, { rawBody: text, contentType: 'text/plain' });
    const child = (ex.response.body as Obj | undefined)?.DispatchedJobID;
    if (typeof child === 'string' && child) trackJob(t, child);
    t.check(
      ex,
      ok,
      bodyAt(
        '/DispatchedJobID',
        (v: unknown) => typeof v === 'string' && v.startsWith(`${id}/`),
        'names a child of the job',
      ),
    );
    expectEqual(
      (await readJob(t, child)).Payload,
      Buffer.from(text).toString('base64'),
      'the child payload is the raw body',
    );
  },
);

conformance(
  {
    id: 'jobs.dispatch.not-parameterized-400',
    level: 'MUST',
    title: 'POST /v1/job/:job_id/dispatch of a job that is not parameterized is refused',
  },
  async (t) => {
    const { id } = await registered(t, 'batch', 'dnot');
    await refusedUnchanged(t, id, 'a dispatch of a job that is not parameterized', () => dispatch(t, id, {}));
  },
);
