/** Legal variants of the core area (see reference/variants.ts): behaviours the documents allow. */
import { variantsOf, type VariantSpec } from '../variants.js';

const v = variantsOf(['core']);

export const variants: VariantSpec[] = [
];
void v;
