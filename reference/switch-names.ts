/** The union of every declared switch name: `Faults.has` and `Variants.has` accept nothing else. */
import type { allFaults } from './fault-registry.js';
import type { allVariants } from './variant-registry.js';

export type FaultName = (typeof allFaults)[number]['name'];
export type VariantName = (typeof allVariants)[number]['name'];
