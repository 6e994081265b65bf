/** Legal variants of the jobs area (see reference/variants.ts): behaviours the documents allow. */
import { variantsOf, type VariantSpec } from '../variants.js';

const v = variantsOf(['jobs']);

export const variants: VariantSpec[] = [
];
void v;
