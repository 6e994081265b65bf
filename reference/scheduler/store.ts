/**
 * The scheduler's state and its write operations: jobs with versions, submissions, evaluations,
 * scaling events, periodic launches and dispatched children, on top of the simulated cluster.
 * Every write takes a new index from one monotonic counter (the raft index of the real thing).
 * HTTP concerns (parsing, ACLs, status codes of malformed requests) live in the routes (routes/,
 * router.ts, http.ts); the rules it follows are rules.ts.
 */
import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { Cron } from 'croner';
import type { Clock } from '../clock.js';
import { badRequest, notFound } from './errors.js';
import { clone, isObj, isParameterized, isPeriodic, type Job, specOf } from './job.js';
import { documented, type SchedulerRules } from './rules.js';
import { Cluster, isTerminal, type Alloc } from './sim.js';

export const UNTAGGED_VERSIONS_KEPT = 6;

export interface Submission {
  Source: string;
  Format: string;
  VariableFlags: Record<string, string> | null;
  Variables: string;
  Namespace: string;
  JobID: string;
  Version: number;
  JobIndex: number;
}

export interface Entry {
  key: string;
  job: Job;
  /** Newest first; the first is the current definition. */
  versions: Job[];
  submissions: Map<number, Submission>;
  scaling: Record<string, Job[]>;
  idempotencyToken: string;
  summaryIndex: number;
  cancelPeriodic?: () => void;
}

export interface WriteResult {
  EvalID?: string;
  EvalCreateIndex?: number;
  JobModifyIndex: number;
  Index: number;
  Warnings: string;
}

/** Rule asyncEvaluations (a variant): how long after the write an evaluation is processed (clock ms). */
const ASYNC_EVAL_DELAY_MS = 300;

export const keyOf = (namespace: string, id: string) => `${namespace}\u0000${id}`;

export class Store {
  index = 10;
  readonly namespaces = new Set<string>(['default']);
  readonly jobs = new Map<string, Entry>();
  readonly evals: Job[] = [];
  readonly cluster: Cluster;
  /** Emits 'change' after every write (blocking queries wait on it). */
  readonly events = new EventEmitter();

  constructor(
    readonly clock: Clock,
    readonly rules: SchedulerRules = documented,
  ) {
    this.events.setMaxListeners(0);
    this.cluster = new Cluster(clock, {
      nextIndex: () => this.nextIndex(),
      jobFor: (a) => this.jobVersionFor(a),
      changed: (key) => {
        const e = this.jobs.get(key);
        if (e) e.summaryIndex = this.index;
        this.events.emit('change');
      },
    });
  }

  nextIndex(): number {
    this.index += 1;
    this.events.emit('change');
    return this.index;
  }

  nowNs(): number {
    return this.clock.now() * 1_000_000;
  }

  get(namespace: string, id: string): Entry | undefined {
    return this.jobs.get(keyOf(namespace, id));
  }

  mustGet(namespace: string, id: string): Entry {
    const e = this.get(namespace, id);
    if (!e) throw notFound('job not found');
    return e;
  }

  private jobVersionFor(a: Alloc): Job | undefined {
    const e = this.jobs.get(a.jobKey);
    return e?.versions.find((v) => v.Version === a.JobVersion) ?? e?.job;
  }

  allocsOf(e: Entry, all = false): Alloc[] {
    return this.cluster.allocs.filter((a) => a.jobKey === e.key && (all || a.JobCreateIndex === e.job.CreateIndex));
  }

  children(e: Entry): Entry[] {
    return [...this.jobs.values()].filter((c) => c.job.Namespace === e.job.Namespace && c.job.ParentID === e.job.ID);
  }

  /** The job's status the way the real scheduler derives it from its allocations. */
  status(e: Entry): string {
    const job = e.job;
    if (isPeriodic(job) || isParameterized(job)) return job.Stop ? 'dead' : 'running';
    const allocs = this.allocsOf(e);
    if (allocs.some((a) => !isTerminal(a))) return 'running';
    if (job.Stop) return 'dead';
    if ((job.Type === 'batch' || job.Type === 'sysbatch') && allocs.length > 0) return 'dead';
    return 'pending';
  }

