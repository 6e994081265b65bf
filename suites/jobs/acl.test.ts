// size: one test per row of the document's ACL column, with the token helpers they share.
/**
 * ACL capabilities per endpoint. Tokens with exactly the capabilities a case needs come from the
 * configured provisioner (sched.provisioner: the reference's control, the upstream ACL API, or
 * tokens listed in sched.tokens); see harness/provision/scheduler.ts. The document names each
 * endpoint's capability but no status: a denial is any refusal (the 403 is the assumption
 * jobs.acl.denied-status), an allowed request one the scheduler carries out (any 2xx).
 */
import { suite, conformance, type T } from '../../harness/index.js';
import { expectThat } from '../../harness/checks/index.js';
import { jobDefinition, hcl } from '../../fixtures/jobs/index.js';
import type { Exchange } from '../../harness/index.js';
import { body, enc, ok, registered, register, scalable, trackJob, waitFor, type Obj } from './helpers.js';
import { outputLine, ranAction, runAction, type ActionRun } from './ws.js';
import { together } from '../lib/together.js';

import { schedNamespace, schedTokenWith } from '../../harness/index.js';

suite('jobs');

/** A client token with exactly `caps` (the documents' names) on `namespace`, from the configured provisioner. */
function tokenWith(t: T, caps: string[], namespace = 'default'): Promise<string> {
  return schedTokenWith(t, caps, namespace);
}

const is2xx = (status: number) => status >= 200 && status < 300;

/** The request is refused: any non-2xx; a 403 besides is the assumption jobs.acl.denied-status. */
function deniedAnswer(t: T, ex: Exchange, what: string): void {
  const status = ex.response.status;
  expectThat(!is2xx(status), 'acl', status, 'a refusal (non-2xx)', `${what} is denied`);
  t.assuming('jobs.acl.denied-status', () =>
    expectThat(status === 403, 'status', status, 403, `${what}: denied with 403 (assumption jobs.acl.denied-status)`),
  );
}

/** The request is carried out: the token's capability lets it through. */
function allowedAnswer(ex: Exchange, what: string): void {
  expectThat(is2xx(ex.response.status), 'acl', ex.response.status, '2xx', `${what} is allowed with the capability`);
}

/**
 * Denied with only an unrelated capability, allowed with each of `allowedWith`. `ready` runs before
 * each allowed request: what an earlier allowed one started (a deployment) must not refuse it.
 */
async function gate(
  t: T,
  what: string,
  allowedWith: string[][],
  send: (token: string) => Promise<Exchange>,
  ready?: () => Promise<void>,
): Promise<void> {
  deniedAnswer(t, await send(await tokenWith(t, ['read-logs'])), `${what} with read-logs only`);
  for (const caps of allowedWith) {
    const token = await tokenWith(t, caps);
    await ready?.();
    allowedAnswer(await send(token), `${what} with ${caps.join('+')}`);
  }
}

conformance(
  {
    id: 'jobs.acl.list-jobs',
    also: ['jobs.acl.denied-status'],
    level: 'MUST',
    requires: ['schedAcl'],
    title: 'GET /v1/jobs needs namespace:list-jobs',
  },
  async (t) => {
    await gate(t, 'GET /v1/jobs', [['list-jobs']], (token) =>
      t.sched.get('jobs', { token, query: { prefix: 'none' } }),
    );
  },
);

conformance(
  {
    id: 'jobs.acl.token-header',
    also: ['jobs.acl.denied-status'],
    level: 'MUST',
    requires: ['schedAcl'],
    title: 'GET /v1/jobs without a token is denied and with the token header allowed',
  },
  async (t) => {
    deniedAnswer(
      t,
      await t.sched.get('jobs', { token: null, query: { prefix: 'none' } }),
      'GET /v1/jobs without a token',
    );
    allowedAnswer(await t.sched.get('jobs', { query: { prefix: 'none' } }), 'GET /v1/jobs with the token header');
  },
);

