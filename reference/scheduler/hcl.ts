/**
 * POST /v1/jobs/parse: a job in the configuration language to the JSON job definition. The text
 * is parsed by a real HCL parser (@cdktf/hcl2json); this module assembles the API's job from the
 * parsed blocks (each block's mapping: hcl-blocks.ts) and replaces `${var.x}` with variable values.
 */
import { badRequest } from './errors.js';
import { canonicalize, clone, isObj, type Job } from './job.js';
import { checkJobTypes } from './job-checks.js';
import {
  affinity,
  bodies,
  body,
  constraint,
  generic,
  group,
  labelled,
  migrate,
  pascal,
  reschedule,
  spread,
  stringMap,
  update,
  type Obj,
} from './hcl-blocks.js';

/** Every top-level field of a job the way an unset pointer renders (null), as the parse response shows. */
const JOB_FIELDS = [
  'Region',
  'Namespace',
  'ID',
  'ParentID',
  'Name',
  'Type',
  'Priority',
  'AllAtOnce',
  'Datacenters',
  'NodePool',
  'Constraints',
  'Affinities',
  'Spreads',
  'TaskGroups',
  'Update',
  'Multiregion',
  'Periodic',
  'ParameterizedJob',
  'Payload',
  'Reschedule',
  'Migrate',
  'Meta',
  'Stop',
  'Stable',
  'Status',
  'StatusDescription',
  'Version',
  'SubmitTime',
  'CreateIndex',
  'ModifyIndex',
  'JobModifyIndex',
  'Dispatched',
];

export function hclJobToApi(parsed: Obj): Job {
  const jobs = labelled(parsed.job);
  if (jobs.length !== 1) throw badRequest(`Failed to parse job: expected exactly one job block, found ${jobs.length}`);
  const [id, b] = jobs[0]!;
  const job: Job = Object.fromEntries(JOB_FIELDS.map((k) => [k, null]));
  job.ID = id;
  job.Name = id;
  for (const [k, v] of Object.entries(b)) {
    switch (k) {
      case 'meta':
        job.Meta = stringMap(v);
        break;
      case 'constraint':
        job.Constraints = bodies(v).map(constraint);
        break;
      case 'affinity':
        job.Affinities = bodies(v).map(affinity);
        break;
      case 'spread':
        job.Spreads = bodies(v).map(spread);
        break;
      case 'update':
        job.Update = update(body(v));
        break;
      case 'reschedule':
        job.Reschedule = reschedule(body(v));
        break;
      case 'migrate':
        job.Migrate = migrate(body(v));
        break;
      case 'group':
        job.TaskGroups = labelled(v).map(([n, g]) => group(n, g));
        break;
      case 'periodic': {
        const p = body(v);
        job.Periodic = {
          Enabled: p.enabled ?? true,
          Spec: p.cron ?? p.crons ?? '',
          SpecType: 'cron',
          ProhibitOverlap: p.prohibit_overlap ?? false,
          TimeZone: p.time_zone ?? 'UTC',
        };
        break;
      }
      case 'parameterized': {
        const p = body(v);
        job.ParameterizedJob = {
          Payload: p.payload ?? 'optional',
          MetaRequired: p.meta_required ?? null,
          MetaOptional: p.meta_optional ?? null,
        };
        break;
      }
      case 'multiregion':
        job.Multiregion = generic(body(v), []);
        break;
      default:
        job[pascal(k)] = v;
    }
  }
  return job;
}

/** Replaces `${var.name}`; a string that is exactly one reference takes the variable's own type. */
function substitute(v: unknown, vars: Map<string, unknown>): unknown {
  if (typeof v === 'string') {
    const whole = /^\$\{\s*var\.([A-Za-z_][A-Za-z0-9_-]*)\s*\}$/.exec(v);
    if (whole) return lookup(whole[1]!, vars);
    return v.replace(/\$\{\s*var\.([A-Za-z_][A-Za-z0-9_-]*)\s*\}/g, (_m, name: string) => String(lookup(name, vars)));
  }
  if (Array.isArray(v)) return v.map((x) => substitute(x, vars));
  if (isObj(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, substitute(x, vars)]));
  return v;
}

function lookup(name: string, vars: Map<string, unknown>): unknown {
  if (!vars.has(name))
    throw badRequest(`Failed to parse job: Unset variable "${name}": a value for the variable is required`);
  return vars.get(name);
}

async function hcl(file: string, text: string): Promise<Obj> {
  // Loaded on the first parse: importing the parser unpacks and starts its WebAssembly module, a
  // tenth of a second the reference's start-up (and every run that parses no HCL) need not pay.
  const { parse } = await import('@cdktf/hcl2json');
  try {
    return (await parse(file, text)) as Obj;
  } catch (err) {
    throw badRequest(`Failed to parse job: ${(err as Error).message.replace(/^parse config: /, '')}`);
  }
}

export interface ParseRequest {
  JobHCL: string;
  Canonicalize: boolean;
  Variables: string;
}

export async function parseJobHcl(req: ParseRequest): Promise<Job> {
  const parsed = await hcl('input.hcl', req.JobHCL);
  const vars = new Map<string, unknown>();
  for (const [name, decl] of labelled(parsed.variable)) if (decl.default !== undefined) vars.set(name, decl.default);
  if (req.Variables.trim()) {
    const given = await hcl('input.vars.hcl', req.Variables);
    for (const [k, v] of Object.entries(given)) vars.set(k, v);
  }
  const job = hclJobToApi(substitute(parsed, vars) as Obj);
  try {
    checkJobTypes(job);
  } catch (err) {
    throw badRequest(`Failed to parse job: ${(err as Error).message}`);
  }
  return req.Canonicalize ? canonicalize(clone(job)) : job;
}