  /** The current definition as the API shows it (status filled in). */
  view(e: Entry): Job {
    const out = clone(e.job);
    out.Status = this.status(e);
    return out;
  }

  summary(e: Entry): Job {
    const groups: Record<string, Job> = {};
    for (const g of e.job.TaskGroups ?? [])
      groups[g.Name] = { Queued: 0, Complete: 0, Failed: 0, Running: 0, Starting: 0, Lost: 0, Unknown: 0 };
    for (const a of this.allocsOf(e)) {
      const s = groups[a.TaskGroup];
      if (!s) continue;
      if (a.ClientStatus === 'pending') s.Starting += 1;
      else if (a.ClientStatus === 'running') s.Running += 1;
      else if (a.ClientStatus === 'complete') s.Complete += 1;
      else if (a.ClientStatus === 'failed') s.Failed += 1;
      else if (a.ClientStatus === 'lost') s.Lost += 1;
    }
    for (const ev of this.evals) {
      if (ev.jobKey !== e.key || ev.Status !== 'blocked') continue;
      for (const [g, n] of Object.entries(ev.QueuedAllocations ?? {})) if (groups[g]) groups[g]!.Queued += Number(n);
    }
    const children = { Pending: 0, Running: 0, Dead: 0 };
    for (const c of this.children(e)) {
      const st = this.status(c);
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

  // ---- evaluations and placement -------------------------------------------------------------

  /**
   * Runs the processing of an evaluation: at once, or (rule asyncEvaluations, a variant) a moment
   * after the write answered, as the real scheduler's workers do. An entry purged meanwhile is
   * only wound down, never placed.
   */
  private process(e: Entry, ev: Job, work: () => void): void {
    if (!this.rules.asyncEvaluations) {
      work();
      return;
    }
    this.clock.at(this.clock.now() + ASYNC_EVAL_DELAY_MS, () => {
      if (this.jobs.get(e.key) !== e && !e.job.Stop) {
        ev.Status = 'canceled';
        ev.ModifyIndex = this.nextIndex();
        return;
      }
      work();
      this.hooksChanged(e.key);
    });
  }

  private hooksChanged(key: string): void {
    const e = this.jobs.get(key);
    if (e) e.summaryIndex = this.index;
    this.events.emit('change');
  }

  /**
   * Creates an evaluation and processes it (see process()). `deployment` names the deployment
   * the placements belong to, or makes it when the evaluation is processed.
   */
  createEval(e: Entry, triggeredBy: string, priority: number, deployment: string | (() => string) = ''): Job {
    const deploymentID = typeof deployment === 'string' ? deployment : '';
    const index = this.nextIndex();
    const now = this.nowNs();
    const ev: Job = {
      ID: randomUUID(),
      Namespace: e.job.Namespace,
      Priority: priority,
      Type: e.job.Type,
      TriggeredBy: triggeredBy,
      JobID: e.job.ID,
      JobModifyIndex: e.job.JobModifyIndex,
      NodeID: '',
      NodeModifyIndex: 0,
      DeploymentID: deploymentID,
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
      SnapshotIndex: index,
      CreateIndex: index,
      ModifyIndex: index,
      CreateTime: now,
      ModifyTime: now,
      jobKey: e.key,
      JobCreateIndex: e.job.CreateIndex,
    };
    this.evals.push(ev);
    this.process(e, ev, () => {
      const d = typeof deployment === 'string' ? deployment : deployment();
      ev.DeploymentID = d;
      this.reconcile(e, ev, d);
    });
    return ev;
  }

  /** Brings the allocations of a job to its current definition; fills the eval's outcome. */
  private reconcile(e: Entry, ev: Job, deploymentID: string, shutdownDelayMs?: number): void {
    const job = e.job;
    const live = this.allocsOf(e).filter((a) => a.DesiredStatus === 'run');
    const queued: Record<string, number> = {};
    const failed: Record<string, Job> = {};
    if (job.Stop || isPeriodic(job) || isParameterized(job)) {
      for (const a of live)
        this.cluster.stop(
          a,
          'alloc is being stopped by the job',
          shutdownDelayMs ?? this.shutdownDelayMs(job, a.TaskGroup),
        );
    } else {
      const nodes = this.cluster.eligibleNodes(job);
      const batch = job.Type === 'batch' || job.Type === 'sysbatch';
      for (const g of job.TaskGroups ?? []) {
        const system = job.Type === 'system' || job.Type === 'sysbatch';
        const desired = system ? nodes.length : Number(g.Count);
        let mine = live.filter(
          (a) => a.TaskGroup === g.Name && (!isTerminal(a) || (batch && a.ClientStatus === 'complete')),
        );
        for (const a of [...mine]) {
          if (a.JobVersion === job.Version) {
            // A later evaluation of the same version may own the deployment now: its allocations join it.
            if (deploymentID && !isTerminal(a)) this.cluster.adopt(a, deploymentID);
            continue;
          }
          const oldGroup = e.versions
            .find((v) => v.Version === a.JobVersion)
            ?.TaskGroups?.find((x: Job) => x.Name === g.Name);
          if (this.cluster.tasksChanged(oldGroup, g) && !(batch && a.ClientStatus === 'complete')) {
            this.cluster.stop(a, 'alloc is being updated due to job update', this.shutdownDelayMs(job, g.Name));
            mine = mine.filter((x) => x !== a);
          } else {
            a.JobVersion = job.Version;
            if (deploymentID && !isTerminal(a)) this.cluster.adopt(a, deploymentID);
          }
        }
        if (mine.length > desired) {
          const extra = [...mine]
            .sort((x, y) => y.Name.localeCompare(x.Name, undefined, { numeric: true }))
            .slice(0, mine.length - desired);
          for (const a of extra)
            this.cluster.stop(a, 'alloc not needed due to job update', this.shutdownDelayMs(job, g.Name));
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
            NodesFiltered: this.cluster.nodes.length,
            NodesAvailable: {},
            NodesInPool: this.cluster.nodes.length,
            ClassFiltered: null,
            ConstraintFiltered: { '${node.datacenter}': this.cluster.nodes.length },
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
          const fits = Math.min(missing, this.cluster.freeSlots());
          if (fits < missing) {
            queued[g.Name] = missing - fits;
            failed[g.Name] = {
              CoalescedFailures: missing - fits - 1,
              AllocationTime: 1000,
              Scores: null,
              NodesEvaluated: nodes.length,
              NodesFiltered: 0,
              NodesAvailable: {},
              NodesInPool: this.cluster.nodes.length,
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
            while (used.has(idx)) idx++;
            used.add(idx);
            const node = system ? nodes[k % nodes.length]! : nodes[idx % nodes.length]!;
            this.cluster.place(e.key, job, g, idx, node, ev.ID, deploymentID);
          }
          queued[g.Name] ??= 0;
        } else {
          queued[g.Name] = 0;
        }
      }
      for (const a of live) {
        if (!(job.TaskGroups ?? []).some((g: Job) => g.Name === a.TaskGroup))
          this.cluster.stop(a, 'alloc not needed as task group was removed', 0);
      }
    }
    ev.QueuedAllocations = queued;
    ev.Status = 'complete';
    ev.ModifyIndex = this.nextIndex();
    ev.ModifyTime = this.nowNs();
    if (Object.keys(failed).length) {
      ev.FailedTGAllocs = failed;
      const blockedIndex = this.nextIndex();
      const blocked: Job = {
        ...clone(ev),
        ID: randomUUID(),
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
      this.evals.push(blocked);
    }
    this.cluster.checkDeployments();
  }

  /** A group's shutdown_delay (the longest of group and tasks), in clock milliseconds. */
  shutdownDelayMs(job: Job, group: string): number {
    const g = (job.TaskGroups ?? []).find((x: Job) => x.Name === group);
    if (!g) return 0;
    const ns = Math.max(Number(g.ShutdownDelay ?? 0), ...(g.Tasks ?? []).map((t: Job) => Number(t.ShutdownDelay ?? 0)));
    return Math.ceil(ns / 1e6);
  }

  // ---- registration ----------------------------------------------------------------------------

  /**
   * Registers a canonical, validated job. A changed definition makes a new version (Version + 1,
   * new JobModifyIndex); an identical one keeps both. Periodic and parameterized parents get no
   * evaluation.
   */
  register(
    job: Job,
    opts: {
      enforceIndex?: boolean;
      jobModifyIndex?: number;
      preserveCounts?: boolean;
      evalPriority?: number;
      submission?: Omit<Submission, 'Namespace' | 'JobID' | 'Version' | 'JobIndex'> | null;
      triggeredBy?: string;
      idempotencyToken?: string;
    } = {},
  ): WriteResult {
    const key = keyOf(job.Namespace, job.ID);
    const existing = this.jobs.get(key);
    if (opts.enforceIndex && this.rules.enforcesIndex) {
      const jmi = opts.jobModifyIndex ?? 0;
      if (existing && jmi === 0) throw badRequest('Enforcing job modify index 0: job already exists');
      if (existing && jmi !== existing.job.JobModifyIndex)
        throw badRequest(
          `Enforcing job modify index ${jmi}: job exists with conflicting job modify index: ${existing.job.JobModifyIndex}`,
        );
      if (!existing && jmi !== 0) throw badRequest(`Enforcing job modify index ${jmi}: job does not exist`);
    }
    if (existing) this.validateUpdate(existing.job, job);
    if (existing && opts.preserveCounts && this.rules.preservesCounts) {
      for (const g of job.TaskGroups ?? []) {
        const old = (existing.job.TaskGroups ?? []).find((x: Job) => x.Name === g.Name);
        if (old) g.Count = old.Count;
      }
    }
    this.namespaces.add(job.Namespace);
    const now = this.nowNs();
    let entry = existing;
    const changed = !existing || this.rules.definitionChanged(specOf(existing.job), specOf(job));
    if (changed) {
      const index = this.nextIndex();
      job.SubmitTime = now;
      job.Stable = false;
      job.VersionTag = null;
      job.Status = '';
      if (!existing) {
        job.Version = 0;
        job.CreateIndex = index;
      } else {
        job.Version = this.rules.nextVersion(existing.job.Version);
        job.CreateIndex = existing.job.CreateIndex;
      }
      job.ModifyIndex = index;
      job.JobModifyIndex = index;
      if (!entry) {
        entry = {
          key,
          job,
          versions: [],
          submissions: new Map(),
          scaling: {},
          idempotencyToken: opts.idempotencyToken ?? '',
          summaryIndex: index,
        };
        this.jobs.set(key, entry);
      }
      entry.job = job;
      entry.versions = [clone(job), ...entry.versions.filter((v) => v.Version !== job.Version)];
      this.pruneVersions(entry);
      if (opts.submission) this.addSubmission(entry, opts.submission);
      this.schedulePeriodic(entry);
    }
    const e = entry!;
    const result: WriteResult = { JobModifyIndex: e.job.JobModifyIndex, Index: this.index, Warnings: '' };
    if (isPeriodic(e.job) || isParameterized(e.job) || !this.rules.registerCreatesEval) {
      if (changed && (isPeriodic(e.job) || isParameterized(e.job))) this.reconcileStopped(e);
      return result;
    }
    const evalPriority = this.rules.evalPriority(opts.evalPriority ?? 0);
    const version = e.job;
    const deployment = (): string => {
      if (!changed || e.job !== version) return '';
      this.cluster.cancelDeployments(e.key, 'Cancelled due to newer version of job');
      if (!this.needsDeployment(e.job)) return '';
      const d = this.cluster.createDeployment(e.job, evalPriority || e.job.Priority);
      d.jobKey = e.key;
      if (!this.rules.deploymentsComplete) d.hold = true;
      return d.ID;
    };
    const ev = this.createEval(e, opts.triggeredBy ?? 'job-register', evalPriority || e.job.Priority, deployment);
    result.EvalID = ev.ID;
    result.EvalCreateIndex = ev.CreateIndex;
    result.Index = this.index;
    return result;
  }

  private reconcileStopped(e: Entry): void {
    for (const a of this.allocsOf(e))
      if (a.DesiredStatus === 'run') this.cluster.stop(a, 'alloc is being stopped by the job', 0);
  }

  needsDeployment(job: Job): boolean {
    return (
      job.Type === 'service' &&
      !job.Stop &&
      (job.TaskGroups ?? []).some((g: Job) => isObj(g.Update) && Number(g.Update.MaxParallel) > 0)
    );
  }

  private validateUpdate(old: Job, next: Job): void {
    if (old.Type !== next.Type) throw badRequest(`cannot update job from type "${old.Type}" to "${next.Type}"`);
    if (isPeriodic(old) && !isPeriodic(next)) throw badRequest('cannot update periodic job to being non-periodic');
    if (!isPeriodic(old) && isPeriodic(next)) throw badRequest('cannot update non-periodic job to being periodic');
    if (isParameterized(old) !== isParameterized(next)) {
      throw badRequest(
        isParameterized(old)
          ? 'cannot update parameterized job to being non-parameterized'
          : 'cannot update non-parameterized job to being parameterized',
      );
    }
    if (Boolean(old.Dispatched) !== Boolean(next.Dispatched)) throw badRequest("field 'Dispatched' is read-only");
  }

  private pruneVersions(e: Entry): void {
    let untagged = 0;
    e.versions = e.versions.filter((v, i) => {
      if (i === 0 || v.VersionTag) return true;
      untagged += 1;
      return untagged < UNTAGGED_VERSIONS_KEPT;
    });
  }

  private addSubmission(e: Entry, s: Omit<Submission, 'Namespace' | 'JobID' | 'Version' | 'JobIndex'>): void {
    e.submissions.set(e.job.Version, {
      ...s,
      Namespace: e.job.Namespace,
      JobID: e.job.ID,
      Version: e.job.Version,
      JobIndex: e.job.JobModifyIndex,
    });
    const versions = [...e.submissions.keys()].sort((a, b) => b - a);
    for (const v of versions.slice(this.rules.submissionsKept)) e.submissions.delete(v);
  }

  // ---- periodic --------------------------------------------------------------------------------

  schedulePeriodic(e: Entry): void {
    e.cancelPeriodic?.();
    e.cancelPeriodic = undefined;
    const p = e.job.Periodic;
    if (!isPeriodic(e.job) || !p.Enabled || e.job.Stop) return;
    const next = this.nextLaunch(e.job);
    if (next === null) return;
    e.cancelPeriodic = this.clock.at(next, () => {
      if (this.jobs.get(e.key) !== e) return;
      const running = this.children(e).some((c) => this.status(c) !== 'dead');
      if (!(p.ProhibitOverlap && running)) this.launchChild(e, next);
      this.schedulePeriodic(e);
    });
  }

  /** Next launch time in clock milliseconds, or null. */
  nextLaunch(job: Job): number | null {
    try {
      const cron = new Cron(String(job.Periodic.Spec), { paused: true, timezone: job.Periodic.TimeZone || undefined });
      const next = cron.nextRun(new Date(this.clock.now()));
      cron.stop();
      return next ? next.getTime() : null;
    } catch {
      return null;
    }
  }

  launchChild(e: Entry, atMs: number): WriteResult {
    let secs = Math.floor(atMs / 1000);
    // Variant: an instance is named after its launch second, so two launches in one second share it.
    if (!this.rules.periodicChildPerSecond) while (this.get(e.job.Namespace, `${e.job.ID}/periodic-${secs}`)) secs += 1;
    const child = clone(e.job);
    child.ID = `${e.job.ID}/periodic-${secs}`;
    child.Name = child.ID;
    child.ParentID = e.job.ID;
    child.Periodic = null;
    child.Status = '';
    delete child.VersionTag;
    return this.register(child, { triggeredBy: 'periodic-job' });
  }

  // ---- stop and garbage collection -------------------------------------------------------------

  stop(namespace: string, id: string, opts: { purge: boolean; noShutdownDelay: boolean; evalPriority: number }): Job {
    const e = this.get(namespace, id);
    if (!e) return { JobModifyIndex: 0, Index: this.index };
    e.cancelPeriodic?.();
    const ignoreDelay = opts.noShutdownDelay && this.rules.honoursNoShutdownDelay;
    const noEval = isPeriodic(e.job) || isParameterized(e.job);
    if (!e.job.Stop) {
      const stopped = clone(e.job);
      stopped.Stop = true;
      const index = this.nextIndex();
      stopped.Version = e.job.Version + 1;
      stopped.SubmitTime = this.nowNs();
      stopped.Stable = false;
      stopped.VersionTag = null;
      stopped.ModifyIndex = index;
      stopped.JobModifyIndex = index;
      e.job = stopped;
      e.versions = [clone(stopped), ...e.versions];
      this.pruneVersions(e);
    }
    this.cluster.cancelDeployments(e.key, 'Cancelled because job is stopped');
    const out: Job = { JobModifyIndex: e.job.JobModifyIndex, Index: this.index, VolumeEvalID: '', VolumeEvalIndex: 0 };
    if (!noEval) {
      const index = this.nextIndex();
      const now = this.nowNs();
      const ev: Job = {
        ID: randomUUID(),
        Namespace: namespace,
        Priority: opts.evalPriority || e.job.Priority,
        Type: e.job.Type,
        TriggeredBy: 'job-deregister',
        JobID: id,
        JobModifyIndex: e.job.JobModifyIndex,
        NodeID: '',
        NodeModifyIndex: 0,
        DeploymentID: '',
        Status: 'pending',
        StatusDescription: '',
        Wait: 0,
        NextEval: '',
        PreviousEval: '',
        BlockedEval: '',
        FailedTGAllocs: null,
        ClassEligibility: null,
        EscapedComputedClass: false,
        AnnotatePlan: false,
        QueuedAllocations: null,
        SnapshotIndex: index,
        CreateIndex: index,
        ModifyIndex: index,
        CreateTime: now,
        ModifyTime: now,
        jobKey: e.key,
        JobCreateIndex: e.job.CreateIndex,
      };
      this.evals.push(ev);
      this.process(e, ev, () => this.reconcile(e, ev, '', ignoreDelay ? 0 : undefined));
      out.EvalID = ev.ID;
      out.EvalCreateIndex = ev.CreateIndex;
    }
    // As in the real scheduler, stopping a periodic or parameterized parent leaves its children running.
    if (this.rules.stopRemoves(opts.purge)) {
      this.remove(e);
      if (opts.purge && this.rules.purgeCollectsAllocations) this.cluster.forget(e.key);
    }
    out.Index = this.index;
    return out;
  }

  private remove(e: Entry): void {
    e.cancelPeriodic?.();
    this.jobs.delete(e.key);
    this.nextIndex();
  }

  /** Forced garbage collection: stopped jobs whose allocations are done, and finished children. */
  gc(): number {
    let removed = 0;
    for (const e of [...this.jobs.values()]) {
      const status = this.status(e);
      if (status !== 'dead') continue;
      if ((e.job.Stop && this.rules.gcCollectsStopped) || e.job.ParentID !== '') {
        this.remove(e);
        removed += 1;
      }
    }
    return removed;
  }
}