conformance(
  {
    id: 'jobs.acl.submit-job',
    level: 'MUST',
    requires: ['schedAcl'],
    title: 'POST /v1/jobs, update, revert, stable, evaluate, plan and DELETE need namespace:submit-job',
  },
  async (t) => {
    const id = t.unique('aclsub');
    trackJob(t, id);
    await gate(t, 'POST /v1/jobs', [['submit-job']], (token) =>
      t.sched.post('jobs', { token, body: { Job: jobDefinition('batch', id) } }),
    );
    const job = jobDefinition('batch', id, { Priority: 45 });
    await gate(t, 'POST /v1/job/:job_id', [['submit-job']], (token) =>
      t.sched.post(`job/${enc(id)}`, { token, body: { Job: job } }),
    );
    await gate(t, 'POST /v1/job/:job_id/plan', [['submit-job']], (token) =>
      t.sched.post(`job/${enc(id)}/plan`, { token, body: { Job: job } }),
    );
    await gate(t, 'POST /v1/job/:job_id/evaluate', [['submit-job']], (token) =>
      t.sched.post(`job/${enc(id)}/evaluate`, { token, body: { JobID: id } }),
    );
    // The versions the job has now: the first registration's and the update's.
    const versions = (body(await t.sched.get(`job/${enc(id)}/versions`)).Versions as Obj[]).map(
      (v) => v.Version as number,
    );
    const first = Math.min(...versions);
    // The current version is marked stable: what marking an older one does to the job besides the
    // flag is open (assumption jobs.stable.flag-only), and the revert below goes to the older one.
    const latest = Math.max(...versions);
    await gate(t, 'POST /v1/job/:job_id/stable', [['submit-job']], (token) =>
      t.sched.post(`job/${enc(id)}/stable`, { token, body: { JobID: id, JobVersion: latest, Stable: true } }),
    );
    await gate(t, 'POST /v1/job/:job_id/revert', [['submit-job']], (token) =>
      t.sched.post(`job/${enc(id)}/revert`, { token, body: { JobID: id, JobVersion: first } }),
    );
    await gate(t, 'DELETE /v1/job/:job_id', [['submit-job']], (token) => t.sched.delete(`job/${enc(id)}`, { token }));
  },
);

conformance(
  {
    id: 'jobs.acl.parse-job',
    level: 'MUST',
    requires: ['schedAcl'],
    title: 'POST /v1/jobs/parse is denied without parse-job and submit-job, and allowed with both',
  },
  async (t) => {
    await gate(t, 'POST /v1/jobs/parse', [['parse-job', 'submit-job']], (token) =>
      t.sched.post('jobs/parse', { token, body: { JobHCL: hcl('example.hcl') } }),
    );
  },
);

conformance(
  {
    id: 'jobs.acl.parse-either',
    level: 'MUST',
    requires: ['schedAcl'],
    title: 'POST /v1/jobs/parse is allowed with parse-job alone and with submit-job alone',
  },
  async (t) => {
    for (const caps of [['parse-job'], ['submit-job']]) {
      const ex = await t.sched.post('jobs/parse', {
        token: await tokenWith(t, caps),
        body: { JobHCL: hcl('example.hcl') },
      });
      allowedAnswer(ex, `POST /v1/jobs/parse with ${caps[0]} alone`);
    }
  },
);

conformance(
  {
    id: 'jobs.acl.read-job',
    level: 'MUST',
    requires: ['schedAcl'],
    title:
      'GET /v1/job/:job_id and its versions, allocations, evaluations, deployments, summary, services and actions need namespace:read-job',
  },
  async (t) => {
    const { id } = await registered(t, 'service', 'aclread');
    const subs = ['', '/versions', '/allocations', '/evaluations', '/deployments', '/deployment', '/summary'];
    // Reads of the one job: independent, so they go out together.
    await together(
      [...subs, '/services', '/actions'].map(
        (sub) => () =>
          gate(t, `GET /v1/job/:job_id${sub}`, [['read-job']], (token) =>
            t.sched.get(`job/${enc(id)}${sub}`, { token }),
          ),
      ),
    );
  },
);

