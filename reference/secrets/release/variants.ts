/** Legal variants of the release area (see reference/variants.ts): behaviours the documents allow. */
import { variantsOf, type VariantSpec } from '../../variants.js';

const v = variantsOf(['release']);

export const variants: VariantSpec[] = [
];
void v;
