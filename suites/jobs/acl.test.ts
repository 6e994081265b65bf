/**
 * ACL capabilities per endpoint. Tokens with exactly the capabilities a case needs come from the
 * configured provisioner (sched.provisioner: the reference's control, the upstream ACL API, or
 * tokens listed in sched.tokens); see harness/provision/scheduler.ts.
 */
import { suite, conformance, type T } from '../../harness/index.js';
import { statusIs, expectThat } from '../../harness/checks/index.js';
import { jobDefinition, hcl } from '../../fixtures/jobs/index.js';
import type { Exchange } from '../../harness/index.js';
import { body, enc, registered, trackJob, waitAdvancing, type Obj } from './helpers.js';
import { runAction } from './ws.js';
import { together } from '../lib/together.js';

import { schedTokenWith } from '../../harness/index.js';

suite('jobs');

/** A client token with exactly `caps` on `namespace`, from the configured provisioner. */
function tokenWith(t: T, caps: string[], namespace = 'default'): Promise<string> {
  return schedTokenWith(t, caps, namespace);
}

const denied = statusIs(403);
const notDenied = (ex: Exchange, what: string) =>
  expectThat(
    ex.response.status !== 403 && ex.response.status !== 401,
    'acl',
    `${what} is allowed with the capability`,
    'not 401/403',
    ex.response.status,
  );

/** Denied with only an unrelated capability, allowed with each of `allowedWith`. */
async function gate(
  t: T,
  what: string,
  allowedWith: string[][],
  send: (token: string) => Promise<Exchange>,
): Promise<void> {
  t.check(await send(await tokenWith(t, ['read-logs'])), denied);
  for (const caps of allowedWith) notDenied(await send(await tokenWith(t, caps)), `${what} with ${caps.join('+')}`);
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
    level: 'MUST',
    requires: ['schedAcl'],
    title: 'GET /v1/jobs without a token is denied and with the token header allowed',
  },
  async (t) => {
    t.check(await t.sched.get('jobs', { token: null, query: { prefix: 'none' } }), denied);
    t.check(await t.sched.get('jobs', { query: { prefix: 'none' } }), statusIs(200));
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
    await gate(t, 'POST /v1/job/:job_id/stable', [['submit-job']], (token) =>
      t.sched.post(`job/${enc(id)}/stable`, { token, body: { JobID: id, JobVersion: 0, Stable: true } }),
    );
    await gate(t, 'POST /v1/job/:job_id/revert', [['submit-job']], (token) =>
      t.sched.post(`job/${enc(id)}/revert`, { token, body: { JobID: id, JobVersion: 0 } }),
    );
    await gate(t, 'DELETE /v1/job/:job_id', [['submit-job']], (token) => t.sched.delete(`job/${enc(id)}`, { token }));
  },
);

