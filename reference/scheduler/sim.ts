/**
 * The simulated cluster under the reference scheduler: client nodes, allocations that move
 * pending -> running (-> complete for batch work, -> failed for a failing task: reschedule.ts) on
 * the controllable clock, and deployments that
 * turn successful once every placed allocation of their job version has been running for the
 * group's MinHealthyTime. A job whose Meta holds `ref.hold-deployment = "true"` keeps its
 * deployment running until a newer version or a stop replaces it.
 */
import { randomUUID } from 'node:crypto';
import type { Clock } from '../clock.js';
import { clone, type Job, SECOND } from './job.js';
import { DEFAULT_DELAYS, type SchedulerDelays } from './delays.js';
import { HOLD_DEPLOYMENT_META } from '../../contract/scheduler-control.js';
import { deploymentRecord, taskEvent } from './sim-records.js';
import { failingTasks, restartsMs, trackerAfter } from './reschedule.js';

export { HOLD_DEPLOYMENT_META };

export interface SimNode {
  ID: string;
  Name: string;
  Datacenter: string;
  NodePool: string;
}

export type Alloc = Job;
export type Deployment = Job;

const TERMINAL = new Set(['complete', 'failed', 'lost']);
export const isTerminal = (a: Alloc) =>
  TERMINAL.has(a.ClientStatus) ||
  (a.DesiredStatus !== 'run' && a.ClientStatus !== 'running' && a.ClientStatus !== 'pending');

const rfc3339 = (ms: number) => new Date(ms).toISOString();
const ZERO_TIME = '0001-01-01T00:00:00Z';

function globMatch(pattern: string, value: string): boolean {
  return new RegExp(
    `^${pattern
      .split('*')
      .map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*')}$`,
  ).test(value);
}

export interface SimHooks {
  /** Takes the next raft-like index (every state change gets one). */
  nextIndex(): number;
  /** The job version an allocation runs, to find its group spec. */
  jobFor(alloc: Alloc): Job | undefined;
  /** Called after any allocation or deployment change (blocking queries, job status). */
  changed(jobKey: string): void;
}

/** How many allocations one simulated node can run. */
const NODE_CAPACITY = 500;

export class Cluster {
  readonly nodes: SimNode[] = [
    { ID: randomUUID(), Name: 'sim-client-1', Datacenter: 'dc1', NodePool: 'default' },
    { ID: randomUUID(), Name: 'sim-client-2', Datacenter: 'dc2', NodePool: 'default' },
  ];
  readonly allocs: Alloc[] = [];
  readonly deployments: Deployment[] = [];
  private nextPort = 20000 + Math.floor(Math.random() * 5000);

  constructor(
    private readonly clock: Clock,
    private readonly hooks: SimHooks,
    /** Placement to running (allocationStartMs) and a batch task's run (batchRunMs): delays.ts. */
    private readonly delays: SchedulerDelays = DEFAULT_DELAYS,
  ) {}

  nowNs(): number {
    return this.clock.now() * 1_000_000;
  }

  /**
   * Runs `fn(dueMs)` at `dueMs`, at once when that moment has already passed: one large clock
   * advance then carries an allocation through every step that fell due, not just the first.
   */
  private at(dueMs: number, fn: (dueMs: number) => void): void {
    if (dueMs <= this.clock.now()) fn(dueMs);
    else this.clock.at(dueMs, () => fn(dueMs));
  }

  /** Allocations the simulated nodes can still run (each node has room for NODE_CAPACITY). */
  freeSlots(): number {
    const running = this.allocs.filter(
      (a) => a.DesiredStatus === 'run' && a.ClientStatus !== 'complete' && a.ClientStatus !== 'failed',
    ).length;
    return Math.max(0, this.nodes.length * NODE_CAPACITY - running);
  }

  eligibleNodes(job: Job): SimNode[] {
    const dcs: string[] = Array.isArray(job.Datacenters) && job.Datacenters.length ? job.Datacenters : ['*'];
    return this.nodes.filter((n) => dcs.some((d) => globMatch(String(d), n.Datacenter)));
  }