conformance(
  {
    id: 'jobs.acl.dispatch-job',
    level: 'MUST',
    requires: ['schedAcl'],
    title: 'POST dispatch needs namespace:dispatch-job; periodic force needs dispatch-job or submit-job',
  },
  async (t) => {
    const { id } = await registered(t, 'parameterized', 'acldsp');
    // A raw body carries no meta: a parameterized job that requires none takes it.
    const { id: rawId } = await registered(t, 'parameterized-payload-required', 'acldspraw');
    const { id: pid } = await registered(t, 'periodic', 'aclper');
    // Children are known by their ParentID (the document fixes no form of their IDs).
    const trackChildren = async () => {
      for (const c of body<Obj[]>(await t.sched.get('jobs')) ?? [])
        if ([id, rawId, pid].includes(c.ParentID)) trackJob(t, c.ID);
    };
    try {
      await gate(t, 'POST /v1/job/:job_id/dispatch', [['dispatch-job']], (token) =>
        t.sched.post(`job/${enc(id)}/dispatch`, { token, body: { Meta: { tenant: 'a' } } }),
      );
      await gate(t, 'POST /v1/job/:job_id/dispatch/payload', [['dispatch-job']], (token) =>
        t.sched.post(`job/${enc(rawId)}/dispatch/payload`, { token, rawBody: 'x', contentType: 'text/plain' }),
      );
      await gate(t, 'POST /v1/job/:job_id/periodic/force', [['dispatch-job'], ['submit-job']], (token) =>
        t.sched.post(`job/${enc(pid)}/periodic/force`, { token }),
      );
    } finally {
      await trackChildren();
    }
  },
);

conformance(
  {
    id: 'jobs.acl.scale-job',
    level: 'MUST',
    requires: ['schedAcl'],
    title: 'POST /v1/job/:job_id/scale needs scale-job or submit-job; GET needs read-job-scaling or read-job',
    movesClock: 'so a deployment finishes before scaling',
  },
  async (t) => {
    const { id } = await registered(t, 'service', 'aclscl');
    await gate(t, 'GET /v1/job/:job_id/scale', [['read-job-scaling'], ['read-job']], (token) =>
      t.sched.get(`job/${enc(id)}/scale`, { token }),
    );
    // Scaling is refused while a deployment is active: the registration's, and the one an allowed
    // scale may start (the document leaves open whether a scale deploys), finish first.
    await scalable(t, id);
    await gate(
      t,
      'POST /v1/job/:job_id/scale',
      [['scale-job'], ['submit-job']],
      (token) =>
        t.sched.post(`job/${enc(id)}/scale`, { token, body: { Count: 1, Message: 'acl', Target: { Group: 'cache' } } }),
      () => scalable(t, id),
    );
  },
);

conformance(
  {
    id: 'jobs.acl.policy-override',
    level: 'MUST',
    requires: ['schedAcl'],
    title:
      'POST /v1/jobs, POST /v1/job/:job_id, plan and scale with PolicyOverride need namespace:policy-override besides submit-job',
    movesClock: 'so a deployment finishes before scaling',
  },
  async (t) => {
    const id = t.unique('aclpo');
    trackJob(t, id);
    const withoutOverride = await tokenWith(t, ['submit-job']);
    const withOverride = await tokenWith(t, ['submit-job', 'policy-override']);
    // "Additionally": policy-override does not stand in for the endpoint's own capability.
    const overrideOnly = await tokenWith(t, ['policy-override']);
    const both = async (what: string, send: (token: string) => Promise<Exchange>) => {
      deniedAnswer(t, await send(withoutOverride), `${what} with PolicyOverride and submit-job alone`);
      deniedAnswer(t, await send(overrideOnly), `${what} with PolicyOverride and policy-override alone`);
      allowedAnswer(await send(withOverride), `${what} with PolicyOverride, submit-job and policy-override`);
    };
    const job = jobDefinition('service', id);
    await both('POST /v1/jobs', (token) => t.sched.post('jobs', { token, body: { Job: job, PolicyOverride: true } }));
    // PolicyOverride false (its default) asks for no override: submit-job alone is enough.
    allowedAnswer(
      await t.sched.post('jobs', { token: withoutOverride, body: { Job: job, PolicyOverride: false } }),
      'POST /v1/jobs with PolicyOverride false and submit-job alone',
    );
    const changed = jobDefinition('service', id, { Priority: 55 });
    await both('POST /v1/job/:job_id', (token) =>
      t.sched.post(`job/${enc(id)}`, { token, body: { Job: changed, PolicyOverride: true } }),
    );
    await both('POST /v1/job/:job_id/plan', (token) =>
      t.sched.post(`job/${enc(id)}/plan`, { token, body: { Job: changed, PolicyOverride: true } }),
    );
    await scalable(t, id);
    await both('POST /v1/job/:job_id/scale', (token) =>
      t.sched.post(`job/${enc(id)}/scale`, {
        token,
        body: { Count: 1, Message: 'acl', Target: { Group: 'cache' }, PolicyOverride: true },
      }),
    );
  },
);

