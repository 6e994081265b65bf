/**
 * The checks of a job submitted to the reference scheduler, as the real scheduler makes them:
 * JSON types where the API fixes one (its typed decoder), durations as integer nanoseconds, and the
 * validation of a canonical job (IDs, type, priority, namespace, groups, tasks, restart policy,
 * periodic spec through the same cron library that fires launches). Each failure is a 400.
 */
import { Cron } from 'croner';
import { badRequest } from './errors.js';
import { isObj, JOB_TYPES, type Job } from './job.js';

/** Paths (relative to job, group, task, service check) whose values are nanosecond integers. */
const DURATIONS: Record<string, string[]> = {
  group: ['ShutdownDelay', 'MaxClientDisconnect', 'StopAfterClientDisconnect'],
  task: ['KillTimeout', 'ShutdownDelay'],
  restart: ['Interval', 'Delay'],
  reschedule: ['Interval', 'Delay', 'MaxDelay'],
  update: ['Stagger', 'MinHealthyTime', 'HealthyDeadline', 'ProgressDeadline'],
  migrate: ['MinHealthyTime', 'HealthyDeadline'],
  template: ['Splay'],
  check: ['Interval', 'Timeout'],
};

function checkDurations(o: unknown, kind: keyof typeof DURATIONS, where: string): void {
  if (!isObj(o)) return;
  for (const k of DURATIONS[kind]!) {
    const v = o[k];
    if (v !== undefined && v !== null && !(typeof v === 'number' && Number.isInteger(v))) {
      throw badRequest(`${where}.${k}: durations are integer nanoseconds, got ${JSON.stringify(v)}`);
    }
  }
}

/** Rejects duration fields that are not integers (the real scheduler's JSON decoder does too). */
export function checkJobDurations(job: Job): void {
  checkDurations(job.Update, 'update', 'Job.Update');
  checkDurations(job.Reschedule, 'reschedule', 'Job.Reschedule');
  checkDurations(job.Migrate, 'migrate', 'Job.Migrate');
  for (const [gi, g] of (Array.isArray(job.TaskGroups) ? job.TaskGroups : []).entries()) {
    const gw = `Job.TaskGroups[${gi}]`;
    checkDurations(g, 'group', gw);
    if (!isObj(g)) continue;
    checkDurations(g.RestartPolicy, 'restart', `${gw}.RestartPolicy`);
    checkDurations(g.ReschedulePolicy, 'reschedule', `${gw}.ReschedulePolicy`);
    checkDurations(g.Update, 'update', `${gw}.Update`);
    checkDurations(g.Migrate, 'migrate', `${gw}.Migrate`);
    for (const s of Array.isArray(g.Services) ? g.Services : [])
      for (const c of isObj(s) && Array.isArray(s.Checks) ? s.Checks : [])
        checkDurations(c, 'check', `${gw}.Services.Checks`);
    for (const [ti, t] of (Array.isArray(g.Tasks) ? g.Tasks : []).entries()) {
      const tw = `${gw}.Tasks[${ti}]`;
      checkDurations(t, 'task', tw);
      if (!isObj(t)) continue;
      checkDurations(t.RestartPolicy, 'restart', `${tw}.RestartPolicy`);
      for (const tpl of Array.isArray(t.Templates) ? t.Templates : [])
        checkDurations(tpl, 'template', `${tw}.Templates`);
      for (const s of Array.isArray(t.Services) ? t.Services : [])
        for (const c of isObj(s) && Array.isArray(s.Checks) ? s.Checks : [])
          checkDurations(c, 'check', `${tw}.Services.Checks`);
    }
  }
}

/** Cron check through the same library that fires periodic launches. */
export function validCron(spec: string, timezone?: string): boolean {
  try {
    const c = new Cron(spec, { paused: true, timezone: timezone || undefined });
    c.stop();
    return true;
  } catch {
    return false;
  }
}

const MIN_RESTART_INTERVAL_NS = 5 * 1_000_000_000;

/**
 * The real scheduler's restart policy rules: a known mode, no "delay" mode without attempts (it
 * would be ambiguous), an interval of at least 5 s, and room for Attempts x Delay in the interval.
 */
