/** Parameterized jobs: dispatch, raw payload, limits and meta (data-driven), idempotency. */
import { suite, conformance, type Exchange, type T } from '../../harness/index.js';
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
import { together } from '../lib/together.js';

const s = suite('jobs');

const cases = loadCases(new URL('./dispatch.cases.yaml', import.meta.url));
const caseIds: Record<string, string> = {};

// The dispatch cases share their parameterized jobs, registered once for the file.
s.setup(async (ctx) => {
  const prefix = ctx.unique('dsp');
  // Independent registrations: they go out together.
  await together(
    Object.entries(cases.jobs ?? {}).map(([name, spec]) => async () => {
      const id = `${prefix}-${name.toLowerCase()}`;
      ctx.track(`job ${id} and its children`, async () => {
        // Children are found by ParentID: the form of a dispatched ID is not given.
        const jobs = await ctx.sched.get('jobs', { validate: false });
        for (const c of Array.isArray(jobs.response.body) ? (jobs.response.body as Obj[]) : []) {
          if (c.ParentID === id)
            await ctx.sched.delete(`job/${enc(c.ID)}`, { query: { purge: true }, validate: false });
        }
        return ctx.sched.delete(`job/${enc(id)}`, { query: { purge: true }, validate: false });
      });
      const ex = await ctx.sched.post('jobs', { body: { Job: jobDefinition(spec.definition, id, spec.overrides) } });
      if (ex.response.status < 200 || ex.response.status > 299)
        throw new Error(`could not register dispatch fixture job ${id}: status ${ex.response.status}`);
      caseIds[name] = id;
    }),
  );
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

const isIndex = (v: unknown) => Number.isInteger(v) && (v as number) >= 0;
const isId = (v: unknown) => typeof v === 'string' && v.length > 0;

/** The documented dispatch answer: Index, JobCreateIndex, EvalCreateIndex, EvalID, DispatchedJobID. */
const dispatchAnswer = [
  bodyAt('/Index', isIndex, 'is an index'),
  bodyAt('/JobCreateIndex', isIndex, 'is an index'),
  bodyAt('/EvalCreateIndex', isIndex, 'is an index'),
  bodyAt('/EvalID', isId, 'names the evaluation'),
  bodyAt('/DispatchedJobID', isId, 'names the dispatched job'),
];

/** The dispatched job of an answer and what the answer says of it (its index, its evaluation). */
async function checkChild(t: T, ex: Exchange): Promise<Obj> {
  const childId = String(body(ex).DispatchedJobID);
  const child = await readJob(t, childId);
  expectEqual(body(ex).JobCreateIndex, child.CreateIndex, "JobCreateIndex is the dispatched job's CreateIndex");
  const evals = body<Obj[]>(await t.sched.get(`job/${enc(childId)}/evaluations`)) ?? [];
  expectThat(
    evals.some((e) => e.ID === body(ex).EvalID),
    'eval',
    evals.map((e) => e.ID),
    body(ex).EvalID,
    'EvalID is an evaluation of the dispatched job',
  );
  return child;
}

/** How many children the parent's summary counts (Children: Pending, Running, Dead). */
async function childCount(t: T, id: string): Promise<number> {
  const ex = await t.sched.get(`job/${enc(id)}/summary`);
  t.check(ex, ok);
  const c = (body(ex).Children ?? {}) as Obj;
  return Number(c.Pending ?? 0) + Number(c.Running ?? 0) + Number(c.Dead ?? 0);
}

conformance(
  {
    id: 'jobs.read.returns-job',
    level: 'MUST',
    title: 'GET /v1/job/:job_id of a dispatched child returns its Payload when its version holds one',
  },
  async (t) => {
    const { id } = await registered(t, 'parameterized', 'dread');
    const ex = await dispatch(t, id, { Payload: payloadOf(16), Meta: { tenant: 'acme' } });
    t.precondition(ex, ok);
    const childId = String(body(ex).DispatchedJobID);
    // The version list holds the job as stored (in a form of its own: the real scheduler keeps the
    // payload compressed there): told apart from the read, a payload the dispatch lost
    // (jobs.dispatch.creates-child, which compares the bytes) is not charged to the read.
    const versions = await t.sched.get(`job/${enc(childId)}/versions`);
    t.precondition(versions, ok);
    const held = ((body(versions).Versions ?? []) as Obj[])[0]?.Payload;
    if (typeof held !== 'string' || held.length === 0)
      t.notApplicable("the child's version holds no payload: the dispatch, not the read, is in question");
    const child = await readJob(t, childId);
    expectThat(
      typeof child.Payload === 'string' && child.Payload.length > 0,
      'field',
      child.Payload,
      'a base64 string',
      "the child's read carries a Payload, as its version does",
    );
  },
);

conformance(
  {
    id: 'jobs.dispatch.creates-child',
    also: ['jobs.dispatch.meta', 'jobs.dispatch.child-fields'],
    level: 'MUST',
    title: 'POST /v1/job/:job_id/dispatch creates a dispatched child job with the payload and meta',
  },
  async (t) => {
    const { id } = await registered(t, 'parameterized', 'dchild');
    const payload = payloadOf(100);
    const ex = await dispatch(t, id, { Payload: payload, Meta: { tenant: 'acme', note: 'first' } });
    t.check(ex, ok, ...dispatchAnswer);
    const child = await checkChild(t, ex);
    expectEqual(child.Payload, payload, 'the child carries the payload');
    t.proving('jobs.dispatch.child-fields', () =>
      expectEqual([child.ParentID, child.Dispatched], [id, true], 'ParentID and Dispatched of the child'),
    );
    t.proving('jobs.dispatch.meta', () =>
      expectThat(
        child.Meta?.tenant === 'acme' && child.Meta?.note === 'first',
        'meta',
        child.Meta,
        { tenant: 'acme', note: 'first' },
        'the dispatch meta is stored on the child',
      ),
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
    // The token, not the body, tells the dispatches apart: the repeat carries other meta and a payload.
    const second = await dispatch(
      t,
      id,
      { Meta: { tenant: 'b', note: 'retry' }, Payload: payloadOf(8) },
      { idempotency_token: token },
    );
    const s2 = second.response.status;
    expectThat(
      (s2 >= 200 && s2 < 300) || (s2 >= 400 && s2 < 500),
      'status',
      s2,
      '2xx or 4xx',
      'the repeated dispatch succeeds idempotently or is refused',
    );
    if (s2 >= 200 && s2 < 300)
      expectEqual(
        body(second).DispatchedJobID,
        body(first).DispatchedJobID,
        'the repeated dispatch names the same child',
      );
    expectEqual(await childCount(t, id), 1, 'children the parent counts after two dispatches with one token');
    t.check(await dispatch(t, id, { Meta: { tenant: 'a' } }, { idempotency_token: t.unique('tok') }), ok);
    expectEqual(await childCount(t, id), 2, 'another token dispatches another child');
    // The token prevents a second dispatch of this job: a dispatch of another job with it never
    // answers with this job's child (refused, or a child of the job dispatched).
    const { id: other } = await registered(t, 'parameterized', 'didem2');
    const elsewhere = await dispatch(t, other, { Meta: { tenant: 'a' } }, { idempotency_token: token });
    const s3 = elsewhere.response.status;
    if (s3 >= 200 && s3 < 300) {
      const child = await readJob(t, String(body(elsewhere).DispatchedJobID));
      expectEqual(
        child.ParentID,
        other,
        'the job a dispatch of another parameterized job with the token answers is a child of that job',
      );
    }
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
    const ids: string[] = [];
    for (let i = 0; i < 2; i++) {
      const ex = await dispatch(t, id, { Meta: { tenant: 'a' }, IdPrefixTemplate: 'nightly' });
      t.check(ex, ok, bodyAt('/DispatchedJobID', isId, 'names the dispatched job'));
      ids.push(String(body(ex).DispatchedJobID));
    }
    // A prefix of what tells the children apart: the same in both IDs, up to and including the template.
    const upTo = (v: string) => (v.includes('nightly') ? v.slice(0, v.indexOf('nightly') + 'nightly'.length) : '');
    expectThat(
      ids[0] !== ids[1] && upTo(ids[0]!) !== '' && upTo(ids[0]!) === upTo(ids[1]!),
      'template',
      ids,
      'a common prefix ending in nightly',
      'both dispatched IDs hold the template, before the part that differs between them',
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

/** Dispatches `raw` to dispatch/payload as `contentType`; the child is purged after the test. */
async function rawDispatch(t: T, id: string, raw: string | Buffer, contentType: string): Promise<Exchange> {
  const ex = await t.sched.post(`job/${enc(id)}/dispatch/payload`, { rawBody: raw, contentType });
  const child = (ex.response.body as Obj | undefined)?.DispatchedJobID;
  if (typeof child === 'string' && child) trackJob(t, child);
  return ex;
}

conformance(
  {
    id: 'jobs.dispatch.raw-payload',
    level: 'MUST',
    title: 'POST /v1/job/:job_id/dispatch/payload makes the raw body the payload of the child',
  },
  async (t) => {
    const { id } = await registered(t, 'parameterized-payload-required', 'draw');
    const text = 'line one\nline two: raw, not JSON {';
    // The whole body: the white space around it too.
    const padded = '  \n padded on both sides \n\n';
    // Any content type: text, bytes, and JSON (kept whole, never read as a dispatch request).
    const json = JSON.stringify({ Payload: Buffer.from('not this').toString('base64'), Meta: { tenant: 'x' } });
    const bytes = Buffer.from(payloadOf(300), 'base64');
    for (const [raw, contentType] of [
      [text, 'text/plain'],
      [padded, 'text/plain'],
      [json, 'application/json'],
      [bytes, 'application/octet-stream'],
    ] as const) {
      const ex = await rawDispatch(t, id, raw, contentType);
      t.check(ex, ok, ...dispatchAnswer);
      const child = await checkChild(t, ex);
      expectEqual(
        child.Payload,
        Buffer.from(raw).toString('base64'),
        `the child payload is the whole ${contentType} body`,
      );
    }
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
