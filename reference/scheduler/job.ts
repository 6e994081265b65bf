/**
 * The job definition: defaults (the real scheduler's Canonicalize), what makes a new version
 * (specOf). Jobs are plain JSON objects in the API's PascalCase shape; durations are integer
 * nanoseconds. The checks of a job submitted are in job-checks.ts.
 */

// Jobs are free-form JSON whose sub-structures the document leaves open.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
// biome-ignore lint/suspicious/noExplicitAny: JSON bodies are open-ended (the documents' "other fields: not shown")
export type Job = Record<string, any>;

export const SECOND = 1_000_000_000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

export const JOB_TYPES = ['service', 'batch', 'system', 'sysbatch'];

const isObj = (v: unknown): v is Job => v !== null && typeof v === 'object' && !Array.isArray(v);
const set = (o: Job, k: string, v: unknown) => {
  if (o[k] === undefined || o[k] === null) o[k] = v;
};
const clone = <T>(v: T): T => (v === undefined ? v : JSON.parse(JSON.stringify(v)));

function restartDefaults(type: string): Job {
  return type === 'batch' || type === 'sysbatch'
    ? { Attempts: 3, Interval: 24 * HOUR, Delay: 15 * SECOND, Mode: 'fail', RenderTemplates: false }
    : { Attempts: 2, Interval: 30 * MINUTE, Delay: 15 * SECOND, Mode: 'fail', RenderTemplates: false };
}

function rescheduleDefaults(type: string): Job | null {
  if (type === 'batch')
    return {
      Attempts: 1,
      Interval: 24 * HOUR,
      Delay: 5 * SECOND,
      DelayFunction: 'constant',
      MaxDelay: 0,
      Unlimited: false,
    };
  if (type === 'service')
    return {
      Attempts: 0,
      Interval: 0,
      Delay: 30 * SECOND,
      DelayFunction: 'exponential',
      MaxDelay: HOUR,
      Unlimited: true,
    };
  return null;
}

const UPDATE_DEFAULTS: Job = {
  Stagger: 30 * SECOND,
  MaxParallel: 1,
  HealthCheck: 'checks',
  MinHealthyTime: 10 * SECOND,
  HealthyDeadline: 5 * MINUTE,
  ProgressDeadline: 10 * MINUTE,
  AutoRevert: false,
  AutoPromote: false,
  Canary: 0,
};

function merge(defaults: Job, given: unknown): Job {
  const out = clone(defaults);
  if (isObj(given)) for (const [k, v] of Object.entries(given)) if (v !== null && v !== undefined) out[k] = v;
  return out;
}