function restartPolicyErrors(r: Job, group: string): string[] {
  const errs: string[] = [];
  const attempts = typeof r.Attempts === 'number' ? r.Attempts : 0;
  const interval = typeof r.Interval === 'number' ? r.Interval : 0;
  const delay = typeof r.Delay === 'number' ? r.Delay : 0;
  if (r.Mode !== 'delay' && r.Mode !== 'fail')
    errs.push(`Task group ${group}: Unsupported restart mode: ${JSON.stringify(r.Mode)}`);
  else if (attempts === 0 && r.Mode !== 'fail')
    errs.push(`Task group ${group}: Restart policy "${r.Mode}" with ${attempts} attempts is ambiguous`);
  if (interval < MIN_RESTART_INTERVAL_NS)
    errs.push(`Task group ${group}: Interval can not be less than 5s (got ${interval} ns)`);
  else if (attempts * delay > interval)
    errs.push(
      `Task group ${group}: cannot restart ${attempts} times in an interval of ${interval} ns with a delay of ${delay} ns`,
    );
  return errs;
}

/** The validation errors of a canonical job, joined the way the real scheduler reports them. */
export function validateJob(job: Job): void {
  const errs: string[] = [];
  if (typeof job.ID !== 'string' || job.ID === '') errs.push('Missing job ID');
  else if (/\s/.test(job.ID)) errs.push('Job ID contains a space');
  else if (job.ID.includes('\u0000')) errs.push('Job ID contains a null character');
  if (typeof job.Name !== 'string' || job.Name === '') errs.push('Missing job name');
  if (!JOB_TYPES.includes(job.Type)) errs.push(`Invalid job type: ${JSON.stringify(job.Type)}`);
  if (typeof job.Priority !== 'number' || !Number.isInteger(job.Priority) || job.Priority < 1 || job.Priority > 100)
    errs.push('Job priority must be between [1, 100]');
  if (typeof job.Namespace !== 'string' || !/^[a-zA-Z0-9-]{1,128}$/.test(job.Namespace))
    errs.push(`Invalid namespace ${JSON.stringify(job.Namespace)}`);
  if (job.Meta !== null && (!isObj(job.Meta) || Object.values(job.Meta).some((v) => typeof v !== 'string')))
    errs.push('Job Meta must be a map of strings');
  const groups = Array.isArray(job.TaskGroups) ? job.TaskGroups : [];
  if (groups.length === 0) errs.push('Missing job task groups');
  const seen = new Map<string, number>();
  groups.forEach((g: unknown, i: number) => {
    if (!isObj(g)) {
      errs.push(`Task group ${i + 1} is not an object`);
      return;
    }
    const name = g.Name;
    if (typeof name !== 'string' || name === '') errs.push(`Job task group ${i + 1} missing name`);
    else if (seen.has(name)) errs.push(`Job task group ${i + 1} redefines '${name}' from group ${seen.get(name)! + 1}`);
    else seen.set(name, i);
    if (typeof g.Count !== 'number' || !Number.isInteger(g.Count) || g.Count < 0)
      errs.push(`Task group ${String(name)} count can't be negative`);
    if (isObj(g.RestartPolicy)) errs.push(...restartPolicyErrors(g.RestartPolicy, String(name)));
    const tasks = Array.isArray(g.Tasks) ? g.Tasks : [];
    if (tasks.length === 0) errs.push(`Task group ${String(name)}: Missing tasks for task group`);
    const taskNames = new Set<string>();
    tasks.forEach((t: unknown, ti: number) => {
      if (!isObj(t)) {
        errs.push(`Task ${ti + 1} is not an object`);
        return;
      }
      if (typeof t.Name !== 'string' || t.Name === '')
        errs.push(`Task ${ti + 1} in group ${String(name)} missing name`);
      else if (taskNames.has(t.Name)) errs.push(`Task ${ti + 1} redefines '${t.Name}'`);
      else taskNames.add(t.Name);
      if (typeof t.Driver !== 'string' || t.Driver === '') errs.push(`Task ${String(t.Name)}: Missing task driver`);
      for (const a of Array.isArray(t.Actions) ? t.Actions : []) {
        if (!isObj(a) || typeof a.Name !== 'string' || !a.Name || typeof a.Command !== 'string' || !a.Command)
          errs.push(`Task ${String(t.Name)}: actions need a Name and a Command`);
      }
    });
  });
  if (isObj(job.Periodic) && job.Periodic.Enabled) {
    if (job.Type !== 'batch' && job.Type !== 'sysbatch')
      errs.push(`Periodic can only be used with "batch" or "sysbatch" scheduler`);
    if (job.Periodic.SpecType !== 'cron')
      errs.push(`Unknown periodic specification type ${JSON.stringify(job.Periodic.SpecType)}`);
    else if (typeof job.Periodic.Spec !== 'string' || !validCron(job.Periodic.Spec, job.Periodic.TimeZone))
      errs.push(`Invalid cron spec ${JSON.stringify(job.Periodic.Spec)}`);
  }
  if (isObj(job.ParameterizedJob) && !job.Dispatched) {
    if (job.Type !== 'batch' && job.Type !== 'sysbatch')
      errs.push(`Parameterized job can only be used with "batch" or "sysbatch" scheduler`);
    const p = job.ParameterizedJob;
    if (!['optional', 'required', 'forbidden'].includes(p.Payload))
      errs.push(`Unknown payload requirement: ${JSON.stringify(p.Payload)}`);
    const req: unknown[] = Array.isArray(p.MetaRequired) ? p.MetaRequired : [];
    const opt: unknown[] = Array.isArray(p.MetaOptional) ? p.MetaOptional : [];
    const both = req.filter((k) => opt.includes(k));
    if (both.length)
      errs.push(`Required and optional meta keys should be disjoint. Following keys exist in both: ${both.join(', ')}`);
  }
  if (errs.length)
    throw badRequest(
      errs.length === 1 ? errs[0]! : `${errs.length} errors occurred:\n${errs.map((e) => `\t* ${e}`).join('\n')}`,
    );
}