conformance(
  {
    id: 'jobs.acl.namespace-access',
    level: 'MUST',
    requires: ['schedAcl'],
    title: 'GET /v1/job/:job_id and GET /v1/jobs with a namespace the token has no rule for are denied',
  },
  async (t) => {
    const { id } = await registered(t, 'batch', 'aclns');
    // A job the run's token registers in another namespace: there to be read, were the token let in.
    const elsewhere = await schedNamespace(t);
    const other = t.unique('aclnsother');
    trackJob(t, other, elsewhere);
    t.precondition(
      await t.sched.post('jobs', {
        body: { Job: jobDefinition('batch', other, { Namespace: elsewhere }) },
        query: { namespace: elsewhere },
      }),
      ok,
    );
    const token = await tokenWith(t, ['read-job', 'list-jobs'], 'default');
    allowedAnswer(await t.sched.get(`job/${enc(id)}`, { token }), 'GET /v1/job/:job_id in namespace default');
    deniedAnswer(
      t,
      await t.sched.get(`job/${enc(other)}`, { token, query: { namespace: elsewhere } }),
      'GET /v1/job/:job_id in a namespace the token has no rule for',
    );
    deniedAnswer(
      t,
      await t.sched.get('jobs', { token, query: { namespace: elsewhere, prefix: other } }),
      'GET /v1/jobs in a namespace the token has no rule for',
    );
  },
);

/**
 * A running allocation of a service job whose task runs `task` (a driver the setting
 * sched.actionTasks names); not applicable when the target's clients do not run it: the scheduler
 * says so (an evaluation that could not place the group: blocked, or with FailedTGAllocs), or no
 * allocation runs within timing.settleSeconds.
 */
async function runningWith(
  t: T,
  base: string,
  task: 'isolated' | 'unisolated',
): Promise<{ id: string; alloc: string }> {
  const id = t.unique(base);
  const job = jobDefinition('service', id);
  Object.assign(job.TaskGroups![0]!.Tasks![0]!, structuredClone(t.config.sched.actionTasks[task]));
  const driver = job.TaskGroups![0]!.Tasks![0]!.Driver;
  await register(t, job, { setup: true });
  await t.advance(3);
  const unplaced = (evals: Obj[]) =>
    evals.find((e) => e.Status === 'blocked' || Object.keys((e.FailedTGAllocs ?? {}) as Obj).length > 0);
  let seen: { allocs: Obj[]; evals: Obj[] } = { allocs: [], evals: [] };
  try {
    seen = await waitFor(
      `an allocation of the task with driver ${driver} runs, or the scheduler cannot place it`,
      async () => ({
        allocs: body<Obj[]>(await t.sched.get(`job/${enc(id)}/allocations`)) ?? [],
        evals: body<Obj[]>(await t.sched.get(`job/${enc(id)}/evaluations`)) ?? [],
      }),
      (r) => r.allocs.some((x) => x.ClientStatus === 'running') || !!unplaced(r.evals),
    );
  } catch {
    t.notApplicable(
      `no allocation of a task with driver ${driver} runs on the target within timing.settleSeconds`,
      `sched.actionTasks.${task}`,
    );
  }
  const running = seen.allocs.find((x) => x.ClientStatus === 'running');
  if (!running) {
    const e = unplaced(seen.evals);
    t.notApplicable(
      `the scheduler cannot place a task with driver ${driver} (evaluation ${String(e?.Status)}: ${JSON.stringify(e?.FailedTGAllocs ?? {}).slice(0, 300)})`,
      `sched.actionTasks.${task}`,
    );
  }
  return { id, alloc: running!.ID as string };
}

