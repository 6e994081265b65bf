/**
 * What a job runs: allocations, evaluations, deployments, summary, services and actions
 * (jobs-service.md List job allocations, evaluations, deployments, Read job summary, ...).
 */
import { type Ctx, parseBoolParam, type Reply, stripEval } from '../http.js';
import type { Job } from '../job.js';
import type { Route } from '../router.js';
import { Cluster } from '../sim.js';
import { keyOf } from '../store.js';
import { jobSummary } from '../summary.js';
import { actionsOf, type Deps } from './deps.js';

export function allocationRoutes(d: Deps): Route[] {
  const { store, rules } = d;

  const listAllocations = (ctx: Ctx, id: string): Reply => {
    const all = rules.allocationsAllRequested(parseBoolParam(ctx.query, 'all')) && rules.allocationsAllHonoured;
    const e = store.get(ctx.namespace, id);
    const key = keyOf(ctx.namespace, id);
    const allocs = store.cluster.allocs.filter(
      (a) => a.jobKey === key && (all || !e || a.JobCreateIndex === e.job.CreateIndex),
    );
    return { body: allocs.map(Cluster.view) };
  };

  const listEvaluations = (ctx: Ctx, id: string): Reply => {
    const key = keyOf(ctx.namespace, id);
    return { body: store.evals.filter((ev) => ev.jobKey === key).map(stripEval) };
  };

  const deploymentsOf = (ctx: Ctx, id: string, all: boolean): Job[] => {
    const e = store.get(ctx.namespace, id);
    const key = keyOf(ctx.namespace, id);
    return store.cluster.deployments.filter(
      (x) => x.jobKey === key && (all || (e !== undefined && x.JobCreateIndex === e.job.CreateIndex)),
    );
  };

  const listDeployments = (ctx: Ctx, id: string): Reply => {
    const all = (parseBoolParam(ctx.query, 'all') ?? false) && rules.deploymentsAllHonoured;
    return {
      body: deploymentsOf(ctx, id, all)
        .sort((a, b) => b.CreateIndex - a.CreateIndex)
        .map(Cluster.viewDeployment),
    };
  };

  const latestDeployment = (ctx: Ctx, id: string): Reply => {
    const newestFirst = rules.latestDeploymentIsNewest ? -1 : 1;
    const ds = deploymentsOf(ctx, id, false).sort((a, b) => newestFirst * (a.CreateIndex - b.CreateIndex));
    return { body: ds[0] ? Cluster.viewDeployment(ds[0]) : null };
  };

  const readSummary = (ctx: Ctx, id: string): Reply => ({ body: jobSummary(store, store.mustGet(ctx.namespace, id)) });

  const services = (ctx: Ctx, id: string): Reply => {
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

  const listActions = (ctx: Ctx, id: string): Reply => ({ body: actionsOf(store.mustGet(ctx.namespace, id).job) });

  const read = (path: string, handle: (ctx: Ctx, id: string) => Reply): Route => ({
    method: 'GET',
    path: `/v1/job/*id/${path}`,
    acl: 'read-job',
    handle: (ctx, r) => handle(ctx, r.params.id!),
  });

  return [
    read('allocations', listAllocations),
    read('evaluations', listEvaluations),
    read('summary', readSummary),
    read('deployments', listDeployments),
    read('deployment', latestDeployment),
    read('services', services),
    read('actions', listActions),
  ];
}
