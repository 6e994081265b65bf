/**
 * Scheduling a job: evaluate, plan, force a periodic instance, scale (jobs-service.md Create job
 * evaluation, Plan job, Force periodic instance, Read job scale status, Scale task group).
 */
import { annotate, desiredUpdates, jobDiff } from '../diff.js';
import { blockedEvalOf } from '../evaluation.js';
import { badRequest, documented, notFound } from '../errors.js';
import { type Ctx, optBool, optInt, optString, optUint, type Reply, writeResponse } from '../http.js';
import { clone, isObj, isParameterized, isPeriodic, type Job } from '../job.js';
import type { Route } from '../router.js';
import { nextLaunch } from '../periodic.js';
import { isTerminal } from '../sim.js';
import type { WriteResult } from '../store.js';
import { type Deps, jobFromBody } from './deps.js';

const ZERO_TIME = '0001-01-01T00:00:00Z';

export function schedulingRoutes(d: Deps): Route[] {
  const { store, rules, guard, clock } = d;
  const planJob = jobFromBody(
    rules,
    { missingJob: 'Job must be specified', missingId: 'Job must have a valid ID', mismatch: 'Job ID does not match' },
    store.delays.defaultMinHealthyMs,
  );

  const evaluate = (ctx: Ctx, id: string, body: Job): Reply => {
    if (ctx.rawBody.length > 0 && !rules.evaluateTakesJson) throw badRequest('the evaluate endpoint takes no body');
    let forceReschedule = rules.forceRescheduleDefault;
    let given: boolean | undefined;
    if (ctx.rawBody.length > 0) {
      const jobId = optString(body, 'JobID') ?? (rules.evaluateJobIdRequired ? undefined : id);
      if (!jobId) throw badRequest('Job ID must be specified');
      if (jobId !== id) throw badRequest('JobID not same as job name');
      if (body.EvalOptions !== undefined && body.EvalOptions !== null) {
        if (!isObj(body.EvalOptions)) throw badRequest('EvalOptions must be an object');
        if (body.EvalOptions.ForceReschedule != null) {
          given = optBool(body.EvalOptions, 'ForceReschedule');
          forceReschedule = given || !rules.forceRescheduleFalseHonoured;
        }
      }
    }
    forceReschedule = rules.forceRescheduleApplied(forceReschedule, given);
    const e = store.mustGet(ctx.namespace, id);
    if (isPeriodic(e.job)) throw badRequest("can't evaluate periodic job");
    if (isParameterized(e.job)) throw badRequest("can't evaluate parameterized job");
    // The evaluation replaces the job's failed allocations whatever their reschedule policy says.
    if (forceReschedule && rules.forceRescheduleHonoured)
      for (const a of store.allocsOf(e)) if (a.ClientStatus === 'failed' && !a.NextAllocation) a.forceReschedule = true;
    if (!rules.evaluateCreatesEval)
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

  const plan = (ctx: Ctx, body: Job, job: Job): Reply => {
    if (optBool(body, 'PolicyOverride') && rules.policyOverrideChecked('plan'))
      guard.check(ctx, 'POST /v1/job/:job_id/plan', 'policy-override');
    const wantDiff = body.Diff === undefined || body.Diff === null ? rules.planDiffDefault : optBool(body, 'Diff');
    const e = store.get(job.Namespace, job.ID);
    const old = e ? e.job : null;
    const live: Record<string, number> = {};
    if (e)
      for (const a of store.allocsOf(e))
        if (!isTerminal(a) && a.DesiredStatus === 'run') live[a.TaskGroup] = (live[a.TaskGroup] ?? 0) + 1;
    const updates = desiredUpdates(old, job, live);
    let diff = null;
    if (wantDiff && rules.planDiff) {
      diff = jobDiff(old, job);
      annotate(diff, updates);
    }
    const nodes = store.cluster.eligibleNodes(job);
    let failed: Job | null = null;
    const created: Job[] = [];
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
    // The scheduler would leave what it cannot place to a blocked evaluation: the plan lists it.
    if (failed) created.push(blockedEvalOf(job, store.nowNs(), rules.newId('evaluation'), old?.JobModifyIndex ?? 0));
    let next = ZERO_TIME;
    if (isPeriodic(job) && job.Periodic.Enabled) {
      const at = nextLaunch(clock, job);
      if (at !== null) next = new Date(at).toISOString();
    }
    if (!rules.planDryRun) store.register(clone(job));
    const index = old ? old.JobModifyIndex : 0;
    return {
      body: {
        Index: index,
        NextPeriodicLaunch: next,
        Warnings: '',
        Diff: diff,
        CreatedEvals: rules.planCreatedEvals(created),
        JobModifyIndex: index,
        FailedTGAllocs: failed,
        Annotations: rules.planAnnotations ? { DesiredTGUpdates: updates, PreemptedAllocs: null } : null,
      },
    };
  };

  const periodicForce = (ctx: Ctx, id: string): Reply => {
    if (ctx.rawBody.length === 0 && !rules.periodicForcePathOnly) throw badRequest('Request body is empty');
    const e = store.mustGet(ctx.namespace, id);
    if (!isPeriodic(e.job) && rules.forceNeedsPeriodic) throw badRequest("can't force launch non-periodic job");
    if (e.job.Stop) throw badRequest("can't force launch a stopped job");
    if (
      !rules.forceIgnoresOverlap &&
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

  const scaleStatus = (ctx: Ctx, id: string): Reply => {
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

  const scale = (ctx: Ctx, id: string, body: Job): Reply => {
    if (!rules.scaleTargetGroupRequired && !(isObj(body.Target) && body.Target.Group)) {
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
    if (!rules.scaleAccepts(supplied(body.Message), supplied(body.Error)) && rules.scaleMessageXorError)
      throw badRequest('exactly one of Message or Error must be supplied');
    if (typeof body.Message === 'string' && !rules.scaleMessageOk(body.Message))
      throw badRequest('Message holds characters the scheduler does not take');
    if (body.Meta !== undefined && body.Meta !== null && !isObj(body.Meta)) throw badRequest('Meta must be an object');
    if (optBool(body, 'PolicyOverride') && rules.policyOverrideChecked('scale'))
      guard.check(ctx, 'POST /v1/job/:job_id/scale', 'policy-override');
    const enforceIndex = optBool(body, 'EnforceIndex') && rules.scaleEnforcesIndex;
    const e = store.get(ctx.namespace, id);
    if (!e) throw notFound(`job "${id}" not found`);
    const given = optUint(body, 'JobModifyIndex');
    const jobModifyIndex =
      (rules.scaleReadsJobModifyIndex ? given : undefined) ?? rules.scaleJobModifyIndexDefault(e.job.JobModifyIndex);
    if (e.job.Type === 'system') throw badRequest('cannot scale jobs of type "system"');
    const g = (e.job.TaskGroups ?? []).find((x: Job) => x.Name === group);
    if (!g) {
      if (rules.scaleUnknownGroupRefused)
        throw badRequest(`task group "${group}" specified for scaling does not exist in job`);
      return { body: writeResponse({ JobModifyIndex: e.job.JobModifyIndex, Index: store.index, Warnings: '' }) };
    }
    if (isObj(g.Scaling) && count !== undefined) {
      if (typeof g.Scaling.Min === 'number' && count < g.Scaling.Min)
        throw badRequest(`group count was less than scaling policy minimum: ${count} < ${g.Scaling.Min}`);
      if (typeof g.Scaling.Max === 'number' && count > g.Scaling.Max)
        throw badRequest(`group count was greater than scaling policy maximum: ${count} > ${g.Scaling.Max}`);
    }
    const prev = g.Count;
    let result: WriteResult = { JobModifyIndex: e.job.JobModifyIndex, Index: store.index, Warnings: '' };
    if (count !== undefined || !rules.scaleWithoutCountKeepsCount) {
      const active = store.cluster.deployments.some(
        (x) => x.jobKey === e.key && x.Status === 'running' && x.JobCreateIndex === e.job.CreateIndex,
      );
      if (active && rules.scaleBlockedByDeployment)
        throw documented(badRequest('job scaling blocked due to active deployment'));
      if (enforceIndex && jobModifyIndex !== e.job.JobModifyIndex)
        throw badRequest(
          `Enforcing job modify index ${jobModifyIndex}: job exists with conflicting job modify index: ${e.job.JobModifyIndex}`,
        );
      const next = clone(e.job);
      if (rules.scaleSetsCount) next.TaskGroups.find((x: Job) => x.Name === group).Count = count ?? 0;
      result = store.register(next, { triggeredBy: 'scaling' });
    }
    const index = store.nextIndex();
    const events = rules.scaleRecordsEvent ? (e.scaling[group] ??= []) : [];
    events.unshift({
      Time: store.nowNs(),
      PreviousCount: prev,
      Count: count ?? null,
      Message: body.Message ?? '',
      Error: supplied(body.Error),
      Meta: rules.scaleEventKeepsMeta ? (body.Meta ?? null) : null,
      EvalID: result.EvalID ?? null,
      CreateIndex: index,
    });
    events.splice(20);
    result.Index = index;
    return { body: writeResponse(result) };
  };

  return [
    {
      method: 'WRITE',
      path: '/v1/job/*id/evaluate',
      acl: 'submit-job',
      body: 'optional-json',
      handle: (ctx, r) => evaluate(ctx, r.params.id!, r.body),
    },
    {
      method: 'WRITE',
      path: '/v1/job/*id/plan',
      body: 'json',
      job: (ctx, body, params) => {
        // A plan without Job that a broken scheduler takes (rules.planNeedsJob): the registered job.
        const registered = store.get(ctx.namespace, params.id!);
        if (!isObj(body.Job) && !rules.planNeedsJob && registered) body.Job = clone(registered.job);
        return planJob(ctx, body, params.id!);
      },
      acl: 'submit-job',
      handle: (ctx, r) => plan(ctx, r.body, r.job),
    },
    {
      method: 'WRITE',
      path: '/v1/job/*id/periodic/force',
      acl: 'force-periodic',
      handle: (ctx, r) => periodicForce(ctx, r.params.id!),
    },
    {
      method: 'GET',
      path: '/v1/job/*id/scale',
      acl: 'read-job-scaling',
      handle: (ctx, r) => scaleStatus(ctx, r.params.id!),
    },
    {
      method: 'WRITE',
      path: '/v1/job/*id/scale',
      acl: 'scale-job',
      body: 'json',
      handle: (ctx, r) => scale(ctx, r.params.id!, r.body),
    },
  ];
}
