import type { FaultSpec } from '../../../faults.js';

export const faults: FaultSpec[] = [];
