/**
 * A job's summary (jobs-service.md Read job summary): its allocations counted by group and client
 * status, allocations still queued in blocked evaluations, and its children (dispatched and
 * periodic instances) by status.
 */
import type { Job } from './job.js';
import type { Entry, Store } from './store.js';

export function jobSummary(store: Store, e: Entry): Job {
  const groups: Record<string, Job> = {};
  for (const g of e.job.TaskGroups ?? [])
    groups[g.Name] = { Queued: 0, Complete: 0, Failed: 0, Running: 0, Starting: 0, Lost: 0, Unknown: 0 };
  for (const a of store.allocsOf(e)) {
    const s = groups[a.TaskGroup];
    if (!s) continue;
    if (a.ClientStatus === 'pending') s.Starting += 1;
    else if (a.ClientStatus === 'running') s.Running += 1;
    else if (a.ClientStatus === 'complete') s.Complete += 1;
    else if (a.ClientStatus === 'failed') s.Failed += 1;
    else if (a.ClientStatus === 'lost') s.Lost += 1;
  }
  for (const ev of store.evals) {
    if (ev.jobKey !== e.key || ev.Status !== 'blocked') continue;
    for (const [g, n] of Object.entries(ev.QueuedAllocations ?? {})) if (groups[g]) groups[g]!.Queued += Number(n);
  }
  const children = { Pending: 0, Running: 0, Dead: 0 };
  for (const c of store.children(e)) {
    const st = store.status(c);
    if (st === 'running') children.Running += 1;
    else if (st === 'dead') children.Dead += 1;
    else children.Pending += 1;
  }
  return {
    JobID: e.job.ID,
    Namespace: e.job.Namespace,
    Summary: groups,
    Children: children,
    CreateIndex: e.job.CreateIndex,
    ModifyIndex: Math.max(e.summaryIndex, e.job.ModifyIndex),
  };
}