/**
 * Rejects values of the wrong JSON type where the API fixes one (the real scheduler's typed JSON
 * decoder answers those with 400). Unknown fields stay allowed.
 */
export function checkJobTypes(job: Job): void {
  const fail = (where: string, want: string) => {
    throw badRequest(`${where}: expected ${want}`);
  };
  const str = (o: Job, k: string, w: string) => {
    if (o[k] !== undefined && o[k] !== null && typeof o[k] !== 'string') fail(`${w}.${k}`, 'a string');
  };
  const int = (o: Job, k: string, w: string) => {
    if (o[k] !== undefined && o[k] !== null && !(typeof o[k] === 'number' && Number.isInteger(o[k])))
      fail(`${w}.${k}`, 'an integer');
  };
  const bool = (o: Job, k: string, w: string) => {
    if (o[k] !== undefined && o[k] !== null && typeof o[k] !== 'boolean') fail(`${w}.${k}`, 'a boolean');
  };
  const obj = (o: Job, k: string, w: string) => {
    if (o[k] !== undefined && o[k] !== null && !isObj(o[k])) fail(`${w}.${k}`, 'an object');
  };
  const strMap = (o: Job, k: string, w: string) => {
    obj(o, k, w);
    if (isObj(o[k]) && Object.values(o[k]).some((v) => typeof v !== 'string')) fail(`${w}.${k}`, 'a map of strings');
  };
  const strList = (o: Job, k: string, w: string) => {
    if (o[k] === undefined || o[k] === null) return;
    if (!Array.isArray(o[k]) || o[k].some((v: unknown) => typeof v !== 'string'))
      fail(`${w}.${k}`, 'a list of strings');
  };
  const objList = (o: Job, k: string, w: string): Job[] => {
    if (o[k] === undefined || o[k] === null) return [];
    if (!Array.isArray(o[k]) || o[k].some((v: unknown) => !isObj(v))) fail(`${w}.${k}`, 'a list of objects');
    return o[k] as Job[];
  };
  for (const k of ['Region', 'Namespace', 'ID', 'ParentID', 'Name', 'Type', 'NodePool']) str(job, k, 'Job');
  int(job, 'Priority', 'Job');
  // Indexes and the version are unsigned in the real scheduler: a negative one does not decode.
  const uint = (o: Job, k: string, w: string) => {
    int(o, k, w);
    if (typeof o[k] === 'number' && o[k] < 0) fail(`${w}.${k}`, 'a non-negative integer');
  };
  for (const k of ['Version', 'CreateIndex', 'ModifyIndex', 'JobModifyIndex']) uint(job, k, 'Job');
  int(job, 'SubmitTime', 'Job');
  for (const k of [
    'Payload',
    'Status',
    'StatusDescription',
    'SecretsToken',
    'SecretsNamespace',
    'DiscoveryToken',
    'SchedTokenID',
  ])
    str(job, k, 'Job');
  for (const k of ['Stable', 'AllAtOnce', 'Stop', 'Dispatched']) bool(job, k, 'Job');
  strList(job, 'Datacenters', 'Job');
  strMap(job, 'Meta', 'Job');
  for (const k of ['Update', 'Periodic', 'ParameterizedJob', 'Reschedule', 'Migrate', 'Multiregion'])
    obj(job, k, 'Job');
  for (const k of ['Constraints', 'Affinities', 'Spreads']) objList(job, k, 'Job');
  if (isObj(job.Periodic)) {
    str(job.Periodic, 'Spec', 'Job.Periodic');
    str(job.Periodic, 'SpecType', 'Job.Periodic');
    bool(job.Periodic, 'Enabled', 'Job.Periodic');
    bool(job.Periodic, 'ProhibitOverlap', 'Job.Periodic');
  }
  if (isObj(job.ParameterizedJob)) {
    str(job.ParameterizedJob, 'Payload', 'Job.ParameterizedJob');
    strList(job.ParameterizedJob, 'MetaRequired', 'Job.ParameterizedJob');
    strList(job.ParameterizedJob, 'MetaOptional', 'Job.ParameterizedJob');
  }
  if (isObj(job.Update)) {
    int(job.Update, 'MaxParallel', 'Job.Update');
  }
  objList(job, 'TaskGroups', 'Job').forEach((g, gi) => {
    const gw = `Job.TaskGroups[${gi}]`;
    str(g, 'Name', gw);
    int(g, 'Count', gw);
    strMap(g, 'Meta', gw);
    for (const k of ['Update', 'RestartPolicy', 'ReschedulePolicy', 'EphemeralDisk', 'Migrate', 'Scaling', 'Volumes'])
      obj(g, k, gw);
    for (const k of ['Constraints', 'Affinities', 'Spreads', 'Networks']) objList(g, k, gw);
    objList(g, 'Services', gw).forEach((s, si) => {
      str(s, 'Name', `${gw}.Services[${si}]`);
      strList(s, 'Tags', `${gw}.Services[${si}]`);
    });
    if (isObj(g.Update)) int(g.Update, 'MaxParallel', `${gw}.Update`);
    objList(g, 'Tasks', gw).forEach((t, ti) => {
      const tw = `${gw}.Tasks[${ti}]`;
      for (const k of ['Name', 'Driver', 'User', 'KillSignal', 'Kind']) str(t, k, tw);
      obj(t, 'Config', tw);
      strMap(t, 'Env', tw);
      strMap(t, 'Meta', tw);
      for (const k of ['Resources', 'RestartPolicy', 'LogConfig', 'Lifecycle', 'DispatchPayload', 'Vault'])
        obj(t, k, tw);
      if (isObj(t.Resources))
        for (const k of ['CPU', 'MemoryMB', 'MemoryMaxMB', 'Cores', 'DiskMB']) int(t.Resources, k, `${tw}.Resources`);
      for (const k of ['Templates', 'Artifacts', 'Constraints', 'Affinities', 'VolumeMounts']) objList(t, k, tw);
      objList(t, 'Services', tw).forEach((s, si) => {
        str(s, 'Name', `${tw}.Services[${si}]`);
        strList(s, 'Tags', `${tw}.Services[${si}]`);
      });
      objList(t, 'Actions', tw).forEach((a, ai) => {
        str(a, 'Name', `${tw}.Actions[${ai}]`);
        str(a, 'Command', `${tw}.Actions[${ai}]`);
        strList(a, 'Args', `${tw}.Actions[${ai}]`);
      });
    });
  });
}
