/**
 * Controls of the reference scheduler that the jobs suite uses where the document gives no
 * deterministic way (see the top of reference/scheduler/sim.ts): the reference implements them,
 * the suite names them, and neither imports the other. Tests that need them skip on other targets
 * unless `capabilities.schedControl` says the target has them.
 */

/** Job meta key that keeps the job's deployment running until a newer version or a stop. */
export const HOLD_DEPLOYMENT_META = 'ref.hold-deployment';
