/**
 * The reference job scheduler: the jobs HTTP API of jobs-service.md on node:http, with the action
 * stream on `ws`. Errors are plain text (as the real scheduler writes them); every malformed
 * request is a 4xx.
 *
 * Reference-only controls (not part of the jobs API):
 * - Holding a deployment active: register a service job whose group has an update block and whose
 *   job Meta has `"ref.hold-deployment": "true"`; its deployment stays `running` (so scaling it
 *   answers 400) until a newer version or a stop cancels it. Without the key a deployment turns
 *   `successful` once its allocations have run for the group's MinHealthyTime on the clock.
 * - POST /v1/reference/clock {"advance": seconds}: moves the scheduler's clock (allocations start
 *   1 s after placement, batch tasks exit 5 s after starting, periodic launches follow the clock).
 * - POST /v1/reference/acl/tokens {"Name", "Type": "client"|"management",
 *   "Namespaces": {"<namespace or glob>": {"Policy": "read"|"write"|"scale"|"deny",
 *   "Capabilities": ["read-job", ...]}}} -> {AccessorID, SecretID, ...}: creates a token (needs
 *   the management token when ACLs are enabled); DELETE /v1/reference/acl/tokens/:accessor
 *   revokes one. Tokens travel in X-Sched-Token or
 *   Authorization: Bearer.
 * - PUT|POST /v1/system/gc (the real scheduler's forced garbage collection, also at
 *   /v1/reference/gc): removes stopped jobs whose allocations finished, and finished children.
 * - Namespaces come into being when a job is first registered in them.
 */
import type { FaultName } from '../switch-names.js';
import { randomUUID } from 'node:crypto';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { advanceProblem, type Clock } from '../clock.js';
import type { Faults } from '../faults.js';
import { Variants } from '../variants.js';
import { AclStore, type AclToken, type Capability } from './acl.js';
import { ActionStreams } from './actions.js';
import { annotate, desiredUpdates, jobDiff } from './diff.js';
import { badRequest, documented, forbidden, methodNotAllowed, notFound, SchedError } from './errors.js';
import { QUEUED_GC, REFUSALS_500, DEFAULT_DEPLOYMENTS } from './variants.js';
import { compileFilter, FilterError } from './filter.js';
import { parseJobHcl } from './hcl.js';
import {
  canonicalize,
  checkJobDurations,
  withDefaultUpdate,
  checkJobTypes,
  clone,
  isObj,
  isParameterized,
  isPeriodic,
  type Job,
  validateJob,
} from './job.js';
import { compareJobs, compareJobToToken, jobToken, paginate } from './paginate.js';
import { Cluster, isTerminal } from './sim.js';
import { type Entry, keyOf, Store, type WriteResult } from './store.js';

export const DISPATCH_PAYLOAD_LIMIT = 16384;
const MAX_BODY = 4 * 1024 * 1024;
const BODY_TIMEOUT_MS = 10_000;
const MAX_BLOCK_MS = 10_000;
const ZERO_TIME = '0001-01-01T00:00:00Z';
/** Variant jobs.gc-queued: how long after the answer a forced collection runs (clock ms). */
const QUEUED_GC_DELAY_MS = 500;

export interface SchedulerControl {
  store: Store;
  acl: AclStore;
  /** Moves the scheduler's clock forward (milliseconds). */
  advance(ms: number): Promise<void>;
  createToken(input: {
    Name?: string;
    Type?: 'client' | 'management';
    Namespaces?: Record<string, { Policy?: string; Capabilities?: string[] }>;
  }): AclToken;
  gc(): number;
}

interface Ctx {
  req: IncomingMessage;
  res: ServerResponse;
  method: string;
  query: URLSearchParams;
  namespace: string;
  token: AclToken | null;
  rawBody: Buffer;
}

type Reply = { status?: number; body: unknown; headers?: Record<string, string> };

// ---- request helpers -------------------------------------------------------------------------------

function parseBoolParam(q: URLSearchParams, name: string): boolean | undefined {
  const v = q.get(name);
  if (v === null || v === '') return undefined;
  if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(v)) return true;
  if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(v)) return false;
  throw badRequest(`Failed to parse value of "${name}" (${v}) as a bool`);
}

function parseIntParam(q: URLSearchParams, name: string): number | undefined {
  const v = q.get(name);
  if (v === null || v === '') return undefined;
  if (!/^-?[0-9]+$/.test(v) || !Number.isSafeInteger(Number(v)))
    throw badRequest(`Failed to parse value of "${name}" (${v}) as an integer`);
  return Number(v);
}

function jsonBody(ctx: Ctx, { optional = false } = {}): Job {
  if (ctx.rawBody.length === 0) {
    if (optional) return {};
    throw badRequest('Request body is empty');
  }
  let v: unknown;
  try {
    v = JSON.parse(ctx.rawBody.toString('utf8'));
  } catch (err) {
    throw badRequest(`failed to decode request body: ${(err as Error).message}`);
  }
  if (!isObj(v)) throw badRequest('Request body must be a JSON object');
  return v;
}

const optBool = (b: Job, k: string): boolean => {
  const v = b[k];
  if (v === undefined || v === null) return false;
  if (typeof v !== 'boolean') throw badRequest(`${k} must be a boolean`);
  return v;
};
const optInt = (b: Job, k: string): number | undefined => {
  const v = b[k];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'number' || !Number.isInteger(v)) throw badRequest(`${k} must be an integer`);
  return v;
};
/** Indexes and versions are unsigned in the real scheduler: a negative one does not decode (400). */
const optUint = (b: Job, k: string): number | undefined => {
  const v = optInt(b, k);
  if (v !== undefined && v < 0) throw badRequest(`${k} must not be negative`);
  return v;
};
const optString = (b: Job, k: string): string | undefined => {
  const v = b[k];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') throw badRequest(`${k} must be a string`);
  return v;
};
const stringMap = (v: unknown, what: string): Record<string, string> | null => {
  if (v === undefined || v === null) return null;
  if (!isObj(v) || Object.values(v).some((x) => typeof x !== 'string'))
    throw badRequest(`${what} must be an object of strings`);
  return v as Record<string, string>;
};

function evalPriorityOk(p: number | undefined): number {
  if (p === undefined || p === 0) return 0;
  if (p < 1 || p > 100) throw badRequest('eval priority must be between 1 and 100 inclusively');
  return p;
}

function writeResponse(r: WriteResult | Job): Job {
  const out: Job = { ...r, Warnings: r.Warnings ?? '', LastContact: 0, KnownLeader: true };
  if (!out.EvalID) {
    delete out.EvalID;
    delete out.EvalCreateIndex;
  }
  return out;
}

const stripEval = (ev: Job): Job => {
  const o = clone(ev);
  delete o.jobKey;
  delete o.JobCreateIndex;
  return o;
};

// ---- the server --------------------------------------------------------------------------------------

