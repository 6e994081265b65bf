/** Legal variants of the cloud area (see reference/variants.ts): behaviours the documents allow. */
import { variantsOf, type VariantSpec } from '../../../variants.js';

const v = variantsOf(['cloud']);

export const variants: VariantSpec[] = [
];
void v;
