// size: the shared steps of every jobs file (registering, polling, refusals, case runner, read-back comparison).
/**
 * Shared steps of the jobs suite: registering run-unique jobs with purge cleanup, reading typed
 * bodies, bounded polling for the scheduler's asynchronous state, and the data-driven case runner.
 */
import type { T, Exchange } from '../../harness/index.js';
import {
  expectThat,
  expectEqual,
  bodyAt,
  statusBetween,
  CheckFailure,
  type Check,
} from '../../harness/checks/index.js';
import { jobDefinition, resolvePath, useRunningTask, type JobDefinition } from '../../fixtures/jobs/index.js';
import { statusCheck, type Case, type CaseFile } from '../lib/cases.js';
import { together } from '../lib/together.js';
import { targetConfig } from '../../harness/index.js';

// Every jobs file imports these helpers: service fixtures get the target's running-task driver.
useRunningTask(targetConfig().sched.runningTask);

export const enc = encodeURIComponent;

/**
 * A request the scheduler carried out: any 2xx. The jobs document gives no success status (Errors:
 * "Status codes beyond the above are not given per endpoint"), so none is asked for.
 */
export const ok: Check = statusBetween(200, 299);

// biome-ignore lint/suspicious/noExplicitAny: JSON bodies are open-ended (the documents' "other fields: not shown")
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
  /** Expected status; defaults to any 2xx (`ok`). */
  expect?: Check;
  /**
   * The registration is the test's set-up, not what it checks: a refusal (4xx) makes the test not
   * applicable with the scheduler's answer (`registered` sets it).
   */
  setup?: boolean;
}

/** Purges a job (and only it) after the test; tolerant of a job the test already purged. */
export function trackJob(t: T, id: string, namespace?: string): void {
  t.track(`job ${id}`, () => t.sched.delete(`job/${enc(id)}`, { query: { purge: true, namespace }, validate: false }));
}

/** Registers a job through POST /v1/jobs and schedules its purge. */
export async function register(t: T, job: JobDefinition, opts: RegisterOptions = {}): Promise<Exchange> {
  trackJob(t, String(job.ID), opts.namespace);
  const ex = await t.sched.post('jobs', { body: { Job: job, ...opts.extra }, query: { namespace: opts.namespace } });
  if (opts.setup) t.precondition(ex, opts.expect ?? ok);
  else t.check(ex, opts.expect ?? ok);
  return ex;
}

/** A run-unique job from a fixture definition, registered (set-up: a refusal makes the test not applicable). */
export async function registered(
  t: T,
  definition: string,
  base = definition,
  overrides: Record<string, unknown> = {},
): Promise<{ id: string; job: JobDefinition; ex: Exchange }> {
  const id = t.unique(base);
  const job = jobDefinition(definition, id, overrides);
  const ex = await register(t, job, { setup: true });
  return { id, job, ex };
}

/** Updates a job through POST /v1/job/:job_id. */
export async function update(t: T, job: JobDefinition, extra: Record<string, unknown> = {}): Promise<Exchange> {
  return t.sched.post(`job/${enc(String(job.ID))}`, { body: { Job: job, ...extra } });
}

/**
 * The job's current version number, from its versions list (the highest listed): what a test needs
 * to name a version, read without leaning on the job read (the document numbers versions no way).
 */
export async function currentVersion(t: T, id: string, namespace?: string): Promise<number> {
  const ex = await t.sched.get(`job/${enc(id)}/versions`, { query: { namespace } });
  t.check(ex, ok);
  return Math.max(...((body(ex).Versions ?? []) as Obj[]).map((v) => Number(v.Version)));
}

export async function readJob(t: T, id: string, namespace?: string): Promise<Obj> {
  const ex = await t.sched.get(`job/${enc(id)}`, { query: { namespace } });
  t.check(ex, ok);
  return body(ex);
}

/** Whether an answer to GET /v1/job/:job_id shows no job `id`: a refusal, or a success without it. */
export function showsNoJob(ex: Exchange, id: string): boolean {
  const s = ex.response.status;
  if (s < 200 || s > 299) return true;
  const b = ex.response.body as Obj | null | undefined;
  return !b || typeof b !== 'object' || b.ID !== id;
}

/**
 * The job `id` can no longer be read (purged, collected, never registered). The document gives
 * no status for an unknown job: any refusal (or an answer without the job) shows it gone; the 4xx
 * is the catalogue's assumption jobs.read.unknown-404, checked through t.assuming.
 */
