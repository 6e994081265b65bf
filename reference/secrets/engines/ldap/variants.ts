/** Legal variants of the ldap area (see reference/variants.ts): behaviours the documents allow. */
import { variantsOf, type VariantSpec } from '../../../variants.js';

const v = variantsOf(['ldap']);

export const variants: VariantSpec[] = [
];
void v;
