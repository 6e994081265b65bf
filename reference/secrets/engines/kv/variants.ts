/** Legal variants of the kv area (see reference/variants.ts): behaviours the documents allow. */
import { variantsOf, type VariantSpec } from '../../../variants.js';

const v = variantsOf(['kv']);

export const variants: VariantSpec[] = [
];
void v;
