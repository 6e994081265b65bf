/**
 * What an evaluation of the reference scheduler is and does: its record (the fields the API shows),
 * and the placement it makes when processed (reconcile): the job's allocations brought to its
 * current definition on the simulated cluster (sim.ts), what does not fit left queued in a
 * blocked evaluation, as the real scheduler does.
 */
import { rescheduleAllowed } from './reschedule.js';
import { clone, isParameterized, isPeriodic, type Job } from './job.js';
import { isTerminal } from './sim.js';
import type { Entry, Store } from './store.js';

/** A new pending evaluation of the job of `e`. */
export function evaluation(
  e: Entry,
  at: { id: string; index: number; now: number },
  of: { triggeredBy: string; priority: number; deploymentID: string },
): Job {
  return {
    ID: at.id,
    Namespace: e.job.Namespace,
    Priority: of.priority,
    Type: e.job.Type,
    TriggeredBy: of.triggeredBy,
    JobID: e.job.ID,
    JobModifyIndex: e.job.JobModifyIndex,
    NodeID: '',
    NodeModifyIndex: 0,
    DeploymentID: of.deploymentID,
    Status: 'pending',
    StatusDescription: '',
    Wait: 0,
    WaitUntil: null,
    NextEval: '',
    PreviousEval: '',
    BlockedEval: '',
    RelatedEvals: null,
    FailedTGAllocs: null,
    ClassEligibility: null,
    EscapedComputedClass: false,
    AnnotatePlan: false,
    QueuedAllocations: null,
    LeaderACL: '',
    SnapshotIndex: at.index,
    CreateIndex: at.index,
    ModifyIndex: at.index,
    CreateTime: at.now,
    ModifyTime: at.now,
    jobKey: e.key,
    JobCreateIndex: e.job.CreateIndex,
  };
}

