/**
 * Helpers of the switch tables of the parameters and responses (parameters-*.ts): a switch that
 * changes one route's answer, or makes one route act in the default namespace whatever the request
 * names. Routes are named as the router names them (`GET /v1/job/*id/versions`, router.ts routeKey).
 */
import { clone, isObj, type Job } from '../job.js';
import type { SchedulerRules } from '../rules.js';

/** The rules with `route`'s answer passed through `change` (a copy: the store is never touched). */
export const answering =
  (route: string, change: (body: unknown) => unknown) =>
  (r: SchedulerRules): Partial<SchedulerRules> => ({
    answer: (key, body) => {
      const out = r.answer(key, body);
      return key === route ? change(clone(out as Job)) : out;
    },
  });

/** The rules with `route`'s object answer passed through `change`. */
export const answeringObject = (route: string, change: (body: Job) => unknown) =>
  answering(route, (body) => (isObj(body) ? change(body) : body));

/** The rules with `route`'s empty list answered `null` (a nil slice marshalled as is). */
export const nullWhenEmpty = (route: string) =>
  answering(route, (body) => (Array.isArray(body) && body.length === 0 ? null : body));

/** The rules with `route` acting in namespace default whatever the request's namespace parameter. */
export const inDefaultNamespace =
  (route: string) =>
  (r: SchedulerRules): Partial<SchedulerRules> => ({
    requestNamespace: (key, namespace) => (key === route ? 'default' : r.requestNamespace(key, namespace)),
  });

/** Every field diff of a job diff (job, group, task and object levels), to change in place. */
export function fieldDiffsOf(diff: Job | null | undefined): Job[] {
  if (!isObj(diff)) return [];
  const out: Job[] = [...(Array.isArray(diff.Fields) ? diff.Fields : [])];
  for (const k of ['Objects', 'TaskGroups', 'Tasks'])
    for (const d of Array.isArray(diff[k]) ? diff[k] : []) out.push(...fieldDiffsOf(d));
  return out;
}
