/** Legal variants of the auth area (see reference/variants.ts): behaviours the documents allow. */
import { variantsOf, type VariantSpec } from '../../../variants.js';

const v = variantsOf(['auth']);

export const variants: VariantSpec[] = [
];
void v;