export async function absent(t: T, id: string, what: string, namespace?: string): Promise<Exchange> {
  const ex = await t.sched.get(`job/${enc(id)}`, { query: { namespace } });
  expectThat(
    showsNoJob(ex, id),
    'absent',
    {
      status: ex.response.status,
      ID: (ex.response.body as Obj | null | undefined)?.ID,
    },
    'no job',
    `${what}: GET /v1/job/:job_id no longer returns the job`,
  );
  const status = ex.response.status;
  t.assuming('jobs.read.unknown-404', () =>
    expectThat(
      status >= 400 && status < 500,
      'status',
      status,
      '4xx',
      `${what}: reading it is refused with a 4xx (assumption jobs.read.unknown-404)`,
    ),
  );
  return ex;
}

/**
 * Polls a read until the predicate holds. The scheduler works asynchronously (evaluations,
 * allocations, deployments, garbage collection); the bound (timing.settleSeconds, read every
 * timing.pollMs) keeps a broken target from hanging the run.
 */
export async function waitFor<R>(
  what: string,
  read: () => Promise<R>,
  ok: (r: R) => boolean,
  timeoutMs?: number,
  /** What happens between two reads (default: timing.pollMs of real time). */
  between?: () => Promise<void>,
): Promise<R> {
  const timing = targetConfig().timing;
  const bound = timeoutMs ?? timing.settleSeconds * 1000;
  const deadline = Date.now() + bound;
  let last = await read();
  while (!ok(last)) {
    if (Date.now() > deadline)
      throw new CheckFailure('eventually', `${what} did not happen within ${bound} ms`, what, last);
    await (between ? between() : new Promise((r) => setTimeout(r, timing.pollMs)));
    last = await read();
  }
  return last;
}

/**
 * waitFor in a test that moves the scheduler's clock (movesClock): where the harness can move it,
 * a read that does not show the state yet moves the clock one second on instead of waiting real
 * time (the reference then does the work that fell due, at once); elsewhere it is waitFor, real
 * time passing between reads. Either way the wait ends as soon as the state is there.
 */
export function waitAdvancing<R>(t: T, what: string, read: () => Promise<R>, ok: (r: R) => boolean): Promise<R> {
  if (!t.config.capabilities.schedControl) return waitFor(what, read, ok);
  return waitFor(what, read, ok, undefined, () => t.advance(1));
}

/**
 * Lets `seconds` pass on the scheduler's clock where a test needs time itself to pass, not a state
 * to come (two forced launches a moment apart): the harness moves the clock where it can;
 * elsewhere the test waits that long in real time, up to timing.maxRealWaitSeconds, and is skipped
 * naming that setting beyond it. A state the scheduler reaches is polled instead (waitFor).
 */
export async function elapse(t: T, seconds: number): Promise<void> {
  if (t.config.capabilities.schedControl) return t.advance(seconds);
  if (seconds > t.config.timing.maxRealWaitSeconds)
    t.skip(
      `needs ${seconds} s to pass on the scheduler, whose clock the harness cannot move`,
      'timing.maxRealWaitSeconds',
    );
  await new Promise((r) => setTimeout(r, seconds * 1000));
}

/**
 * The documents give no status for most refusals and no error body ("Error body format of this
 * API: not shown"): a refusal is any non-2xx answer. The catalogue's assumption
 * jobs.errors.rejections-4xx asks for a 4xx besides (checked through t.assuming: a 5xx refusal is
 * an assumption difference, and `assumptions.jobs.errors.rejections-4xx: false` stops asking).
 */
export function refused(t: T, ex: Exchange, what: string): Exchange {
  const status = ex.response.status;
  expectThat(status < 200 || status > 299, 'status', status, 'a non-2xx status', `${what} is refused`);
  // The 4xx is the catalogue's reading, not the document's: a difference is reported as an
  // assumption difference and the test goes on to check what the document does say.
  t.assuming('jobs.errors.rejections-4xx', () =>
    expectThat(
      status >= 400 && status < 500,
      'status',
      status,
      '4xx',
      `${what}: refused with a 4xx (assumption jobs.errors.rejections-4xx)`,
    ),
  );
  return ex;
}

/**
 * What a refused request must not have changed, read back: the job list under `prefix` with each
 * job's modify index and version, so a half-applied refusal (a dispatched child, a new version, a
 * scaled group) is caught.
 */
export async function jobsState(t: T, prefix: string, namespace?: string): Promise<Obj[]> {
  const ex = await t.sched.get('jobs', { query: { prefix, namespace } });
  t.check(ex, ok);
  const items = body<Obj[]>(ex) ?? [];
  const parents = items.filter((x) => !x.ParentID).sort((a, b) => String(a.ID).localeCompare(String(b.ID)));
  // Each job read on its own: the reads go out together.
  const jobs = await together(parents.map((j) => () => readJob(t, String(j.ID), namespace)));
  const out: Obj[] = parents.map((j, i) => ({
    ID: j.ID,
    Version: jobs[i]!.Version,
    JobModifyIndex: jobs[i]!.JobModifyIndex,
    Stop: jobs[i]!.Stop,
    TaskGroups: (jobs[i]!.TaskGroups as Obj[] | undefined)?.map((g) => [g.Name, g.Count]),
  }));
  out.push({
    children: items
      .filter((x) => x.ParentID)
      .map((x) => x.ID)
      .sort(),
  });
  return out;
}

