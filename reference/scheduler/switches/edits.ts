/**
 * What the clause faults of the jobs area (clauses-*.ts) are made of: a field an answer leaves out
 * or writes in another form, a field the scheduler's decoder drops from a job definition before it
 * is stored, and a rule that remembers the last value a request gave (a default lost after a later
 * request omits it). Each builds one fault's declaration: the requirement it breaks, the statement
 * (clause) of the documents it breaks, a description, and its effect on ../rules.ts.
 */
import { clone, isObj, type Job } from '../job.js';
import type { SchedulerRules } from '../rules.js';

export interface ClauseFault {
  breaks: string;
  statements: string[];
  description: string;
  replace: (r: SchedulerRules) => Partial<SchedulerRules>;
}

/**
 * One fault of a clause table: its name and declaration. A table declares its faults as a list of
 * these mapped through `fault` once, so the table adds one switch type, not one per fault (the
 * registry's union of every area's switches stays within what the type checker represents).
 */
export const clause = <const N extends string>(name: N, declaration: ClauseFault) => [name, declaration] as const;

/** The answer of `endpoint` (the document's `METHOD /path`) changed by `change`, given a copy. */
export const answered =
  (endpoint: string, change: (body: Job) => Job) =>
  (r: SchedulerRules): Partial<SchedulerRules> => ({
    endpointAnswer: (e, body) => {
      const out = r.endpointAnswer(e, body);
      return e === endpoint && out !== null && typeof out === 'object' ? change(clone(out) as Job) : out;
    },
  });

/** `change` applied to every element of a list answer. */
export const each = (change: (item: Job) => Job) => (list: Job) =>
  Array.isArray(list) ? list.map((x) => (isObj(x) ? change(x) : x)) : list;

export const without = (o: Job, ...fields: string[]): Job => {
  for (const f of fields) delete o[f];
  return o;
};

export const groupsOf = (job: Job): Job[] => (Array.isArray(job?.TaskGroups) ? job.TaskGroups.filter(isObj) : []);
export const tasksOf = (job: Job): Job[] =>
  groupsOf(job).flatMap((g) => (Array.isArray(g.Tasks) ? g.Tasks.filter(isObj) : []));

/** A fault on `endpoint`'s answer: `change` rewrites it (a copy; the stored state stays). */
export const onAnswer = (
  endpoint: string,
  breaks: string,
  statements: string[],
  description: string,
  change: (body: Job) => Job,
): ClauseFault => ({ breaks, statements, description, replace: answered(endpoint, change) });

/** A fault that leaves `field` out of `endpoint`'s answer (each item of a list answer). */
export const dropped = (endpoint: string, field: string, breaks: string, statement: string): ClauseFault =>
  onAnswer(endpoint, breaks, [statement], `${endpoint} answers without ${field}`, (body) =>
    Array.isArray(body) ? (each((x) => without(x, field))(body) as Job) : without(body, field),
  );

/** A fault on the job definitions the scheduler decodes from requests (register, update, plan). */
export const decoding = (
  breaks: string,
  statements: string[],
  description: string,
  change: (job: Job) => void,
): ClauseFault => ({
  breaks,
  statements,
  description,
  replace: (r) => ({
    decodedJob: (job: Job) => {
      const out = r.decodedJob(job);
      change(out);
      return out;
    },
  }),
});

/** The scheduler's decoder drops `field` of the job (`at`: the job, each group or each task). */
export const decoderDrops = (
  at: 'job' | 'group' | 'task',
  field: string,
  breaks: string,
  statement: string,
): ClauseFault =>
  decoding(
    breaks,
    [statement],
    `the scheduler drops the ${at} field ${field} of a job submitted (not stored)`,
    (job) => {
      const targets = at === 'job' ? [job] : at === 'group' ? groupsOf(job) : tasksOf(job);
      for (const o of targets) delete o[field];
    },
  );

/** The scheduler's decoder keeps only the first item of the list `field` (`at`: job, groups or tasks). */
export const decoderKeepsFirst = (
  at: 'job' | 'group' | 'task',
  field: string,
  breaks: string,
  statement: string,
): ClauseFault =>
  decoding(breaks, [statement], `the scheduler keeps only the first item of the ${at} field ${field}`, (job) => {
    const targets = at === 'job' ? [job] : at === 'group' ? groupsOf(job) : tasksOf(job);
    for (const o of targets) if (Array.isArray(o[field])) o[field] = o[field].slice(0, 1);
  });

/** The scheduler's decoder drops `field` of the `block` sub-structure of every task. */
export const decoderDropsInTask = (block: string, field: string, breaks: string, statement: string): ClauseFault =>
  decoding(breaks, [statement], `the scheduler drops ${field} of every task's ${block} (not stored)`, (job) => {
    for (const t of tasksOf(job)) {
      const b = t[block];
      for (const o of Array.isArray(b) ? b : [b]) if (isObj(o)) delete o[field];
    }
  });

/** The job read (`GET /v1/job/:job_id`) with `change` applied to each task group, or each task. */
export const readGroups = (change: (g: Job) => void) => (job: Job) => {
  for (const g of groupsOf(job)) change(g);
  return job;
};
export const readTasks = (change: (t: Job) => void) => (job: Job) => {
  for (const t of tasksOf(job)) change(t);
  return job;
};

/**
 * A value a request gave, remembered by the scheduler and used when a later request omits it (a
 * default lost after a later write): `given` is the request's value (undefined when omitted).
 */
export function remembering<T>(): (given: T | undefined) => T | undefined {
  let last: T | undefined;
  return (given) => {
    if (given !== undefined) last = given;
    return given ?? last;
  };
}

/** A field name as a statement id's tail: `ClientStatus` → `client-status`. */
export const slug = (f: string) =>
  f
    .replace(/(?<=[a-z0-9])([A-Z])/g, '-$1')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1-$2')
    .toLowerCase();

/** Every object of `record` (keyed by group) with `field` left out. */
export const inEachGroup = (record: unknown, field: string) => {
  for (const v of Object.values(isObj(record) ? record : {})) if (isObj(v)) delete v[field];
};
