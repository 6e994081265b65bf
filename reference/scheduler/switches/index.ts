/**
 * Every switch of the reference scheduler, declared once where it takes effect (see
 * reference/switches.ts), in one table split by the parts of the API it breaks: jobs.ts (jobs and
 * their versions), scheduling.ts, access.ts (ACLs, action stream, wire), resources.ts (the
 * resources' fields), endpoints.ts (the endpoint table, the /v1 prefix), parameters-jobs.ts and
 * parameters-scheduling.ts (the parameters and responses), clauses-*.ts (one fault per clause of the
 * statement inventory the faults above leave unbroken, built with edits.ts), then the legal variants (variants.ts,
 * parameter-variants.ts). Table order is the order of application: faults first, so a variant wraps the
 * rule a fault left. Nothing else in the reference scheduler names a switch.
 */
import type { Faults } from '../../faults.js';
import { rewritesWith, rulesWith } from '../../switches.js';
import type { Variants } from '../../variants.js';
import type { Wire } from '../http.js';
import { documented, type SchedulerRules } from '../rules.js';
import { accessSwitches } from './access.js';
import { clauseAnswerSwitches } from './clauses-answers.js';
import { clauseJobSwitches } from './clauses-job.js';
import { clauseListSwitches } from './clauses-lists.js';
import { clauseResponseSwitches } from './clauses-responses.js';
import { clauseRuleSwitches } from './clauses-rules.js';
import { clauseTaskSwitches } from './clauses-task.js';
import { endpointSwitches } from './endpoints.js';
import { jobSwitches } from './jobs.js';
import { parameterJobSwitches } from './parameters-jobs.js';
import { parameterSchedulingSwitches } from './parameters-scheduling.js';
import { parameterVariantSwitches } from './parameter-variants.js';
import { resourceSwitches } from './resources.js';
import { schedulingSwitches } from './scheduling.js';
import { variantSwitches } from './variants.js';

export const schedulerSwitches = [
  ...jobSwitches,
  ...schedulingSwitches,
  ...accessSwitches,
  ...resourceSwitches,
  ...endpointSwitches,
  ...parameterJobSwitches,
  ...parameterSchedulingSwitches,
  ...clauseJobSwitches,
  ...clauseTaskSwitches,
  ...clauseListSwitches,
  ...clauseAnswerSwitches,
  ...clauseResponseSwitches,
  ...clauseRuleSwitches,
  ...variantSwitches,
  ...parameterVariantSwitches,
];

/** The rules of a reference scheduler with these switches on. */
export function schedulerRules(faults: Faults, variants: Variants): SchedulerRules {
  return rulesWith(documented, { faults, variants }, schedulerSwitches);
}

/** The rewriting of every answer by the wire-level switches on. */
export function schedulerWire(faults: Faults, variants: Variants): (w: Wire) => Wire {
  return rewritesWith({ faults, variants }, schedulerSwitches);
}