/** Reads until the action's output line (or its exited frame) came: enough to tell it ran. */
const untilRan = outputLine('hello world');
/** The action ran: its output came (the end of the stream is the frames rule's). */
const ran = ranAction;
const notRun = (run: ActionRun) => (run.refusedStatus !== undefined ? !is2xx(run.refusedStatus) : !ranAction(run));

conformance(
  {
    id: 'jobs.acl.alloc-exec',
    // With the capability the action must run to its end: that is the stream's own rule.
    also: ['jobs.action.ws-frames-order'],
    level: 'MUST',
    requires: ['schedAcl'],
    title: 'WebSocket /v1/job/:job_id/action needs namespace:alloc-exec, which alone suffices for an isolated driver',
    movesClock: 'so an allocation starts',
  },
  async (t) => {
    const { id, alloc } = await runningWith(t, 'aclexec', 'isolated');
    const query = { action: 'echo-hello', alloc_id: alloc, task: 'redis' };
    const without = await runAction(t, id, { query, token: await tokenWith(t, ['read-job']), until: untilRan });
    expectThat(
      notRun(without),
      'acl',
      {
        status: without.refusedStatus,
        frames: without.frames,
      },
      'a refusal or no output',
      'without alloc-exec the action is refused',
    );
    const token = await tokenWith(t, ['alloc-exec']);
    const withCap = await runAction(t, id, { query, token });
    expectThat(
      withCap.refusedStatus === undefined && ran(withCap),
      'acl',
      { status: withCap.refusedStatus, frames: withCap.frames },
      'the upgrade accepted and the output',
      'with alloc-exec alone the action of a task with file system isolation runs',
    );
    // A stream that does not end (no exited frame, no close) breaks the stream's rule, not the ACL's.
    t.proving('jobs.action.ws-frames-order', () => {
      expectThat(
        !withCap.timedOut,
        'frames',
        withCap.frames,
        'the stream closed',
        'with alloc-exec the action stream did not close within 5000 ms',
      );
      expectThat(
        withCap.frames.some((f) => f.exited === true),
        'acl',
        withCap.frames,
        'an exited frame',
        'with alloc-exec the action runs to its exited frame',
      );
    });
  },
);

conformance(
  {
    id: 'jobs.acl.alloc-node-exec',
    level: 'MUST',
    requires: ['schedAcl'],
    title:
      'WebSocket /v1/job/:job_id/action of a task without file system isolation needs alloc-node-exec besides alloc-exec',
    movesClock: 'so an allocation starts',
  },
  async (t) => {
    const { id, alloc } = await runningWith(t, 'aclnode', 'unisolated');
    const query = { action: 'echo-hello', alloc_id: alloc, task: 'redis' };
    const alone = await runAction(t, id, { query, token: await tokenWith(t, ['alloc-exec']), until: untilRan });
    expectThat(
      notRun(alone),
      'acl',
      { status: alone.refusedStatus, frames: alone.frames },
      'a refusal or no output',
      'with alloc-exec alone the action of a task without file system isolation is refused',
    );
    const both = await runAction(t, id, {
      query,
      token: await tokenWith(t, ['alloc-exec', 'alloc-node-exec']),
      until: untilRan,
    });
    expectThat(
      ran(both),
      'acl',
      {
        status: both.refusedStatus,
        frames: both.frames,
      },
      'its output',
      'with alloc-exec and alloc-node-exec the action runs',
    );
  },
);