  /** Places one allocation of `group` (name index `idx`) on `node`. */
  place(
    jobKey: string,
    job: Job,
    group: Job,
    idx: number,
    node: SimNode,
    evalID: string,
    deploymentID: string,
    previous?: Alloc,
  ): Alloc {
    const index = this.hooks.nextIndex();
    const now = this.nowNs();
    const ports: Record<string, number> = {};
    for (const net of [
      ...(group.Networks ?? []),
      ...(group.Tasks ?? []).flatMap((t: Job) => t.Resources?.Networks ?? []),
    ]) {
      for (const p of net?.DynamicPorts ?? []) ports[p.Label] = this.nextPort++;
      for (const p of net?.ReservedPorts ?? []) ports[p.Label] = p.Value;
    }
    const alloc: Alloc = {
      ID: randomUUID(),
      EvalID: evalID,
      Name: `${job.ID}.${group.Name}[${idx}]`,
      Namespace: job.Namespace,
      NodeID: node.ID,
      NodeName: node.Name,
      JobID: job.ID,
      JobType: job.Type,
      JobVersion: job.Version,
      TaskGroup: group.Name,
      DesiredStatus: 'run',
      DesiredDescription: '',
      ClientStatus: 'pending',
      ClientDescription: 'No tasks have started',
      DeploymentID: deploymentID,
      DeploymentStatus: null,
      FollowupEvalID: '',
      PreviousAllocation: '',
      NextAllocation: '',
      RescheduleTracker: null,
      TaskStates: Object.fromEntries(
        (group.Tasks ?? []).map((t: Job) => [
          t.Name,
          {
            State: 'pending',
            Failed: false,
            Restarts: 0,
            LastRestart: ZERO_TIME,
            StartedAt: ZERO_TIME,
            FinishedAt: ZERO_TIME,
            Events: [taskEvent('Received', now, { DisplayMessage: 'Task received by client' })],
          },
        ]),
      ),
      CreateIndex: index,
      ModifyIndex: index,
      AllocModifyIndex: index,
      CreateTime: now,
      ModifyTime: now,
      JobCreateIndex: job.CreateIndex,
      jobKey,
      ports,
      runningSinceMs: 0,
      healthy: false,
    };
    if (previous) {
      // A replacement of a failed allocation: linked both ways, its reschedule history carried.
      alloc.PreviousAllocation = previous.ID;
      alloc.RescheduleTracker = trackerAfter(previous, this.clock.now(), Number(group.ReschedulePolicy?.Delay) || 0);
      previous.NextAllocation = alloc.ID;
      this.touch(previous);
    }
    this.allocs.push(alloc);
    this.at(this.clock.now() + this.delays.allocationStartMs, (due) => this.start(alloc, due));
    return alloc;
  }

  private touch(alloc: Alloc): void {
    const index = this.hooks.nextIndex();
    alloc.ModifyIndex = index;
    alloc.AllocModifyIndex = index;
    alloc.ModifyTime = this.nowNs();
  }

  private start(alloc: Alloc, dueMs: number): void {
    if (alloc.ClientStatus !== 'pending' || alloc.DesiredStatus !== 'run') return;
    const now = this.nowNs();
    const startedAt = rfc3339(dueMs);
    const group = this.hooks.jobFor(alloc)?.TaskGroups?.find((g: Job) => g.Name === alloc.TaskGroup);
    for (const [name, st] of Object.entries(alloc.TaskStates as Record<string, Job>)) {
      const image = group?.Tasks?.find((t: Job) => t.Name === name)?.Config?.image;
      st.State = 'running';
      st.StartedAt = startedAt;
      st.Events.push(
        taskEvent('Task Setup', now, { Message: 'Building Task Directory', DisplayMessage: 'Building Task Directory' }),
        taskEvent('Driver', now, {
          DriverMessage: image ? `Downloading image ${String(image)}` : '',
          DisplayMessage: image ? `Downloading image ${String(image)}` : '',
        }),
        taskEvent('Started', now, { DisplayMessage: 'Task started by client' }),
      );
    }
    alloc.ClientStatus = 'running';
    alloc.ClientDescription = 'Tasks are running';
    alloc.runningSinceMs = dueMs;
    this.touch(alloc);
    this.hooks.changed(alloc.jobKey);
    const failing = failingTasks(group);
    if (failing.length) {
      this.at(dueMs + restartsMs(group), (due) => this.finish(alloc, 'failed', 'Failed tasks', due, failing));
      return;
    }
    if (alloc.JobType === 'batch' || alloc.JobType === 'sysbatch') {
      this.at(dueMs + this.delays.batchRunMs, (due) => this.finish(alloc, 'complete', 'All tasks have completed', due));
    }
    this.scheduleHealth(alloc);
  }

  private finish(
    alloc: Alloc,
    status: 'complete' | 'failed',
    description: string,
    dueMs: number,
    failing: string[] = [],
  ): void {
    if (alloc.ClientStatus !== 'running' && alloc.ClientStatus !== 'pending') return;
    const now = dueMs * 1_000_000;
    for (const [name, st] of Object.entries(alloc.TaskStates as Record<string, Job>)) {
      const exitCode = failing.includes(name) ? 1 : 0;
      st.State = 'dead';
      st.Failed = exitCode !== 0;
      st.FinishedAt = rfc3339(dueMs);
      st.Events.push(taskEvent('Terminated', now, { ExitCode: exitCode, DisplayMessage: `Exit Code: ${exitCode}` }));
    }
    if (status === 'failed') alloc.failedAtMs = dueMs;
    alloc.ClientStatus = status;
    alloc.ClientDescription = description;
    this.touch(alloc);
    this.checkDeployments();
    this.hooks.changed(alloc.jobKey);
  }

