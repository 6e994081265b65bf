/**
 * The robustness suite's entry point into the harness: the request planner, the property runner,
 * the judges of an answer, the generated requirement ids, the spec registry they work from, and the
 * bounded pool and lanes its rules run in.
 */
export {
  baseBody,
  baseQuery,
  casesOf,
  fullBody,
  planOperation,
  type Case,
  type OperationPlan,
  type Rule,
} from './plan.js';
export { invalidMutations } from './invalid.js';
export { boundaryMutations } from './boundary.js';
export {
  describeFinding,
  exchangeOf,
  runRule,
  send,
  type Finding,
  type RuleResult,
  type SentRequest,
  type Sender,
} from './runner.js';
export { entryKeys, firstDifference, judgeBoundary, judgeInvalid, observed } from './judge.js';
export { JobPool, type PoolJob, type Settled } from './pool.js';
export { compareOperations, laneJobs, type LaneItem } from './lanes.js';
export { groupOf, requirementId } from './catalogue.js';
export { specRegistry, type Operation } from '../spec/registry.js';