/** A refusal (see `refused`) after which the jobs under `prefix` read back unchanged. */
export async function refusedUnchanged(
  t: T,
  prefix: string,
  what: string,
  send: () => Promise<Exchange>,
  namespace?: string,
): Promise<Exchange> {
  const before = await jobsState(t, prefix, namespace);
  const ex = refused(t, await send(), what);
  expectEqual(
    await jobsState(t, prefix, namespace),
    before,
    `${what}: nothing changed (jobs, versions, counts and children read back)`,
  );
  return ex;
}

/** Base64 of `n` deterministic bytes. */
export function payloadOf(n: number): string {
  const b = Buffer.alloc(n);
  for (let i = 0; i < n; i++) b[i] = (i * 31 + 7) & 0xff;
  return b.toString('base64');
}

/** Registers the jobs a case file names; returns name → run-unique ID. */
export async function registerCaseJobs(t: T, file: CaseFile, base: string): Promise<Record<string, string>> {
  const prefix = t.unique(base);
  const jobs = Object.entries(file.jobs ?? {}).map(([name, spec]) => ({
    name,
    spec,
    id: `${prefix}-${name.toLowerCase()}`,
  }));
  // Independent registrations: they go out together.
  await together(
    jobs.map(
      ({ spec, id }) =>
        () =>
          register(t, jobDefinition(spec.definition, id, spec.overrides)),
    ),
  );
  return Object.fromEntries(jobs.map(({ name, id }) => [name, id]));
}

/** Sends one data-driven case and checks its expectations; dispatched children get purged. */
export async function runCase(t: T, c: Case, ids: Record<string, string>, listPrefix?: string): Promise<Exchange> {
  const r = c.request;
  const method = r.method ?? 'GET';
  const path = r.path ? resolvePath(r.path, ids) : 'jobs';
  const query: Record<string, string> = { ...r.query };
  if (!r.path && listPrefix) query.prefix = listPrefix;
  // A refusal must leave the case's jobs as they were: read them before, compare after.
  const refusal = c.expect.status === '4xx' || c.expect.status === 'refused';
  const stateOf = refusal && Object.keys(ids).length ? commonPrefix(Object.values(ids)) : undefined;
  const before = stateOf ? await jobsState(t, stateOf) : undefined;
  let ex: Exchange;
  if (r.rawBytes !== undefined) {
    ex = await t.sched.request(method, path, {
      query,
      rawBody: Buffer.from(payloadOf(r.rawBytes), 'base64'),
      contentType: 'application/octet-stream',
      validate: r.validate,
    });
  } else {
    let reqBody = r.body;
    if (r.payloadBytes !== undefined) reqBody = { ...(reqBody as Obj), Payload: payloadOf(r.payloadBytes) };
    ex = await t.sched.request(method, path, { query, body: reqBody, validate: r.validate });
  }
  const child = (ex.response.body as Obj | undefined)?.DispatchedJobID;
  if (typeof child === 'string' && child) trackJob(t, child);
  if (c.expect.status === '4xx' || c.expect.status === 'refused') {
    // The case files' refusals: the documents give no status (see `refused`); nothing may change.
    refused(t, ex, c.title);
    if (before)
      expectEqual(
        await jobsState(t, stateOf!),
        before,
        `${c.title}: nothing changed (jobs, versions, counts and children read back)`,
      );
    return ex;
  }
  t.check(ex, statusCheck(c.expect.status!));
  for (const [pointer, value] of Object.entries(c.expect.bodyAt ?? {})) t.check(ex, bodyAt(pointer, value));
  if (c.expect.jobs) {
    const got = (body<Obj[]>(ex) ?? []).map((j) => j.ID as string).sort();
    const want = c.expect.jobs.map((n) => ids[n]!).sort();
    expectEqual(got, want, `${c.title}: the list holds exactly the expected jobs`);
  }
  return ex;
}

/**
 * Where `actual` fails to hold everything `expected` holds (every key of an object, every element
 * of an array in its order, equal scalars), as a JSON pointer below `at`; undefined when it holds
 * it all. A scheduler fills defaults into what it stores, so a definition read back may hold more:
 * more keys, and more elements (the real scheduler adds the constraints a driver implies to a
 * group's list). An element sent is found in the array read back after the one found for the
 * element before it; a one-to-one match is looked for only where the lengths agree.
 */