export async function startScheduler(opts: {
  port?: number;
  host?: string;
  clock: Clock;
  faults: Faults;
  variants?: Variants;
  aclEnabled?: boolean;
  managementToken?: string;
}): Promise<{ addr: string; close(): Promise<void>; control: SchedulerControl }> {
  const { clock, faults } = opts;
  const variants = opts.variants ?? new Variants();
  const aclEnabled = opts.aclEnabled ?? false;
  if (aclEnabled && !opts.managementToken) throw new Error('aclEnabled needs a managementToken');
  const store = new Store(clock, faults, variants);
  const acl = new AclStore(opts.managementToken);
  const streams = new ActionStreams(faults, variants);

  const resolveToken = (headers: IncomingMessage['headers']): AclToken | null => {
    const bearer = /^Bearer\s+(.+)$/i.exec(String(headers.authorization ?? ''))?.[1];
    const secret = String(headers['x-sched-token'] ?? headers['x-nomad-token'] ?? bearer ?? '').trim();
    if (!aclEnabled) return null;
    if (!secret) return { AccessorID: 'anonymous', SecretID: '', Name: 'anonymous', Type: 'client', Namespaces: {} };
    const t = acl.lookup(secret);
    if (!t) throw forbidden('ACL token not found');
    return t;
  };

  /** Passes when ACLs are off or the token holds any one of the capabilities in the namespace. */
  const need = (ctx: Ctx, caps: Capability[], namespace = ctx.namespace, fault?: FaultName): void => {
    if (!aclEnabled || (fault && faults.has(fault))) return;
    const ns = faults.has('jobs.acl-namespace-unchecked') ? 'default' : namespace;
    if (!caps.some((c) => acl.allows(ctx.token, ns, c))) throw forbidden();
  };
  const needOverride = (ctx: Ctx, policyOverride: boolean) => {
    if (policyOverride) need(ctx, ['policy-override'], ctx.namespace, 'jobs.acl-policy-override-unchecked');
  };

  // ---- jobs list ------------------------------------------------------------------------------------

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
      JobSummary: store.summary(e),
      CreateIndex: j.CreateIndex,
      ModifyIndex: j.ModifyIndex,
      JobModifyIndex: j.JobModifyIndex,
      SubmitTime: j.SubmitTime,
      Version: j.Version,
    };
    if (withMeta && !faults.has('jobs.list-meta-missing')) item.Meta = j.Meta;
    return item;
  };

  const listJobs = (ctx: Ctx): Reply => {
    const ns = ctx.namespace;
    let namespaces: Set<string>;
    if (ns === '*') {
      namespaces = new Set(
        [...store.namespaces].filter(
          (n) =>
            !aclEnabled ||
            faults.has('jobs.acl-list-unchecked') ||
            acl.allows(ctx.token, faults.has('jobs.acl-namespace-unchecked') ? 'default' : n, 'list-jobs'),
        ),
      );
      if (faults.has('jobs.list-wildcard-default-only')) namespaces = new Set(['default']);
    } else {
      need(ctx, ['list-jobs'], ns, 'jobs.acl-list-unchecked');
      namespaces = new Set([ns]);
    }
    const withMeta = parseBoolParam(ctx.query, 'meta') ?? false;
    const perPage = parseIntParam(ctx.query, 'per_page') ?? 0;
    if (perPage < 0) throw badRequest('per_page must not be negative');
    const nextToken = ctx.query.get('next_token') ?? '';
    const prefix = faults.has('jobs.list-prefix-ignored') ? '' : (ctx.query.get('prefix') ?? '');
    const filterText = faults.has('jobs.list-filter-ignored') ? '' : (ctx.query.get('filter') ?? '');
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
      .filter((e) => namespaces.has(e.job.Namespace) && e.job.ID.startsWith(prefix))
      .sort((a, b) =>
        compareJobs(a.job as { Namespace: string; ID: string }, b.job as { Namespace: string; ID: string }),
      );
    let page: ReturnType<typeof paginate<(typeof entries)[number]>>;
    try {
      page = paginate(entries, {
        perPage,
        nextToken,
        keep,
        overfill: faults.has('jobs.list-page-overfill'),
        compareToToken: (e, t) => compareJobToToken(e.job as { Namespace: string; ID: string }, t),
        tokenOf: (e) => jobToken(e.job as { Namespace: string; ID: string }),
      });
    } catch (err) {
      if (err instanceof FilterError) throw badRequest(`failed to read result page: ${err.message}`);
      throw err;
    }
    const headers: Record<string, string> = {};
    if (page.nextToken && !faults.has('jobs.list-no-next-token')) headers['X-Sched-NextToken'] = page.nextToken;
    return { body: page.items.map((e) => listItem(e, withMeta)), headers };
  };

  // ---- register ----------------------------------------------------------------------------------

  /** Namespace precedence as in the real scheduler: query, then request body, then the job's own. */
  const jobNamespace = (ctx: Ctx, body: Job, job: Job): string => {
    if (ctx.query.get('namespace')) return ctx.namespace;
    if (typeof body.Namespace === 'string' && body.Namespace) return body.Namespace;
    if (typeof job.Namespace === 'string' && job.Namespace) return job.Namespace;
    return 'default';
  };

  /** Copies, namespaces, canonicalizes and validates a job from a request body. */
  const jobFromBody = (
    ctx: Ctx,
    body: Job,
    pathId: string,
    missingJob: string,
    missingId: string,
    mismatch: string,
  ): Job => {
    if (!isObj(body.Job)) throw badRequest(missingJob);
    if (typeof body.Job.ID !== 'string' || body.Job.ID === '') throw badRequest(missingId);
    if (pathId && body.Job.ID !== pathId) throw badRequest(mismatch);
    const job = clone(body.Job);
    checkJobTypes(job);
    job.Namespace = jobNamespace(ctx, body, job);
    checkJobDurations(job);
    if (variants.has(DEFAULT_DEPLOYMENTS)) withDefaultUpdate(job);
    canonicalize(job);
    validateJob(job);
    return job;
  };

  const register = (ctx: Ctx, pathId: string): Reply => {
    const body = jsonBody(ctx);
    const job = jobFromBody(
      ctx,
      body,
      pathId,
      'Job must be specified',
      "Job ID hasn't been provided",
      'Job ID does not match name',
    );
    ctx.namespace = job.Namespace;
    need(ctx, ['submit-job'], job.Namespace, 'jobs.acl-submit-unchecked');
    const policyOverride = optBool(body, 'PolicyOverride');
    needOverride(ctx, policyOverride);
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
    const result = store.register(job, {
      enforceIndex: optBool(body, 'EnforceIndex'),
      jobModifyIndex: optUint(body, 'JobModifyIndex') ?? 0,
      preserveCounts: optBool(body, 'PreserveCounts'),
      evalPriority: evalPriorityOk(optInt(body, 'EvalPriority')),
      submission,
    });
    return { body: writeResponse(result) };
  };

  // ---- parse -------------------------------------------------------------------------------------

  const parseHcl = async (ctx: Ctx): Promise<Reply> => {
    need(ctx, ['parse-job', 'submit-job'], ctx.namespace, 'jobs.acl-parse-unchecked');
    const body = jsonBody(ctx);
    const hcl = optString(body, 'JobHCL');
    if (!hcl) throw badRequest('Job spec is empty');
    const canonical = optBool(body, 'Canonicalize') && !faults.has('jobs.parse-no-canonicalize');
    const variables = faults.has('jobs.parse-variables-ignored') ? '' : (optString(body, 'Variables') ?? '');
    return { body: await parseJobHcl({ JobHCL: hcl, Canonicalize: canonical, Variables: variables }) };
  };

  // ---- per-job reads ------------------------------------------------------------------------------

  const readJob = (ctx: Ctx, id: string): Reply => {
    need(ctx, ['read-job'], ctx.namespace, 'jobs.acl-read-unchecked');
    let e = store.get(ctx.namespace, id);
    if (!e && faults.has('jobs.namespace-ignored')) e = [...store.jobs.values()].find((x) => x.job.ID === id);
    if (!e) {
      if (faults.has('jobs.read-unknown-200')) return { body: {} };
      throw notFound('job not found');
    }
    const view = store.view(e);
    if (faults.has('jobs.durations-in-seconds')) {
      for (const g of view.TaskGroups ?? [])
        for (const t of g.Tasks ?? []) if (typeof t.KillTimeout === 'number') t.KillTimeout = t.KillTimeout / 1e9;
    }
    return { body: view };
  };

  const readSubmission = (ctx: Ctx, id: string): Reply => {
    need(ctx, ['read-job'], ctx.namespace, 'jobs.acl-read-unchecked');
    const raw = ctx.query.get('version');
    let version: number;
    if (raw === null || !/^[0-9]+$/.test(raw)) {
      const e = store.get(ctx.namespace, id);
      if (!(raw === null && faults.has('jobs.submission-version-optional') && e))
        throw badRequest('Unable to parse job submission version parameter');
      version = e.job.Version;
    } else {
      version = Number(raw);
    }
    const subs = store.get(ctx.namespace, id)?.submissions;
    let sub = subs?.get(version);
    if (!sub && subs && faults.has('jobs.submission-from-previous')) {
      const earlier = [...subs.values()].filter((x) => x.Version < version).sort((a, b) => b.Version - a.Version)[0];
      if (earlier) sub = { ...earlier, Version: version };
    }
    if (!sub) throw notFound('job source not found');
    return { body: clone(sub) };
  };

  const versionsOf = (e: Entry): Job[] => e.versions.map((v) => ({ ...clone(v), Status: store.status(e) }));

  const listVersions = (ctx: Ctx, id: string): Reply => {
    need(ctx, ['read-job'], ctx.namespace, 'jobs.acl-read-unchecked');
    const diffs = parseBoolParam(ctx.query, 'diffs') ?? false;
    let diffVersion = parseIntParam(ctx.query, 'diff_version');
    const diffTag = ctx.query.get('diff_tag');
    const e = store.get(ctx.namespace, id);
    if (!e) throw notFound('job versions not found');
    const versions = versionsOf(e);
    if (diffTag) {
      const tagged = versions.find((v) => v.VersionTag?.Name === diffTag);
      if (!tagged) throw notFound(`tag "${diffTag}" not found on job "${id}"`);
      diffVersion = tagged.Version;
    }
    let out: Job[] | null = null;
    if (diffs || diffVersion !== undefined || faults.has('jobs.versions-diffs-by-default')) {
      if (faults.has('jobs.versions-diffs-null')) out = null;
      else if (diffVersion !== undefined && !faults.has('jobs.versions-diff-version-ignored')) {
        const base = versions.find((v) => v.Version === diffVersion);
        if (!base) throw notFound(`job "${id}" version ${diffVersion} not found`);
        out = versions.filter((v) => v.Version !== diffVersion).map((v) => jobDiff(base, v));
      } else {
        out = [];
        for (let i = 0; i < versions.length - 1; i++) out.push(jobDiff(versions[i + 1]!, versions[i]!));
      }
    }
    return {
      body: { Diffs: out, Versions: versions, Index: store.index, KnownLeader: true, LastContact: 0, NextToken: '' },
    };
  };

  const listAllocations = (ctx: Ctx, id: string): Reply => {
    need(ctx, ['read-job'], ctx.namespace, 'jobs.acl-read-unchecked');
    const all = (parseBoolParam(ctx.query, 'all') ?? false) && !faults.has('jobs.allocations-all-ignored');
    const e = store.get(ctx.namespace, id);
    const key = keyOf(ctx.namespace, id);
    const allocs = store.cluster.allocs.filter(
      (a) => a.jobKey === key && (all || !e || a.JobCreateIndex === e.job.CreateIndex),
    );
    return { body: allocs.map(Cluster.view) };
  };

  const listEvaluations = (ctx: Ctx, id: string): Reply => {
    need(ctx, ['read-job'], ctx.namespace, 'jobs.acl-read-unchecked');
    const key = keyOf(ctx.namespace, id);
    return { body: store.evals.filter((ev) => ev.jobKey === key).map(stripEval) };
  };

  const deploymentsOf = (ctx: Ctx, id: string, all: boolean): Job[] => {
    const e = store.get(ctx.namespace, id);
    const key = keyOf(ctx.namespace, id);
    return store.cluster.deployments.filter(
      (d) => d.jobKey === key && (all || (e !== undefined && d.JobCreateIndex === e.job.CreateIndex)),
    );
  };

  const listDeployments = (ctx: Ctx, id: string): Reply => {
    need(ctx, ['read-job'], ctx.namespace, 'jobs.acl-read-unchecked');
    const all = (parseBoolParam(ctx.query, 'all') ?? false) && !faults.has('jobs.deployments-all-ignored');
    return {
      body: deploymentsOf(ctx, id, all)
        .sort((a, b) => b.CreateIndex - a.CreateIndex)
        .map(Cluster.viewDeployment),
    };
  };

  const latestDeployment = (ctx: Ctx, id: string): Reply => {
    need(ctx, ['read-job'], ctx.namespace, 'jobs.acl-read-unchecked');
    const ds = deploymentsOf(ctx, id, false).sort((a, b) => b.CreateIndex - a.CreateIndex);
    return { body: ds[0] ? Cluster.viewDeployment(ds[0]) : null };
  };

  const readSummary = (ctx: Ctx, id: string): Reply => {
    need(ctx, ['read-job'], ctx.namespace, 'jobs.acl-read-unchecked');
    return { body: store.summary(store.mustGet(ctx.namespace, id)) };
  };

  const scaleStatus = (ctx: Ctx, id: string): Reply => {
    need(ctx, ['read-job-scaling', 'read-job'], ctx.namespace, 'jobs.acl-scale-unchecked');
    const e = store.mustGet(ctx.namespace, id);
    const groups: Record<string, Job> = {};
    for (const g of e.job.TaskGroups ?? []) {
      const events = e.scaling[g.Name];
      groups[g.Name] = {
        Desired: g.Count,
        Events: events?.length ? clone(events) : null,
        Healthy: 0,
        Placed: 0,
        Running: 0,
        Unhealthy: 0,
      };
    }
    for (const a of store.allocsOf(e)) {
      const s = groups[a.TaskGroup];
      if (!s || isTerminal(a) || a.DesiredStatus !== 'run') continue;
      s.Placed += 1;
      if (a.ClientStatus === 'running') s.Running += 1;
      if (a.healthy) s.Healthy += 1;
    }
    return {
      body: {
        JobCreateIndex: e.job.CreateIndex,
        JobID: e.job.ID,
        Namespace: e.job.Namespace,
        JobModifyIndex: e.job.JobModifyIndex,
        JobStopped: e.job.Stop,
        TaskGroups: groups,
      },
    };
  };

  const services = (ctx: Ctx, id: string): Reply => {
    need(ctx, ['read-job'], ctx.namespace, 'jobs.acl-read-unchecked');
    const e = store.mustGet(ctx.namespace, id);
    const out: Job[] = [];
    for (const a of store.allocsOf(e)) {
      if (a.ClientStatus !== 'running' || a.DesiredStatus !== 'run') continue;
      const version = e.versions.find((v) => v.Version === a.JobVersion) ?? e.job;
      const g = (version.TaskGroups ?? []).find((x: Job) => x.Name === a.TaskGroup);
      if (!g) continue;
      const node = store.cluster.nodes.find((n) => n.ID === a.NodeID);
      const regs: Array<[string, Job]> = [
        ...(g.Services ?? []).map((s: Job) => [`group-${g.Name}`, s] as [string, Job]),
      ];
      for (const t of g.Tasks ?? []) for (const s of t.Services ?? []) regs.push([t.Name, s]);
      for (const [owner, s] of regs) {
        const label = String(s.PortLabel ?? '');
        const port = /^[0-9]+$/.test(label) ? Number(label) : (a.ports[label] ?? 0);
        out.push({
          ID: `_sched-task-${a.ID}-${owner}-${String(s.Name)}-${label}`,
          ServiceName: s.Name,
          Namespace: e.job.Namespace,
          NodeID: a.NodeID,
          Datacenter: node?.Datacenter ?? 'dc1',
          JobID: e.job.ID,
          AllocID: a.ID,
          Tags: s.Tags ?? null,
          Address: '127.0.0.1',
          Port: port,
          CreateIndex: a.ModifyIndex,
          ModifyIndex: a.ModifyIndex,
        });
      }
    }
    return { body: out };
  };

  const actionsOf = (job: Job): Job[] => {
    const out: Job[] = [];
    for (const g of job.TaskGroups ?? [])
      for (const t of g.Tasks ?? [])
        for (const a of t.Actions ?? []) {
          out.push({ Name: a.Name, Command: a.Command, Args: a.Args ?? null, TaskGroupName: g.Name, TaskName: t.Name });
        }
    return out;
  };

  const listActions = (ctx: Ctx, id: string): Reply => {
    need(ctx, ['read-job'], ctx.namespace, 'jobs.acl-read-unchecked');
    return { body: actionsOf(store.mustGet(ctx.namespace, id).job) };
  };

  // ---- per-job writes -----------------------------------------------------------------------------

  const stopJob = (ctx: Ctx, id: string): Reply => {
    need(ctx, ['submit-job'], ctx.namespace, 'jobs.acl-submit-unchecked');
    const purge = parseBoolParam(ctx.query, 'purge') ?? false;
    // Single region: a global stop is an ordinary stop.
    if (parseBoolParam(ctx.query, 'global') && faults.has('jobs.stop-global-rejected'))
      throw badRequest('multiregion jobs are not supported');
    const noShutdownDelay = parseBoolParam(ctx.query, 'no_shutdown_delay') ?? false;
    const evalPriority = evalPriorityOk(parseIntParam(ctx.query, 'eval_priority'));
    return { body: writeResponse(store.stop(ctx.namespace, id, { purge, noShutdownDelay, evalPriority })) };
  };

  const decodePayload = (v: unknown): Buffer => {
    if (v === undefined || v === null || v === '') return Buffer.alloc(0);
    if (typeof v !== 'string' || !/^[A-Za-z0-9+/\r\n]*={0,2}$/.test(v))
      throw badRequest('Payload must be a base64 string');
    return Buffer.from(v, 'base64');
  };

  const dispatch = (
    ctx: Ctx,
    id: string,
    payload: Buffer,
    meta: Record<string, string> | null,
    prefixTemplate: string,
  ): Reply => {
    need(ctx, ['dispatch-job'], ctx.namespace, 'jobs.acl-dispatch-unchecked');
    const e = store.get(ctx.namespace, id);
    if (!e) throw notFound('parameterized job not found');
    const parent = e.job;
    if (!isParameterized(parent) && !faults.has('jobs.dispatch-not-parameterized-accepted'))
      throw badRequest(`Specified job "${id}" is not a parameterized job`);
    if (parent.Stop) throw badRequest(`Specified job "${id}" is stopped`);
    const cfg: Job = parent.ParameterizedJob ?? { Payload: 'optional', MetaRequired: null, MetaOptional: null };
    if (cfg.Payload === 'required' && payload.length === 0 && !faults.has('jobs.dispatch-payload-required-ignored'))
      throw badRequest('Payload is not provided but required by parameterized job');
    if (cfg.Payload === 'forbidden' && payload.length > 0)
      throw badRequest('Payload provided but forbidden by parameterized job');
    if (payload.length > DISPATCH_PAYLOAD_LIMIT && !faults.has('jobs.dispatch-payload-unlimited'))
      throw badRequest(`Payload exceeds maximum size; ${payload.length} > ${DISPATCH_PAYLOAD_LIMIT}`);
    const required: string[] = cfg.MetaRequired ?? [];
    const optional: string[] = cfg.MetaOptional ?? [];
    const given = Object.keys(meta ?? {});
    const unpermitted = given.filter((k) => !required.includes(k) && !optional.includes(k));
    if (unpermitted.length && !faults.has('jobs.dispatch-meta-unpermitted-accepted'))
      throw badRequest(`Dispatch request included unpermitted metadata keys: [${unpermitted.join(' ')}]`);
    const missing = required.filter((k) => !given.includes(k));
    if (missing.length && !faults.has('jobs.dispatch-meta-required-ignored'))
      throw badRequest(`Dispatch did not provide required meta keys: [${missing.join(' ')}]`);
    const token = ctx.query.get('idempotency_token') ?? '';
    if (token && !faults.has('jobs.dispatch-idempotency-ignored')) {
      const existing = store.children(e).find((c) => c.idempotencyToken === token);
      if (existing)
        return {
          body: {
            Index: existing.job.ModifyIndex,
            JobCreateIndex: existing.job.CreateIndex,
            EvalCreateIndex: 0,
            EvalID: '',
            DispatchedJobID: existing.job.ID,
            KnownLeader: true,
            LastContact: 0,
          },
        };
    }
    const child = clone(parent);
    const secs = Math.floor(clock.now() / 1000);
    const template = faults.has('jobs.dispatch-prefix-template-ignored') ? '' : prefixTemplate;
    child.ID = `${parent.ID}/dispatch-${template ? `${template}-` : ''}${secs}-${randomUUID().slice(0, 8)}`;
    child.Name = child.ID;
    child.ParentID = parent.ID;
    child.Dispatched = true;
    child.Status = '';
    const kept = faults.has('jobs.dispatch-meta-dropped') ? null : meta;
    child.Meta = kept || parent.Meta ? { ...(parent.Meta ?? {}), ...(kept ?? {}) } : null;
    child.Payload = payload.length ? payload.toString('base64') : null;
    const r = store.register(child, { idempotencyToken: token || undefined });
    const created = store.get(ctx.namespace, child.ID)!;
    if (token) created.idempotencyToken = token;
    return {
      body: {
        Index: r.Index,
        JobCreateIndex: created.job.CreateIndex,
        EvalCreateIndex: r.EvalCreateIndex ?? 0,
        EvalID: r.EvalID ?? '',
        DispatchedJobID: child.ID,
        KnownLeader: true,
        LastContact: 0,
      },
    };
  };

  const dispatchJson = (ctx: Ctx, id: string): Reply => {
    need(ctx, ['dispatch-job'], ctx.namespace, 'jobs.acl-dispatch-unchecked');
    const body = jsonBody(ctx, { optional: true });
    const jobId = optString(body, 'JobID');
    if (jobId && jobId !== id) throw badRequest('Job ID does not match');
    return dispatch(
      ctx,
      id,
      decodePayload(body.Payload),
      stringMap(body.Meta, 'Meta'),
      optString(body, 'IdPrefixTemplate') ?? '',
    );
  };

  const revert = (ctx: Ctx, id: string): Reply => {
    need(ctx, ['submit-job'], ctx.namespace, 'jobs.acl-submit-unchecked');
    const body = jsonBody(ctx);
    const jobId = optString(body, 'JobID') ?? (faults.has('jobs.revert-jobid-optional') ? id : undefined);
    if (!jobId) throw badRequest('JobID must be specified');
    if (jobId !== id) throw badRequest('Job ID does not match');
    const jobVersion = optUint(body, 'JobVersion');
    const tagged = optString(body, 'TaggedVersion') ?? '';
    if (jobVersion !== undefined && tagged && !faults.has('jobs.revert-both-accepted'))
      throw badRequest('use only one of JobVersion or TaggedVersion');
    const enforce = optInt(body, 'EnforcePriorVersion');
    optString(body, 'DiscoveryToken');
    optString(body, 'SecretsToken');
    const e = store.get(ctx.namespace, id);
    if (!e) throw notFound(`job "${id}" not found`);
    let target: number;
    if (tagged) {
      const v = e.versions.find((x) => x.VersionTag?.Name === tagged);
      if (!v) throw notFound(`tag "${tagged}" not found on job "${id}"`);
      target = faults.has('jobs.revert-tag-ignored') ? 0 : v.Version;
    } else {
      target = jobVersion ?? 0;
    }
    if (target === e.job.Version) throw badRequest("can't revert to current version");
    if (enforce !== undefined && enforce !== e.job.Version && !faults.has('jobs.revert-enforce-prior-ignored')) {
      throw badRequest(`Current job has version ${e.job.Version}; enforcing version ${enforce}`);
    }
    const old = e.versions.find((v) => v.Version === target);
    if (!old) throw notFound(`job "${id}" in namespace "${ctx.namespace}" at version ${target} not found`);
    const job = clone(faults.has('jobs.revert-wrong-version') ? e.job : old);
    const result = store.register(job, { enforceIndex: enforce !== undefined, jobModifyIndex: e.job.JobModifyIndex });
    return { body: writeResponse(result) };
  };

  const stable = (ctx: Ctx, id: string): Reply => {
    need(ctx, ['submit-job'], ctx.namespace, 'jobs.acl-submit-unchecked');
    const body = jsonBody(ctx);
    const jobId = optString(body, 'JobID');
    if (!jobId) throw badRequest('JobID must be specified');
    if (jobId !== id) throw badRequest('Job ID does not match');
    const version = optUint(body, 'JobVersion') ?? 0;
    const value = optBool(body, 'Stable');
    const e = store.get(ctx.namespace, id);
    if (!e) throw notFound(`job "${id}" not found`);
    const v = e.versions.find((x) => x.Version === version);
    if (!v) throw notFound(`job "${id}" in namespace "${ctx.namespace}" at version ${version} not found`);
    const index = store.nextIndex();
    if (!faults.has('jobs.stable-ignored')) {
      v.Stable = value;
      if (e.job.Version === version) e.job.Stable = value;
    }
    if (faults.has('jobs.stable-replaces-job') && value && e.job.Version !== version) {
      e.job = { ...clone(v), Version: e.job.Version, JobModifyIndex: e.job.JobModifyIndex, ModifyIndex: index };
    }
    return { body: { JobModifyIndex: index, Index: index } };
  };

  const evaluate = (ctx: Ctx, id: string): Reply => {
    need(ctx, ['submit-job'], ctx.namespace, 'jobs.acl-submit-unchecked');
    if (ctx.rawBody.length > 0) {
      const body = jsonBody(ctx);
      const jobId = optString(body, 'JobID') ?? (faults.has('jobs.evaluate-jobid-optional') ? id : undefined);
      if (!jobId) throw badRequest('Job ID must be specified');
      if (jobId !== id) throw badRequest('JobID not same as job name');
      if (body.EvalOptions !== undefined && body.EvalOptions !== null) {
        if (!isObj(body.EvalOptions)) throw badRequest('EvalOptions must be an object');
        optBool(body.EvalOptions, 'ForceReschedule');
      }
    }
    const e = store.mustGet(ctx.namespace, id);
    if (isPeriodic(e.job)) throw badRequest("can't evaluate periodic job");
    if (isParameterized(e.job)) throw badRequest("can't evaluate parameterized job");
    if (faults.has('jobs.evaluate-no-eval'))
      return { body: writeResponse({ JobModifyIndex: e.job.JobModifyIndex, Index: store.index, Warnings: '' }) };
    const ev = store.createEval(e, 'job-register', e.job.Priority);
    return {
      body: writeResponse({
        EvalID: ev.ID,
        EvalCreateIndex: ev.CreateIndex,
        JobModifyIndex: e.job.JobModifyIndex,
        Index: store.index,
        Warnings: '',
      }),
    };
  };

  const plan = (ctx: Ctx, id: string): Reply => {
    const body = jsonBody(ctx);
    const job = jobFromBody(
      ctx,
      body,
      id,
      'Job must be specified',
      'Job must have a valid ID',
      'Job ID does not match',
    );
    ctx.namespace = job.Namespace;
    need(ctx, ['submit-job'], job.Namespace, 'jobs.acl-submit-unchecked');
    const policyOverride = optBool(body, 'PolicyOverride');
    needOverride(ctx, policyOverride);
    const wantDiff = optBool(body, 'Diff');
    const e = store.get(job.Namespace, job.ID);
    const old = e ? e.job : null;
    const live: Record<string, number> = {};
    if (e)
      for (const a of store.allocsOf(e))
        if (!isTerminal(a) && a.DesiredStatus === 'run') live[a.TaskGroup] = (live[a.TaskGroup] ?? 0) + 1;
    const updates = desiredUpdates(old, job, live);
    let diff = null;
    if (wantDiff && !faults.has('jobs.plan-no-diff')) {
      diff = jobDiff(old, job);
      annotate(diff, updates);
    }
    const nodes = store.cluster.eligibleNodes(job);
    let failed: Job | null = null;
    if (nodes.length === 0) {
      failed = {};
      for (const g of job.TaskGroups ?? []) {
        failed[g.Name] = {
          CoalescedFailures: Math.max(0, g.Count - 1),
          AllocationTime: 1000,
          Scores: null,
          NodesEvaluated: 0,
          NodesFiltered: store.cluster.nodes.length,
          NodesAvailable: {},
          NodesInPool: store.cluster.nodes.length,
          ClassFiltered: null,
          ConstraintFiltered: null,
          NodesExhausted: 0,
          ClassExhausted: null,
          DimensionExhausted: null,
        };
      }
    }
    let next = ZERO_TIME;
    if (isPeriodic(job) && job.Periodic.Enabled) {
      const at = store.nextLaunch(job);
      if (at !== null) next = new Date(at).toISOString();
    }
    if (faults.has('jobs.plan-registers')) store.register(clone(job));
    const index = old ? old.JobModifyIndex : 0;
    return {
      body: {
        Index: index,
        NextPeriodicLaunch: next,
        Warnings: '',
        Diff: diff,
        CreatedEvals: [],
        JobModifyIndex: index,
        FailedTGAllocs: failed,
        Annotations: faults.has('jobs.plan-no-annotations')
          ? null
          : { DesiredTGUpdates: updates, PreemptedAllocs: null },
      },
    };
  };

  const periodicForce = (ctx: Ctx, id: string): Reply => {
    need(ctx, ['dispatch-job', 'submit-job']);
    const e = store.mustGet(ctx.namespace, id);
    if (!isPeriodic(e.job) && !faults.has('jobs.periodic-force-any-job'))
      throw badRequest("can't force launch non-periodic job");
    if (e.job.Stop) throw badRequest("can't force launch a stopped job");
    if (
      faults.has('jobs.periodic-force-respects-overlap') &&
      e.job.Periodic?.ProhibitOverlap &&
      store.children(e).some((c) => store.status(c) !== 'dead')
    ) {
      throw badRequest('periodic job has a running instance and prohibits overlap');
    }
    const r = store.launchChild(e, clock.now());
    return {
      body: {
        EvalID: r.EvalID ?? '',
        EvalCreateIndex: r.EvalCreateIndex ?? 0,
        Index: r.Index,
        KnownLeader: true,
        LastContact: 0,
      },
    };
  };

  const scale = (ctx: Ctx, id: string): Reply => {
    need(ctx, ['scale-job', 'submit-job'], ctx.namespace, 'jobs.acl-scale-unchecked');
    const body = jsonBody(ctx);
    if (faults.has('jobs.scale-target-group-optional') && !(isObj(body.Target) && body.Target.Group)) {
      body.Target = {
        ...(isObj(body.Target) ? body.Target : {}),
        Group: store.get(ctx.namespace, id)?.job.TaskGroups?.[0]?.Name,
      };
    }
    if (!isObj(body.Target)) throw badRequest('missing task group name for scaling action');
    const group = body.Target.Group;
    if (typeof group !== 'string' || group === '') throw badRequest('missing task group name for scaling action');
    if (body.Target.Job !== undefined && body.Target.Job !== id)
      throw badRequest('job ID in payload did not match URL');
    const count = optInt(body, 'Count');
    if (count !== undefined && count < 0) throw badRequest("scaling action count can't be negative");
    const supplied = (v: unknown) => v !== undefined && v !== null && v !== '' && v !== false;
    if (body.Message !== undefined && body.Message !== null && typeof body.Message !== 'string')
      throw badRequest('Message must be a string');
    if (
      body.Error !== undefined &&
      body.Error !== null &&
      typeof body.Error !== 'string' &&
      typeof body.Error !== 'boolean'
    )
      throw badRequest('Error must be a string');
    if (supplied(body.Message) === supplied(body.Error) && !faults.has('jobs.scale-message-and-error'))
      throw badRequest('exactly one of Message or Error must be supplied');
    if (body.Meta !== undefined && body.Meta !== null && !isObj(body.Meta)) throw badRequest('Meta must be an object');
    const policyOverride = optBool(body, 'PolicyOverride');
    needOverride(ctx, policyOverride);
    const enforceIndex = optBool(body, 'EnforceIndex');
    const jobModifyIndex = optUint(body, 'JobModifyIndex') ?? 0;
    const e = store.get(ctx.namespace, id);
    if (!e) throw notFound(`job "${id}" not found`);
    if (e.job.Type === 'system') throw badRequest('cannot scale jobs of type "system"');
    const g = (e.job.TaskGroups ?? []).find((x: Job) => x.Name === group);
    if (!g) throw badRequest(`task group "${group}" specified for scaling does not exist in job`);
    if (isObj(g.Scaling) && count !== undefined) {
      if (typeof g.Scaling.Min === 'number' && count < g.Scaling.Min)
        throw badRequest(`group count was less than scaling policy minimum: ${count} < ${g.Scaling.Min}`);
      if (typeof g.Scaling.Max === 'number' && count > g.Scaling.Max)
        throw badRequest(`group count was greater than scaling policy maximum: ${count} > ${g.Scaling.Max}`);
    }
    const prev = g.Count;
    let result: WriteResult = { JobModifyIndex: e.job.JobModifyIndex, Index: store.index, Warnings: '' };
    if (count !== undefined) {
      const active = store.cluster.deployments.some(
        (d) => d.jobKey === e.key && d.Status === 'running' && d.JobCreateIndex === e.job.CreateIndex,
      );
      if (active && !faults.has('jobs.scale-ignores-deployment'))
        throw documented(badRequest('job scaling blocked due to active deployment'));
      if (enforceIndex && jobModifyIndex !== e.job.JobModifyIndex)
        throw badRequest(
          `Enforcing job modify index ${jobModifyIndex}: job exists with conflicting job modify index: ${e.job.JobModifyIndex}`,
        );
      const next = clone(e.job);
      if (!faults.has('jobs.scale-count-ignored')) next.TaskGroups.find((x: Job) => x.Name === group).Count = count;
      result = store.register(next, { triggeredBy: 'scaling' });
    }
    const index = store.nextIndex();
    const events = faults.has('jobs.scale-event-dropped') ? [] : (e.scaling[group] ??= []);
    events.unshift({
      Time: store.nowNs(),
      PreviousCount: prev,
      Count: count ?? null,
      Message: body.Message ?? '',
      Error: supplied(body.Error),
      Meta: body.Meta ?? null,
      EvalID: result.EvalID ?? null,
      CreateIndex: index,
    });
    events.splice(20);
    result.Index = index;
    return { body: writeResponse(result) };
  };

  const tagVersion = (ctx: Ctx, id: string, name: string): Reply => {
    need(ctx, ['submit-job'], ctx.namespace, 'jobs.acl-submit-unchecked');
    const body = jsonBody(ctx, { optional: true });
    const description = optString(body, 'Description') ?? '';
    const requested = optUint(body, 'Version');
    const e = store.get(ctx.namespace, id);
    if (!e) throw notFound(`job "${id}" not found`);
    const version = requested ?? (faults.has('jobs.tag-latest-wrong') ? 0 : e.job.Version);
    const v = e.versions.find((x) => x.Version === version);
    if (!v) throw notFound(`job "${id}" version ${version} not found`);
    const other = e.versions.find((x) => x.VersionTag?.Name === name && x.Version !== version);
    if (other && !faults.has('jobs.tag-not-unique'))
      throw badRequest(`tag "${name}" already exists on a different version of job "${id}"`);
    const tag = { Name: name, Description: description, TaggedTime: store.nowNs() };
    v.VersionTag = tag;
    if (e.job.Version === version) e.job.VersionTag = clone(tag);
    const index = store.nextIndex();
    return { body: { ...tag, Index: index, LastContact: 0, KnownLeader: true, NextToken: '' } };
  };

  const untagVersion = (ctx: Ctx, id: string, name: string): Reply => {
    need(ctx, ['submit-job'], ctx.namespace, 'jobs.acl-submit-unchecked');
    const e = store.get(ctx.namespace, id);
    if (!e) throw notFound(`job "${id}" not found`);
    const v = e.versions.find((x) => x.VersionTag?.Name === name);
    if (!v) throw notFound(`tag "${name}" not found on job "${id}"`);
    if (!faults.has('jobs.tag-delete-ignored')) {
      v.VersionTag = null;
      if (e.job.Version === v.Version) e.job.VersionTag = null;
    }
    const index = store.nextIndex();
    return {
      body: {
        EvalID: '',
        EvalCreateIndex: 0,
        JobModifyIndex: 0,
        VolumeEvalID: '',
        VolumeEvalIndex: 0,
        Index: index,
        LastContact: 0,
        KnownLeader: true,
        NextToken: '',
      },
    };
  };

  // ---- routing -----------------------------------------------------------------------------------

  const GET = (m: string) => m === 'GET';
  const WRITE = (m: string) => m === 'POST' || m === 'PUT';

  const routeJob = async (ctx: Ctx, rest: string): Promise<Reply> => {
    const m = ctx.method;
    const tag = /^(.+)\/versions\/([^/]+)\/tag$/.exec(rest);
    if (tag) {
      if (WRITE(m)) return tagVersion(ctx, tag[1]!, tag[2]!);
      if (m === 'DELETE') return untagVersion(ctx, tag[1]!, tag[2]!);
      throw methodNotAllowed();
    }
    const suffixes: Array<[string, (m: string) => boolean, (ctx: Ctx, id: string) => Reply | Promise<Reply>]> = [
      [
        '/dispatch/payload',
        WRITE,
        (c, id) =>
          dispatch(c, id, faults.has('jobs.dispatch-raw-payload-dropped') ? Buffer.alloc(0) : c.rawBody, null, ''),
      ],
      ['/evaluate', WRITE, evaluate],
      ['/allocations', GET, listAllocations],
      ['/evaluations', GET, listEvaluations],
      ['/periodic/force', WRITE, periodicForce],
      ['/plan', WRITE, plan],
      ['/summary', GET, readSummary],
      ['/dispatch', WRITE, dispatchJson],
      ['/versions', GET, listVersions],
      ['/revert', WRITE, revert],
      ['/deployments', GET, listDeployments],
      ['/deployment', GET, latestDeployment],
      ['/stable', WRITE, stable],
      ['/services', GET, services],
      ['/submission', GET, readSubmission],
      ['/actions', GET, listActions],
    ];
    for (const [suffix, allowed, fn] of suffixes) {
      if (rest.endsWith(suffix) && rest.length > suffix.length) {
        if (!allowed(m)) throw methodNotAllowed();
        return fn(ctx, rest.slice(0, -suffix.length));
      }
    }
    if (rest.endsWith('/scale') && rest.length > 6) {
      const id = rest.slice(0, -6);
      if (GET(m)) return scaleStatus(ctx, id);
      if (WRITE(m)) return scale(ctx, id);
      throw methodNotAllowed();
    }
    if (rest.endsWith('/action') && rest.length > 7) throw badRequest('the action endpoint needs a WebSocket upgrade');
    if (GET(m)) return readJob(ctx, rest);
    if (WRITE(m)) return register(ctx, rest);
    if (m === 'DELETE') return stopJob(ctx, rest);
    throw methodNotAllowed();
  };

  const control = async (ctx: Ctx, path: string): Promise<Reply> => {
    if (ctx.method === 'DELETE' && path.startsWith('/v1/reference/acl/tokens/')) {
      if (aclEnabled && ctx.token?.Type !== 'management') throw forbidden();
      if (!acl.revoke(decodeURIComponent(path.slice('/v1/reference/acl/tokens/'.length))))
        throw notFound('token not found');
      return { body: {} };
    }
    if (!WRITE(ctx.method)) throw methodNotAllowed();
    if (path === '/v1/reference/clock') {
      const body = jsonBody(ctx);
      const s = body.advance;
      if (typeof s !== 'number' || !Number.isFinite(s) || s < 0)
        throw badRequest('advance must be a non-negative number of seconds');
      // Checked before moving: a refused move leaves the time as it was.
      const problem = advanceProblem(clock.now(), s * 1000);
      if (problem) throw badRequest(problem);
      await clock.advance(s * 1000);
      return { body: { now: clock.now() } };
    }
    if (aclEnabled && ctx.token?.Type !== 'management') throw forbidden();
    if (path === '/v1/reference/acl/tokens') return { body: acl.create(jsonBody(ctx)) };
    if (path === '/v1/reference/gc' || path === '/v1/system/gc') {
      // Variant: the real scheduler only queues a forced collection; it happens after the answer.
      if (variants.has(QUEUED_GC)) {
        clock.at(clock.now() + QUEUED_GC_DELAY_MS, () => {
          store.gc();
        });
        return { body: {} };
      }
      return { body: { Removed: store.gc() } };
    }
    throw notFound('Invalid URL');
  };

  const route = async (ctx: Ctx, path: string): Promise<Reply> => {
    if (path === '/v1/jobs') {
      if (GET(ctx.method)) return listJobs(ctx);
      if (WRITE(ctx.method)) return register(ctx, '');
      throw methodNotAllowed();
    }
    if (path === '/v1/validate/job') {
      // The real scheduler's validation endpoint (not in the jobs document): the registration
      // checks without registering; refusals come back as ValidationErrors in a 200.
      if (!WRITE(ctx.method)) throw methodNotAllowed();
      const body = jsonBody(ctx);
      try {
        jobFromBody(
          ctx,
          body,
          '',
          'Job must be specified',
          "Job ID hasn't been provided",
          'Job ID does not match name',
        );
        return { body: { DriverConfigValidated: false, ValidationErrors: [], Error: '', Warnings: '' } };
      } catch (err) {
        if (!(err instanceof SchedError) || err.status !== 400) throw err;
        return {
          body: { DriverConfigValidated: false, ValidationErrors: [err.message], Error: err.message, Warnings: '' },
        };
      }
    }
    if (path === '/v1/jobs/parse') {
      if (!WRITE(ctx.method)) throw methodNotAllowed();
      return parseHcl(ctx);
    }
    if (path.startsWith('/v1/job/') && path.length > '/v1/job/'.length)
      return routeJob(ctx, path.slice('/v1/job/'.length));
    if (path.startsWith('/v1/reference/') || path === '/v1/system/gc') return control(ctx, path);
    throw notFound('Invalid URL');
  };

  const readBody = (req: IncomingMessage): Promise<Buffer> =>
    new Promise((resolve, reject) => {
      const chunks: Buffer[] = [];
      let size = 0;
      const timer = setTimeout(() => {
        reject(new SchedError(408, 'request body timed out'));
        req.destroy();
      }, BODY_TIMEOUT_MS);
      req.on('data', (c: Buffer) => {
        size += c.length;
        if (size > MAX_BODY) {
          clearTimeout(timer);
          reject(new SchedError(413, 'request body too large'));
          req.destroy();
          return;
        }
        chunks.push(c);
      });
      req.on('end', () => {
        clearTimeout(timer);
        resolve(Buffer.concat(chunks));
      });
      req.on('error', (err) => {
        clearTimeout(timer);
        reject(err);
      });
    });

  /** Blocking query: with ?index=N wait (at most `wait`, capped) until the state index passes N. */
  const block = async (query: URLSearchParams): Promise<void> => {
    const raw = query.get('index');
    if (!raw || !/^[0-9]+$/.test(raw)) return;
    const target = Number(raw);
    if (store.index > target) return;
    const waitText = query.get('wait');
    let waitMs = 5000;
    if (waitText) {
      const m = /^([0-9]+)(ms|s|m)?$/.exec(waitText);
      if (!m) throw badRequest(`Invalid wait time ${JSON.stringify(waitText)}`);
      waitMs = Number(m[1]) * (m[2] === 'ms' ? 1 : m[2] === 'm' ? 60000 : 1000);
    }
    waitMs = Math.min(waitMs, MAX_BLOCK_MS);
    await new Promise<void>((resolve) => {
      const done = () => {
        if (store.index > target) finish();
      };
      const finish = () => {
        clearTimeout(timer);
        store.events.off('change', done);
        resolve();
      };
      const timer = setTimeout(finish, waitMs);
      store.events.on('change', done);
    });
  };

  const send = (
    res: ServerResponse,
    status: number,
    body: string,
    contentType: string,
    headers: Record<string, string> = {},
  ) => {
    if (res.headersSent) return;
    res.writeHead(status, {
      'Content-Type': contentType,
      'Content-Length': Buffer.byteLength(body),
      'X-Sched-Index': String(store.index),
      'X-Sched-KnownLeader': 'true',
      'X-Sched-LastContact': '0',
      ...headers,
    });
    res.end(body);
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    try {
      const url = new URL(req.url ?? '/', 'http://scheduler');
      let path: string;
      try {
        path = decodeURIComponent(url.pathname);
      } catch {
        throw badRequest('malformed URL path');
      }
      const rawBody = await readBody(req);
      const namespace = url.searchParams.get('namespace') || 'default';
      const ctx: Ctx = {
        req,
        res,
        method: req.method ?? 'GET',
        query: url.searchParams,
        namespace,
        token: resolveToken(req.headers),
        rawBody,
      };
      if (ctx.method === 'GET') await block(url.searchParams);
      const reply = await route(ctx, path);
      send(
        res,
        reply.status ?? 200,
        JSON.stringify(reply.body ?? null),
        faults.has('jobs.json-content-type-missing') ? 'text/plain; charset=utf-8' : 'application/json',
        reply.headers,
      );
    } catch (err) {
      if (err instanceof SchedError) {
        let status = err.status === 403 && faults.has('jobs.acl-denied-401') ? 401 : err.status;
        // Variant: the real scheduler refuses most rule violations with 500 and the message.
        if (status === 400 && !err.documented && variants.has(REFUSALS_500)) status = 500;
        send(res, status, err.message, 'text/plain; charset=utf-8');
      } else {
        console.error('[scheduler] unexpected error:', (err as Error).message);
        send(res, 500, 'internal error', 'text/plain; charset=utf-8');
      }
    }
  };

  // ---- the action WebSocket ------------------------------------------------------------------------

  const rejectUpgrade = (socket: Duplex, status: number, message: string) => {
    const reason =
      ({ 400: 'Bad Request', 403: 'Forbidden', 404: 'Not Found', 405: 'Method Not Allowed' } as Record<number, string>)[
        status
      ] ?? 'Error';
    socket.end(
      `HTTP/1.1 ${status} ${reason}\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(message)}\r\nConnection: close\r\n\r\n${message}`,
    );
  };

  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy());
    try {
      const url = new URL(req.url ?? '/', 'http://scheduler');
      let path: string;
      try {
        path = decodeURIComponent(url.pathname);
      } catch {
        throw badRequest('malformed URL path');
      }
      if (!path.startsWith('/v1/job/') || !path.endsWith('/action')) throw notFound('Invalid URL');
      const id = path.slice('/v1/job/'.length, -'/action'.length);
      const q = url.searchParams;
      const namespace = q.get('namespace') || 'default';
      const actionName = q.get('action') ?? '';
      const allocId = q.get('alloc_id') ?? q.get('allocID') ?? '';
      let taskName = q.get('task') ?? '';
      if (!actionName) throw badRequest('missing action name');
      if (!allocId) throw badRequest('missing allocation ID');
      if (!taskName && !faults.has('jobs.action-task-optional')) throw badRequest('missing task name');
      const tty = parseBoolParam(q, 'tty') ?? false;
      const handshake = parseBoolParam(q, 'ws_handshake') ?? false;
      // Drivers without file system isolation (raw_exec) also need alloc-node-exec.
      let unisolated = false;
      const authorize = (token: AclToken | null) => {
        if (!aclEnabled || faults.has('jobs.acl-alloc-exec-unchecked')) return;
        if (!acl.allows(token, namespace, 'alloc-exec')) throw forbidden();
        if (unisolated && !acl.allows(token, namespace, 'alloc-node-exec')) throw forbidden();
      };
      const e = store.get(namespace, id);
      if (!e) throw notFound('job not found');
      const alloc = store.allocsOf(e, true).find((a) => a.ID === allocId);
      if (!alloc) throw notFound(`allocation ${allocId} not found for job "${id}"`);
      if (alloc.ClientStatus !== 'running') throw badRequest(`allocation ${allocId} is not running`);
      const version = e.versions.find((v) => v.Version === alloc.JobVersion) ?? e.job;
      if (!taskName && faults.has('jobs.action-task-optional'))
        taskName = actionsOf(version).find((a) => a.Name === actionName)?.TaskName ?? '';
      const action = actionsOf(version).find(
        (a) => a.Name === actionName && a.TaskName === taskName && a.TaskGroupName === alloc.TaskGroup,
      );
      if (!action) throw notFound(`action "${actionName}" not found in task "${taskName}"`);
      const driver = (version.TaskGroups ?? [])
        .find((g: Job) => g.Name === alloc.TaskGroup)
        ?.Tasks?.find((t: Job) => t.Name === taskName)?.Driver;
      unisolated = driver === 'raw_exec';
      if (!handshake) authorize(resolveToken(req.headers));
      streams.upgrade(req, socket, head, {
        command: action.Command,
        args: action.Args ?? [],
        tty,
        handshake,
        authorize: (secret) => {
          if (!aclEnabled) return;
          const t = acl.lookup(secret);
          if (!t) throw forbidden('ACL token not found');
          authorize(t);
        },
      });
    } catch (err) {
      if (err instanceof SchedError) rejectUpgrade(socket, err.status, err.message);
      else {
        console.error('[scheduler] upgrade failed:', (err as Error).message);
        rejectUpgrade(socket, 500, 'internal error');
      }
    }
  };

  const server = http.createServer((req, res) => void handle(req, res));
  server.requestTimeout = 30_000;
  server.headersTimeout = 15_000;
  server.keepAliveTimeout = 5_000;
  server.on('upgrade', onUpgrade);
  server.on('clientError', (_err, socket) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
    else socket.destroy();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;

  const controlApi: SchedulerControl = {
    store,
    acl,
    advance: (ms) => clock.advance(ms),
    createToken: (input) => acl.create(input),
    gc: () => store.gc(),
  };

  return {
    addr: `http://${host}:${address.port}`,
    control: controlApi,
    close: async () => {
      for (const e of store.jobs.values()) e.cancelPeriodic?.();
      streams.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
