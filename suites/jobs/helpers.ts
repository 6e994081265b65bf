/**
 * Shared steps of the jobs suite: registering run-unique jobs with purge cleanup, reading typed
 * bodies, bounded polling for the scheduler's asynchronous state, and the data-driven case runner.
 */
import type { T, Exchange } from '../../harness/index.js';
import { statusIs, statusBetween, expectThat, expectEqual, bodyAt, CheckFailure, type Check } from '../../harness/checks/index.js';
import { jobDefinition, resolvePath, type Case, type CaseFile, type JobDefinition } from '../../fixtures/jobs/index.js';

export const enc = encodeURIComponent;

export type Obj = Record<string, any>;

export function body<R = Obj>(ex: Exchange): R {
  return ex.response.body as R;
}

/** The response header that carries the next page token (dialect, case-insensitive). */
export function nextToken(t: T, ex: Exchange): string {
  return ex.response.headers[t.config.dialect.nextTokenHeader.toLowerCase()] ?? '';
}

export interface RegisterOptions {
  namespace?: string;
  /** Extra fields of the register request (Submission, EnforceIndex, ...). */
  extra?: Record<string, unknown>;
  /** Expected status; defaults to 200. */
  expect?: Check;
}

/** Purges a job (and only it) after the test; tolerant of a job the test already purged. */
export function trackJob(t: T, id: string, namespace?: string): void {
  t.track(`job ${id}`, () => t.sched.delete(`job/${enc(id)}`, { query: { purge: true, namespace }, validate: false }));
}

/** Registers a job through POST /v1/jobs and schedules its purge. */
export async function register(t: T, job: JobDefinition, opts: RegisterOptions = {}): Promise<Exchange> {
  trackJob(t, String(job.ID), opts.namespace);
  const ex = await t.sched.post('jobs', { body: { Job: job, ...opts.extra }, query: { namespace: opts.namespace } });
  t.check(ex, opts.expect ?? statusIs(200));
  return ex;
}

/** A run-unique job from a fixture definition, registered. */
export async function registered(t: T, definition: string, base = definition, overrides: Record<string, unknown> = {}): Promise<{ id: string; job: JobDefinition; ex: Exchange }> {
  const id = t.unique(base);
  const job = jobDefinition(definition, id, overrides);
  const ex = await register(t, job);
  return { id, job, ex };
}

/** Updates a job through POST /v1/job/:job_id. */
export async function update(t: T, job: JobDefinition, extra: Record<string, unknown> = {}): Promise<Exchange> {
  return t.sched.post(`job/${enc(String(job.ID))}`, { body: { Job: job, ...extra } });
}

export async function readJob(t: T, id: string, namespace?: string): Promise<Obj> {
  const ex = await t.sched.get(`job/${enc(id)}`, { query: { namespace } });
  t.check(ex, statusIs(200));
  return body(ex);
}

/**
 * Polls a read until the predicate holds. The scheduler works asynchronously (evaluations,
 * allocations, deployments); the bound keeps a broken target from hanging the run.
 */
export async function waitFor<R>(what: string, read: () => Promise<R>, ok: (r: R) => boolean, timeoutMs = 8000): Promise<R> {
  const deadline = Date.now() + timeoutMs;
  let last = await read();
  while (!ok(last)) {
    if (Date.now() > deadline) throw new CheckFailure('eventually', `${what} did not happen within ${timeoutMs} ms`, what, last);
    await new Promise((r) => setTimeout(r, 50));
    last = await read();
  }
  return last;
}

/** Base64 of `n` deterministic bytes. */
export function payloadOf(n: number): string {
  const b = Buffer.alloc(n);
  for (let i = 0; i < n; i++) b[i] = (i * 31 + 7) & 0xff;
  return b.toString('base64');
}

export function statusCheck(expected: Case['expect']['status']): Check {
  if (expected === '2xx') return statusBetween(200, 299);
  if (expected === '4xx') return statusBetween(400, 499);
  return statusIs(expected);
}

/** Registers the jobs a case file names; returns name → run-unique ID. */
export async function registerCaseJobs(t: T, file: CaseFile, base: string): Promise<Record<string, string>> {
  const ids: Record<string, string> = {};
  const prefix = t.unique(base);
  for (const [name, spec] of Object.entries(file.jobs ?? {})) {
    const id = `${prefix}-${name.toLowerCase()}`;
    await register(t, jobDefinition(spec.definition, id, spec.overrides));
    ids[name] = id;
  }
  return ids;
}

/** Sends one data-driven case and checks its expectations; dispatched children get purged. */
export async function runCase(t: T, c: Case, ids: Record<string, string>, listPrefix?: string): Promise<Exchange> {
  const r = c.request;
  const method = r.method ?? 'GET';
  const path = r.path ? resolvePath(r.path, ids) : 'jobs';
  const query: Record<string, string> = { ...r.query };
  if (!r.path && listPrefix) query.prefix = listPrefix;
  let ex: Exchange;
  if (r.rawBytes !== undefined) {
    ex = await t.sched.request(method, path, { query, rawBody: Buffer.from(payloadOf(r.rawBytes), 'base64'), contentType: 'application/octet-stream', validate: r.validate });
  } else {
    let reqBody = r.body;
    if (r.payloadBytes !== undefined) reqBody = { ...(reqBody as Obj), Payload: payloadOf(r.payloadBytes) };
    ex = await t.sched.request(method, path, { query, body: reqBody, validate: r.validate });
  }
  const child = (ex.response.body as Obj | undefined)?.DispatchedJobID;
  if (typeof child === 'string' && child) trackJob(t, child);
  t.check(ex, statusCheck(c.expect.status));
  for (const [pointer, value] of Object.entries(c.expect.bodyAt ?? {})) t.check(ex, bodyAt(pointer, value));
  if (c.expect.jobs) {
    const got = (body<Obj[]>(ex) ?? []).map((j) => j.ID as string).sort();
    const want = c.expect.jobs.map((n) => ids[n]!).sort();
    expectEqual(got, want, `${c.description}: the list holds exactly the expected jobs`);
  }
  return ex;
}

export { expectThat, expectEqual };