  /** Marks the allocation to stop; the client reports it complete after `delayMs`. */
  stop(alloc: Alloc, description: string, delayMs: number): void {
    if (alloc.DesiredStatus !== 'run') return;
    alloc.DesiredStatus = 'stop';
    alloc.DesiredDescription = description;
    this.touch(alloc);
    const done = () => {
      if (alloc.ClientStatus === 'pending' || alloc.ClientStatus === 'running') {
        const now = this.nowNs();
        for (const st of Object.values(alloc.TaskStates as Record<string, Job>)) {
          st.State = 'dead';
          st.FinishedAt = rfc3339(this.clock.now());
          st.Events.push(taskEvent('Killed', now, { DisplayMessage: 'Task successfully killed' }));
        }
        alloc.ClientStatus = 'complete';
        alloc.ClientDescription = 'All tasks have completed';
        this.touch(alloc);
        this.hooks.changed(alloc.jobKey);
      }
    };
    this.at(this.clock.now() + Math.max(0, delayMs), done);
  }

  /** Whether the group spec is the same apart from its count (an in-place update). */
  tasksChanged(oldGroup: Job | undefined, newGroup: Job): boolean {
    if (!oldGroup) return true;
    return (
      JSON.stringify(oldGroup.Tasks) !== JSON.stringify(newGroup.Tasks) ||
      JSON.stringify(oldGroup.Networks) !== JSON.stringify(newGroup.Networks)
    );
  }

  createDeployment(id: string, job: Job, evalPriority: number): Deployment {
    const index = this.hooks.nextIndex();
    const now = this.nowNs();
    const d = deploymentRecord(job, evalPriority, { id, index, now, nowMs: this.clock.now() });
    this.deployments.push(d);
    return d;
  }

  /** Drops every allocation and deployment of a job (a purge that collects them at once). */
  forget(jobKey: string): void {
    for (const list of [this.allocs, this.deployments] as Job[][]) {
      for (let i = list.length - 1; i >= 0; i--) if (list[i]!.jobKey === jobKey) list.splice(i, 1);
    }
  }

  /** Ends every active deployment of a job (a newer version or a stop replaces it). */
  cancelDeployments(jobKey: string, description: string): void {
    for (const d of this.deployments) {
      if (d.jobKey === jobKey && d.Status === 'running') {
        d.Status = 'cancelled';
        d.StatusDescription = description;
        d.ModifyIndex = this.hooks.nextIndex();
        d.ModifyTime = this.nowNs();
      }
    }
  }

  /**
   * An allocation updated in place joins the new version's deployment and must become healthy
   * there again; a running one is judged from when it started (at once if that is long enough ago).
   */
  adopt(alloc: Alloc, deploymentID: string): void {
    if (alloc.DeploymentID === deploymentID) return;
    alloc.DeploymentID = deploymentID;
    alloc.healthy = false;
    alloc.DeploymentStatus = null;
    this.touch(alloc);
    if (alloc.ClientStatus === 'running') this.scheduleHealth(alloc);
  }

  private scheduleHealth(alloc: Alloc): void {
    const d = this.deployments.find((x) => x.ID === alloc.DeploymentID);
    if (d?.Status !== 'running') return;
    const minHealthyNs = Number(
      this.hooks.jobFor(alloc)?.TaskGroups?.find((g: Job) => g.Name === alloc.TaskGroup)?.Update?.MinHealthyTime ??
        10 * SECOND,
    );
    this.at(alloc.runningSinceMs + Math.ceil(minHealthyNs / 1e6), (due) => {
      if (alloc.ClientStatus !== 'running' || alloc.DesiredStatus !== 'run') return;
      alloc.healthy = true;
      alloc.DeploymentStatus = {
        Healthy: true,
        Timestamp: rfc3339(due),
        Canary: false,
        ModifyIndex: this.hooks.nextIndex(),
      };
      this.touch(alloc);
      this.checkDeployments();
      this.hooks.changed(alloc.jobKey);
    });
  }

  /** Recounts placed and healthy allocations and completes deployments that reached their totals. */
  checkDeployments(): void {
    for (const d of this.deployments) {
      if (d.Status !== 'running') continue;
      let done = true;
      let changed = false;
      for (const [name, tg] of Object.entries(d.TaskGroups as Record<string, Job>)) {
        const mine = this.allocs.filter((a) => a.DeploymentID === d.ID && a.TaskGroup === name);
        const placed = mine.length;
        const healthy = mine.filter((a) => a.healthy).length;
        if (tg.PlacedAllocs !== placed || tg.HealthyAllocs !== healthy) changed = true;
        tg.PlacedAllocs = placed;
        tg.HealthyAllocs = healthy;
        if (healthy < tg.DesiredTotal) done = false;
      }
      if (done && !d.hold) {
        d.Status = 'successful';
        d.StatusDescription = 'Deployment completed successfully';
        changed = true;
        this.hooks.changed(d.jobKey);
      }
      if (changed) {
        d.ModifyIndex = this.hooks.nextIndex();
        d.ModifyTime = this.nowNs();
      }
    }
  }

  /** The list form of an allocation (internal bookkeeping removed). */
  static view(a: Alloc): Job {
    const out = clone(a);
    for (const k of ['jobKey', 'ports', 'runningSinceMs', 'healthy', 'JobCreateIndex', 'failedAtMs', 'forceReschedule'])
      delete out[k];
    return out;
  }

  static viewDeployment(d: Deployment): Job {
    const out = clone(d);
    delete out.hold;
    delete out.jobKey;
    return out;
  }
}