conformance(
  {
    id: 'jobs.acl.parse-job',
    level: 'MUST',
    requires: ['schedAcl'],
    title: 'POST /v1/jobs/parse needs namespace:parse-job or namespace:submit-job',
  },
  async (t) => {
    await gate(t, 'POST /v1/jobs/parse', [['parse-job'], ['submit-job']], (token) =>
      t.sched.post('jobs/parse', { token, body: { JobHCL: hcl('example.hcl') } }),
    );
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
    const { id: pid } = await registered(t, 'periodic', 'aclper');
    const trackChildren = async () => {
      for (const p of [id, pid])
        for (const c of body<Obj[]>(await t.sched.get('jobs', { query: { prefix: `${p}/` } }))) trackJob(t, c.ID);
    };
    try {
      await gate(t, 'POST /v1/job/:job_id/dispatch', [['dispatch-job']], (token) =>
        t.sched.post(`job/${enc(id)}/dispatch`, { token, body: { Meta: { tenant: 'a' } } }),
      );
      await gate(t, 'POST /v1/job/:job_id/dispatch/payload', [['dispatch-job']], (token) =>
        t.sched.post(`job/${enc(id)}/dispatch/payload`, { token, rawBody: 'x', contentType: 'text/plain' }),
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
  },
  async (t) => {
    const { id } = await registered(t, 'service', 'aclscl');
    await gate(t, 'GET /v1/job/:job_id/scale', [['read-job-scaling'], ['read-job']], (token) =>
      t.sched.get(`job/${enc(id)}/scale`, { token }),
    );
    await gate(t, 'POST /v1/job/:job_id/scale', [['scale-job'], ['submit-job']], (token) =>
      t.sched.post(`job/${enc(id)}/scale`, { token, body: { Count: 1, Message: 'acl', Target: { Group: 'cache' } } }),
    );
  },
);

conformance(
  {
    id: 'jobs.acl.policy-override',
    level: 'MUST',
    requires: ['schedAcl'],
    title: 'POST /v1/jobs with PolicyOverride needs namespace:policy-override besides submit-job',
  },
  async (t) => {
    const id = t.unique('aclpo');
    trackJob(t, id);
    const send = (token: string) =>
      t.sched.post('jobs', { token, body: { Job: jobDefinition('batch', id), PolicyOverride: true } });
    t.check(await send(await tokenWith(t, ['submit-job'])), denied);
    t.check(await send(await tokenWith(t, ['submit-job', 'policy-override'])), statusIs(200));
  },
);

conformance(
  {
    id: 'jobs.acl.namespace-access',
    level: 'MUST',
    requires: ['schedAcl'],
    title: 'GET /v1/job/:job_id with namespace the token has no rule for is denied',
  },
  async (t) => {
    const { id } = await registered(t, 'batch', 'aclns');
    const token = await tokenWith(t, ['read-job', 'list-jobs'], 'default');
    t.check(await t.sched.get(`job/${enc(id)}`, { token }), statusIs(200));
    t.check(await t.sched.get(`job/${enc(id)}`, { token, query: { namespace: t.unique('elsewhere') } }), denied);
    t.check(await t.sched.get('jobs', { token, query: { namespace: t.unique('elsewhere') } }), denied);
  },
);

conformance(
  {
    id: 'jobs.acl.alloc-exec',
    // With the capability the action must run to its end: that is the stream's own rule.
    also: ['jobs.action.ws-frames-order'],
    level: 'MUST',
    requires: ['schedAcl'],
    title: 'WebSocket /v1/job/:job_id/action needs namespace:alloc-exec',
    movesClock: 'so an allocation starts',
  },
  async (t) => {
    const { id } = await registered(t, 'service', 'aclexec');
    await t.advance(3);
    const allocs = await waitAdvancing(
      t,
      'an allocation runs',
      async () => body<Obj[]>(await t.sched.get(`job/${enc(id)}/allocations`)),
      (a) => a.some((x) => x.ClientStatus === 'running'),
    );
    const query = {
      action: 'echo-hello',
      alloc_id: allocs.find((x) => x.ClientStatus === 'running')!.ID as string,
      task: 'redis',
    };
    const without = await runAction(t, id, { query, token: await tokenWith(t, ['read-job']) });
    expectThat(
      without.refusedStatus === 403 ||
        (without.refusedStatus === undefined && !without.frames.some((f) => f.exited === true)),
      'acl',
      'without alloc-exec the action is refused',
      '403 or no exited frame',
      { status: without.refusedStatus, frames: without.frames },
    );
    const token = await tokenWith(t, ['alloc-exec', 'alloc-node-exec', 'read-job']);
    // A stream that does not end (no exited frame, no close) breaks the stream's rule, not the ACL's.
    const withCap = await t.proving('jobs.action.ws-frames-order', () => runAction(t, id, { query, token }));
    expectThat(
      withCap.refusedStatus !== 403 && withCap.refusedStatus !== 401,
      'acl',
      'with alloc-exec the action is not refused',
      'the upgrade accepted',
      withCap.refusedStatus,
    );
    t.proving('jobs.action.ws-frames-order', () =>
      expectThat(
        withCap.frames.some((f) => f.exited === true),
        'acl',
        'with alloc-exec the action runs to its exited frame',
        'an exited frame',
        withCap.frames,
      ),
    );
  },
);
