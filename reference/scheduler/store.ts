/**
 * The scheduler's state and its write operations: jobs with versions, submissions, evaluations,
 * scaling events, periodic launches and dispatched children, on top of the simulated cluster.
 * Every write takes a new index from one monotonic counter (the raft index of the real thing).
 * HTTP concerns (parsing, ACLs, status codes of malformed requests) live in the routes (routes/,
 * router.ts, http.ts); the rules it follows are rules.ts.
 */
import { EventEmitter } from 'node:events';
import type { Clock } from '../clock.js';
import { badRequest, notFound } from './errors.js';
import { evaluation, reconcile } from './evaluation.js';
import { addSubmission, checkUpdate, pruneVersions, type Submission } from './job-versions.js';
import { schedulePeriodic } from './periodic.js';
import { clone, isObj, isParameterized, isPeriodic, type Job, specOf } from './job.js';
import { documented, type SchedulerRules } from './rules.js';
import { Cluster, isTerminal, type Alloc } from './sim.js';
import { DEFAULT_DELAYS, type SchedulerDelays } from './delays.js';

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

export const keyOf = (namespace: string, id: string) => `${namespace}\u0000${id}`;

/** The highest Version a job has had (the current one, unless a restored version is current). */
const latestVersion = (e: Entry): number => Math.max(e.job.Version, ...e.versions.map((v) => Number(v.Version)));

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
    readonly delays: SchedulerDelays = DEFAULT_DELAYS,
  ) {
    this.events.setMaxListeners(0);
    this.cluster = new Cluster(
      clock,
      {
        nextIndex: () => this.nextIndex(),
        jobFor: (a) => this.jobVersionFor(a),
        changed: (key) => this.summaryChanged(key),
      },
      delays,
    );
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
    this.clock.at(this.clock.now() + this.delays.evaluationMs, () => {
      if (this.jobs.get(e.key) !== e && !e.job.Stop) {
        ev.Status = 'canceled';
        ev.ModifyIndex = this.nextIndex();
        return;
      }
      work();
      this.summaryChanged(e.key);
    });
  }

  /** The job's allocations changed: its summary's index moves, blocking queries wake. */
  private summaryChanged(key: string): void {
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
    const ev = evaluation(
      e,
      { id: this.rules.newId('evaluation'), index, now },
      { triggeredBy, priority, deploymentID },
    );
    this.evals.push(ev);
    this.process(e, ev, () => {
      const d = typeof deployment === 'string' ? deployment : deployment();
      ev.DeploymentID = d;
      reconcile(this, e, ev, d);
    });
    return ev;
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
      /** Variant revertMakesNewVersion off: the job keeps the Version it carries (a restored one). */
      restoreVersion?: boolean;
    } = {},
  ): WriteResult {
    const key = keyOf(job.Namespace, job.ID);
    const existing = this.jobs.get(key);
    if (opts.enforceIndex && this.rules.enforcesIndex) {
      const jmi = opts.jobModifyIndex ?? 0;
      if (existing && jmi === 0 && this.rules.enforceIndexZeroMeansNew)
        throw badRequest('Enforcing job modify index 0: job already exists');
      if (existing && jmi !== 0 && jmi !== existing.job.JobModifyIndex)
        throw badRequest(
          `Enforcing job modify index ${jmi}: job exists with conflicting job modify index: ${existing.job.JobModifyIndex}`,
        );
      if (!existing && jmi !== 0 && this.rules.enforceIndexNewJobNeedsZero)
        throw badRequest(`Enforcing job modify index ${jmi}: job does not exist`);
    }
    if (existing) checkUpdate(existing.job, job);
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
      job.Status = '';
      if (!(existing && opts.restoreVersion)) {
        job.Stable = false;
        job.VersionTag = null;
      }
      if (!existing) {
        job.Version = 0;
        job.CreateIndex = index;
      } else {
        if (!opts.restoreVersion) job.Version = this.rules.nextVersion(latestVersion(existing));
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
      pruneVersions(entry, this.rules.tagsKeepVersions);
      if (opts.submission)
        addSubmission(entry, opts.submission, this.rules.submissionsKept, this.rules.submissionsKeptNewest);
      schedulePeriodic(this, entry);
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
      const d = this.cluster.createDeployment(this.rules.newId('deployment'), e.job, evalPriority || e.job.Priority);
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
      this.rules.createsDeployments &&
      job.Type === 'service' &&
      !job.Stop &&
      (job.TaskGroups ?? []).some((g: Job) => isObj(g.Update) && Number(g.Update.MaxParallel) > 0)
    );
  }

  // ---- periodic instances --------------------------------------------------------------------------------

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
      stopped.Version = latestVersion(e) + 1;
      stopped.SubmitTime = this.nowNs();
      stopped.Stable = false;
      stopped.VersionTag = null;
      stopped.ModifyIndex = index;
      stopped.JobModifyIndex = index;
      e.job = stopped;
      e.versions = [clone(stopped), ...e.versions];
      pruneVersions(e, this.rules.tagsKeepVersions);
    }
    this.cluster.cancelDeployments(e.key, 'Cancelled because job is stopped');
    const out: Job = { JobModifyIndex: e.job.JobModifyIndex, Index: this.index, VolumeEvalID: '', VolumeEvalIndex: 0 };
    if (!noEval) {
      const index = this.nextIndex();
      const now = this.nowNs();
      const ev = evaluation(
        e,
        { id: this.rules.newId('evaluation'), index, now },
        {
          triggeredBy: 'job-deregister',
          priority: opts.evalPriority || e.job.Priority,
          deploymentID: '',
        },
      );
      this.evals.push(ev);
      this.process(e, ev, () => reconcile(this, e, ev, '', ignoreDelay ? 0 : undefined));
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
