/**
 * Jobs: list, register, read, stop (jobs-service.md List jobs, Register job, Read job, Stop job),
 * with the real scheduler's validate endpoint and HCL parsing. The routes on a bare job ID come
 * last of all the scheduler's routes (a job ID may end like another route's path).
 */
import { badRequest, notFound, SchedError } from '../errors.js';
import { compileFilter, FilterError } from '../filter.js';
import { parseJobHcl } from '../hcl.js';
import {
  type Ctx,
  evalPriorityOk,
  optBool,
  optInt,
  optString,
  optUint,
  parseBoolParam,
  parseIntParam,
  type Reply,
  stringMap,
  writeResponse,
} from '../http.js';
import { isObj, isParameterized, isPeriodic, type Job } from '../job.js';
import { compareJobs, jobToken, paginate } from '../paginate.js';
import type { Route } from '../router.js';
import type { Entry } from '../store.js';
import { jobSummary } from '../summary.js';
import { type Deps, jobFromBody, REGISTER_MESSAGES } from './deps.js';

/** The job of a register request without Job, where a broken scheduler takes one (rules.jobRequired). */
const NO_JOB: Job = { Namespace: 'default' };

export function jobRoutes(d: Deps): Route[] {
  const { store, rules, guard } = d;
  const registerJob = jobFromBody(rules, REGISTER_MESSAGES, store.delays.defaultMinHealthyMs);

  const listItem = (e: Entry, withMeta: boolean): Job => {
    const j = e.job;
    const item: Job = {
      ID: j.ID,
      ParentID: j.ParentID,
      Name: j.Name,
      Namespace: j.Namespace,
      Datacenters: j.Datacenters,
      NodePool: j.NodePool,
      Multiregion: j.Multiregion,
      Type: j.Type,
      Priority: j.Priority,
      Periodic: isPeriodic(j),
      ParameterizedJob: isParameterized(j),
      Stop: j.Stop,
      Status: store.status(e),
      StatusDescription: j.StatusDescription,
      JobSummary: jobSummary(store, e),
      CreateIndex: j.CreateIndex,
      ModifyIndex: j.ModifyIndex,
      JobModifyIndex: j.JobModifyIndex,
      SubmitTime: j.SubmitTime,
      Version: j.Version,
    };
    if (withMeta && rules.listMetaOnRequest) item.Meta = j.Meta;
    return item;
  };

  const listJobs = (ctx: Ctx): Reply => {
    const ns = ctx.namespace;
    const namespaces =
      ns === '*'
        ? rules.wildcardNamespaces(
            new Set([...store.namespaces].filter((n) => guard.allows(ctx.token, 'GET /v1/jobs', 'list-jobs', n))),
            new Set(store.namespaces),
          )
        : new Set([ns]);
    const withMeta = parseBoolParam(ctx.query, 'meta') ?? rules.listMetaDefault;
    const perPage = rules.listPerPage(parseIntParam(ctx.query, 'per_page')) ?? rules.listDefaultPerPage;
    if (perPage < 0) throw badRequest('per_page must not be negative');
    const nextToken = ctx.query.get('next_token') ?? '';
    const prefix = rules.listHonoursPrefix ? (ctx.query.get('prefix') ?? '') : '';
    const filterText = rules.listHonoursFilter ? (ctx.query.get('filter') ?? '') : '';
    let keep: ((e: Entry) => boolean) | undefined;
    if (filterText) {
      let pred: (d: unknown) => boolean;
      try {
        pred = compileFilter(filterText);
      } catch (err) {
        throw badRequest(`failed to read filter expression: ${(err as Error).message}`);
      }
      keep = (e) => pred(store.view(e));
    }
    const entries = [...store.jobs.values()]
      .filter((e) => namespaces.has(e.job.Namespace) && rules.listPrefixMatches(String(e.job.ID), prefix))
      .sort((a, b) =>
        compareJobs(a.job as { Namespace: string; ID: string }, b.job as { Namespace: string; ID: string }),
      );
    let page: ReturnType<typeof paginate<(typeof entries)[number]>>;
    try {
      page = paginate(entries, {
        perPage,
        nextToken,
        keep,
        overfill: rules.pageOverfill,
        compareToToken: (e, t) => rules.compareJobToToken(e.job as { Namespace: string; ID: string }, t),
        tokenOf: (e) => jobToken(e.job as { Namespace: string; ID: string }),
      });
    } catch (err) {
      if (err instanceof FilterError) throw badRequest(`failed to read result page: ${err.message}`);
      throw err;
    }
    const headers: Record<string, string> = {};
    if (page.nextToken && rules.listSendsNextToken) headers['X-Sched-NextToken'] = page.nextToken;
    return { body: page.items.map((e) => listItem(e, withMeta)), headers };
  };

  const register = (ctx: Ctx, body: Job, job: Job, endpoint: string): Reply => {
    // A request without Job that a broken scheduler takes (rules.jobRequired): nothing to register.
    if (job === NO_JOB) return { body: writeResponse({ JobModifyIndex: 0, Index: store.index, Warnings: '' }) };
    const override =
      optBool(body, 'PolicyOverride') || (body.PolicyOverride !== undefined && !rules.policyOverrideFalseHonoured);
    if (override && rules.policyOverrideChecked('register')) guard.check(ctx, endpoint, 'policy-override');
    if (job.Dispatched === true && !store.get(job.Namespace, job.ID))
      throw badRequest("job can't be submitted with 'Dispatched' set");
    let submission = null;
    if (body.Submission !== undefined && body.Submission !== null) {
      const s = body.Submission;
      if (!isObj(s)) throw badRequest('Submission must be an object');
      const source = optString(s, 'Source') ?? '';
      const format = optString(s, 'Format') ?? 'hcl2';
      if (!['hcl2', 'json', 'hcl1'].includes(format))
        throw badRequest(`Submission Format must be "hcl2" or "json", got ${JSON.stringify(format)}`);
      const variables = optString(s, 'Variables') ?? '';
      const flags = stringMap(s.VariableFlags, 'Submission.VariableFlags');
      if (source) submission = { Source: source, Format: format, VariableFlags: flags, Variables: variables };
    }
    const jobModifyIndex = optUint(body, 'JobModifyIndex');
    const existing = store.get(job.Namespace, job.ID);
    const current = existing?.job.JobModifyIndex ?? 0;
    const definition = existing ? rules.updatedJob(existing.job, job) : job;
    const route = endpoint === 'POST /v1/jobs' ? 'create' : 'update';
    const result = store.register(rules.scheduledDefinition(definition, submission), {
      enforceIndex:
        rules.enforceIndexChecked(route) && rules.enforceIndexRequested(optBool(body, 'EnforceIndex'), jobModifyIndex),
      jobModifyIndex: jobModifyIndex ?? rules.jobModifyIndexDefault(current),
      preserveCounts:
        body.PreserveCounts === undefined
          ? rules.preserveCountsDefault
          : optBool(body, 'PreserveCounts') || !rules.preserveCountsFalseHonoured,
      evalPriority: evalPriorityOk(optInt(body, 'EvalPriority')),
      submission,
    });
    return { body: writeResponse(result) };
  };

  /**
   * The real scheduler's validation endpoint (not in the jobs document): the registration checks
   * without registering; refusals come back as ValidationErrors in a 200.
   */
  const validate = (ctx: Ctx, body: Job): Reply => {
    try {
      registerJob(ctx, body, '');
      return { body: { DriverConfigValidated: false, ValidationErrors: [], Error: '', Warnings: '' } };
    } catch (err) {
      if (!(err instanceof SchedError) || err.status !== 400) throw err;
      return {
        body: { DriverConfigValidated: false, ValidationErrors: [err.message], Error: err.message, Warnings: '' },
      };
    }
  };

  const parseHcl = async (body: Job): Promise<Reply> => {
    const hcl = optString(body, 'JobHCL');
    if (!hcl && !rules.parseNeedsJobHcl) return { body: {} };
    if (!hcl) throw badRequest('Job spec is empty');
    const canonicalize =
      body.Canonicalize === undefined
        ? rules.parseCanonicalizeDefault
        : optBool(body, 'Canonicalize') || !rules.parseCanonicalizeFalseHonoured;
    const canonical = canonicalize && rules.parseCanonicalizes;
    const variables = rules.parseUsesVariables ? rules.parseVariables(optString(body, 'Variables')) : '';
    return { body: await parseJobHcl({ JobHCL: hcl, Canonicalize: canonical, Variables: variables }) };
  };

  const readJob = (ctx: Ctx, id: string): Reply => {
    let e = store.get(ctx.namespace, id);
    if (!e && !rules.jobsAreNamespaced) e = [...store.jobs.values()].find((x) => x.job.ID === id);
    if (!e && !rules.readCaseSensitive)
      e = [...store.jobs.values()].find(
        (x) => x.job.Namespace === ctx.namespace && x.job.ID.toLowerCase() === id.toLowerCase(),
      );
    if (!e && !rules.readExactId)
      e = [...store.jobs.values()].find((x) => x.job.Namespace === ctx.namespace && x.job.ID.startsWith(id));
    if (!e) {
      if (!rules.unknownJobIs404) return { body: {} };
      throw notFound('job not found');
    }
    return { body: rules.jobView(store.view(e)) };
  };

  const stopJob = (ctx: Ctx, id: string): Reply => {
    const purge = rules.stopPurgeRequested(parseBoolParam(ctx.query, 'purge'));
    // Single region: a global stop is an ordinary stop.
    if (parseBoolParam(ctx.query, 'global') && !rules.globalStopAccepted)
      throw badRequest('multiregion jobs are not supported');
    const noShutdownDelay = rules.noShutdownDelayRequested(parseBoolParam(ctx.query, 'no_shutdown_delay'));
    const evalPriority = rules.stopEvalPriority(evalPriorityOk(parseIntParam(ctx.query, 'eval_priority')));
    return { body: writeResponse(store.stop(ctx.namespace, id, { purge, noShutdownDelay, evalPriority })) };
  };

  return [
    { method: 'GET', path: '/v1/jobs', acl: 'list-jobs', aclPerNamespace: true, handle: (ctx) => listJobs(ctx) },
    {
      method: 'WRITE',
      path: '/v1/jobs',
      body: 'json',
      job: (ctx, body) => (!isObj(body.Job) && !rules.jobRequired.create ? NO_JOB : registerJob(ctx, body, '')),
      acl: 'submit-job',
      handle: (ctx, r) => register(ctx, r.body, r.job, 'POST /v1/jobs'),
    },
    { method: 'WRITE', path: '/v1/validate/job', body: 'json', handle: (ctx, r) => validate(ctx, r.body) },
    { method: 'WRITE', path: '/v1/jobs/parse', acl: 'parse-job', body: 'json', handle: (_ctx, r) => parseHcl(r.body) },
    // On a bare job ID: last of all routes.
    { method: 'GET', path: '/v1/job/*id', acl: 'read-job', handle: (ctx, r) => readJob(ctx, r.params.id!) },
    {
      method: 'WRITE',
      path: '/v1/job/*id',
      body: 'json',
      job: (ctx, body, params) =>
        !isObj(body.Job) && !rules.jobRequired.update
          ? NO_JOB
          : registerJob(ctx, body, rules.updateMatchesPathId ? params.id! : ''),
      acl: 'submit-job',
      handle: (ctx, r) => register(ctx, r.body, r.job, 'POST /v1/job/:job_id'),
    },
    { method: 'DELETE', path: '/v1/job/*id', acl: 'submit-job', handle: (ctx, r) => stopJob(ctx, r.params.id!) },
  ];
}
