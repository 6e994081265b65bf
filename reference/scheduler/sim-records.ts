/** What the API shows of the simulated cluster's task events and deployments (sim.ts makes them). */
import { HOLD_DEPLOYMENT_META } from '../../contract/scheduler-control.js';
import { isObj, type Job } from './job.js';
import type { Deployment } from './sim.js';

const rfc3339 = (ms: number) => new Date(ms).toISOString();

/** A task event as the API shows it: every field the real scheduler writes, these ones set. */
export function taskEvent(type: string, nowNs: number, extra: Job = {}): Job {
  return {
    Type: type,
    Time: nowNs,
    FailsTask: false,
    RestartReason: '',
    SetupError: '',
    DriverError: '',
    ExitCode: 0,
    Signal: 0,
    Message: '',
    KillTimeout: 0,
    KillError: '',
    KillReason: '',
    StartDelay: 0,
    DownloadError: '',
    ValidationError: '',
    DiskLimit: 0,
    FailedSibling: '',
    SecretsError: '',
    TaskSignalReason: '',
    TaskSignal: '',
    DriverMessage: '',
    DisplayMessage: '',
    ...extra,
  };
}

/** A new running deployment of `job`'s version, one entry per task group. */
export function deploymentRecord(
  job: Job,
  evalPriority: number,
  at: { id: string; index: number; now: number; nowMs: number },
): Deployment {
  return {
    ID: at.id,
    Namespace: job.Namespace,
    JobID: job.ID,
    JobVersion: job.Version,
    JobModifyIndex: job.JobModifyIndex,
    JobSpecModifyIndex: job.JobModifyIndex,
    JobCreateIndex: job.CreateIndex,
    IsMultiregion: false,
    TaskGroups: Object.fromEntries(
      (job.TaskGroups ?? []).map((g: Job) => [
        g.Name,
        {
          AutoRevert: g.Update?.AutoRevert ?? false,
          AutoPromote: g.Update?.AutoPromote ?? false,
          ProgressDeadline: g.Update?.ProgressDeadline ?? 0,
          RequireProgressBy: rfc3339(at.nowMs + Number(g.Update?.ProgressDeadline ?? 0) / 1e6),
          Promoted: false,
          PlacedCanaries: null,
          DesiredCanaries: 0,
          DesiredTotal: g.Count,
          PlacedAllocs: 0,
          HealthyAllocs: 0,
          UnhealthyAllocs: 0,
        },
      ]),
    ),
    Status: 'running',
    StatusDescription: 'Deployment is running',
    EvalPriority: evalPriority,
    CreateIndex: at.index,
    ModifyIndex: at.index,
    CreateTime: at.now,
    ModifyTime: at.now,
    hold: isObj(job.Meta) && job.Meta[HOLD_DEPLOYMENT_META] === 'true',
    jobKey: '',
  };
}