/** Fills defaults in place the way the real scheduler canonicalizes a job before storing it. */
export function canonicalize(job: Job): Job {
  set(job, 'Region', 'global');
  set(job, 'Namespace', 'default');
  set(job, 'Name', job.ID);
  set(job, 'Type', 'service');
  set(job, 'ParentID', '');
  set(job, 'Priority', 50);
  set(job, 'AllAtOnce', false);
  set(job, 'NodePool', 'default');
  if (!Array.isArray(job.Datacenters) || job.Datacenters.length === 0) job.Datacenters = ['*'];
  set(job, 'Stop', false);
  set(job, 'Status', '');
  set(job, 'StatusDescription', '');
  set(job, 'Stable', false);
  set(job, 'Version', 0);
  set(job, 'Dispatched', false);
  set(job, 'CreateIndex', 0);
  set(job, 'ModifyIndex', 0);
  set(job, 'JobModifyIndex', 0);
  for (const k of [
    'Constraints',
    'Affinities',
    'Spreads',
    'Payload',
    'Meta',
    'Multiregion',
    'Migrate',
    'Reschedule',
    'ParameterizedJob',
    'Periodic',
    'SubmitTime',
    'VersionTag',
  ])
    set(job, k, null);
  for (const k of ['SecretsToken', 'SecretsNamespace', 'DiscoveryToken', 'SchedTokenID']) set(job, k, '');
  const type = String(job.Type);
  if (isObj(job.Periodic)) {
    set(job.Periodic, 'Enabled', true);
    set(job.Periodic, 'SpecType', 'cron');
    set(job.Periodic, 'ProhibitOverlap', false);
    set(job.Periodic, 'TimeZone', 'UTC');
  }
  if (isObj(job.ParameterizedJob)) {
    set(job.ParameterizedJob, 'Payload', 'optional');
    set(job.ParameterizedJob, 'MetaRequired', null);
    set(job.ParameterizedJob, 'MetaOptional', null);
  }
  // The job-level update block keeps only stagger and max_parallel; the rest moves to groups.
  const jobUpdate = isObj(job.Update) ? job.Update : null;
  job.Update =
    jobUpdate && Number(jobUpdate.MaxParallel ?? 0) > 0
      ? { Stagger: jobUpdate.Stagger ?? 30 * SECOND, MaxParallel: jobUpdate.MaxParallel }
      : null;
  if (!Array.isArray(job.TaskGroups)) job.TaskGroups = null;
  for (const g of job.TaskGroups ?? []) {
    if (!isObj(g)) continue;
    set(g, 'Count', isObj(g.Scaling) && typeof g.Scaling.Min === 'number' ? g.Scaling.Min : 1);
    for (const k of [
      'Constraints',
      'Affinities',
      'Spreads',
      'Networks',
      'Services',
      'Meta',
      'Scaling',
      'Volumes',
      'MaxClientDisconnect',
      'ShutdownDelay',
      'StopAfterClientDisconnect',
      'Disconnect',
    ])
      set(g, k, null);
    g.RestartPolicy = merge(restartDefaults(type), g.RestartPolicy);
    const resched = rescheduleDefaults(type);
    g.ReschedulePolicy = resched ? merge(resched, g.ReschedulePolicy ?? job.Reschedule) : null;
    g.EphemeralDisk = merge({ Sticky: false, SizeMB: 300, Migrate: false }, g.EphemeralDisk);
    g.Migrate =
      type === 'service'
        ? merge(
            { MaxParallel: 1, HealthCheck: 'checks', MinHealthyTime: 10 * SECOND, HealthyDeadline: 5 * MINUTE },
            g.Migrate ?? job.Migrate,
          )
        : null;
    const groupUpdate = isObj(g.Update) ? g.Update : null;
    if ((type === 'service' || type === 'system') && (jobUpdate || groupUpdate)) {
      const u = merge(merge(UPDATE_DEFAULTS, jobUpdate), groupUpdate);
      g.Update = Number(u.MaxParallel) > 0 ? u : null;
    } else {
      g.Update = null;
    }
    if (!Array.isArray(g.Tasks)) g.Tasks = null;
    for (const t of g.Tasks ?? []) {
      if (!isObj(t)) continue;
      set(t, 'Driver', '');
      set(t, 'User', '');
      for (const k of [
        'Config',
        'Env',
        'Services',
        'Templates',
        'Constraints',
        'Affinities',
        'DispatchPayload',
        'Meta',
        'Artifacts',
        'Lifecycle',
        'Vault',
        'CSIPluginConfig',
        'ScalingPolicies',
        'VolumeMounts',
        'Actions',
      ])
        set(t, k, null);
      set(t, 'KillTimeout', 5 * SECOND);
      set(t, 'KillSignal', '');
      set(t, 'Leader', false);
      set(t, 'Kind', '');
      set(t, 'ShutdownDelay', 0);
      t.LogConfig = merge({ Disabled: false, MaxFiles: 10, MaxFileSizeMB: 10 }, t.LogConfig);
      t.Resources = merge({ CPU: 100, MemoryMB: 300, DiskMB: 0, IOPS: 0, Networks: null, Devices: null }, t.Resources);
      t.RestartPolicy = merge(g.RestartPolicy as Job, t.RestartPolicy);
      for (const tpl of Array.isArray(t.Templates) ? t.Templates : []) {
        if (!isObj(tpl)) continue;
        set(tpl, 'SourcePath', '');
        set(tpl, 'DestPath', '');
        set(tpl, 'EmbeddedTmpl', '');
        set(tpl, 'ChangeMode', 'restart');
        set(tpl, 'ChangeSignal', '');
        set(tpl, 'Splay', 5 * SECOND);
        set(tpl, 'Perms', '0644');
      }
    }
  }
  return job;
}

/**
 * Rule defaultUpdateStrategy (a variant): the real scheduler gives every group of a service job without
 * an update block its default update strategy, so each such job gets a deployment.
 */
export function withDefaultUpdate(job: Job, minHealthyMs = 10_000): Job {
  if ((job.Type ?? 'service') !== 'service' || isObj(job.Update)) return job;
  for (const g of Array.isArray(job.TaskGroups) ? job.TaskGroups : []) {
    if (!isObj(g) || isObj(g.Update)) continue;
    g.Update = {
      Stagger: 30 * SECOND,
      MaxParallel: 1,
      HealthCheck: 'checks',
      MinHealthyTime: minHealthyMs * 1_000_000,
      HealthyDeadline: 300 * SECOND,
      ProgressDeadline: 600 * SECOND,
      AutoRevert: false,
      AutoPromote: false,
      Canary: 0,
    };
  }
  return job;
}

export const isPeriodic = (job: Job) => isObj(job.Periodic) && job.ParentID === '';
export const isParameterized = (job: Job) => isObj(job.ParameterizedJob) && !job.Dispatched;

/** Fields that do not make a new version when they alone differ. */
const NOT_SPEC = [
  'Status',
  'StatusDescription',
  'Stable',
  'Version',
  'CreateIndex',
  'ModifyIndex',
  'JobModifyIndex',
  'SubmitTime',
  'VersionTag',
  'SchedTokenID',
  'SecretsToken',
  'DiscoveryToken',
];

export function specOf(job: Job): string {
  const c = clone(job);
  for (const k of NOT_SPEC) delete c[k];
  return JSON.stringify(c, Object.keys(flattenKeys(c)).sort());
}

function flattenKeys(o: unknown, acc: Record<string, true> = {}): Record<string, true> {
  if (Array.isArray(o)) {
    for (const v of o) flattenKeys(v, acc);
  } else if (isObj(o))
    for (const [k, v] of Object.entries(o)) {
      acc[k] = true;
      flattenKeys(v, acc);
    }
  return acc;
}

export { clone, isObj };