/** Brings the allocations of a job to its current definition; fills the eval's outcome. */
export function reconcile(store: Store, e: Entry, ev: Job, deploymentID: string, shutdownDelay?: number): void {
  const job = e.job;
  const live = store.allocsOf(e).filter((a) => a.DesiredStatus === 'run');
  const queued: Record<string, number> = {};
  const failed: Record<string, Job> = {};
  if (job.Stop || isPeriodic(job) || isParameterized(job)) {
    for (const a of live)
      store.cluster.stop(a, 'alloc is being stopped by the job', shutdownDelay ?? shutdownDelayMs(job, a.TaskGroup));
  } else {
    const nodes = store.cluster.eligibleNodes(job);
    const batch = job.Type === 'batch' || job.Type === 'sysbatch';
    for (const g of job.TaskGroups ?? []) {
      const system = job.Type === 'system' || job.Type === 'sysbatch';
      const desired = system ? nodes.length : Number(g.Count);
      let mine = live.filter(
        (a) => a.TaskGroup === g.Name && (!isTerminal(a) || (batch && a.ClientStatus === 'complete')),
      );
      // A failed allocation holds its place unless its ReschedulePolicy lets it be replaced now or
      // the evaluation forces it (reschedule.ts); a replacement is linked to it.
      const failedHere = live.filter((a) => a.TaskGroup === g.Name && a.ClientStatus === 'failed' && !a.NextAllocation);
      const replacing = failedHere.filter((a) =>
        a.forceReschedule === true
          ? rescheduleAllowed(a, g, store.nowNs() / 1_000_000, {
              delay: !store.rules.forceRescheduleOverridesDelays,
              limit: !store.rules.forceRescheduleOverridesLimits,
            })
          : rescheduleAllowed(a, g, store.nowNs() / 1_000_000),
      );
      for (const a of failedHere) delete a.forceReschedule;
      for (const a of [...mine]) {
        if (a.JobVersion === job.Version) {
          // A later evaluation of the same version may own the deployment now: its allocations join it.
          if (deploymentID && !isTerminal(a)) store.cluster.adopt(a, deploymentID);
          continue;
        }
        const oldGroup = e.versions
          .find((v) => v.Version === a.JobVersion)
          ?.TaskGroups?.find((x: Job) => x.Name === g.Name);
        if (store.cluster.tasksChanged(oldGroup, g) && !(batch && a.ClientStatus === 'complete')) {
          store.cluster.stop(a, 'alloc is being updated due to job update', shutdownDelayMs(job, g.Name));
          mine = mine.filter((x) => x !== a);
        } else {
          a.JobVersion = job.Version;
          if (deploymentID && !isTerminal(a)) store.cluster.adopt(a, deploymentID);
        }
      }
      mine = [...mine, ...failedHere.filter((a) => !replacing.includes(a))];
      if (mine.length > desired) {
        const extra = [...mine]
          .sort((x, y) => y.Name.localeCompare(x.Name, undefined, { numeric: true }))
          .slice(0, mine.length - desired);
        for (const a of extra)
          store.cluster.stop(a, 'alloc not needed due to job update', shutdownDelayMs(job, g.Name));
        mine = mine.filter((a) => !extra.includes(a));
      }
      const missing = desired - mine.length;
      if (missing > 0 && nodes.length === 0) {
        queued[g.Name] = missing;
        failed[g.Name] = {
          CoalescedFailures: missing - 1,
          AllocationTime: 1000,
          Scores: null,
          NodesEvaluated: 0,
          NodesFiltered: store.cluster.nodes.length,
          NodesAvailable: {},
          NodesInPool: store.cluster.nodes.length,
          ClassFiltered: null,
          ConstraintFiltered: { '${node.datacenter}': store.cluster.nodes.length },
          NodesExhausted: 0,
          ClassExhausted: null,
          DimensionExhausted: null,
          QuotaExhausted: null,
          ResourcesExhausted: null,
        };
      } else if (missing > 0) {
        const used = new Set(mine.map((a) => Number(/\[(\d+)\]$/.exec(a.Name)?.[1] ?? -1)));
        let idx = 0;
        // The simulated nodes have finite room, as real ones do: what does not fit stays queued
        // (a count of millions must not make the reference place millions of allocations).
        const fits = store.rules.placesAllocations ? Math.min(missing, store.cluster.freeSlots()) : 0;
        if (fits < missing) {
          queued[g.Name] = missing - fits;
          failed[g.Name] = {
            CoalescedFailures: missing - fits - 1,
            AllocationTime: 1000,
            Scores: null,
            NodesEvaluated: nodes.length,
            NodesFiltered: 0,
            NodesAvailable: {},
            NodesInPool: store.cluster.nodes.length,
            ClassFiltered: null,
            ConstraintFiltered: null,
            NodesExhausted: nodes.length,
            ClassExhausted: null,
            DimensionExhausted: { memory: nodes.length },
            QuotaExhausted: null,
            ResourcesExhausted: null,
          };
        }
        for (let k = 0; k < fits; k++) {
          // A replacement takes the name index of the allocation it replaces.
          const previous = replacing[k];
          let at = previous ? Number(/\[(\d+)\]$/.exec(previous.Name)?.[1] ?? -1) : -1;
          if (at < 0 || used.has(at)) {
            while (used.has(idx)) idx++;
            at = idx;
          }
          used.add(at);
          const node = system ? nodes[k % nodes.length]! : nodes[at % nodes.length]!;
          store.cluster.place(e.key, job, g, at, node, ev.ID, deploymentID, previous);
        }
        queued[g.Name] ??= 0;
      } else {
        queued[g.Name] = 0;
      }
    }
    for (const a of live) {
      if (!(job.TaskGroups ?? []).some((g: Job) => g.Name === a.TaskGroup))
        store.cluster.stop(a, 'alloc not needed as task group was removed', 0);
    }
  }
  ev.QueuedAllocations = queued;
  ev.Status = 'complete';
  ev.ModifyIndex = store.nextIndex();
  ev.ModifyTime = store.nowNs();
  if (Object.keys(failed).length) {
    ev.FailedTGAllocs = failed;
    const blockedIndex = store.nextIndex();
    const blocked: Job = {
      ...clone(ev),
      ID: store.rules.newId('evaluation'),
      Status: 'blocked',
      StatusDescription: 'created to place remaining allocations',
      TriggeredBy: 'queued-allocs',
      PreviousEval: ev.ID,
      FailedTGAllocs: null,
      ClassEligibility: {},
      QueuedAllocations: queued,
      CreateIndex: blockedIndex,
      ModifyIndex: blockedIndex,
    };
    ev.BlockedEval = blocked.ID;
    store.evals.push(blocked);
  }
  store.cluster.checkDeployments();
}

/** A group's shutdown_delay (the longest of group and tasks), in clock milliseconds. */
export function shutdownDelayMs(job: Job, group: string): number {
  const g = (job.TaskGroups ?? []).find((x: Job) => x.Name === group);
  if (!g) return 0;
  const ns = Math.max(Number(g.ShutdownDelay ?? 0), ...(g.Tasks ?? []).map((t: Job) => Number(t.ShutdownDelay ?? 0)));
  return Math.ceil(ns / 1e6);
}

/**
 * The blocked evaluation a plan's scheduler would create for what it cannot place (the plan lists
 * it in CreatedEvals; nothing is stored: a plan is a dry run).
 */
export function blockedEvalOf(job: Job, now: number, id: string, jobModifyIndex: number): Job {
  return {
    ID: id,
    Namespace: job.Namespace,
    Priority: job.Priority,
    Type: job.Type,
    TriggeredBy: 'queued-allocs',
    JobID: job.ID,
    JobModifyIndex: jobModifyIndex,
    NodeID: '',
    NodeModifyIndex: 0,
    Status: 'blocked',
    StatusDescription: 'created to place remaining allocations',
    Wait: 0,
    NextEval: '',
    PreviousEval: '',
    BlockedEval: '',
    FailedTGAllocs: null,
    ClassEligibility: {},
    EscapedComputedClass: false,
    AnnotatePlan: false,
    QueuedAllocations: null,
    SnapshotIndex: 0,
    CreateIndex: 0,
    ModifyIndex: 0,
    CreateTime: now,
    ModifyTime: now,
  };
}
