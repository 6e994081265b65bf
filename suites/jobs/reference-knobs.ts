/**
 * Knobs of the reference scheduler the suite uses where the document gives no deterministic way
 * (see the top of reference/scheduler/sim.ts). Tests that need them skip on other targets unless
 * `capabilities.schedControl` says the target has them.
 */

/** Job meta key that keeps the job's deployment running until a newer version or a stop. */
export const HOLD_DEPLOYMENT_META = 'ref.hold-deployment';
