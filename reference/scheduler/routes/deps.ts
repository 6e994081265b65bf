/**
 * What the route modules share: the scheduler's state, the ACL guard, the rules, and the job read
 * from a register or plan body.
 */
import type { Clock } from '../../clock.js';
import type { AclStore } from '../acl.js';
import { badRequest } from '../errors.js';
import type { Ctx } from '../http.js';
import { canonicalize, clone, isObj, type Job, withDefaultUpdate } from '../job.js';
import { checkJobDurations, checkJobTypes, validateJob } from '../job-checks.js';
import type { Guard } from '../router.js';
import type { SchedulerRules } from '../rules.js';
import type { Store } from '../store.js';

export interface Deps {
  store: Store;
  acl: AclStore;
  aclEnabled: boolean;
  guard: Guard;
  clock: Clock;
  rules: SchedulerRules;
}

/** Namespace precedence as in the real scheduler: query, then request body, then the job's own. */
const jobNamespace = (ctx: Ctx, body: Job, job: Job, fallback: string): string => {
  if (ctx.query.get('namespace')) return ctx.namespace;
  if (typeof body.Namespace === 'string' && body.Namespace) return body.Namespace;
  if (typeof job.Namespace === 'string' && job.Namespace) return job.Namespace;
  return fallback;
};

/** Copies, namespaces, canonicalizes and validates a job from a request body. */
export const jobFromBody =
  (
    rules: SchedulerRules,
    messages: { missingJob: string; missingId: string; mismatch: string },
    defaultMinHealthyMs?: number,
  ) =>
  (ctx: Ctx, body: Job, pathId: string): Job => {
    if (!isObj(body.Job)) throw badRequest(messages.missingJob);
    if (typeof body.Job.ID !== 'string' || body.Job.ID === '') throw badRequest(messages.missingId);
    if (pathId && body.Job.ID !== pathId) throw badRequest(messages.mismatch);
    const job = rules.decodedJob(clone(body.Job));
    checkJobTypes(job);
    job.Namespace = jobNamespace(ctx, body, job, rules.defaultNamespace);
    checkJobDurations(job);
    if (rules.defaultUpdateStrategy) withDefaultUpdate(job, defaultMinHealthyMs);
    canonicalize(job);
    validateJob(job);
    return rules.storedJob(job);
  };

export const REGISTER_MESSAGES = {
  missingJob: 'Job must be specified',
  missingId: "Job ID hasn't been provided",
  mismatch: 'Job ID does not match name',
};

/** The actions of a job definition, with the group and task they belong to. */
export const actionsOf = (job: Job): Job[] => {
  const out: Job[] = [];
  for (const g of job.TaskGroups ?? [])
    for (const t of g.Tasks ?? [])
      for (const a of t.Actions ?? []) {
        out.push({ Name: a.Name, Command: a.Command, Args: a.Args ?? null, TaskGroupName: g.Name, TaskName: t.Name });
      }
  return out;
};