export function missingFrom(actual: unknown, expected: unknown, at = ''): string | undefined {
  if (expected !== null && typeof expected === 'object') {
    if (Array.isArray(expected)) {
      if (!Array.isArray(actual)) return at || '/';
      if (actual.length === expected.length) {
        for (let i = 0; i < expected.length; i++) {
          const miss = missingFrom(actual[i], expected[i], `${at}/${i}`);
          if (miss) return miss;
        }
        return undefined;
      }
      // In order, each element of `expected` held by a later element of `actual` (a first match
      // in order is a match whenever one exists).
      let j = 0;
      for (const e of expected) {
        while (j < actual.length && missingFrom(actual[j], e) !== undefined) j++;
        if (j === actual.length) return at || '/';
        j++;
      }
      return undefined;
    }
    if (actual === null || typeof actual !== 'object' || Array.isArray(actual)) return at || '/';
    for (const [k, v] of Object.entries(expected as Obj)) {
      const miss = missingFrom((actual as Obj)[k], v, `${at}/${k}`);
      if (miss) return miss;
    }
    return undefined;
  }
  return actual === expected ? undefined : at || '/';
}

/** The value at a pointer `missingFrom` answered ('/' is the whole value). */
const valueAtPointer = (v: unknown, pointer: string): unknown =>
  pointer === '/'
    ? v
    : pointer
        .split('/')
        .slice(1)
        .reduce<unknown>((o, k) => (o as Obj | undefined)?.[k], v);

/** `actual` holds everything `expected` holds (see `missingFrom`). */
export function expectContains(actual: unknown, expected: unknown, message: string): void {
  const miss = missingFrom(actual, expected);
  if (miss === undefined) return;
  expectThat(
    false,
    'contains',
    valueAtPointer(actual, miss),
    valueAtPointer(expected, miss),
    `${message}: ${miss} differs`,
  );
}

/**
 * Every place where the fields of `actual` fail to hold what those of `expected` hold (see
 * `missingFrom`), per top-level field and then below it: one check that names all of them.
 */
export function missingFields(actual: Obj, expected: Obj): { at: string; sent: unknown; read: unknown }[] {
  const out: { at: string; sent: unknown; read: unknown }[] = [];
  const walk = (a: unknown, e: unknown, at: string): void => {
    const miss = missingFrom(a, e);
    if (miss === undefined) return;
    // Below an object, each key on its own; an array or a scalar is reported where it differs.
    if (e !== null && typeof e === 'object' && !Array.isArray(e) && a !== null && typeof a === 'object') {
      for (const [k, v] of Object.entries(e as Obj)) walk((a as Obj)[k], v, `${at}/${k}`);
      return;
    }
    if (Array.isArray(e) && Array.isArray(a) && a.length === e.length) {
      for (const [i, v] of e.entries()) walk(a[i], v, `${at}/${i}`);
      return;
    }
    out.push({ at: at || '/', sent: e, read: a });
  };
  walk(actual, expected, '');
  return out;
}

export { expectThat, expectEqual };

function commonPrefix(values: string[]): string {
  let p = values[0] ?? '';
  for (const v of values) while (!v.startsWith(p)) p = p.slice(0, -1);
  return p;
}

const ACTIVE_DEPLOYMENT = new Set(['running', 'pending', 'initializing', 'paused', 'blocked']);

/**
 * Waits until a job can be scaled: the document refuses scaling during an active deployment, and
 * a scheduler may give any service job a deployment at registration (the real one does). Time is
 * moved the scheduler's way meanwhile (its clock, or real time), bounded by timing.settleSeconds.
 */
export async function scalable(t: T, id: string, namespace?: string): Promise<void> {
  const settle = targetConfig().timing.settleSeconds;
  const deadline = Date.now() + settle * 1000;
  for (;;) {
    // A deployment is made when the scheduler processes the evaluation: first let pending ones run.
    const evals = await t.sched.get(`job/${enc(id)}/evaluations`, { query: { namespace } });
    t.check(evals, ok);
    const pending = (body<Obj[]>(evals) ?? []).some((e) => e.Status === 'pending');
    const ex = await t.sched.get(`job/${enc(id)}/deployment`, { query: { namespace } });
    t.check(ex, ok);
    const d = body<Obj | null>(ex);
    if (!pending && (!d || !ACTIVE_DEPLOYMENT.has(String(d.Status)))) return;
    if (Date.now() > deadline)
      throw new CheckFailure(
        'eventually',
        `the evaluations and deployment of ${id} did not finish within ${settle} s, so the job cannot be scaled`,
        'no pending evaluation, no active deployment',
        {
          pending,
          deployment: d && {
            Status: d.Status,
            StatusDescription: d.StatusDescription,
            JobVersion: d.JobVersion,
            TaskGroups: d.TaskGroups,
          },
        },
      );
    await t.advance(5);
    // A moved clock has the work that fell due done when the move answers; real time is polled.
    if (!t.config.capabilities.schedControl) await new Promise((r) => setTimeout(r, targetConfig().timing.pollMs));
  }
}
