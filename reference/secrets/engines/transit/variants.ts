/** Legal variants of the transit area (see reference/variants.ts): behaviours the documents allow. */
import { variantsOf, type VariantSpec } from '../../../variants.js';

const v = variantsOf(['transit']);

export const variants: VariantSpec[] = [
];
void v;
